"""Training a network by self-play: the loop behind ``tileworks train``.

An iteration plays ``games`` self-play games ``steps`` decisions further
(each decision a Gumbel search, :mod:`tileworks.learn.selfplay`; a game
that ends starts again at once, so games run across iterations), turns
what they saw into training positions (the search's improved policy; the
game's result, or the network's value where the game goes on past the
iteration), and takes ``epochs`` passes of minibatch Adam steps over them.

A run lives in its folder: ``config.json`` (what is being trained),
``checkpoint.npz`` (everything a run needs to go on: the network, the
optimiser, the self-play games in progress, the random key and the
iteration), written every ``checkpoint_every`` iterations and at the end,
atomically; ``metrics.jsonl`` (a line per iteration, and one per
evaluation); ``network.npz`` and ``network.json`` (the network as the
agents load it, float16, with how it was trained); and ``report.png`` and
``report.md`` (:mod:`tileworks.learn.report`). Running the same command
again on the folder resumes from the last checkpoint; given the same seed,
a resumed run computes exactly what an uninterrupted one does (on the same
machine and JAX).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np
import optax

import tileworks
import tileworks.jax
from tileworks.agents.network import STANDARDISATION, Network, init_board_params, init_params, standardise_globals
from tileworks.learn.evaluate import Result, evaluate_against
from tileworks.learn.report import (describe_anchors, describe_standardised, read_imitation, read_metrics,
                                    read_sittings, read_standardised, trained_on)
from tileworks.learn.selfplay import make_functions, staggered


@dataclass
class TrainConfig:
    """What a run trains, and how. A resumed run keeps every setting that
    changes what is trained; how long it runs, how often it saves, how it is
    evaluated, and how much self-play an iteration does (:data:`ADJUSTABLE`)
    may change between sittings: a run moved to a GPU plays more games side
    by side."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    #: self-play games played side by side, and decisions each per iteration
    games: int = 128
    steps: int = 32
    #: the search at each decision: simulations, and actions Gumbel considers at the root
    simulations: int = 16
    considered: int = 16
    #: candidate actions a search node keeps (0: every action id; see
    #: :mod:`tileworks.learn.selfplay`); by default 0 up to
    #: :data:`DENSE_ACTIONS` action ids, else :data:`SLOTS`
    slots: int | None = None
    #: the network: "board" (convolutions over the game's board layout,
    #: ``Game.board_layout``; the default where the game has one) or "flat"
    #: (the whole observation at once), its width (a board network's
    #: channels a cell; by default 256, or 32 for a board network) and residual blocks
    network: str | None = None
    hidden: int | None = None
    blocks: int = 2
    #: the network's units: "prelu" (every new run), or "relu" (runs started
    #: before 2026-11-27; see :mod:`tileworks.agents.network`). A resumed run keeps its own.
    units: str = "prelu"
    #: learning
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    batch: int = 512
    epochs: int = 1
    value_weight: float = 1.0
    iterations: int = 100
    checkpoint_every: int = 5
    #: evaluation with the NumPy network (the ``net`` agent): every
    #: ``eval_every`` iterations, ``eval_games`` against each of ``opponents``
    eval_every: int = 10
    eval_games: int = 20
    opponents: tuple[str, ...] = ("random", "greedy")
    #: a new run's start by imitation (:mod:`tileworks.learn.imitate`): before
    #: self-play, the network learns ``imitate``'s choices (an agent spec; "" for
    #: none) in ``imitate_games`` games between copies of it, ``imitate_epochs`` passes
    imitate: str = ""
    imitate_games: int = 1000
    imitate_epochs: int = 12
    #: after the imitation, each iteration also learns from ``anchor`` times
    #: as many of the teacher's decisions as it played itself (drawn afresh
    #: each iteration, shuffled in with its own): the teacher's choices as
    #: policy targets and its games' results as value targets, which keep
    #: the policy near what it imitated and the value on real results
    #: (0: self-play alone). It may change between sittings.
    anchor: float = 0.0
    #: a new run's games each start this many random moves at most into a game
    #: (:func:`~tileworks.learn.selfplay.staggered`), so that they do not all
    #: reach the same stage at once; by default twice ``steps``
    stagger: int | None = None

    def __post_init__(self) -> None:
        game = tileworks.load_game(self.game, **self.options)
        self.options = game.options()
        self.opponents = tuple(self.opponents)
        from tileworks.agents import make

        for opponent in self.opponents:
            make(opponent)  # an unknown agent is refused here, not at the first evaluation
        if self.slots is None:
            self.slots = 0 if game.num_distinct_actions() <= DENSE_ACTIONS else SLOTS
        if self.stagger is None:
            self.stagger = 2 * self.steps
        if self.network is None:
            self.network = "flat" if game.board_layout() is None else "board"
        if self.network not in ("board", "flat"):
            raise ValueError(f"network must be 'board' or 'flat', not {self.network!r}")
        if self.network == "board" and game.board_layout() is None:
            raise ValueError(f"{self.game} has no board layout for a board network; train a flat one")
        if self.hidden is None:
            self.hidden = DEFAULT_HIDDEN[self.network]
        for name in ("slots", "stagger"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be at least 0, not {getattr(self, name)}")
        for name in ("games", "steps", "simulations", "considered", "hidden", "blocks", "batch", "epochs",
                     "iterations", "checkpoint_every", "eval_every"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        if self.eval_games < 0:
            raise ValueError("eval_games must be at least 0")
        if self.imitate:
            make(self.imitate)  # an unknown agent is refused here, before anything is made
            for name in ("imitate_games", "imitate_epochs"):
                if getattr(self, name) < 1:
                    raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        if self.anchor < 0:
            raise ValueError(f"anchor must be at least 0, not {self.anchor}")
        if self.anchor and not self.imitate:
            raise ValueError("anchor keeps a run near the agent it imitated: give imitate (e.g. greedy) too")
        if self.units not in ("prelu", "relu"):
            raise ValueError(f"units must be 'prelu' or 'relu', not {self.units!r}")

    def refuse_standardising(self) -> None:
        """Raise where a run with these settings has no numbers to
        standardise on a teacher's decisions (:meth:`Trainer.standardise`)."""
        if self.network != "board":
            raise ValueError("only a board network reads numbers off its board to standardise: this run's is flat")
        if not self.imitate:
            raise ValueError("the numbers are standardised on the imitated agent's decisions: this run imitated none")

    def differs_from(self, other: "TrainConfig") -> list[str]:
        """The settings that change what is trained in which two configs differ."""
        return [f.name for f in fields(self) if f.name not in ADJUSTABLE and getattr(self, f.name) != getattr(other, f.name)]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TrainConfig":
        # a run saved without "units" was started before PReLUs: its network has plain ReLUs (one
        # saved without "network": the Trainer looks in its checkpoint)
        return cls(**{"units": "relu", **data, "opponents": tuple(data["opponents"])})


#: a network's width by default: units a layer (flat), channels a cell (board)
DEFAULT_HIDDEN = {"flat": 256, "board": 32}

#: the most action ids a search keeps a statistic for by default; beyond, :data:`SLOTS` candidates
DENSE_ACTIONS = 4096
SLOTS = 512

#: the adjustable settings that change the data an iteration plays (a change of ``anchor``,
#: which changes what it learns from, or of ``simulations``, how sharp its targets are, is
#: logged beside them)
SELF_PLAY = ("games", "steps")
#: the adjustable settings logged only when they change (the CLI considers up to 16 actions at
#: the root, fewer where there are fewer simulations: more simulations may consider more)
LOGGED_WHEN_CHANGED = ("anchor", "simulations", "considered")
#: settings a resumed run may change: how long it runs, saves and is evaluated, how much
#: self-play an iteration does (games side by side, decisions each), which a sitting on a GPU
#: raises, and how far each decision searches; a change of these or of the anchor is logged in
#: ``metrics.jsonl`` (see :meth:`Trainer.resize`)
ADJUSTABLE = ("iterations", "checkpoint_every", "eval_every", "eval_games", "opponents",
              "stagger",  # (a new run's start, and games added to a resumed one)
              *SELF_PLAY, *LOGGED_WHEN_CHANGED)


@dataclass
class Progress:
    """Where a run is, for a display: after each iteration and each evaluation."""

    iteration: int
    iterations: int
    decisions: int
    games_finished: int
    policy_loss: float
    value_loss: float
    seconds: float
    evaluation: dict[str, float] = field(default_factory=dict)


@lru_cache(maxsize=8)
def compiled_for(game: str, options: tuple[tuple[str, Any], ...], network: str, simulations: int, considered: int,
                 learning_rate: float, weight_decay: float, value_weight: float, slots: int) -> tuple[Any, ...]:
    """A run's environment, board layout, optimiser and jitted functions
    (``make_functions``, and the games' batched ``init``), made once a
    process for all runs with these settings: a trainer made again (a
    resumed run, an evaluation's, a test's several) traces and compiles
    nothing anew."""
    env = tileworks.jax.make(game, **dict(options))
    board = tileworks.load_game(game, **dict(options)).board_layout() if network == "board" else None
    # the standardisation's constants (their gradient is stopped) are not decayed either
    optimiser = optax.adamw(learning_rate, weight_decay=weight_decay,
                            mask=lambda params: {name: name not in STANDARDISATION for name in params})
    play, learn, value_targets = make_functions(env, simulations, considered, optimiser, value_weight, slots, board)
    return env, board, optimiser, play, learn, value_targets, jax.jit(jax.vmap(env.init))


def this_device() -> str:
    """The kind of device JAX trains on here (``cpu``, ``NVIDIA H200``)."""
    return jax.devices()[0].device_kind


class Trainer:
    """One run in ``out``: new, or resumed from its checkpoint."""

    def __init__(self, config: TrainConfig, out: str | Path, command: str = ""):
        self.config, self.out, self.command = config, Path(out), command
        #: set (by a signal handler) to stop after the iteration under way, as a KeyboardInterrupt does at once
        self.stop_requested = False
        self.out.mkdir(parents=True, exist_ok=True)
        saved = self.out / "config.json"
        self.before: TrainConfig | None = None
        if saved.exists():
            raw = json.loads(saved.read_text(encoding="utf-8"))
            self.before = TrainConfig.from_json(raw)
            if "network" not in raw:  # saved before the kind of network was a setting
                self.before.network = self._network_in_checkpoint() or self.before.network
            # the checkpoint's network has the units and the kind it was made with (and a width
            # left to the default of another kind is the run's own)
            if config.network != self.before.network and config.hidden == DEFAULT_HIDDEN[config.network]:
                config.hidden = self.before.hidden
            config.units, config.network = self.before.units, self.before.network
            changed = config.differs_from(self.before)
            if changed:
                raise ValueError(f"{self.out} holds a run with other settings ({', '.join(changed)}); "
                                 "resume it with the same ones, or train into a new folder")
        saved.write_text(json.dumps(asdict(config), indent=1) + "\n", encoding="utf-8")
        (self.env, self.board, self.optimiser, self.play, self.learn, self.value_targets,
         self._init_games) = compiled_for(config.game, tuple(sorted(config.options.items())), config.network,
                                          config.simulations, config.considered, config.learning_rate,
                                          config.weight_decay, config.value_weight, config.slots)
        self._start()

    def _network_in_checkpoint(self) -> str | None:
        """The kind of network a run saved before ``network`` was a setting
        holds: "board" where its checkpoint has a board network's arrays."""
        checkpoint = self.out / "checkpoint.npz"
        if not checkpoint.exists():
            return None
        with np.load(checkpoint) as arrays:
            return "board" if any("globals/w" in name for name in arrays.files) else "flat"

    # -- state ---------------------------------------------------------------------------------
    def _start(self) -> None:
        """A new run's state, then the checkpoint's over it where there is one."""
        config = self.config
        key = jax.random.PRNGKey(config.seed)
        key, games_key = jax.random.split(key)
        rng, sizes = np.random.default_rng(config.seed), (self.env.observation_shape[0], self.env.num_actions)
        if self.board is None:
            params = init_params(rng, *sizes, config.hidden, config.blocks, seats=self.env.num_players,
                                 slopes=config.units == "prelu")
        else:
            params = init_board_params(rng, *sizes, self.board, config.hidden, config.blocks,
                                       seats=self.env.num_players, slopes=config.units == "prelu")
        self.params = jax.tree.map(jnp.asarray, params)
        self.opt_state = self.optimiser.init(self.params)
        self.games = self._init_games(jax.random.split(games_key, config.games))
        self.key = key
        self.iteration = self.decisions = self.finished = 0
        self.seconds = 0.0
        #: whether the run's start by imitation (if it has one) is done
        self.imitated = False
        #: the imitated agent's decisions, once played (for the anchor)
        self._teacher = None
        #: the device that trained the run's last iteration (a run exported elsewhere names it, not the exporter)
        self.device = this_device()
        checkpoint = self.out / "checkpoint.npz"
        if checkpoint.exists():
            self._restore(checkpoint)
            self.resize(games_key)
            if not (self.out / "network.npz").exists():  # a fresh clone: git keeps a run's checkpoint only
                self.export()
        elif config.stagger > 1:
            self.games = self._staggered(self.games, jax.random.fold_in(games_key, 1))
        self._whole = self._kept()

    def _staggered(self, games: Any, key: Any) -> Any:
        if self.config.stagger <= 1:
            return games
        return jax.jit(staggered, static_argnums=(0, 3))(self.env, games, key, self.config.stagger)

    def resize(self, games_key: Any) -> None:
        """A resumed run given other self-play settings (:data:`SELF_PLAY`):
        its games in progress cut to the new number, or joined by new ones,
        started at staggered stages as a new run's are (their key is the
        run's seed and the iteration, so the same commands train the same
        network); the change, and a change of :data:`LOGGED_WHEN_CHANGED`
        (the anchor, the search), is logged in ``metrics.jsonl``."""
        config = self.config
        playing = int(self.games.current_player.shape[0])
        before = self.before or config
        were = {"games": playing, "steps": before.steps}
        settings = {name: getattr(config, name) for name in SELF_PLAY}
        for name in LOGGED_WHEN_CHANGED:
            if getattr(before, name) != getattr(config, name):
                were[name], settings[name] = getattr(before, name), getattr(config, name)
        if settings == were:
            return
        if playing > config.games:
            self.games = jax.tree.map(lambda a: a[:config.games], self.games)
        elif playing < config.games:
            key = jax.random.fold_in(games_key, 2 + self.iteration)
            fresh = self._init_games(jax.random.split(key, config.games - playing))
            fresh = self._staggered(fresh, jax.random.fold_in(key, 1))
            self.games = jax.tree.map(lambda kept, new: jnp.concatenate([kept, new]), self.games, fresh)
        if not any(row["iteration"] == self.iteration for row in read_sittings(self.out)):  # (a resize not yet saved)
            self._log({"iteration": self.iteration, "settings": settings, "were": were,
                       "device": this_device()})

    def _everything(self) -> dict[str, Any]:
        return {"params": self.params, "opt_state": self.opt_state, "games": self.games, "key": self.key}

    def checkpoint(self) -> Path:
        """Write everything the run needs to go on, atomically (a kill mid-write leaves the last one)."""
        leaves = jax.tree_util.tree_flatten_with_path(jax.device_get(self._everything()))[0]
        arrays = {jax.tree_util.keystr(path): np.asarray(leaf) for path, leaf in leaves}
        arrays["__progress__"] = np.asarray([self.iteration, self.decisions, self.finished], dtype=np.int64)
        arrays["__seconds__"] = np.asarray(self.seconds)
        arrays["__imitated__"] = np.asarray(self.imitated)
        arrays["__device__"] = np.asarray(self.device)
        path = self.out / "checkpoint.npz"
        partial = self.out / "checkpoint.partial.npz"
        with open(partial, "wb") as handle:
            np.savez_compressed(handle, **arrays)
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(path)
        self.export()
        return path

    def _restore(self, path: Path) -> None:
        with np.load(path) as arrays:
            # a run started by imitation since 2026-12-07 holds the standardisation of its numbers too
            held = {name: jnp.asarray(arrays[key]) for name in STANDARDISATION
                    if (key := jax.tree_util.keystr((jax.tree_util.DictKey("params"), jax.tree_util.DictKey(name))))
                    in arrays.files}
        if held:
            self.params = {**self.params, **held}
            self.opt_state = self.optimiser.init(self.params)
        template = self._everything()
        with np.load(path) as arrays:
            paths, structure = jax.tree_util.tree_flatten_with_path(template)
            restored = [jnp.asarray(arrays[jax.tree_util.keystr(p)], dtype=leaf.dtype) for p, leaf in paths]
            self.iteration, self.decisions, self.finished = (int(v) for v in arrays["__progress__"])
            self.seconds = float(arrays["__seconds__"])
            self.imitated = bool(arrays["__imitated__"]) if "__imitated__" in arrays.files else False
            self.device = (str(arrays["__device__"]) if "__device__" in arrays.files
                           else trained_on(read_sittings(self.out), self.iteration, self.device))
        everything = jax.tree_util.tree_unflatten(structure, restored)
        self.params, self.opt_state, self.games, self.key = (everything[k] for k in ("params", "opt_state", "games", "key"))
        # the metrics of iterations after the checkpoint were never kept: forget their lines
        metrics = self.out / "metrics.jsonl"
        if metrics.exists():
            rows = [json.loads(line) for line in metrics.read_text(encoding="utf-8").splitlines() if line]
            kept = [row for row in rows if row["iteration"] <= self.iteration
                    and (self.imitated or "imitation" not in row)]
            metrics.write_text("".join(json.dumps(row) + "\n" for row in kept), encoding="utf-8")

    def network(self) -> Network:
        """The current network, as the agents load it, with how it was trained."""
        config = self.config
        about = {
            "game": config.game, "options": config.options, "method": self._method(),
            "command": self.command, "seed": config.seed, "iterations": self.iteration,
            "decisions": self.decisions, "wall_seconds": round(self.seconds, 1),
            "device": self.device, "jax": jax.__version__, "config": asdict(config),
            "observation_size": int(self.env.observation_shape[0]), "actions": int(self.env.num_actions),
        }
        if self.board is not None:
            about["board"] = self.board
        sittings = read_sittings(self.out)
        if sittings:  # where the self-play settings changed, and on which device
            about["sittings"] = sittings
        imitation = read_imitation(self.out) if self.imitated else None
        if imitation:
            about["imitation"] = imitation
        return Network({name: np.asarray(value) for name, value in jax.device_get(self.params).items()}, about)

    def _method(self) -> str:
        method = "Gumbel AlphaZero self-play (mctx)"
        if not self.imitated:
            return method
        config = self.config
        held = describe_anchors(read_sittings(self.out), config.anchor)
        anchored = f", anchored to its decisions ({held})" if held else ""
        standardised = describe_standardised(read_standardised(self.out))
        return (f"imitation of {config.imitate} ({config.imitate_games:,} games), then {method}{anchored}"
                + (f"; {standardised}" if standardised else ""))

    def standardise(self) -> bool:
        """Standardise the numbers off the board of a board run that reads
        them as they are (one started before 2026-12-07), on the imitated
        agent's decisions, keeping every output the network gives
        (:func:`~tileworks.agents.network.standardise_globals` with
        ``keep_outputs``); its optimiser starts afresh. The change is logged
        in ``metrics.jsonl`` and checkpointed. False, changing nothing, where
        they are standardised already, or will be by the run's imitation (a
        new run): the same command resumes the run again."""
        config = self.config
        config.refuse_standardising()
        if STANDARDISATION[0] in self.params or not self.imitated:
            return False
        positions = self._teacher_positions()
        self._standardise_on(positions, keep_outputs=True)
        self._whole = self._kept()
        self._log({"iteration": self.iteration,
                   "standardised": {"teacher": config.imitate, "decisions": len(positions)}})
        self.checkpoint()
        return True

    def _standardise_on(self, positions: Any, keep_outputs: bool = False) -> None:
        """The network's numbers off the board standardised on ``positions``
        (:func:`~tileworks.agents.network.standardise_globals`), and a fresh optimiser for it."""
        self.params = jax.tree.map(jnp.asarray, standardise_globals(jax.device_get(self.params), positions.observations,
                                                                     self.board, keep_outputs=keep_outputs))
        self.opt_state = self.optimiser.init(self.params)

    def export(self) -> Path:
        return self.network().save(self.out / "network")

    # -- running -----------------------------------------------------------------------------------
    def _kept(self) -> tuple[Any, ...]:
        """The run's state after its last whole iteration (JAX arrays never
        change in place, so keeping them costs nothing)."""
        return (self.params, self.opt_state, self.games, self.key, self.iteration, self.decisions, self.finished,
                self.seconds)

    def _teacher_positions(self) -> Any:
        """The imitated agent's decisions (:class:`~tileworks.learn.imitate.Positions`),
        its games played on every core, kept for the anchor; played again
        where a resumed run needs them (the same games: they are seeded by the run's seed)."""
        from tileworks.learn.imitate import Positions

        if self._teacher is None:
            config = self.config
            game = tileworks.load_game(config.game, **config.options)
            self._teacher = Positions.of(game, config.imitate, config.imitate_games, config.seed,
                                         workers=os.cpu_count() or 1)
        return self._teacher

    def _anchored(self, positions: tuple[Any, ...]) -> tuple[Any, ...]:
        """An iteration's self-play ``positions`` and, with an anchor, the
        teacher's decisions drawn for this iteration after them."""
        config = self.config
        if not config.anchor:
            return positions
        teacher = self._teacher_positions()
        drawn = round(config.anchor * len(positions[0]))
        rng = np.random.default_rng([config.seed, self.iteration])
        chosen = rng.choice(len(teacher), drawn, replace=drawn > len(teacher))
        extra = teacher.arrays(chosen, int(self.env.num_actions), config.slots)
        return tuple(jnp.concatenate([mine, jnp.asarray(theirs, mine.dtype)]) for mine, theirs in zip(positions, extra))

    def imitate(self) -> dict[str, Any]:
        """A new run's start by imitation (:mod:`tileworks.learn.imitate`):
        up to ``imitate_epochs`` passes over the teacher's decisions, shuffled,
        in chunks of :data:`~tileworks.learn.imitate.CHUNK` (a last part chunk
        of each pass is left out). After each pass the network is judged on
        games it does not learn from (:func:`~tileworks.learn.imitate.held_out`),
        and the run goes on from the pass judged best (the lowest policy loss
        plus ``value_weight`` times value loss, as the training weighs them):
        later passes that only learned the imitated games by heart are
        undone. Its line in ``metrics.jsonl`` says how it went."""
        from tileworks.learn.imitate import CHUNK, held_out, held_out_games, judged

        config = self.config
        started = time.perf_counter()
        positions = self._teacher_positions()
        if self.board is not None:  # the numbers off the board, standardised on the teacher's positions
            self._standardise_on(positions)
        game = tileworks.load_game(config.game, **config.options)
        unseen = held_out(game, config.imitate, config.imitate_games, config.seed, workers=os.cpu_count() or 1)
        chunk = min(max(CHUNK // config.batch, 1) * config.batch, len(positions) // config.batch * config.batch)
        if not chunk:
            raise ValueError(f"{config.imitate_games} games of {config.imitate} hold {len(positions)} decisions, "
                             f"fewer than a batch ({config.batch}); imitate more games")
        rng = np.random.default_rng(config.seed)
        passes, best = [], None
        for epoch in range(1, config.imitate_epochs + 1):
            order, losses = rng.permutation(len(positions)), []
            for start in range(0, len(order) - chunk + 1, chunk):
                arrays = positions.arrays(order[start:start + chunk], int(self.env.num_actions), config.slots)
                self.params, self.opt_state, parts = self.learn(self.params, self.opt_state,
                                                                tuple(jnp.asarray(a) for a in arrays),
                                                                jnp.arange(chunk), batch=config.batch)
                losses.append(parts)
            learned = [float(np.mean(np.concatenate([np.asarray(p[i]) for p in losses]))) for i in (0, 1)]
            unseen_losses = judged(self.network(), unseen)
            passes.append({"policy_loss": learned[0], "value_loss": learned[1],
                           "held_out_policy_loss": unseen_losses[0], "held_out_value_loss": unseen_losses[1]})
            judgement = unseen_losses[0] + config.value_weight * unseen_losses[1]
            if best is None or judgement < best[0]:
                best = (judgement, epoch, self.params, self.opt_state)
        _, kept, self.params, self.opt_state = best
        seconds = time.perf_counter() - started
        self.seconds += seconds
        self.imitated = True
        self.device = this_device()
        line = {"teacher": config.imitate, "games": config.imitate_games, "decisions": len(positions),
                "epochs": config.imitate_epochs, "kept": kept, **passes[kept - 1],
                "held_out": {"games": held_out_games(config.imitate_games), "decisions": len(unseen)},
                "passes": passes, "seconds": round(seconds, 1)}
        self._log({"iteration": 0, "imitation": line})
        self._whole = self._kept()
        return line

    def step(self) -> Progress:
        """One iteration: self-play, targets, learning."""
        config = self.config
        started = time.perf_counter()
        self._whole = self._kept()
        self.key, play_key, shuffle_key = jax.random.split(self.key, 3)
        self.games, trajectory = self.play(self.params, self.games, play_key, steps=config.steps)
        targets = self.value_targets(self.params, trajectory, self.games)
        positions = config.steps * config.games
        flat = self._anchored(jax.tree.map(lambda a: a.reshape((positions,) + a.shape[2:]), (
            trajectory.observation, trajectory.legal, trajectory.policy, targets)))
        #: the iteration's positions: observations, legal masks, policy and value targets (the teacher's after an anchor's)
        self.last_positions = flat
        losses = []
        for epoch in range(config.epochs):
            order = jax.random.permutation(jax.random.fold_in(shuffle_key, epoch), len(flat[0]))
            self.params, self.opt_state, parts = self.learn(self.params, self.opt_state, flat, order, batch=config.batch)
            losses.append(parts)
        policy_loss, value_loss = (float(np.mean(np.concatenate([np.asarray(p[i]) for p in losses]))) for i in (0, 1))
        iteration, decisions = self.iteration + 1, self.decisions + positions
        finished, seconds = self.finished + int(trajectory.ended.sum()), self.seconds + time.perf_counter() - started
        # the iteration's line first, then its counts, the iteration number last: a stop
        # (KeyboardInterrupt) before that keeps the iteration before, whole, with its line
        self._log({"iteration": iteration, "decisions": decisions, "games": finished,
                   "policy_loss": policy_loss, "value_loss": value_loss, "seconds": round(seconds, 2)})
        self.decisions, self.finished, self.seconds = decisions, finished, seconds
        self.device = this_device()
        self.iteration = iteration
        return Progress(iteration, config.iterations, decisions, finished, policy_loss, value_loss, seconds)

    def evaluate(self, opponents: Sequence[str] | None = None, games: int | None = None) -> dict[str, Result]:
        """The current network (``net``, NumPy) against each opponent (the
        run's ``opponents`` and ``eval_games`` unless given): its score (wins,
        shared wins counting half), seats alternating, logged in
        ``metrics.jsonl`` with this iteration. The seeds are the run's, the
        iteration's and the opponent's place among the run's opponents (or
        after them, in the order given), so an evaluation made later plays
        the games a run evaluating as it went would have played."""
        config = self.config
        game = tileworks.load_game(config.game, **config.options)
        network = self.network()
        known = list(config.opponents)
        asked = known if opponents is None else list(opponents)
        others = [opponent for opponent in asked if opponent not in known]
        found = {}
        for opponent in asked:
            number = known.index(opponent) if opponent in known else len(known) + others.index(opponent)
            result = evaluate_against(game, network, opponent, config.eval_games if games is None else games,
                                      seed=config.seed * 1000 + self.iteration * 10 + number)
            found[opponent] = result
            self._log({"iteration": self.iteration, "opponent": opponent, "games": result.games,
                       "score": result.score, "low": result.low, "high": result.high})
        return found

    def evaluated(self) -> set[str]:
        """The opponents the network as it stands (this iteration) has been
        evaluated against, as ``metrics.jsonl`` says."""
        return {row["opponent"] for row in read_metrics(self.out)[1] if row["iteration"] == self.iteration}

    def _log(self, line: dict[str, Any]) -> None:
        with open(self.out / "metrics.jsonl", "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

    def run(self, report: Callable[[Progress], None] = lambda progress: None) -> Progress | None:
        """Iterate to ``config.iterations``, checkpointing and evaluating on
        the way; a KeyboardInterrupt checkpoints the last whole iteration
        before it goes on up."""
        from tileworks.learn.report import write_report

        config = self.config
        progress = None
        try:
            if config.imitate and not self.imitated:
                self.imitate()
                self.checkpoint()
            while self.iteration < config.iterations:
                if self.stop_requested:  # asked between iterations: the last one is whole
                    raise KeyboardInterrupt
                progress = self.step()
                if config.eval_games and (self.iteration % config.eval_every == 0 or self.iteration == config.iterations):
                    progress.evaluation = {name: result.score for name, result in self.evaluate().items()}
                report(progress)
                if self.iteration % config.checkpoint_every == 0 or self.iteration == config.iterations:
                    self.checkpoint()
                    write_report(self.out)
        except KeyboardInterrupt:
            if self.iteration == self._whole[4]:  # stopped inside an iteration: keep the last whole one
                (self.params, self.opt_state, self.games, self.key, self.iteration, self.decisions, self.finished,
                 self.seconds) = self._whole
            self.checkpoint()
            write_report(self.out)
            raise
        return progress


