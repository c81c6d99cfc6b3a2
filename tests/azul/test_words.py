"""Azul told in words: the game log's sentence for each kind of move, the
reason a refused move is refused, and the wall-tiling announced with its
parts, in English and Japanese."""

from __future__ import annotations

import pytest

import tileworks
from tileworks import IllegalActionError
from tileworks.core.i18n import language
from tileworks.core.scoring import announce, recording
from tileworks.games.azul import position

EMPTY_WALL = ["....."] * 5


def drafting(**fields):
    """P1 to draft in round 1: factory 1 holds 3 red and a blue, factory 2
    two yellow and two black, the centre two white and the marker."""
    base = dict(factories=["rrrb", "yykk", "", "", ""], centre="ww")
    base.update(fields)
    return position(tileworks.load_game("azul"), **base)


def words(state, move):
    return state.describe(state.string_to_action(move))


def test_a_draft_says_how_many_tiles_of_which_colour_go_where():
    state = drafting()
    assert words(state, "1r3") == "P1 takes 3 red from factory 1 to line 3"
    assert words(state, "2kf") == "P1 takes 2 black from factory 2 to the floor"


def test_tiles_that_do_not_fit_the_line_are_said_to_fall_to_the_floor():
    # line 2 already holds one red: one more fits, two fall
    state = drafting(lines=[["", "r", "", "", ""], [""] * 5])
    assert words(state, "1r2") == "P1 takes 3 red from factory 1 to line 2 (2 to the floor)"


def test_the_first_to_take_from_the_centre_is_said_to_take_the_marker():
    state = drafting()
    assert words(state, "cw2") == "P1 takes 2 white from the centre (with the first-player marker) to line 2"
    taken = drafting(marker_in_centre=False, marker_holder=1)
    assert words(taken, "cw2") == "P1 takes 2 white from the centre to line 2"


def test_the_words_follow_the_players_language():
    state = drafting()
    with language("ja"):
        assert words(state, "1r3") == "P1 が工房 1から赤を 3 枚取り、ライン 3へ"


@pytest.mark.parametrize(("fields", "move", "reason"), [
    ({}, "1y1", "factory 1 has no yellow"),
    ({"centre": ""}, "cw1", "the centre has no white"),
    ({"lines": [["", "b", "", "", ""], [""] * 5]}, "1r2", "line 2 already holds blue"),
    ({"lines": [["", "rr", "", "", ""], [""] * 5]}, "1r2", "line 2 is full"),
    # red sits in column 3 of row 1 on the coloured wall
    ({"walls": [["..r..", ".....", ".....", ".....", "....."], EMPTY_WALL]}, "1r1", "row 1 of P1's wall already has red"),
])
def test_a_refused_draft_says_why_and_changes_nothing(fields, move, reason):
    state = drafting(**fields)
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        state.string_to_action(move)
    assert str(refused.value) == f"{move!r} is not legal: {reason}"
    action = (int(move[0]) - 1 if move[0] != "c" else 5) * 30 + "byrkw".index(move[1]) * 6 + int(move[2]) - 1
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_action(action)
    assert state.to_json() == before


def test_a_refusal_is_explained_in_japanese_too():
    with language("ja"), pytest.raises(IllegalActionError, match="工房 1 に黄はありません"):
        drafting().string_to_action("1y1")


def test_the_wall_tiling_is_announced_with_its_parts():
    # the last draft of round 1: P1 completes line 1 (blue scores 1), P2's one
    # floor tile (the marker) costs nothing from 0 points; P1's two floor tiles cost 2 of 5
    state = position(tileworks.load_game("azul"), centre="y", marker_in_centre=False, marker_holder=1,
                     lines=[["b", "", "", "", ""], [""] * 5], floors=["kk", ""], points=[5, 3])
    before = state.clone()
    with recording() as parts:
        state.apply_action(state.string_to_action("cy3"))
    assert announce(before, state, parts) == (
        "Wall-tiling of round 1",
        ["P1 scores −1 (wall tiles 1, floor penalties −2)", "P2 scores −1 (floor penalties −1)"],
    )
    with language("ja"):
        assert announce(before, state, parts) == (
            "ラウンド 1 の壁貼り",
            ["P1 に −1 点（壁のタイル 1, 床の減点 −2）", "P2 に −1 点（床の減点 −1）"],
        )


def test_a_grey_wall_placement_is_told_with_its_column():
    game = tileworks.load_game("azul", variant="grey")
    state = position(game, phase="place", lines=[["r", "", "", "", ""], [""] * 5], place_line=0,
                     factories=[""] * 5, centre="")
    assert words(state, "r1c4") == "P1 places the red tile of line 1 in column 4"
