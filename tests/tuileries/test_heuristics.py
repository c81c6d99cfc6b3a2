"""Tuileries evaluation: what the seat to move can score next, read from its own hand.

Tiles are colour (b y r g), value (k q n j), sign (s h d c); the arms around
d4 are those of the rule tests (red knights east, knights of diamonds south,
red diamonds north), so the red knight of diamonds at d4 joins all three.
"""

from __future__ import annotations

import random

import pytest

from tileworks.core import sample_chance
from tileworks.games.tuileries import heuristics
from tileworks.games.tuileries.constants import SQUARE_INDEX, tile_of

from .test_rules import arms_position, play, tuileries


def test_the_best_placement_in_hand_is_the_three_tetraminoes_at_d4():
    state = arms_position(3, 3, 3)  # P1 holds rnd, gjd, rkh; P2 holds bkd
    assert heuristics.best_placement(state, 0) == 12
    assert heuristics.best_placement(state, 0) == state.score_for(tile_of("rnd"), SQUARE_INDEX["d4"])
    # P2's blue king of diamonds at d4: the blue knight of diamonds below, the red king above
    assert heuristics.best_placement(state, 1) == 4


def test_a_smaller_cross_gives_the_table_score():
    state = arms_position(1, 2, 0)  # a domino and a trimino: 5
    assert heuristics.best_placement(state, 0) == 5


def test_the_best_placement_is_the_best_score_of_any_tile_on_any_open_square():
    game = tuileries()
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        for seat in range(2):
            best = max((state.score_for(t, s) for t in state.hands[seat] for s in state.open_squares()), default=0)
            assert heuristics.best_placement(state, seat) == best
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 128


def test_only_the_seat_to_move_counts_its_best_placement(monkeypatch):
    state = arms_position(3, 3, 3)
    with_move = [state.evaluate(seat) for seat in range(2)]
    monkeypatch.setattr(heuristics, "MOVE_WEIGHT", 0.0)
    without = [state.evaluate(seat) for seat in range(2)]
    assert with_move[0] - without[0] == 0.5 * (12 - 1)  # P1 moves and will take its 12
    assert with_move[1] == without[1]  # P2 waits: the square may be gone by then


@pytest.mark.parametrize("move, mover", [("rnd@d4", 0), ("gjd@a1", 1)])
def test_at_the_replacement_draw_the_next_mover_is_known(move, mover):
    state = play(arms_position(3, 3, 3), move)  # 12 points earn an extra turn, 1 point does not
    assert state.is_chance_node()
    assert heuristics.next_mover(state) == mover
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == mover
