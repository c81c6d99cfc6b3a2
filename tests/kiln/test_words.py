"""KILN told in words: each step of a turn as the game log says it, the
reason a refused move is refused, and a sale announced with its points."""

from __future__ import annotations

import pytest

from tileworks import IllegalActionError
from tileworks.core.i18n import language
from tileworks.core.scoring import announce, recording
from tileworks.games.kiln import position

from .test_rules import SELLING_EXAMPLE, SINGLES, THREE_DOMINOES, kiln


def words(state, move):
    return state.describe(state.string_to_action(move))


def test_each_step_of_a_turn_is_told_with_the_players_colour():
    assert words(position(kiln(), kiln=SINGLES), "c8") == "P1 (red) pushes the outer tile in at c8"
    assert words(position(kiln(), kiln=THREE_DOMINOES, phase="group"), "b7") == \
        "P1 (red) copies the largest red group at b7"
    selling = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE})
    assert words(selling, "$r35") == "P1 (red) sells rows 3, 5 of the red warehouse for 3 points"
    assert words(selling, "$r3") == "P1 (red) sells row 3 of the red warehouse for 1 point"
    assert words(selling, "pass") == "P1 (red) sells nothing"
    with language("ja"):
        assert words(selling, "$r35") == "P1 (赤) が赤の倉庫の行 3, 5 を売却（3 点）"


def test_a_sale_is_announced_with_its_points():
    state = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE})
    before = state.clone()
    with recording() as parts:
        state.apply_action(state.string_to_action("$r35"))
    assert announce(before, state, parts) == (None, ["P1 scores 3 (sales 3)"])


@pytest.mark.parametrize(("fields", "move", "reason"), [
    ({}, "b8", "the outer tile is on b8 already: push it in from another border cell"),
    ({"phase": "group", "kiln": THREE_DOMINOES}, "d4", "d4 is not in one of the largest red groups"),
    ({"phase": "sale", "warehouses": {"red": SELLING_EXAMPLE}}, "$r1", "rows 1 of the red warehouse are not all complete"),
])
def test_a_refused_move_says_why_and_changes_nothing(fields, move, reason):
    state = position(kiln(), **{"kiln": SINGLES, **fields})
    before = state.to_json()
    with pytest.raises(IllegalActionError) as refused:
        state.string_to_action(move)
    assert str(refused.value) == f"{move!r} is not legal: {reason}"
    assert state.to_json() == before
