"""KILN evaluation: a decision in hand counts at its best."""

from __future__ import annotations

import random

import pytest

from tileworks.core import sample_chance
from tileworks.games.kiln import position
from tileworks.games.kiln.constants import CHOOSING, PLACING, SELLING
from tileworks.games.kiln.heuristics import evaluate, pending_gain, warehouse_value

from .test_rules import SELLING_EXAMPLE, SINGLES, THREE_DOMINOES, kiln, play

# row 1 is one cell short of complete, at column 5
ROW_ONE_SHORT = ["####.", ".....", ".....", ".....", "....."]


def after_each_move(state, seat):
    """``seat``'s evaluation after each legal move."""
    return state.evaluate_after(state.legal_actions(), seat)


def test_a_copy_in_hand_counts_at_its_best_place():
    # red copies a vertical domino; at column 5 it completes row 1, a 1-point sale
    state = position(kiln(), kiln=THREE_DOMINOES, phase="group", warehouses={"red": ROW_ONE_SHORT})
    play(state, "b3")
    assert state.current_player() == 0 and len(state.legal_actions()) > 1
    # the warehouse alone is worth less than a point; the sale in view is worth one
    assert warehouse_value(state.warehouses[state.mover_colour()]) < 1 < evaluate(state, 0)
    assert evaluate(state, 0) == pytest.approx(max(after_each_move(state, 0)))


def test_the_best_sale_counts_in_full_before_it_is_made():
    # rows 3 and 5 complete: selling both now is worth 3 points
    state = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE})
    assert evaluate(state, 0) == pytest.approx(max(after_each_move(state, 0)))
    play(state, "$r35")
    assert state.scores() == [3, 0]


def test_only_the_seat_deciding_has_a_decision_in_hand():
    state = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE})
    assert pending_gain(state) > 0
    # blue's value is its points and warehouse alone, whatever red is about to sell
    assert evaluate(state, 1) == pytest.approx(state.points[1] + warehouse_value(state.warehouses[1]))


def test_a_tied_group_choice_counts_its_best_copy():
    state = position(kiln(), kiln=THREE_DOMINOES, phase="group", warehouses={"red": ROW_ONE_SHORT})
    assert evaluate(state, 0) == pytest.approx(max(after_each_move(state, 0)))


def test_in_random_games_a_decision_is_worth_its_best_move():
    """Within a turn (group, place, sale) the mover's evaluation is the best
    of its evaluations after each move."""
    rng = random.Random(5)
    checked = 0
    for _ in range(10):
        state = kiln().new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            if state.phase in (CHOOSING, PLACING, SELLING):
                assert evaluate(state, seat) == pytest.approx(max(after_each_move(state, seat)))
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100
