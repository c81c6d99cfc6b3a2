"""Azul's evaluation, position by position: each feature moves the value by
what a player would expect it to be worth (see games/azul/heuristics.py)."""

from __future__ import annotations

import pytest

import tileworks
from tileworks.games.azul import position
from tileworks.games.azul.heuristics import PARTIAL


def value(**fields):
    fields.setdefault("centre", "kk")  # drafting goes on
    state = position(tileworks.load_game("azul"), **fields)
    return state.evaluate(0)


def lines(*p1):
    return [list(p1), [""] * 5]


def walls(*p1):
    return [list(p1), ["....."] * 5]


def test_a_full_line_is_worth_the_points_its_tile_will_score():
    # blue and yellow already on the top row; a full red line 1 will make a run of 3
    wall = walls("by...", ".....", ".....", ".....", ".....")
    with_line = value(walls=wall, lines=lines("r", "", "", "", ""))
    without = value(walls=wall)
    assert with_line - without == 3


def test_full_lines_are_tiled_top_to_bottom_so_lower_tiles_count_upper_ones():
    # blue to row 1 column 1 (1 point), then white to row 2 column 1 joins it (2 points)
    assert value(lines=lines("b", "ww", "", "", "")) - value() == 1 + 2


def test_a_part_filled_line_counts_a_discounted_share_of_its_tile():
    # two of three blue tiles on line 3: an isolated tile would score 1
    assert value(lines=lines("", "", "bb", "", "")) - value() == pytest.approx(PARTIAL * 2 / 3)


def test_floor_tiles_cost_what_the_round_end_will_take():
    assert value(floors=["rrr", ""]) - value() == -4


def test_tiles_towards_a_column_bonus_are_worth_more_than_scattered_ones():
    column = walls("b....", "w....", "k....", ".....", ".....")
    scattered = walls("b....", "..y..", "....r", ".....", ".....")
    assert value(walls=column) > value(walls=scattered)


def test_at_the_end_of_the_game_the_value_is_the_score():
    game = tileworks.load_game("azul")
    state = position(game, points=[31, 12], phase="over", to_move=-4,
                     walls=walls("byrkw", ".....", ".....", ".....", "....."))
    assert state.evaluate(0) == 31
