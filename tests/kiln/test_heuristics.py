"""KILN evaluation: a decision in hand counts at its best."""

from __future__ import annotations

import random

import pytest

from tileworks.core import sample_chance
from tileworks.games.kiln import position
from tileworks.games.kiln.constants import CHOOSING, PLACING, SELLING
from tileworks.games.kiln.heuristics import TURN_VALUE, evaluate, pending_gain, warehouse_value

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


def decisions_checked(game, games, seed):
    """Plays ``games`` random games, checking that within a turn (group,
    place, sale) the mover's evaluation is the best of its evaluations
    after each move; the number of decisions checked."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_player()
            if state.phase in (CHOOSING, PLACING, SELLING):
                assert evaluate(state, seat) == pytest.approx(max(after_each_move(state, seat)))
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    return checked


def test_in_random_games_a_decision_is_worth_its_best_move():
    assert decisions_checked(kiln(), games=10, seed=5) > 100


# -- extra turns: a turn in hand is worth TURN_VALUE --------------------------

# the kiln of single tiles with the black tile inside and a red one out
BLACK_INSIDE = ["KBGYRB"] + SINGLES[1:]


def a_sale(game, tile):
    """Red to sell rows 3 and 5 (3 points together) at 2 points, the push
    having released ``tile`` (K: black, an extra turn already earned)."""
    return position(game, kiln=SINGLES if tile == "K" else BLACK_INSIDE, phase="sale",
                    warehouses={"red": SELLING_EXAMPLE}, points=[2, 0], outer={"tile": tile, "cell": "b8"})


def test_a_sale_that_lands_on_a_heat_token_is_worth_its_extra_turn():
    plain, heated = a_sale(kiln(), "R"), a_sale(kiln(heat_tokens=[5]), "R")
    # selling both rows takes red from 2 to 5 points, onto the heat token
    assert evaluate(heated, 0) == pytest.approx(evaluate(plain, 0) + TURN_VALUE)
    play(plain, "$r35")
    play(heated, "$r35")
    assert plain.current_player() == 1 and heated.current_player() == 0
    assert evaluate(heated, 0) == pytest.approx(evaluate(plain, 0) + TURN_VALUE)


def test_heat_tokens_no_sale_reaches_exactly_are_worth_nothing():
    # from 2 points the sales are of 1 or 3 points: 3 or 5, never 8 or 14
    assert evaluate(a_sale(kiln(heat_tokens=[8, 14]), "R"), 0) == pytest.approx(evaluate(a_sale(kiln(), "R"), 0))


def test_releasing_the_black_tile_is_worth_an_extra_turn():
    released, not_released = a_sale(kiln(), "K"), a_sale(kiln(), "R")
    assert evaluate(released, 0) == pytest.approx(evaluate(not_released, 0) + TURN_VALUE)
    # one extra turn however many ways it is earned
    assert evaluate(a_sale(kiln(heat_tokens=[5]), "K"), 0) == pytest.approx(evaluate(released, 0))


def test_a_sale_that_wins_earns_no_extra_turn():
    # at 14 points the 3-point sale reaches the goal of 17: the game is over
    winning = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE},
                       points=[14, 0], outer={"tile": "K", "cell": "b8"})
    value = evaluate(winning, 0)
    play(winning, "$r35")
    assert winning.is_terminal() and value == pytest.approx(evaluate(winning, 0))


def test_with_heat_tokens_a_decision_is_still_worth_its_best_move():
    assert decisions_checked(kiln(heat_tokens=[5, 8, 14, 17, 19, 23, 26]), games=5, seed=7) > 50
