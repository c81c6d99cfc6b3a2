"""Block Dominoes rule tests, each a position a player would recognise.

The line is written left to right as tiles ``a-b`` with matching pips where
two tiles meet; hands list their tiles. Moves: ``3-5L`` plays the 3-5 on
the left end, ``3-5R`` on the right end, ``pass``, ``draw``.
"""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks import SPECTATOR, TERMINAL, IllegalActionError
from tileworks.core import sample_chance
from tileworks_dominoes import position


def dominoes(**options):
    return tileworks.load_game("dominoes", **options)


def play(state, *moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def line(state):
    return state.to_json()["state"]["line"]


# -- matching the ends -------------------------------------------------------------
def test_a_tile_goes_on_an_end_that_shows_one_of_its_numbers():
    # the line shows 6 on the left and 3 on the right
    state = position(dominoes(), line=["6-6", "6-3"], hands=[["3-5", "1-6", "0-2"], ["4-4"]])
    assert legal(state) == ["1-6L", "3-5R"]  # the 0-2 fits neither end
    play(state, "3-5R")
    assert line(state) == ["6-6", "6-3", "3-5"]  # turned so that the threes meet
    assert state.view()["ends"] == [6, 5]


def test_a_tile_played_on_the_left_is_turned_to_match():
    state = position(dominoes(), line=["6-6", "6-3"], hands=[["1-6", "0-2"], ["4-4"]])
    play(state, "1-6L")
    assert line(state) == ["1-6", "6-6", "6-3"]


def test_a_tile_that_fits_both_ends_may_go_on_either():
    state = position(dominoes(), line=["5-2", "2-3"], hands=[["3-5", "0-0"], ["4-4"]])
    assert legal(state) == ["3-5L", "3-5R"]
    play(state, "3-5L")
    assert line(state) == ["3-5", "5-2", "2-3"] and state.view()["ends"] == [3, 3]


def test_with_equal_ends_a_tile_is_offered_once():
    state = position(dominoes(), line=["3-5", "5-2", "2-3"], hands=[["3-4", "0-0"], ["4-4"]])
    assert legal(state) == ["3-4L"]  # left or right would make the same line


def test_a_double_is_one_tile_with_the_same_number_at_both_ends_of_it():
    state = position(dominoes(), line=["6-3"], hands=[["3-3", "0-1"], ["4-4"]])
    play(state, "3-3R")
    assert line(state) == ["6-3", "3-3"] and state.view()["ends"] == [6, 3]


def test_a_tile_that_does_not_match_is_refused_and_nothing_changes():
    state = position(dominoes(), line=["6-6", "6-3"], hands=[["0-2", "3-5"], ["4-4"]])
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="0-2"):
        play(state, "0-2L")
    with pytest.raises(IllegalActionError):
        play(state, "4-4R")  # P2's tile
    with pytest.raises(IllegalActionError, match="end"):
        play(state, "3-5")  # after the lead an end must be named
    assert state.to_json() == before


# -- the lead ----------------------------------------------------------------------
def dealt(hands, **options):
    """The position just after the deal, ``hands`` dealt in seat order."""
    game = dominoes(**options)
    state = game.new_initial_state()
    for hand in hands:
        for tile in hand:
            play(state, tile)
    return state


HANDS_2P = [["0-0", "1-2", "2-5", "3-4", "0-6", "1-1", "4-6"],
            ["5-5", "0-1", "2-3", "3-6", "1-5", "0-4", "2-6"]]


def test_the_highest_double_leads_and_must_be_played_first():
    state = dealt(HANDS_2P)
    assert state.current_player() == 1  # P2 holds the 5-5, the highest double dealt
    assert legal(state) == ["5-5"]
    assert state.decision() == "P2 leads with 5-5, the highest tile dealt"
    play(state, "5-5")
    assert line(state) == ["5-5"] and state.current_player() == 0


def test_with_no_double_dealt_the_heaviest_tile_leads():
    hands = [["0-1", "1-2", "2-4", "3-4", "0-6", "1-3", "4-6"], ["0-2", "0-3", "2-3", "3-6", "1-5", "0-4", "2-6"]]
    state = dealt(hands)
    assert state.current_player() == 0 and legal(state) == ["4-6"]  # 10 pips beats 3-6's 9


def test_everyone_sees_the_lead_tile_but_not_the_rest_of_the_hand():
    state = dealt(HANDS_2P)
    assert "5-5" in state.observation_string(0)  # P1 is told what P2 must lead
    assert "2-3" not in state.observation_string(0)
    for seed in range(20):  # however P1 imagines P2's hand, it holds the 5-5 and no 6-6
        imagined = state.resample_hidden(0, random.Random(seed)).to_json()["state"]["hands"][1]
        assert "5-5" in imagined and "6-6" not in imagined


# -- passing and the blocked game ------------------------------------------------
def test_a_player_with_no_matching_tile_must_pass():
    state = position(dominoes(), line=["6-6", "6-3"], hands=[["0-2", "1-4"], ["4-4", "3-5"]])
    assert legal(state) == ["pass"]
    play(state, "pass")
    assert state.current_player() == 1 and legal(state) == ["3-5R"]


def test_a_pass_tells_the_others_what_the_passer_does_not_hold():
    state = dealt([["6-6", "0-2", "1-4", "0-0", "1-1", "2-2", "0-1"],
                   ["6-3", "4-4", "3-5", "5-5", "0-3", "0-4", "0-5"]])
    play(state, "6-6", "3-6L")  # P1 leads the 6-6, P2 plays the 3-6: the ends show 3 and 6
    assert legal(state) == ["pass"]
    play(state, "pass")
    for seed in range(30):  # however P2 imagines P1's hand, it holds no 6 and no 3
        imagined = state.resample_hidden(1, random.Random(seed)).to_json()["state"]["hands"][0]
        assert not any("6" in tile or "3" in tile for tile in imagined), imagined


def test_a_blocked_game_goes_to_the_lightest_hand_which_scores_the_other_pips():
    # the line is the 6-6 alone; every other six sleeps in the boneyard
    state = position(dominoes(), line=["6-6"], hands=[["0-1", "2-2"], ["4-4", "3-4"]])
    play(state, "pass")
    assert not state.is_terminal()
    play(state, "pass")  # a full round of passes: nobody can play
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.returns() == [1.0, 0.0]  # P1 holds 5 pips, P2 15
    assert state.scores() == [15, 0]
    view = state.view(SPECTATOR)
    assert view["blocked"] and view["final_hands"] == [["0-1", "2-2"], ["3-4", "4-4"]] and view["pips"] == [5, 15]
    assert "blocked: the lightest hand wins" in state.observation_string()


def test_equal_lightest_hands_share_a_blocked_game():
    state = position(dominoes(players=3), line=["6-6"], hands=[["0-2"], ["1-1"], ["4-4"]])
    play(state, "pass", "pass", "pass")
    assert state.returns() == [0.5, 0.5, 0.0]  # 2 pips, 2 pips, 8 pips
    assert state.scores() == [8, 8, 0]
    assert "Game over: P1 and P2 share the win" in state.observation_string()


# -- the domino -------------------------------------------------------------------
def test_playing_the_last_tile_wins_and_scores_every_pip_left_in_the_other_hands():
    state = position(dominoes(players=3), line=["6-6", "6-3"], hands=[["3-5"], ["4-4", "1-2"], ["0-0", "6-5"]])
    play(state, "3-5R")
    assert state.is_terminal() and not state.view()["blocked"]
    assert state.returns() == [1.0, 0.0, 0.0]
    assert state.scores() == [8 + 3 + 0 + 11, 0, 0]
    assert "Game over: P1 wins" in state.observation_string()


# -- the Draw variant ----------------------------------------------------------------
def test_in_the_draw_game_a_player_who_cannot_play_draws_instead_of_passing():
    state = position(dominoes(draw=True), line=["6-6", "6-3"], hands=[["0-2", "1-4"], ["4-4", "3-5"]])
    assert legal(state) == ["draw"]
    play(state, "draw")
    assert state.is_chance_node() and state.decision() == "chance gives P1 a tile from the boneyard"
    before = state.view(1)["hand_sizes"][0]
    play(state, "3-3")  # chance: the 3-3 fits
    assert state.current_player() == 0 and state.view(1)["hand_sizes"][0] == before + 1
    assert legal(state) == ["3-3R"]


def test_in_the_draw_game_a_player_passes_once_the_boneyard_is_empty():
    everything_else = [f"{a}-{b}" for a in range(7) for b in range(a, 7) if (a, b) not in ((0, 2), (6, 6))]
    state = position(dominoes(draw=True), line=["6-6"], hands=[["0-2"], everything_else], boneyard=[])
    assert legal(state) == ["pass"]
    assert state.decision() == "P1 plays a tile on the 6 or the 6 end, or passes"


def test_the_block_game_never_draws():
    state = position(dominoes(), line=["6-6", "6-3"], hands=[["0-2", "1-4"], ["4-4", "3-5"]])
    with pytest.raises(IllegalActionError):
        play(state, "draw")


# -- hidden hands -------------------------------------------------------------------
def test_each_seat_sees_its_own_hand_and_the_sizes_of_the_others():
    state = position(dominoes(), line=["6-6"], hands=[["0-2", "1-4"], ["4-4", "3-5", "5-6"]])
    assert state.view(0)["hand"] == ["0-2", "1-4"] and state.view(0)["hand_sizes"] == [2, 3]
    assert state.view(SPECTATOR)["hand"] is None
    assert "4-4" not in state.svg(0) and "0-2" in state.svg(0)
    assert state.view(1)["legal"] == [] and state.view(0)["legal"]


def test_random_games_end_with_a_winner_and_a_line_whose_tiles_match():
    for players, draw in ((2, False), (3, False), (4, False), (2, True)):
        game = dominoes(players=players, draw=draw)
        for seed in range(25):
            state, rng = game.new_initial_state(), random.Random(seed)
            while not state.is_terminal():
                state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                                   else rng.choice(state.legal_actions()))
            tiles = line(state)
            assert all(a[2] == b[0] for a, b in zip(tiles, tiles[1:]))
            assert sum(state.returns()) == pytest.approx(1.0)
