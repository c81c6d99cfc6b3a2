"""Properties of the KILN engine over arbitrary kilns and inputs (Hypothesis)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import tileworks
from tileworks import IllegalActionError
from tileworks.games.kiln import board, position

GAME = tileworks.load_game("kiln")

kilns = st.permutations(list("R" * 9 + "B" * 9 + "G" * 9 + "Y" * 9)).map(
    lambda tiles: ["".join(tiles[6 * y : 6 * y + 6]) for y in range(6)]
)


@given(kilns, st.integers(0, 23))
def test_pushing_back_from_the_opposite_cell_restores_the_kiln(rows, border):
    masks = [sum(1 << i for i, ch in enumerate("".join(rows)) if ch == letter) for letter in "RBGYK"]
    original = masks.copy()
    out = board.push(masks, 4, border)  # the black tile goes in
    assert sum(m.bit_count() for m in masks) == 36
    assert [m.bit_count() for m in masks] == [
        m.bit_count() + (1 if t == 4 else 0) - (1 if t == out else 0) for t, m in enumerate(original)
    ]
    back = board.push(masks, out, board.OPPOSITE[border])
    assert back == 4 and masks == original


@given(kilns, st.integers(0, 4))
def test_largest_groups_are_connected_disjoint_and_largest(rows, colour):
    mask = sum(1 << i for i, ch in enumerate("".join(rows)) if ch == "RBGY"[colour % 4])
    largest = board.largest_groups(mask)
    everything = board.groups(mask)
    assert sum(g.bit_count() for g in everything) == mask.bit_count()
    assert largest == tuple(g for g in everything if g.bit_count() == max(x.bit_count() for x in everything))
    for group in largest:
        assert board.grow(group & -group, mask) == group


@settings(max_examples=200)
@given(kilns, st.text(max_size=12))
def test_typed_text_is_a_legal_move_or_a_clear_error_and_never_changes_the_state(rows, text):
    state = position(GAME, kiln=rows)
    before = json.dumps(state.to_json())
    try:
        action = state.string_to_action(text)
    except IllegalActionError as exc:
        assert str(exc)
    else:
        assert action in state.legal_actions()
    assert json.dumps(state.to_json()) == before
