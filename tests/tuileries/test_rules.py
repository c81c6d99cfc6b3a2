"""Tuileries rule tests from positions a player would recognise.

Tiles are colour (b y r g), value (k q n j: king, queen, knight, jack) and
sign (s h d c: spades, hearts, diamonds, clubs): ``rnd`` is the red knight of
diamonds. The circle squares are c3, f3, c6 and f6.
"""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks import SPECTATOR, IllegalActionError
from tileworks.core import sample_chance
from tileworks.games.tuileries import position
from tileworks.games.tuileries.constants import tile_name


def tuileries(**options):
    return tileworks.load_game("tuileries", **options)


def play(state, *moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


# Tiles on the circle squares that share nothing with their neighbours below.
CIRCLE_FILLERS = {"c3": "yjs", "f3": "gkh", "c6": "bjc", "f6": "yqs"}


def test_figure_4_red_knight_of_diamonds_scores_8_and_an_extra_turn():
    board = {
        "e4": "rnh", "f4": "rnc",  # two red knights to the right: a trimino (3)
        "d3": "bnd", "d2": "ynd",  # two knights of diamonds below: a trimino (3)
        "d5": "rqd",               # the red queen of diamonds above: a domino (2)
        "c5": "gqd", "e3": "bnh", "f3": "gnh",  # no group with the red knight of diamonds
        "c3": "yks", "c6": "bjs", "f6": "yjh",
    }
    state = position(tuileries(), board=board, hands=[["rnd", "gks"], ["bkd"]])
    play(state, "rnd@d4")
    assert state.scores() == [8, 0]
    assert state.is_chance_node()  # the replacement draw...
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0  # ...then the extra turn


# Around d4: the east arm adds red knights (colour and value), the south arm
# knights of diamonds (value and sign), the north arm red diamonds (sign and colour).
ARMS = {
    "east": [("e4", "rnh"), ("f4", "rnc"), ("g4", "rns")],
    "south": [("d3", "bnd"), ("d2", "ynd"), ("d1", "gnd")],
    "north": [("d5", "rkd"), ("d6", "rqd"), ("d7", "rjd")],
}


def arms_position(east, south, north, **options):
    board = dict(CIRCLE_FILLERS)
    for arm, length in (("east", east), ("south", south), ("north", north)):
        board.update(ARMS[arm][:length])
    return position(tuileries(**options), board=board, hands=[["rnd", "gjd", "rkh"], ["bkd"]])


# The rulebook's table: every way to score, as (east, south, north) arm lengths.
TABLE = [
    (1, (0, 0, 0)),
    (2, (1, 0, 0)),
    (3, (2, 0, 0)),
    (4, (3, 0, 0)), (4, (1, 1, 0)),
    (5, (1, 2, 0)),
    (6, (1, 3, 0)), (6, (2, 2, 0)), (6, (1, 1, 1)),
    (7, (2, 3, 0)), (7, (1, 1, 2)),
    (8, (3, 3, 0)), (8, (1, 1, 3)), (8, (1, 2, 2)),
    (9, (2, 2, 2)), (9, (1, 2, 3)),
    (10, (2, 2, 3)), (10, (1, 3, 3)),
    (11, (2, 3, 3)),
    (12, (3, 3, 3)),
]


@pytest.mark.parametrize("points, arms", TABLE, ids=[f"{p}-{a}" for p, a in TABLE])
def test_every_score_of_the_rulebook_table(points, arms):
    state = arms_position(*arms)
    play(state, "rnd@d4")
    assert state.scores()[0] == points
    state.apply_action(state.legal_actions()[0])  # the replacement draw
    assert state.current_player() == (0 if points >= 5 else 1)


def test_the_first_four_tiles_go_on_the_circles_and_score_one_each():
    game = tuileries()
    state = game.new_initial_state()
    rng = random.Random(7)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    for turn in range(4):
        squares = {state.action_to_string(a).split("@")[1] for a in state.legal_actions()}
        assert squares <= {"c3", "f3", "c6", "f6"} and len(squares) == 4 - turn
        mover = state.current_player()
        before = state.scores()[mover]
        state.apply_action(rng.choice(state.legal_actions()))
        assert state.scores()[mover] == before + 1
        while state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
    squares = {state.action_to_string(a).split("@")[1] for a in state.legal_actions()}
    assert len(squares) == 60  # afterwards any empty square


# -- who starts (ruling 7) -----------------------------------------------------------------
def test_chance_picks_the_first_player_before_the_deal_each_seat_alike():
    state = tuileries(players=4).new_initial_state()
    assert state.decision() == "chance picks the first player"
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["P1", "P2", "P3", "P4"]
    state.apply_action(state.string_to_action("P3"))
    assert state.decision() == "chance deals a tile to P1"  # the deal itself goes round from P1


def test_the_first_player_plays_first_and_turns_go_round_from_there():
    game = tuileries(players=3)
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("P3"))
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    assert state.current_player() == 2  # P3 opens
    movers = []
    while len(movers) < 3:  # the circles score 1 each: no extra turn among the first plays
        movers.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
        while state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
    assert movers == [2, 0, 1]  # P3, then P1, then P2


def test_who_started_is_shown_to_everyone():
    state = tuileries().new_initial_state()
    assert state.view(0)["first"] is None
    state.apply_action(state.string_to_action("P2"))
    for viewer in (0, 1, SPECTATOR):
        assert state.view(viewer)["first"] == 1
    assert "P2 started" in state.observation_string(0).splitlines()[0]
    assert "P2 started" in state.svg(SPECTATOR)
    assert state.to_json()["state"]["first"] == 1


def test_every_seat_starts_about_equally_often():
    starts = [0, 0, 0]
    for seed in range(300):
        state = tuileries(players=3).new_initial_state()
        state.apply_action(sample_chance(state, random.Random(seed)))
        starts[state.view(SPECTATOR)["first"]] += 1
    assert min(starts) > 70


def test_extra_turns_chain():
    state = arms_position(1, 1, 1)
    play(state, "rnd@d4")  # three dominoes: 6
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0
    # the red king of hearts at e5 pairs with the red king of diamonds (d5), the
    # red knight of hearts (e4) and the blue king of hearts put at f5 beforehand
    state = arms_position(1, 1, 1)
    board = state.to_json()["state"]["board"]
    board["f5"] = "bkh"
    state = position(tuileries(), board=board, hands=[["rnd", "rkh", "gjd"], ["bkd"]])
    play(state, "rnd@d4")
    state.apply_action(state.legal_actions()[0])
    play(state, "rkh@e5")
    assert state.scores()[0] == 6 + 6
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0  # a second extra turn in a row
    play(state, "gjd@a1")  # 1 point: the turn passes
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1


def test_bonus_tile_option_grows_the_hand_on_an_extra_turn():
    for bonus, size in ((False, 3), (True, 4)):
        state = arms_position(1, 1, 1, bonus_tile=bonus)
        play(state, "rnd@d4")
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        assert state.current_player() == 0
        assert state.view(0)["hand_sizes"][0] == size


def test_the_last_tiles_are_placed_with_an_empty_draw_and_the_game_ends():
    squares = [f"{f}{r}" for r in range(1, 9) for f in "abcdefgh" if f"{f}{r}" not in ("h7", "h8")]
    tiles = [tile_name(t) for t in range(64)]
    last_two, rest = tiles[:2], tiles[2:]
    state = position(tuileries(), board=dict(zip(squares, rest, strict=True)), hands=[[last_two[0]], [last_two[1]]],
                     pile=[], points=[10, 10])
    play(state, f"{last_two[0]}@h7")
    assert state.current_player() == 1  # no draw: straight to the next player
    play(state, f"{last_two[1]}@h8")
    assert state.is_terminal()
    assert sum(state.returns()) == 1.0


def test_a_player_with_no_tile_left_is_skipped():
    squares = [f"{f}{r}" for r in range(1, 9) for f in "abcdefgh"][:61]
    tiles = [tile_name(t) for t in range(64)]
    state = position(tuileries(players=3), board=dict(zip(squares, tiles[3:], strict=True)),
                     hands=[[tiles[0]], [], [tiles[1], tiles[2]]], pile=[])
    play(state, f"{tiles[0]}@f8")
    assert state.current_player() == 2  # P2 holds nothing


# -- options and notation ---------------------------------------------------------------
@pytest.mark.parametrize(
    "circles, message",
    [
        ("c3,f3,c6", "exactly four"),
        ("c3,c4,f3,f6", "c3 and c4 share a side"),
        ("c3,f3,c6,z9", "'z9' is not a square"),
        ("c3,c3,c6,f6", "exactly four different"),
    ],
)
def test_an_invalid_set_of_circles_is_refused(circles, message):
    with pytest.raises(ValueError, match=message):
        tuileries(circles=circles)


def test_circles_may_touch_at_a_corner():
    # c3 and d4 meet only at a corner: corner contact never makes a group
    game = tuileries(circles="c3,d4,e5,f6")
    assert game.options()["circles"] == ("c3", "d4", "e5", "f6")
    state = position(game, board={"c3": "rnd", "d4": "rnc"}, hands=[["rnh"], ["bkd"]])
    play = state.string_to_action("rnh@e5")
    state.apply_action(play)
    assert state.scores() == [1, 0]  # three red knights on a diagonal: no group


def test_other_circles_take_the_first_four_tiles():
    game = tuileries(circles="a1,h1,a8,h8")
    state = position(game, board={}, hands=[["rnd"], ["bkd"]])
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == [
        "rnd@a1", "rnd@a8", "rnd@h1", "rnd@h8",
    ]


def test_notation_and_rejected_moves():
    state = arms_position(0, 0, 0)
    assert state.string_to_action(" RND @ D4 ") == state.string_to_action("rnd@d4")
    with pytest.raises(IllegalActionError, match="cannot read"):
        state.string_to_action("red knight")
    with pytest.raises(IllegalActionError, match="P1 holds no blue king of diamonds"):
        state.string_to_action("bkd@d4")  # P2's tile
    with pytest.raises(IllegalActionError, match="c3 already holds a tile"):
        state.string_to_action("rnd@c3")  # taken


# -- hidden information ------------------------------------------------------------------
def test_views_hide_the_other_hands_and_resampling_keeps_what_the_seat_knows():
    game = tuileries(players=3)
    state = game.new_initial_state()
    rng = random.Random(2)
    while len(state.history()) < 40:
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert state.view(SPECTATOR)["hand"] is None
    assert "P1 hand" not in state.observation_string(1) and "P2 hand" in state.observation_string(1)
    hands = state.to_json()["state"]["hands"]
    seen = set()
    for i in range(10):
        other = state.resample_hidden(1, random.Random(i))
        assert other.to_json()["state"]["hands"][1] == hands[1]
        assert other.view(1) == state.view(1)
        replay = game.new_initial_state()
        for action in other.history():
            replay.apply_action(action)
        assert replay == other
        seen.add(str(other.to_json()["state"]["hands"][0]))
    assert len(seen) > 1
