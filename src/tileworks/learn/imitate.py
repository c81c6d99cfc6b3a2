"""A run's start by imitation: before self-play, a new network learns to
choose as an agent does (greedy by default) from games between copies of
it, played on the Python engine, and learns their results as its value.

Self-play from a random network spends its first iterations finding what
a one-move look-ahead knows at once (which placement scores); a network
that starts from that agent's choices spends them on what lies beyond
(the supervised start of AlphaGo, Silver et al., Nature 2016; the
apprentice of expert iteration, Anthony et al., NeurIPS 2017). The policy
target is the agent's choice; the value target is the game's result for
the mover (every seat's, counted from the mover, for three or more), as
self-play's targets are at a game's end.

A game's decisions all share its result, so a network can learn to tell
the games apart rather than to judge a position: with 2,000 of greedy's
Tuileries games its value followed the results of the games it learned
from (+0.62) and not those of fresh games (+0.08) (AlphaGo met the same,
and took one position a game). The imitation therefore judges itself
after each pass on :func:`held_out` games it does not learn from
(:func:`judged`), and the run keeps the pass that judged best.

>>> import tileworks
>>> game = tileworks.load_game("dominoes")
>>> found = Positions.of(game, "greedy", games=2, seed=0)
>>> len(found) == len(found.chosen) > 0, found.targets.shape == (len(found),)
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np
from scipy import sparse
from scipy.special import logsumexp

from tileworks.agents import make
from tileworks.agents.learned import observation_array
from tileworks.core import State, sample_chance


def teacher_games(game: Any, teacher: str, games: int, first_seed: int = 0
                  ) -> Iterator[tuple[list[tuple[State, int]], list[float]]]:
    """Seeded games between copies of ``teacher``: each game's decisions (the
    position before the move, and the action taken) and every seat's result
    (1 a win, -1 a loss, a shared win between)."""
    for number in range(first_seed, first_seed + games):
        agents = [make(teacher, seed=number * 10 + seat, reproducible=True) for seat in range(game.num_players())]
        rng, state, seen = random.Random(number), game.new_initial_state(), []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            action = agents[state.current_player()].step(state)
            seen.append((state.clone(), action))
            state.apply_action(action)
        yield seen, [2.0 * r - 1.0 for r in state.returns()]


@dataclass
class Positions:
    """The decisions of a teacher's games, kept small: the observations as
    a sparse matrix (most of their values are 0: all but 0.4% of Tiles'
    26,580, all but 13 to 18% in the other games), and a legal mask made
    only for the positions a pass over them is learning from."""

    observations: sparse.csr_array  # [n, observation_size], the mover's
    legal: list[np.ndarray]  # each position's legal action ids
    chosen: np.ndarray  # [n], the teacher's action
    targets: np.ndarray  # [n] (two seats) or [n, seats]: the results, counted from the mover

    def __len__(self) -> int:
        return len(self.chosen)

    @classmethod
    def of(cls, game: Any, teacher: str, games: int, seed: int, workers: int = 1,
           first: int | None = None) -> "Positions":
        """The decisions of ``games`` seeded games of ``teacher``, played on
        ``workers`` processes (the same decisions, in the same order, however
        many): the games numbered from ``first``, by default ``seed * games``
        (so that runs with other seeds learn from other games)."""
        first = seed * games if first is None else first
        if workers <= 1 or games < 2:
            return cls(*_decisions(game, teacher, first, games))
        from tileworks.arena.runners import LocalRunner

        cuts = np.linspace(first, first + games, min(workers, games) + 1).astype(int)
        jobs = [(number, game.name, game.json_options(), teacher, start, end - start)
                for number, (start, end) in enumerate(zip(cuts, cuts[1:]))]
        parts = sorted(LocalRunner(workers).results(_decisions_in_worker, jobs), key=lambda part: part[0])
        observations, legal, chosen, targets = zip(*(part[1] for part in parts))
        return cls(sparse.vstack(observations, format="csr"), [ids for part in legal for ids in part],
                   np.concatenate(chosen), np.concatenate(targets))

    def arrays(self, indices: np.ndarray, actions: int, slots: int) -> tuple[np.ndarray, ...]:
        """The training loop's arrays for ``indices``: observations, legal
        masks (with ``slots``: up to that many legal action ids, the chosen
        one first, ``-1`` for an empty slot), the policy target (the choice),
        and the value targets."""
        count = len(indices)
        if slots:
            legal = np.full((count, slots), -1, np.int32)
            policy = np.zeros((count, slots), np.float32)
            policy[:, 0] = 1.0
            for row, index in enumerate(indices):
                others = self.legal[index][self.legal[index] != self.chosen[index]][:slots - 1]
                legal[row, 0], legal[row, 1:1 + len(others)] = self.chosen[index], others
        else:
            legal = np.zeros((count, actions), bool)
            policy = np.zeros((count, actions), np.float32)
            for row, index in enumerate(indices):
                legal[row, self.legal[index]] = True
            policy[np.arange(count), self.chosen[indices]] = 1.0
        return self.observations[indices].toarray(), legal, policy, self.targets[indices]


#: the share of a run's imitated games it plays besides them to judge itself on (at least one game)
HELD_OUT = 0.05


def held_out_games(games: int) -> int:
    """How many games a run that imitates ``games`` games judges itself on."""
    return max(1, round(HELD_OUT * games))


def held_out(game: Any, teacher: str, games: int, seed: int, workers: int = 1) -> Positions:
    """The decisions of the games a run that imitates ``games`` games with
    ``seed`` judges itself on (:func:`held_out_games`): the ones numbered
    just after its own, so that it never learns from them."""
    return Positions.of(game, teacher, held_out_games(games), seed, workers, first=(seed + 1) * games)


def judged(network: Any, positions: Positions, chunk: int = 512) -> tuple[float, float]:
    """``network``'s losses on ``positions``: the policy's cross-entropy
    against the teacher's choice (its softmax over each position's legal
    moves), and the value's squared error against the results (a mean over
    every seat's, as the training's value loss is).

    >>> import tileworks
    >>> from tileworks.agents.network import Network
    >>> game = tileworks.load_game("dominoes")
    >>> untrained = Network.untrained(game, seed=0)
    >>> policy, value = judged(untrained, Positions.of(game, "greedy", games=2, seed=0))
    >>> policy > 0 and value > 0
    True
    """
    policy, value = [], []
    for start in range(0, len(positions), chunk):
        rows = np.arange(start, min(start + chunk, len(positions)))
        logits, values = network.evaluate_many(positions.observations[rows].toarray(),
                                               [positions.legal[row] for row in rows])
        for row, own in zip(rows, logits):
            own = np.asarray(own, np.float64)
            policy.append(logsumexp(own) - own[positions.legal[row] == positions.chosen[row]][0])
        errors = np.asarray(values).reshape(len(rows), -1) - positions.targets[rows].reshape(len(rows), -1)
        value.append((errors ** 2).mean(axis=1))
    return float(np.mean(policy)), float(np.concatenate(value).mean())


def _decisions(game: Any, teacher: str, first: int, count: int
               ) -> tuple[sparse.csr_array, list[np.ndarray], np.ndarray, np.ndarray]:
    """:class:`Positions`' arrays for the teacher's games ``first`` to ``first + count - 1``."""
    seats = game.num_players()
    observations, legal, chosen, targets = [], [], [], []
    for seen, results in teacher_games(game, teacher, count, first_seed=first):
        # made sparse a game at a time: dense, a thousand of Tiles' games would take 4.7 GB
        observations.append(sparse.csr_array(np.stack([observation_array(state, state.current_player())
                                                       for state, _action in seen])))
        for state, action in seen:
            mover = state.current_player()
            legal.append(np.asarray(state.legal_actions(), np.int32))
            chosen.append(action)
            from_mover = [results[(mover + k) % seats] for k in range(seats)]
            targets.append(from_mover[0] if seats == 2 else from_mover)
    return (sparse.vstack(observations, format="csr"), legal, np.asarray(chosen, np.int32),
            np.asarray(targets, np.float32))


def _decisions_in_worker(job: tuple[int, str, dict[str, Any], str, int, int]) -> tuple[int, Any]:
    """:func:`_decisions` in a worker process (``job``: its number, the game's
    name and options, the teacher, ``first`` and ``count``), with the job's
    number: results come back as they finish."""
    import tileworks

    number, name, options, teacher, first, count = job
    return number, _decisions(tileworks.load_game(name, **options), teacher, first, count)


#: positions a call of the training loop learns from at once (a multiple of any batch up to it)
CHUNK = 8192
