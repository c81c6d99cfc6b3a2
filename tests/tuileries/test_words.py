"""Tuileries told in words: a placement names the tile and the square (and
an extra turn it earns), a draw never names its tile, and a refused move
says why."""

from __future__ import annotations

import pytest

import tileworks
from tileworks import IllegalActionError
from tileworks.core.i18n import language
from tileworks.games.tuileries import position


def game():
    return tileworks.load_game("tuileries")


def test_a_placement_names_the_tile_and_the_square():
    state = position(game(), board={}, hands=[["rnd", "bks"], ["yjc"]])
    assert state.describe(state.string_to_action("rnd@c3")) == "P1 places the red knight of diamonds on c3"
    with language("ja"):
        assert state.describe(state.string_to_action("rnd@c3")) == "P1 がダイヤの赤のナイトを c3 に置きます"


def test_a_placement_worth_five_is_told_to_earn_an_extra_turn():
    # on d3 the red knight of diamonds makes three groups of two: red knights with c3,
    # knights of diamonds with e3, red diamonds with d4: 6 points, an extra turn
    board = {"c3": "rns", "f3": "yjh", "c6": "gkc", "f6": "yqs", "e3": "bnd", "d4": "rqd"}
    state = position(game(), board=board, hands=[["rnd"], ["yjc"]])
    assert state.score_for(16 * 2 + 4 * 2 + 2, 8 * 2 + 3) == 6
    assert state.describe(state.string_to_action("rnd@d3")) == \
        "P1 places the red knight of diamonds on d3 and earns an extra turn"
    assert state.describe(state.string_to_action("rnd@h8")) == "P1 places the red knight of diamonds on h8"


def test_a_draw_never_names_the_tile():
    state = position(game(), board={"c3": "rnd"}, hands=[["bks"], ["yjc"]], phase="replace", to_move=-1)
    told = {state.describe(tile) for tile in state.legal_actions()}
    assert told == {"P1 draws a replacement tile"}


@pytest.mark.parametrize(("move", "reason"), [
    ("gqh@c6", "P1 holds no green queen of hearts"),
    ("bks@c3", "c3 already holds a tile"),
    ("bks@d4", "the first four tiles go on the circle squares (c3, f3, c6, f6)"),
])
def test_a_refused_placement_says_why(move, reason):
    state = position(game(), board={"c3": "rnd"}, hands=[["bks"], ["yjc"]])
    with pytest.raises(IllegalActionError) as refused:
        state.string_to_action(move)
    assert str(refused.value) == f"{move!r} is not legal: {reason}"
