"""Monte Carlo tree search for every game, chance and hidden hands included.

Each iteration determinises the position for the mover (``resample_hidden``:
the identity where nothing is hidden, a fresh deal of the unseen tiles
otherwise, as in information-set MCTS), then walks the tree, which is keyed
by player actions (open loop): chance outcomes are sampled with their
probabilities on the way, and only actions legal in this determinisation
compete. A node expands its actions best first, in the order a one-step
``evaluate`` rates them, so that wide moves (hundreds in Tuileries) are not
tried at random. Each node keeps the value of the seat that moved into it,
so every seat maximises its own result. A rollout plays random moves up to
``depth`` decisions (by default the game's ``rollout_depth``), then scores
the position: the true result at the end of the game, otherwise a logistic
of each seat's ``evaluate`` lead over its best rival, on the game's
``value_scale``. The exploration constant is the game's ``exploration``
unless the spec gives ``c``.
The tree is kept across a turn of several decisions by the same seat.
"""

from __future__ import annotations

import math
import random
import time

from tileworks.agents.base import Agent
from tileworks.core import State, sample_chance

#: named difficulty levels: (iterations, seconds cap, rollout depth). The
#: beginner pairs a tiny budget with long, noisy rollouts; the others search
#: more and cut rollouts where the game asks (None: ``State.rollout_depth``).
LEVELS = {
    "beginner": (20, 0.5, 8),
    "easy": (100, 0.5, None),
    "medium": (600, 0.9, None),
    "hard": (3000, 3.0, None),
    "expert": (12000, 9.5, None),
}

class Node:
    __slots__ = ("children", "visits", "total", "order")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        #: the actions first met here, best one-step evaluation first
        self.order: list[int] | None = None


class MCTSAgent(Agent):
    """UCT over determinisations. Budget: ``iterations`` and/or ``seconds``
    (whichever ends first), or a named ``level``; ``c`` is the exploration
    constant (None: the game's ``State.exploration``) and ``depth`` the
    rollout cut-off in decisions (None: the game's ``State.rollout_depth``)."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        level: str | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float | None = None,
        depth: int | None = None,
    ):
        super().__init__(seed)
        if level is None and iterations is None and seconds is None:
            level = "medium"
        if level is not None:
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
            level_iterations, level_seconds, level_depth = LEVELS[level]
            iterations = iterations or level_iterations
            seconds = seconds or level_seconds
            depth = level_depth if depth is None else depth
        self.level = level
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.depth = depth
        self._c = self._scale = 0.0  # the search's own, set at each decision
        self._kept: tuple[list[int], int, Node] | None = None

    def restart(self) -> None:
        super().restart()
        self._kept = None

    def _choose(self, state: State, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        player = state.current_player()
        self._c = state.exploration() if self.c is None else self.c
        self._scale = state.value_scale()
        root = self._reused_root(state) or Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while (self.iterations is None or done < self.iterations) and (
            deadline is None or time.perf_counter() < deadline
        ):
            self._iterate(root, state.resample_hidden(player, self.rng))
            done += 1
        visited = [
            (child.visits, child.total / child.visits, a)
            for a in legal
            if (child := root.children.get(a)) is not None and child.visits
        ]
        best = max(visited)[2] if visited else legal[self.rng.randrange(len(legal))]
        self._kept = (state.history(), best, root)
        return best

    def _reused_root(self, state: State) -> Node | None:
        """The subtree of the action chosen last time, when this decision
        directly follows it (the same seat, no chance in between)."""
        if self._kept is None:
            return None
        history, action, root = self._kept
        now = state.history()
        if len(now) == len(history) + 1 and now[-1] == action and now[: len(history)] == history:
            return root.children.get(action)
        return None

    def _iterate(self, root: Node, state: State) -> None:
        node = root
        path: list[tuple[Node, int]] = []
        rng = self.rng
        while not state.is_terminal():
            if state.is_chance_node():
                state._apply_known_legal(sample_chance(state, rng))
                continue
            mover = state.current_player()
            legal = state.legal_actions()
            if node.order is None:
                node.order = self._by_evaluation(state, legal, mover)
            children = node.children
            playable = set(legal)  # a determinisation may differ from the node's first
            tried = [a for a in children if a in playable]
            # progressive widening: a node opens a new move only while it has
            # few children for its visits, so wide moves still get deep search
            if not tried or len(children) < 2 + 2 * math.isqrt(node.visits):
                # expand best-first: with wide moves (Tuileries, Azul) a small
                # budget still tries the moves a one-step look rates highest
                action = next((a for a in node.order if a not in children and a in playable), None)
                if action is None:
                    action = next((a for a in legal if a not in children), None)
                if action is not None:
                    child = children[action] = Node()
                    state._apply_known_legal(action)
                    path.append((child, mover))
                    break
            log_n = math.log(node.visits + 1)
            best_score, action = -1.0, tried[0]
            for a in tried:
                child = node.children[a]
                score = child.total / child.visits + self._c * math.sqrt(log_n / child.visits)
                if score > best_score:
                    best_score, action = score, a
            state._apply_known_legal(action)
            node = node.children[action]
            path.append((node, mover))
        values = self._rollout(state)
        root.visits += 1
        for node, mover in path:
            node.visits += 1
            node.total += values[mover]

    def _by_evaluation(self, state: State, legal: list[int], mover: int) -> list[int]:
        """``legal`` sorted by ``evaluate`` one action ahead (ties in random order)."""
        values = state.evaluate_after(legal, mover)
        rated = sorted((-value, self.rng.random(), action) for action, value in zip(legal, values, strict=True))
        return [action for _, _, action in rated]

    def _rollout(self, state: State) -> list[float]:
        depth = state.rollout_depth() if self.depth is None else self.depth
        return rollout(state, self.rng, depth, self._scale)


def rollout(state: State, rng: random.Random, depth: int, scale: float) -> list[float]:
    """Every seat's value in [0, 1] after random play from ``state`` (which
    it changes): the true result if the game ends within ``depth``
    decisions, otherwise a logistic of each seat's ``evaluate`` lead over
    its best rival, ``scale`` points making a lead of about 73%.

    >>> import random, tileworks
    >>> state = tileworks.load_game("kiln").new_initial_state()
    >>> values = rollout(state, random.Random(1), 4, state.value_scale())
    >>> len(values), all(0.0 <= v <= 1.0 for v in values)
    (2, True)
    """
    decisions = 0
    while not state.is_terminal() and decisions < depth:
        if state.is_chance_node():
            state._apply_known_legal(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state._apply_known_legal(legal[rng.randrange(len(legal))])
            decisions += 1
    if state.is_terminal():
        return state.returns()
    seats = range(state.game().num_players())
    values = [state.evaluate(p) for p in seats]
    out = []
    for p in seats:
        rival = max(values[q] for q in seats if q != p)
        out.append(1.0 / (1.0 + math.exp(-(values[p] - rival) / scale)))
    return out
