"""KILN's JAX engine on positions a player would recognise (those of
tests/kiln/test_rules.py): each is played in both engines move by move, and
after every move the JAX state must be the Python state, field for field;
then the outcome a player expects is checked on the JAX state itself.

Kiln rows are written top (rank 7) to bottom (rank 2); warehouse rows top to
bottom, ``#`` painted. Letters: R red, B blue, G green, Y yellow, K black.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tileworks
import tileworks.jax
from tileworks.games.kiln import position
from tileworks.games.kiln.constants import GROUP, PHASE_NAMES, TILE_LETTERS

SINGLES = ["RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY"]
BLACK_ON_B2 = ["RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "KYRBGY"]
THREE_DOMINOES = ["RRBGYB", "GYRBGY", "BGYRRB", "GYRBGY", "RBGYRB", "RYGBGY"]
LINE_AND_L = ["RRRGYB", "GYBYRY", "BGYRBG", "YBGRRB", "GRBGYG", "BYGRBY"]
RED_AND_GREEN_LINES = ["RRRRRR", "BYRYBY", "YBYBGB", "BRBYGY", "YBYGBR", "GGGGGG"]
TWO_ROWS = ["#####", "#####", ".....", ".....", "....."]
CHECKERBOARD = ["#.#.#", ".#.#.", "#.#.#", ".#.#.", "#.#.#"]
RED_ROW_GREEN_COLUMN = {"red": ["#####"] + ["....."] * 4, "green": ["#...."] * 5}
#: one option set for most positions (each compiles a step): a heat token on
#: 5 and the erase rule change nothing where no sale ends on 5 and every copy fits
RULES = {"heat_tokens": (5,), "erase_rule": True}
ADVANCED = {"variant": "advanced", "erase_rule": True}


@functools.lru_cache(maxsize=None)
def _environment(options: tuple):
    """One environment and its jitted step per option set, so that each compiles once."""
    env = tileworks.jax.make("kiln", **dict(options))
    return env, jax.jit(env.step)


@functools.lru_cache(maxsize=None)
def _init_with_chance(env):
    return jax.jit(env.init_with_chance)


def _play(options: dict, moves: list[str], **fields):
    """The position in both engines, then ``moves`` in both; the JAX states after each move."""
    env, step = _environment(tuple(sorted(options.items())))
    python = position(tileworks.load_game("kiln", **options), **fields)
    state = env.from_python(python)
    states = [state]
    for move in moves:
        action = python.string_to_action(move)
        assert bool(state.legal_action_mask[action]), move
        python.apply_action(action)
        state = step(state, jnp.int32(action), jax.random.PRNGKey(0))
        assert env.to_fields(state) == python._fields(), move
        if not python.is_terminal():  # at the end Pgx counts every action as legal
            assert np.asarray(state.legal_action_mask).nonzero()[0].tolist() == sorted(python.legal_actions())
        states.append(state)
    return env, states


def _warehouse(state, colour: int) -> list[str]:
    cells = np.asarray(state._warehouses[colour])
    return ["".join("#" if cells[5 * r + c] else "." for c in range(5)) for r in range(5)]


def test_pushing_the_black_tile_out_gives_an_extra_turn_and_a_coloured_tile_does_not():
    _, states = _play(RULES, ["b8", "p11"], kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"})
    assert int(states[1]._outer_tile) == TILE_LETTERS.index("K")
    assert int(states[-1].current_player) == 0
    _, states = _play(RULES, ["c8", "p11"], kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"})
    assert int(states[-1].current_player) == 1


@pytest.mark.parametrize("points, again", [(2, True), (4, False)])
def test_a_sale_ending_exactly_on_a_heat_token_gives_an_extra_turn(points, again):
    _, states = _play(RULES, ["c8", "p51", "$r12"], kiln=SINGLES, points=[points, 0],
                      warehouses={"red": TWO_ROWS})
    assert int(states[-1]._points[0]) == points + 3
    assert int(states[-1].current_player) == (0 if again else 1)


def test_tied_groups_of_the_same_shape_are_one_choice_and_the_copy_is_not_turned():
    _, states = _play(RULES, ["b3", "p45"], kiln=THREE_DOMINOES, phase="group")
    # two horizontal red dominoes (b7-c7, e5-f5) are one choice; the vertical one (b3-b2) the other
    b7, b3 = 0, 24
    assert np.asarray(states[0].legal_action_mask[GROUP:GROUP + 36]).nonzero()[0].tolist() == [b7, b3]
    assert int(states[1].legal_action_mask.sum()) == 20  # the vertical domino: 5 columns × 4 places
    assert _warehouse(states[-1], 0) == [".....", ".....", ".....", "....#", "....#"]


def test_the_erase_rule_only_when_no_tied_largest_group_fits():
    bottom_row_free = ["#####"] * 4 + ["....."]
    # choosing the L (which fits nowhere) over the line (which fits) skips the copy with no erase
    _, states = _play(RULES, ["e5"], kiln=LINE_AND_L, phase="group",
                      warehouses={"red": bottom_row_free})
    assert PHASE_NAMES[int(states[-1]._phase)] == "sale"
    # neither fits: the erase is offered, every painted cell or keep
    nothing_fits = ["#####", "#.#.#", "#####", ".#.#.", "#####"]
    _, states = _play(RULES, ["h3", "x11"], kiln=LINE_AND_L, warehouses={"red": nothing_fits})
    assert PHASE_NAMES[int(states[1]._phase)] == "erase" and int(states[1].legal_action_mask.sum()) == 21
    assert _warehouse(states[-1], 0)[0] == ".####"


def test_a_winning_sale_ends_the_game_before_its_lines_are_erased():
    full_rows = ["#####", "#####", "..#..", ".....", "....."]
    _, states = _play(RULES, ["$r12"], kiln=SINGLES, phase="sale", points=[15, 0], warehouses={"red": full_rows})
    assert bool(states[-1].terminated) and np.asarray(states[-1].rewards).tolist() == [1.0, 0.0]
    assert _warehouse(states[-1], 0) == full_rows
    _, states = _play(RULES, ["$r12"], kiln=SINGLES, phase="sale", points=[13, 0], warehouses={"red": full_rows})
    assert not bool(states[-1].terminated) and _warehouse(states[-1], 0)[:2] == [".....", "....."]


def test_the_turn_limit_ends_the_game_as_a_draw():
    _, states = _play({"turn_limit": 1}, ["c8", "p11"], kiln=SINGLES)
    assert bool(states[-1].terminated) and np.asarray(states[-1].rewards).tolist() == [0.5, 0.5]


def test_advanced_variant_two_copies_two_sales_and_one_erase_a_turn():
    _, states = _play(ADVANCED, ["c8", "p11", "p55"], kiln=SINGLES)
    assert _warehouse(states[-1], 0)[0] == "#...." and _warehouse(states[-1], 2)[4] == "....#"
    env, states = _play(ADVANCED, ["$r1", "$c1"], kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"},
                        phase="sale", points=[4, 0, 7, 0], warehouses=RED_ROW_GREEN_COLUMN)
    assert np.asarray(states[-1]._points).tolist() == [5, 0, 8, 0]  # each colour's own disc
    assert np.asarray(env.scores(states[-1])).tolist() == [8, 0]  # a seat scores its higher disc
    _, states = _play(ADVANCED, ["h4", "keep", "x55"], kiln=RED_AND_GREEN_LINES,
                      warehouses={"red": CHECKERBOARD, "green": CHECKERBOARD})
    assert _warehouse(states[-1], 0) == CHECKERBOARD and _warehouse(states[-1], 2)[4] == "#.#.."
    assert int(states[-1].current_player) == 1


@pytest.mark.parametrize("seat", [0, 2])
def test_a_complete_tie_for_the_start_is_broken_by_the_chance_outcome(seat):
    # every group of every colour is a single tile: the three players tie
    env, _ = _environment((("players", 3),))
    fill = ["RBGY".index(letter) for row in SINGLES for letter in row]
    state = _init_with_chance(env)(jnp.asarray(fill + [0, seat]))  # the black tile on b8
    assert int(state.current_player) == seat
    assert np.asarray(state._chance).tolist() == fill + [0, seat]
