"""The agent interface."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from tileworks.core import Game, State


class Agent(ABC):
    """Chooses an action for the player to move in a state.

    ``seed`` makes the agent's choices repeatable; ``restart()`` resets it
    between games (and re-seeds it, so a seeded match replays exactly).
    """

    name = "agent"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def restart(self) -> None:
        self.rng = random.Random(self.seed)

    def check_game(self, game: Game) -> None:
        """Raise ``ValueError`` naming why this agent cannot play ``game``
        (with these options); most agents play every game. Front ends ask
        before a game starts, so a seat that cannot play is refused then."""

    def plays_with(self, game: Game) -> str | None:
        """What this agent plays ``game`` with beyond its code and its spec
        (a shipped network and the settings it ships with), in one line, or
        None where nothing: so a long run, resumed, can tell whether an
        agent of the same spec is still the one that played its first games."""
        return None

    def step(self, state: State) -> int:
        """The action this agent chooses for the player to move in ``state``."""
        legal = state.legal_actions()
        if not legal:
            raise ValueError(f"no legal action to choose: {state.decision()}")
        return self._choose(state, legal)

    @abstractmethod
    def _choose(self, state: State, legal: list[int]) -> int:
        """One of ``legal`` (never empty), for the player to move in ``state``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

