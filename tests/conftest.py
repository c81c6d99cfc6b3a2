"""Helpers every test folder may use."""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks.core import sample_chance


def played(name, decisions, seed=1, **options):
    """A position of ``name`` after ``decisions`` random decisions (chance
    drawn with its probabilities), stopping early at the end of the game."""
    state = tileworks.load_game(name, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and (decisions or state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1
    return state


@pytest.fixture
def random_position():
    """``played``: a position reached by seeded random play."""
    return played
