"""Tiles told in words: a placement names the tile as it lies and its cell,
a draw never names its tile, and a refused move says why."""

from __future__ import annotations

import pytest

import tileworks
from tileworks import IllegalActionError
from tileworks.core.i18n import language
from tileworks.games.tiles import position


def start(**fields):
    """P1 (white) holds an all-grey and an all-white tile beside the first tile,
    white north, grey east, black south, white west, at 0,0; P2 holds an all-black."""
    return position(tileworks.load_game("tiles"), layout=[[0, 0, "wgbw"]], hands=[["gggg", "wwww"], ["bbbb"]], **fields)


def test_a_placement_names_the_tile_as_it_lies_and_the_cell():
    state = start()
    assert state.describe(state.string_to_action("gggg@1,0")) == "P1 places gggg at 1,0"
    with language("ja"):
        assert state.describe(state.string_to_action("gggg@1,0")) == "P1 が gggg を 1,0 に置きます"


def test_a_draw_never_names_the_tile():
    state = start(phase="draw", to_move=-1)
    assert {state.describe(kind) for kind in state.legal_actions()} == {"P1 draws a tile"}


@pytest.mark.parametrize(("move", "reason"), [
    ("bbbb@1,0", "P1 holds no bbbb"),
    ("wwww@0,0", "0,0 already holds a tile"),
    ("wwww@5,5", "5,5 is not an empty cell beside the tiles down"),
    ("wwww@1,0", "wwww does not match the colours beside 1,0"),  # the first tile's east side is grey
    ("discard wwww", "a tile of P1's hand fits: place one instead of discarding"),
    ("pass", "P1 still holds tiles: a pass is only for an empty hand"),
])
def test_a_refused_move_says_why_and_changes_nothing(move, reason):
    state = start()
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        state.string_to_action(move)
    assert str(refused.value) == f"{move!r} is not legal: {reason}"
    assert state.to_json() == before
