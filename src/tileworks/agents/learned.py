"""Agents that play from a trained network (NumPy only: no JAX at play time).

- ``net``: the network's policy alone, one forward pass a decision (the
  most likely legal action; ``temperature=T`` samples instead);
- ``alpha``: search guided by the network (PUCT, as AlphaZero's): each
  iteration deals the hidden tiles anew for the mover (``resample_hidden``,
  as ``mcts`` does, so it never sees a hidden hand), walks the tree by the
  network's prior and the values found, asks the network for a new leaf's
  value, and backs it up, each seat choosing by its own value (max-n, so
  three and four seats search as two do); chance is sampled on the way. Budget:
  ``iterations`` and/or ``seconds`` (whichever ends first). ``mix=λ`` values
  a leaf as AlphaGo did: ``(1 − λ)`` of the network's value and ``λ`` of a
  rollout's (``mcts``'s: random play to the game's rollout depth, then the
  hand-written evaluation), for a game whose network judges moves better
  than positions; ``mix=1`` keeps the network's prior and the rollout's value.
  Without ``mix``, the share is the one the network ships with (``alpha.mix``
  in its JSON, 0 where none is given). ``guide=β`` takes ``β`` of each
  position's prior from greedy's one-step look (a softmax of
  ``evaluate_after`` on the game's value scale) when the search first
  chooses a move there, a progressive bias for a network whose policy is
  weaker than greedy's; without ``guide``, the share is the one the
  network ships with (``alpha.guide``, 0 where none is given). ``batch=K``
  walks ``K`` iterations down the tree before the network values their new
  leaves in one forward pass, each walk counting as a loss where it passed
  until it is backed up (a virtual loss, as AlphaGo's and AlphaZero's
  parallel searches do), so that the walks of a batch spread out: a small
  network answers many positions at once for little more than one. A search given
  ``seconds`` alone asks about 4 at a time unless its spec says otherwise;
  one given iterations, one at a time.

Both read only the mover's observation tensor, which holds only what that
seat may see. A game's networks ship in its package (``GameInfo.networks``:
a folder of ``NAME.npz`` beside ``NAME.json``, the JSON naming the game and
the options it was trained for); the agents take the one trained for the
game's options, and say which option sets have one when there is none.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tileworks.agents.base import Agent
from tileworks.agents.mcts import rollout
from tileworks.core import State, sample_chance
from tileworks.core.i18n import _

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from tileworks.agents.network import Network

# NumPy is imported when a network is first used, so that the other agents
# (and the engines) need nothing beyond the standard library

#: networks loaded, by game and options (each is loaded once per process)
_LOADED: dict[tuple[str, str], "Network"] = {}


def networks_of(game_name: str) -> list[tuple[Path, dict[str, Any]]]:
    """The networks a game ships: each file and what it says it was trained for."""
    from tileworks.core.registry import game_info

    folder = game_info(game_name).networks
    if folder is None or not Path(folder).is_dir():
        return []
    out = []
    for about in sorted(Path(folder).glob("*.json")):
        data = json.loads(about.read_text(encoding="utf-8"))
        if data.get("game") == game_name and about.with_suffix(".npz").exists():
            out.append((about.with_suffix(".npz"), data))
    return out


#: the computer players' levels, weakest first: where a learned agent stands is given among these
LEVEL_LADDER = ("random", "greedy", "mcts:beginner", "mcts:easy", "mcts:medium", "mcts:hard", "mcts:expert")


def _met_levels(about: dict[str, Any]) -> Iterator[tuple[str, int, bool]]:
    """Each measured result of a learned agent against a level: the agent,
    the level's place in :data:`LEVEL_LADDER` and whether it scored at least
    an even share (a half; with ``seats`` seats, the opponent in all the
    others, 1/seats)."""
    for row in about.get("measured", []):
        if row["agent"] in ("net", "alpha") and row["opponent"] in LEVEL_LADDER:
            yield row["agent"], LEVEL_LADDER.index(row["opponent"]), row["score"] >= 1 / row.get("seats", 2)


def standing(about: dict[str, Any]) -> dict[str, str | None]:
    """Where each learned agent stands among :data:`LEVEL_LADDER`, from a
    network's ``measured`` results (arena scores, written beside it when it
    ships): the strongest level it has scored at least an even share against,
    or ``None`` where it has beaten none it met. An agent not measured is left out.

    >>> about = {"measured": [
    ...     {"agent": "net", "opponent": "greedy", "games": 200, "score": 0.62},
    ...     {"agent": "net", "opponent": "mcts:easy", "games": 200, "score": 0.52},
    ...     {"agent": "net", "opponent": "mcts:medium", "games": 200, "score": 0.31},
    ...     {"agent": "alpha", "opponent": "greedy", "games": 200, "score": 0.4}]}
    >>> standing(about)
    {'net': 'mcts:easy', 'alpha': None}
    >>> standing({"measured": [{"agent": "net", "opponent": "random", "seats": 3, "games": 201, "score": 0.72}]})
    {'net': 'random'}
    """
    found: dict[str, str | None] = {}
    for agent, level, won in _met_levels(about):
        best = found.setdefault(agent, None)
        if won and (best is None or level > LEVEL_LADDER.index(best)):
            found[agent] = LEVEL_LADDER[level]
    return found


def weakest_loss(about: dict[str, Any]) -> dict[str, str]:
    """The weakest level each learned agent scored less than an even share
    against, from the same results as :func:`standing`: one that beat none
    of the levels it met is listed just below it (it was not measured
    against the weaker ones, so nothing puts it under them).

    >>> weakest_loss({"measured": [
    ...     {"agent": "alpha", "opponent": "mcts:easy", "games": 200, "score": 0.1},
    ...     {"agent": "alpha", "opponent": "greedy", "games": 200, "score": 0.3},
    ...     {"agent": "net", "opponent": "greedy", "games": 200, "score": 0.6}]})
    {'alpha': 'greedy'}
    """
    found: dict[str, int] = {}
    for agent, level, won in _met_levels(about):
        if not won:
            found[agent] = min(level, found.get(agent, level))
    return {agent: LEVEL_LADDER[level] for agent, level in found.items()}


def recorded_pairing(agents: list[str]) -> tuple[str, str]:
    """The learned agent and its opponent in an arena run whose result can
    be written beside the network (:func:`record_result`): one learned
    agent's spec in one seat, one other spec in every other seat.

    >>> recorded_pairing(["net", "greedy", "greedy"])
    ('net', 'greedy')
    >>> recorded_pairing(["mcts:easy", "greedy"])
    Traceback (most recent call last):
    ...
    ValueError: --record needs one learned agent (net, alpha) in one seat and one opponent in the others, not mcts:easy, greedy
    """
    names = list(dict.fromkeys(agents))
    learned = [name for name in names if name.split(":")[0] in ("net", "alpha")]
    if len(names) != 2 or len(learned) != 1 or agents.count(learned[0]) != 1:
        raise ValueError(_("--record needs one learned agent (net, alpha) in one seat and one opponent in the "
                           "others, not {agents}", agents=", ".join(agents)))
    return learned[0], next(name for name in names if name != learned[0])


def record_result(game: Any, agents: list[str], summary: dict[str, Any], command: str, date: str) -> Path:
    """Write an arena run's result for the learned agent into the
    ``measured`` results of the network it played (the game's shipped one
    for these options), in place of an earlier row for the same agent,
    opponent and seats; the network's JSON file."""
    agent, opponent = recorded_pairing(agents)
    about_path = shipped_network_path(game).with_suffix(".json")
    about = json.loads(about_path.read_text(encoding="utf-8"))
    by_name = {row["agent"]: row for row in summary["agents"]}
    mine, theirs = by_name[agent], by_name[opponent]
    row = {"agent": agent, "opponent": opponent, "command": command, "date": date, "games": mine["games"],
           "score": round(mine["win_rate"], 4), "low": round(mine["win_rate_95"][0], 3),
           "high": round(mine["win_rate_95"][1], 3),
           "mean_scores": [round(mine["mean_score"], 1), round(theirs["mean_score"], 1)]}
    seats = game.num_players()
    if seats != 2:
        row["seats"] = seats
    same = (agent, opponent, seats)
    kept = [old for old in about.get("measured", []) if (old["agent"], old["opponent"], old.get("seats", 2)) != same]
    about["measured"] = kept + [row]
    about_path.write_text(json.dumps(about, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return about_path


def shipped_network_path(game: Any) -> Path:
    """The file of the network a game ships for exactly these options (a
    ``Game``); ``ValueError`` names the option sets that have one."""
    found = networks_of(game.name)
    for path, about in found:
        if about.get("options") == game.json_options():
            return path
    if not found:
        raise ValueError(_("{game} ships no trained network yet, so the learned agents (net, alpha) "
                           "cannot play it", game=game.name))
    have = "; ".join(json.dumps(about["options"], sort_keys=True) for _, about in found)
    raise ValueError(_("no trained network for {game} with {options}; it ships networks for: {have}",
                       game=game.name, options=json.dumps(game.json_options(), sort_keys=True), have=have))


def shipped_network(game: Any) -> "Network":
    """The network a game ships for exactly these options (a ``Game``),
    loaded once a process; ``ValueError`` as :func:`shipped_network_path`."""
    from tileworks.agents.network import Network

    key = (game.name, json.dumps(game.json_options(), sort_keys=True))
    if key not in _LOADED:
        _LOADED[key] = Network.load(shipped_network_path(game))
    return _LOADED[key]


class LearnedAgent(Agent):
    """What both learned agents share: their network, found for each game."""

    def __init__(self, seed: int | None = None, network: "Network | None" = None):
        super().__init__(seed)
        self._network = network

    def check_game(self, game: Any) -> None:
        """A learned agent plays only where a network fits: the game's
        shipped one for exactly these options, or the one it was given.

        >>> import tileworks
        >>> NetAgent().check_game(tileworks.load_game("kiln", players=3))
        Traceback (most recent call last):
        ...
        ValueError: no trained network for kiln with {"advanced_scoring": ..., "players": 3, ...}; it ships networks for: ...
        """
        if self._network is None:
            shipped_network(game)
            return
        from tileworks.agents.network import value_outputs

        inputs, actions, values = self._network.sizes()
        if values != value_outputs(game.num_players()):
            raise ValueError(_("this network has {values} value outputs, but {game} for {players} players "
                               "needs {needed}", values=values, game=game.name, players=game.num_players(),
                               needed=value_outputs(game.num_players())))
        if (inputs, actions) != (game.observation_tensor_size(), game.num_distinct_actions()):
            raise ValueError(_("this network takes {inputs} inputs and scores {actions} actions, but {game} with "
                               "{options} has {size} and {count}", inputs=inputs, actions=actions, game=game.name,
                               options=json.dumps(game.json_options(), sort_keys=True),
                               size=game.observation_tensor_size(), count=game.num_distinct_actions()))

    def network_for(self, state: State) -> "Network":
        return self._network_of(state.game())

    def _network_of(self, game: Any) -> "Network":
        return self._network if self._network is not None else shipped_network(game)

    def plays_with(self, game: Any) -> str:
        """The fingerprint of the network it plays ``game`` with.

        >>> import tileworks
        >>> from tileworks.agents.network import Network
        >>> tiles = tileworks.load_game("tiles")
        >>> NetAgent(network=Network.untrained(tiles)).plays_with(tiles)  # doctest: +ELLIPSIS
        'network ...'
        """
        return f"network {self._network_of(game).fingerprint()}"

    def ask(self, state: State, legal: list[int]) -> tuple["np.ndarray", list[float]]:
        """The network's probabilities over ``legal`` (in their order) and
        every seat's value (by seat number), from the mover's observation alone."""
        mover = state.current_player()
        logits, value = self.network_for(state).evaluate(observation_array(state, mover), legal)
        return _answer(logits, value, mover, state.game().num_players())

    def ask_many(self, states: list[State], legals: list[list[int]]) -> list[tuple["np.ndarray", list[float]]]:
        """:meth:`ask` for several positions of one game, in one forward pass where that is faster."""
        movers = [state.current_player() for state in states]
        logits, values = self.network_for(states[0]).evaluate_many(
            [observation_array(state, mover) for state, mover in zip(states, movers)], legals)
        seats = states[0].game().num_players()
        return [_answer(logits[k], values[k], mover, seats) for k, mover in enumerate(movers)]


def observation_array(state: State, seat: int) -> "np.ndarray":
    """``seat``'s observation tensor as a float32 array, read from its
    buffer (``State.observation_floats``: no float converted one by one)."""
    import numpy as np

    return np.frombuffer(state.observation_floats(seat), np.float32)


def _answer(logits: "np.ndarray", value: Any, mover: int, seats: int) -> tuple["np.ndarray", list[float]]:
    """The probabilities over the legal actions whose ``logits`` these are
    (their softmax, in their order) and every seat's value."""
    import numpy as np

    from tileworks.agents.network import seat_values

    return _softmax(logits.astype(np.float64)), seat_values(value, mover, seats)


def _softmax(values: "np.ndarray") -> "np.ndarray":
    """Probabilities in proportion to ``exp(values)`` (shifted by the largest, so none overflows)."""
    import numpy as np

    shifted = np.exp(values - values.max())
    return shifted / shifted.sum()


class NetAgent(LearnedAgent):
    """The network's policy: its most likely legal action (or one sampled at ``temperature``)."""

    name = "net"

    def __init__(self, seed: int | None = None, temperature: float = 0.0, network: "Network | None" = None):
        super().__init__(seed, network)
        self.temperature = temperature

    def _choose(self, state: State, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        probabilities, _ = self.ask(state, legal)
        if self.temperature == 0:
            return legal[int(probabilities.argmax())]
        weights = probabilities ** (1.0 / self.temperature)
        return self.rng.choices(legal, weights=(weights / weights.sum()).tolist())[0]


class Node:
    __slots__ = ("children", "priors", "legal", "ranked", "skipped", "visits", "total", "pending", "guided")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        #: the network's prior for each action first met here
        self.priors: dict[int, float] | None = None
        #: the legal actions the priors were given for, in their order
        self.legal: list[int] = []
        #: those actions by prior, highest first (built at the node's first
        #: choice), and how many at its head are known to have a child
        self.ranked: list[int] | None = None
        self.skipped = 0
        self.visits = 0
        self.total = 0.0
        #: walks of the batch under way that passed here, each counted as a loss until it is backed up
        self.pending = 0
        #: whether greedy's look is in the priors yet (``alpha``'s ``guide``)
        self.guided = False

    def choose(self, legal: list[int], scale: float, reduction: float | None = None) -> int:
        """The action of ``legal`` with the highest PUCT score, the first in
        ``legal``'s order among equals. An action's score is its child's mean
        value (each pending walk a loss) plus ``scale`` x its prior / (1 + its
        child's visits and pending walks); an action the priors were not
        given for (a determinisation may offer one) has 1 / (the number of
        actions) as its prior.

        An action not yet tried is valued even (0) or, given a first-play
        ``reduction``, as the mean value of the actions tried here less
        ``reduction`` x the square root of their priors' sum (Leela Zero's
        first-play urgency: a move the search has not looked at is taken to
        be somewhat worse than those it has, the more so the more of the
        prior they hold).

        The actions without a child all score that value plus ``scale`` x
        their prior, so only the best of them is compared with the children:
        the first of :attr:`ranked` without one. That is the choice of
        scoring every action, in time that grows with the children rather
        than the moves.
        """
        priors, children = self.priors, self.children
        offered = priors if legal == self.legal else set(legal)  # what is legal here, to ask of an action
        unknown = 1.0 / len(legal)
        untried = 0.0 if reduction is None else self._first_play(offered, unknown, reduction)
        best, action = -math.inf, legal[0]
        for a, child in children.items():
            if a not in offered:
                continue
            prior = priors.get(a, unknown)
            n = child.visits + child.pending
            score = (child.total - child.pending) / n + scale * prior / (1 + n) if n else untried + scale * prior
            if score > best or (score == best and legal.index(a) < legal.index(action)):
                best, action = score, a
        ranked = self.ranked
        if ranked is None:
            ranked = self.ranked = sorted(priors, key=priors.__getitem__, reverse=True)
        first = self.skipped
        while first < len(ranked) and ranked[first] in children:
            first += 1
        self.skipped = first
        top = None
        for a in ranked[first:]:  # the actions without a child that score as the best of them
            if a in children or a not in offered:
                continue
            score = untried + scale * priors[a]
            if top is None:
                top = score
            elif score < top:
                break
            if score > best or (score == best and legal.index(a) < legal.index(action)):
                best, action = score, a
        if offered is not priors and not offered <= priors.keys():
            for a in legal:  # the first without a prior or a child: the rest score the same, later
                if a not in priors and a not in children:
                    score = untried + scale * unknown
                    if score > best or (score == best and legal.index(a) < legal.index(action)):
                        best, action = score, a
                    break
        return action

    def _first_play(self, offered: Any, unknown: float, reduction: float) -> float:
        """The value of an action not yet tried, with a first-play
        ``reduction`` (see :meth:`choose`); 0 before any is tried."""
        value = tried = mass = 0.0
        for a, child in self.children.items():
            n = child.visits + child.pending
            if n and a in offered:
                value += child.total - child.pending
                tried += n
                mass += self.priors.get(a, unknown)
        return value / tried - reduction * math.sqrt(mass) if tried else 0.0


class Walk:
    """One iteration's way down the tree: the nodes it entered with their
    movers, the position it stopped at, and every seat's value there (once known)."""

    __slots__ = ("path", "state", "leaf", "legal", "values")

    def __init__(self, path: list[tuple[Node, int]], state: State, leaf: Node | None, legal: list[int],
                 values: list[float] | None):
        self.path, self.state, self.leaf, self.legal, self.values = path, state, leaf, legal, values


class AlphaAgent(LearnedAgent):
    """PUCT search guided by the network over determinisations (see the module docs)."""

    name = "alpha"
    #: the budget with no parameters: iterations, and the cap on seconds a decision
    DEFAULT = (800, 2.0)
    #: the batch of a search given seconds alone: more iterations in its time, which
    #: plays stronger than one at a time (docs/strength.md, "`alpha` asks about its leaves in batches")
    TIMED_BATCH = 4

    def __init__(self, seed: int | None = None, iterations: int | None = None, seconds: float | None = None,
                 c: float = 1.5, mix: float | None = None, batch: int | None = None, guide: float | None = None,
                 fpu: float | None = None, network: "Network | None" = None):
        super().__init__(seed, network)
        if batch is None:  # an iteration budget searches one at a time, as its measured results were played
            batch = self.TIMED_BATCH if iterations is None and seconds is not None else 1
        if iterations is None and seconds is None:
            iterations, seconds = self.DEFAULT
        for name, share in (("mix", mix), ("guide", guide)):
            if share is not None and not 0.0 <= share <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, not {share}")
        if batch < 1:
            raise ValueError(f"batch must be at least 1, not {batch}")
        if fpu is not None and not 0.0 <= fpu:
            raise ValueError(f"fpu must be at least 0, not {fpu}")
        self.iterations, self.seconds, self.c, self.mix, self.batch = iterations, seconds, c, mix, batch
        self.guide, self.fpu = guide, fpu
        self._mix = 0.0  # the share of a leaf's value its rollout gives, set at each decision
        self._guide_share = 0.0  # the share of a prior greedy's look gives, set at each decision
        self._reduction: float | None = None  # the first-play reduction, set at each decision

    def mix_for(self, state: State) -> float:
        """The share of a leaf's value taken from a rollout: the spec's
        ``mix``, else the one the network ships with (its JSON's
        ``alpha.mix``, where measured better than the network's own value), else 0."""
        return self._setting(state.game(), "mix")

    def guide_for(self, state: State) -> float:
        """The share of a prior taken from greedy's look: the spec's
        ``guide``, else the one the network ships with (its JSON's
        ``alpha.guide``, where measured better than none), else 0."""
        return self._setting(state.game(), "guide")

    def reduction_for(self, state: State) -> float | None:
        """The first-play reduction (:meth:`Node.choose`): the spec's ``fpu``,
        else the one the network ships with (its JSON's ``alpha.fpu``), else
        None: a move not yet tried is valued even."""
        return self._setting(state.game(), "fpu", None)

    def plays_with(self, game: Any) -> str:
        """The network's fingerprint and the shares of a leaf's value and of
        a prior it takes from a rollout and from greedy's look, as its spec
        or its network gives them, and its first-play reduction if any.

        >>> import tileworks
        >>> tiles = tileworks.load_game("tiles")
        >>> AlphaAgent(guide=0).plays_with(tiles)  # doctest: +ELLIPSIS
        'network ..., mix 1, guide 0'
        """
        reduction = self._setting(game, "fpu", None)
        return f"{super().plays_with(game)}, mix {self._setting(game, 'mix'):g}, " \
               f"guide {self._setting(game, 'guide'):g}" + ("" if reduction is None else f", fpu {reduction:g}")

    def _setting(self, game: Any, name: str, default: float | None = 0.0) -> float | None:
        """The spec's ``name`` (``mix``, ``guide``, ``fpu``), else the network's
        ``alpha.NAME`` for ``game``, else ``default``."""
        given = getattr(self, name)
        if given is not None:
            return given
        shipped = self._network_of(game).about.get("alpha", {}).get(name)
        return default if shipped is None else float(shipped)

    def _choose(self, state: State, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        root = self.search(state)
        visited = [(child.visits, child.total / child.visits, a) for a, child in root.children.items()
                   if a in legal and child.visits]
        return max(visited)[2] if visited else legal[self.rng.randrange(len(legal))]

    def search(self, state: State) -> Node:
        """The tree searched from ``state`` (a decision) within the budget: its root."""
        player = state.current_player()
        self._mix, self._guide_share = self.mix_for(state), self.guide_for(state)
        self._reduction = self.reduction_for(state)
        root = Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while (self.iterations is None or done < self.iterations) and (deadline is None or time.perf_counter() < deadline):
            # the root's own prior first, so that a batch's walks spread over its moves
            size = 1 if root.priors is None else self.batch
            if self.iterations is not None:
                size = min(size, self.iterations - done)
            self._walk_batch(root, state, player, size)
            done += size
        return root

    def _walk_batch(self, root: Node, state: State, player: int, size: int) -> None:
        """``size`` iterations at once: each walks down its own determinisation,
        the walks before it in the batch counted as losses where they passed
        (a virtual loss, so that they spread out), then the network values all
        their new leaves in one pass and each walk is backed up. One iteration
        (``batch=1``) is plain PUCT."""
        walks = []
        for _ in range(size):
            walk = self._descend(root, state.resample_hidden(player, self.rng))
            root.pending += 1
            for node, _mover in walk.path:
                node.pending += 1
            walks.append(walk)
        waiting = [walk for walk in walks if walk.values is None]
        if waiting:
            answers = self.ask_many([walk.state for walk in waiting], [walk.legal for walk in waiting])
            for walk, (probabilities, values) in zip(waiting, answers):
                if walk.leaf.priors is None:  # (two walks of a batch may reach the same new leaf)
                    walk.leaf.priors = dict(zip(walk.legal, probabilities.tolist()))
                    walk.leaf.legal = walk.legal
                if self._mix:  # AlphaGo's mixed leaf: the network's value and a rollout's
                    played = rollout(walk.state, self.rng, walk.state.rollout_depth(), walk.state.value_scale())
                    values = [(1.0 - self._mix) * v + self._mix * (2.0 * r - 1.0) for v, r in zip(values, played)]
                walk.values = values
        for walk in walks:
            root.visits += 1
            root.pending -= 1
            for child, mover in walk.path:
                child.visits += 1
                child.pending -= 1
                child.total += walk.values[mover]

    def _guide(self, node: Node, state: State) -> None:
        """Put the guide's share of greedy's one-step look into ``node``'s
        prior: a softmax of each move's value, in units of the game's value scale.

        It is done when a walk first chooses from the node, not when the node
        is made: a prior serves only that choice, and most leaves are never
        walked through again, so most of greedy's looks would go unread.
        ``state`` must offer the moves the prior was given for (another deal
        of the hidden tiles may not; the look then waits for one that does)."""
        import numpy as np

        legal = node.legal
        network = np.fromiter((node.priors[a] for a in legal), float, len(legal))
        values = np.array(state._evaluate_after(legal, state.current_player())) / state.value_scale()
        share = self._guide_share
        guided = (1.0 - share) * network + share * _softmax(values)
        node.priors, node.ranked, node.skipped, node.guided = dict(zip(legal, guided.tolist())), None, 0, True

    def _descend(self, root: Node, state: State) -> Walk:
        """Walk from the root by PUCT to a new leaf or the game's end, sampling chance on the way."""
        node, path = root, []
        rng = self.rng
        while True:
            if state.is_terminal():
                return Walk(path, state, None, [], [2.0 * r - 1.0 for r in state.returns()])
            if state.is_chance_node():
                state._apply_known_legal(sample_chance(state, rng))
                continue
            mover = state.current_player()
            legal = state.legal_actions()
            if node.priors is None:  # a new leaf: the network will give its prior and value
                return Walk(path, state, node, legal, None)
            if self._guide_share and not node.guided and legal == node.legal:
                self._guide(node, state)
            action = node.choose(legal, self.c * math.sqrt(node.visits + node.pending + 1), self._reduction)
            state._apply_known_legal(action)
            node = node.children.setdefault(action, Node())
            path.append((node, mover))
