"""Azul rule tests, each worked out by hand from a position.

Colours: b blue, y yellow, r red, k black, w white. Walls are written top row
first; on the coloured wall row r holds colour c in column (c + r) % 5:

    b y r k w
    w b y r k
    k w b y r
    r k w b y
    y r k w b

Unless a test says otherwise the position is the last draft of a round: P1
takes the last tiles from the centre, and P2 already holds the first-player
marker (one floor space, -1).
"""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks import IllegalActionError
from tileworks.core import sample_chance
from tileworks.games.azul import position

EMPTY_WALL = ["....."] * 5


def azul(**options):
    return tileworks.load_game("azul", **options)


def play(state, *moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def fields(state):
    return state.to_json()["state"]


def last_draft(game=None, **kw):
    game = game or azul()
    n = game.num_players()
    base = dict(centre="y", marker_in_centre=False, marker_holder=1, starter=0)
    base.update(kw)
    base.setdefault("lines", [[""] * 5 for _ in range(n)])
    base.setdefault("walls", [EMPTY_WALL] * n)
    return position(game, **base)


# -- wall-tiling scores ----------------------------------------------------------
def test_an_isolated_tile_scores_one():
    state = last_draft(lines=[["b", "", "", "", ""], [""] * 5])
    play(state, "cy3")
    assert fields(state)["walls"][0][0] == "b...."
    assert state.scores() == [1, 0]  # P2: 0 - 1 for the marker, but never below 0
    assert fields(state)["lines"][0] == ["", "", "y", "", ""]  # an incomplete line stays


def test_a_tile_joining_a_row_and_a_column_scores_both_runs():
    # the blue tile lands between white and yellow (a row of 3) and between
    # yellow and white (a column of 3): 3 + 3 = 6
    walls = [[".y...", "w.y..", ".w...", ".....", "....."], EMPTY_WALL]
    state = last_draft(walls=walls, lines=[["", "bb", "", "", ""], [""] * 5], centre="r")
    play(state, "cr3")
    assert fields(state)["walls"][0][1] == "wby.."
    assert state.scores()[0] == 6
    assert fields(state)["lid"][0] == 1  # the second blue of the line goes to the lid


def test_a_tile_in_a_row_only_scores_the_row():
    walls = [["by...", ".....", ".....", ".....", "....."], EMPTY_WALL]
    state = last_draft(walls=walls, lines=[["", "", "", "", ""], [""] * 5], centre="r")
    play(state, "cr1")
    assert state.scores()[0] == 3


def test_a_full_floor_with_the_marker_loses_fourteen():
    state = last_draft(points=[20, 0], marker_holder=0, floors=["bbbbbb", ""])
    assert fields(state)["floor_spaces"] == [7, 0]
    play(state, "cyf")  # the floor is full: the yellow goes to the lid
    assert state.scores() == [6, 0]
    assert fields(state)["lid"] == [6, 1, 0, 0, 0]
    assert fields(state)["floors"] == ["", ""]


def test_floor_penalties_follow_the_floor_line():
    for spaces, lost in enumerate((0, 1, 2, 4, 6, 8, 11, 14)):
        state = last_draft(points=[30, 0], centre="", factories=["y", "", "", "", ""],
                           marker_holder=1, floors=["k" * max(0, spaces - 1), ""])
        play(state, "1yf" if spaces else "1y2")
        assert state.scores()[0] == 30 - lost


def test_a_round_that_starts_with_too_few_tiles_in_bag_and_lid():
    # 4 players, each wall holding 20 tiles: only 3 tiles in the bag and 2 in
    # the lid before this round's floors go to the lid.
    wall = ["byrk.", "wbyr.", "kwby.", "rkwb.", "yrkw."]
    lines = [["", "k", "rr", "yyy", "bbb"], ["", "k", "r", "", ""], [""] * 5, [""] * 5]
    state = last_draft(azul(players=4), walls=[wall] * 4, lines=lines, centre="w",
                       floors=["", "www", "", ""], lid=[0, 0, 0, 2, 0], points=[5, 10, 0, 0])
    assert fields(state)["bag"] == [1, 1, 1, 0, 0]
    play(state, "cwf")
    assert state.scores() == [4, 4, 0, 0]  # -1 for P1's white, -6 for P2's marker and 3 whites
    assert fields(state)["lid"] == [0, 0, 0, 2, 4]
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    play(state, "blue", "yellow", "red")  # the bag is empty: refilled from the lid
    assert fields(state)["lid"] == [0] * 5
    assert state.chance_outcomes() == [(3, 2 / 6), (4, 4 / 6)]
    play(state, "black", "black", "white", "white", "white", "white")
    # bag and lid are both empty: the round starts with partly filled factories
    assert fields(state)["factories"][:4] == ["byrk", "kwww", "w", ""]
    assert state.current_player() == 1  # P2 took the marker, so P2 starts


# -- the end ---------------------------------------------------------------------
def test_end_bonuses_for_a_row_a_column_and_a_colour():
    # P1 completes the top row with white (5 points for the row run); the wall
    # also has all of column 1 and all five blues.
    wall = ["byrk.", "wb...", "k.b..", "r..b.", "y...b"]
    state = last_draft(walls=[wall, EMPTY_WALL], lines=[["w", "", "", "", ""], [""] * 5], points=[10, 0])
    play(state, "cy2")
    assert state.is_terminal()
    assert state.scores() == [10 + 5 + 2 + 7 + 10, 0]
    assert state.returns() == [1.0, 0.0]


@pytest.mark.parametrize(
    "wall, bonus",
    [
        (["byrkw", ".....", ".....", ".....", "....."], 2),   # a complete row
        (["b....", "w....", "k....", "r....", "y...."], 7),   # a complete column
        (["b....", ".b...", "..b..", "...b.", "....b"], 10),  # all five blues
    ],
)
def test_each_end_bonus(wall, bonus):
    from tileworks.games.azul.scoring import end_bonus

    state = position(azul(), walls=[wall, EMPTY_WALL], phase="over", to_move=-4)
    assert end_bonus(state.walls[0:5]) == bonus


def test_the_game_goes_on_while_no_row_is_complete():
    state = last_draft(lines=[["b", "", "", "", ""], [""] * 5])
    play(state, "cy3")
    assert not state.is_terminal() and state.is_chance_node()


def finished(**kw):
    base = dict(phase="over", to_move=-4, points=[30, 30], round=5)
    base.update(kw)
    return position(azul(tiebreak=kw.pop("tiebreak", "seed")), **base)


TWO_ROWS = ["byrkw", "wbyrk", ".....", ".....", "....."]          # 10 tiles, 2 rows
ONE_ROW_MORE_TILES = ["byrkw", "wbyr.", "kw...", ".....", "....."]  # 11 tiles, 1 row


def test_seed_tiebreak_most_wall_tiles():
    state = position(azul(), phase="over", to_move=-4, points=[30, 30], walls=[ONE_ROW_MORE_TILES, TWO_ROWS])
    assert state.returns() == [1.0, 0.0]


def test_seed_tiebreak_then_fewest_floor_tiles_then_shared():
    state = position(azul(), phase="over", to_move=-4, points=[30, 30], walls=[TWO_ROWS, TWO_ROWS], last_floor=[2, 1])
    assert state.returns() == [0.0, 1.0]
    state = position(azul(), phase="over", to_move=-4, points=[30, 30], walls=[TWO_ROWS, TWO_ROWS], last_floor=[1, 1])
    assert state.returns() == [0.5, 0.5]


def test_official_tiebreak_most_complete_rows_then_shared():
    game = azul(tiebreak="official")
    state = position(game, phase="over", to_move=-4, points=[30, 30], walls=[ONE_ROW_MORE_TILES, TWO_ROWS])
    assert state.returns() == [0.0, 1.0]
    state = position(game, phase="over", to_move=-4, points=[30, 30], walls=[TWO_ROWS, TWO_ROWS], last_floor=[2, 1])
    assert state.returns() == [0.5, 0.5]


def test_higher_score_wins_whatever_the_tiebreak():
    state = position(azul(), phase="over", to_move=-4, points=[31, 30], walls=[EMPTY_WALL, TWO_ROWS])
    assert state.returns() == [1.0, 0.0]


# -- drafting ---------------------------------------------------------------------
def drafting(**kw):
    base = dict(factories=["bbyr", "rrrr", "", "", ""], centre="yy",
                walls=[["b....", ".....", ".....", ".....", "....."], EMPTY_WALL],
                lines=[["", "y", "rrr", "", ""], [""] * 5])
    base.update(kw)
    return position(azul(), **base)


def legal(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_drafting_restrictions():
    state = drafting()
    moves = legal(state)
    # blue: not line 1 (blue already on that wall row), not line 2 (holds yellow),
    # not line 3 (full)
    assert [m for m in moves if m.startswith("1b")] == ["1b4", "1b5", "1bf"]
    assert [m for m in moves if m.startswith("1y")] == ["1y1", "1y2", "1y4", "1y5", "1yf"]
    with pytest.raises(IllegalActionError, match="1b1"):
        play(state, "1b1")


def test_taking_from_a_factory_moves_the_rest_to_the_centre():
    state = play(drafting(), "1b4")
    assert fields(state)["factories"][0] == ""
    assert fields(state)["centre"] == "yyyr"
    assert fields(state)["lines"][0][3] == "bb"
    assert state.current_player() == 1


def test_excess_tiles_fall_to_the_floor_and_overflow_to_the_lid():
    state = play(drafting(floors=["kkkkkk", ""]), "2r1")  # 1 red fits, 3 fall, the floor has 1 space
    assert fields(state)["lines"][0][0] == "r"
    assert fields(state)["floors"][0] == "rkkkkkk"  # floor tiles listed in colour order
    assert fields(state)["lid"][2] == 2


def test_first_to_take_from_the_centre_takes_the_marker():
    state = play(drafting(), "cy5")
    assert fields(state)["marker_holder"] == 0 and fields(state)["floor_spaces"][0] == 1
    play(state, "1bf")  # P2: blue to the floor; the yellow and red join the centre
    assert fields(state)["marker_holder"] == 0 and fields(state)["floor_spaces"][1] == 2
    play(state, "cyf")  # P1 takes the one yellow from the centre: no second marker
    assert fields(state)["floor_spaces"][0] == 2


def test_nobody_took_the_marker_so_the_same_player_starts():
    state = position(azul(), factories=["bbbb", "", "", "", ""], to_move=1, starter=0)
    play(state, "1b5")
    assert fields(state)["starter"] == 0
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0


def test_notation_reads_source_colour_destination():
    state = drafting()
    assert state.string_to_action("1B4") == state.string_to_action(" 1b4 ")
    assert state.action_to_string(state.string_to_action("cyf")) == "cyf"
    with pytest.raises(IllegalActionError, match="cannot read"):
        state.string_to_action("factory one")
    with pytest.raises(IllegalActionError, match="P1 takes tiles"):
        state.string_to_action("7b4")  # there is no seventh factory with 2 players


# -- grey wall ---------------------------------------------------------------------
GREY_WALL = ["wbr..", ".....", "r....", "...k.", "....k"]


def grey_last_draft(**kw):
    # P1's wall: red already in columns 1 (row 3) and 3 (row 2); black in columns 4 and 5
    walls = [[".....", "wbr..", "r....", "...k.", "....k"], EMPTY_WALL]
    lines = [["r", "kk", "", "", ""], ["b", "", "", "", ""]]
    base = dict(walls=walls, lines=lines, points=[5, 3])
    base.update(kw)
    return last_draft(azul(variant="grey"), **base)


def test_grey_wall_the_player_chooses_a_column_without_that_colour():
    state = play(grey_last_draft(), "cy3")
    assert state.current_player() == 0
    assert legal(state) == ["r1c2", "r1c4", "r1c5"]
    with pytest.raises(IllegalActionError):
        play(state, "r1c1")  # column 1 already holds red
    play(state, "r1c4")
    assert fields(state)["walls"][0][0] == "...r."


def test_grey_wall_a_line_that_fits_nowhere_goes_to_the_floor():
    state = play(grey_last_draft(), "cy3", "r1c4")
    # line 2 (two blacks): the empty spaces of row 2 are in columns that hold
    # black, so both tiles fall to the floor, which is scored once P1's lines are done
    assert fields(state)["last_floor"][0] == 2 and fields(state)["lid"][3] == 2
    assert state.scores()[0] == 5 + 1 - 2  # the red scored 1, the two floor tiles cost 2
    assert state.current_player() == 1  # P2 places next, in turn order
    assert legal(state) == ["r1c1", "r1c2", "r1c3", "r1c4", "r1c5"]
    play(state, "r1c3")
    assert state.scores() == [4, 3 + 1 - 1]
    assert state.is_chance_node()  # the next round is being dealt


def test_grey_wall_keeps_the_drafting_restriction_by_row():
    walls = [["..b..", ".....", ".....", ".....", "....."], EMPTY_WALL]
    state = position(azul(variant="grey"), walls=walls, factories=["bbyr", "", "", "", ""])
    assert "1b1" not in legal(state) and "1b2" in legal(state)


# -- conservation ---------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["standard", "grey"])
def test_all_100_tiles_are_accounted_for_in_every_state(players, variant):
    game = azul(players=players, variant=variant)
    rng = random.Random(players * 10 + len(variant))
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.tiles_in_play() == 100
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
        assert state.tiles_in_play() == 100


# -- the round-limit safeguard when nothing is left to deal --------------------------
# Every wall row holds blue, yellow, red and black and no white; all 20 white
# tiles wait in pattern lines that can never fill, one sits on factory 1, and
# bag and lid are empty. Once P4 takes it, no round has a tile to deal or
# draft: the rounds run out on their own until the limit ends the game.
NO_WHITE = ["byrk.", ".byrk", "k.byr", "rk.by", "yrk.b"]
WHITE_STUCK_IN_LINES = [["", "w", "ww", "www", "wwww"], ["", "", "", "", "wwww"], ["", "w", "ww", "ww", ""], [""] * 5]


@pytest.mark.parametrize("variant", ["standard", "grey"])
@pytest.mark.parametrize("limit", [2, 100, 1000])
def test_rounds_with_nothing_to_deal_run_to_the_round_limit_and_end_cleanly(variant, limit):
    state = position(azul(players=4, round_limit=limit, variant=variant), walls=[NO_WHITE] * 4,
                     lines=WHITE_STUCK_IN_LINES, factories=["w"] + [""] * 8, to_move=3, starter=3)
    play(state, "1w5")  # the last tile on the table goes to P4's fifth line
    assert state.is_terminal() and state.decision() == "the game is over"
    fields = state.to_json()["state"]
    assert fields["round"] == limit
    assert fields["lines"][3][4] == "w"  # still waiting for four more whites
    # no row and no column is complete; blue, yellow, red and black are: 4 x 10
    assert state.scores() == [40, 40, 40, 40]
    assert state.returns() == [0.25] * 4
