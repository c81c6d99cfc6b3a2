"""Resampling hidden hands from a copy of the position (``HiddenHandState``):
the redeal a copy gives is exactly the position its rewritten history
replays to, and where a replay would forget other draws it is replayed."""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks.core import HiddenHandState, sample_chance


def redeals(name: str, seed: int, **options):
    """Each seat's redeal (two seeds each) at every fifth position of a seeded random game."""
    state = tileworks.load_game(name, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if len(state.history()) % 5 == 4:
            for seat in range(state.game().num_players()):
                for deal in range(2):
                    yield state, seat, state.resample_hidden(seat, random.Random(deal))
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))


def replayed(state):
    position = state.game().new_initial_state()
    for action in state.history():
        position.apply_action(action)
    return position


@pytest.mark.parametrize("name, options", [("tuileries", {"players": 3}), ("tiles", {})])
def test_a_redeal_is_the_position_its_history_replays_to(name, options, monkeypatch):
    copied = []
    reaches = HiddenHandState._copy_reaches

    def noted(self, history, slots):
        copied.append(reaches(self, history, slots))
        return copied[-1]

    monkeypatch.setattr(HiddenHandState, "_copy_reaches", noted)
    redealt = 0
    for state, seat, redeal in redeals(name, 7, **options):
        again = replayed(redeal)
        assert again == redeal and again.to_json() == redeal.to_json()
        assert again.evidence == redeal.evidence
        assert redeal.view(seat) == state.view(seat)
        redealt += redeal != state
    assert redealt > 20  # the unseen tiles really were dealt anew
    assert sum(copied) > 0.6 * len(copied)  # most redeals were made from a copy


def test_tuileries_tiles_are_one_of_a_kind_so_every_redeal_is_a_copy(monkeypatch):
    monkeypatch.setattr(HiddenHandState, "_replayed", lambda self, history: pytest.fail("replayed"))
    assert sum(1 for _ in redeals("tuileries", 3)) > 50


def test_a_redeal_that_would_forget_another_draw_is_replayed():
    """Tiles, 2 players: P2 redeals P1's hand, and a draw P1 still holds
    takes the kind of a tile P1 drew later and has since played. Replaying
    that history forgets the earlier draw when the tile is played (the
    first of its kind in the hand), so a copy of the position with the new
    hand would keep the wrong draw; the redeal is the replay instead."""
    game = tileworks.load_game("tiles")
    for seed in range(200):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while len(state.history()) < 40 and not state.is_terminal():
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        for deal in range(20):
            redeal = state.resample_hidden(1, random.Random(deal))
            history = redeal.history()
            slots = [(0, index) for index in state.hand_slots[0] if state.private_to[index] == 0]
            if state._copy_reaches(history, slots):
                continue
            copied = state._with_hidden({0: [history[index] for index in state.hand_slots[0]]}, redeal._undrawn())
            copied._history = list(history)
            assert replayed(copied) != copied  # the copy's history leads elsewhere: other draws in hand
            assert replayed(redeal) == redeal and redeal.hand_slots != state.hand_slots
            return
    pytest.fail("no redeal in 200 games needed a replay")
