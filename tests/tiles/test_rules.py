"""Tiles rule tests from positions a player would recognise.

A tile is written north, east, south, west: ``wbwg`` has a white north, a
black east, a white south and a grey west. x grows east and y north; the
first tile lies at 0,0.
"""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks import SPECTATOR, IllegalActionError, RecordError
from tileworks.cli.main import parse_options
from tileworks.core import sample_chance
from tileworks.games.tiles import position
from tileworks.games.tiles.tileset import TileSet

# The seed's scoring example. Around the hole at 1,-1:
#   D gwwg (0,0)   C gwww (1,0)   U wwbw (2,0)
#   L wgww (0,-1)  [hole]         R bwwb (2,-1)
# Placing wbwg in the hole joins L's grey east triangle to its own grey west
# (a grey area of 2 tiles), and its black east to R's black west and north and
# U's black south (a black area of 3 tiles): both close at once.
EXAMPLE = [[0, 0, "gwwg"], [0, -1, "wgww"], [1, 0, "gwww"], [2, 0, "wwbw"], [2, -1, "bwwb"]]
MOVE = "wbwg@1,-1"


def tiles(**options):
    return tileworks.load_game("tiles", **options)


def example(mover_colour, layout=EXAMPLE):
    others = [c for c in ("white", "grey", "black") if c != mover_colour]
    return position(tiles(), layout=layout, hands=[["wbwg", "gggg"], ["bbbb"]], colours=[mover_colour, others[0]])


@pytest.mark.parametrize("colour, points", [("grey", 1), ("black", 3), ("white", 0)])
def test_seed_scoring_example(colour, points):
    state = example(colour)
    state.apply_action(state.string_to_action(MOVE))
    assert state.scores() == [points, 0]  # the other player never scores on this move
    assert ({(1, 2), (2, 3)} & set(state.closed_areas())) == {(1, 2), (2, 3)}  # grey 2 tiles, black 3


def test_an_area_touching_a_tile_twice_counts_it_once():
    # the black area has four triangles (one of the new tile, two of R, one of U)
    # but touches three tiles: 3 points, not the 6 of four tiles
    state = example("black")
    state.apply_action(state.string_to_action(MOVE))
    assert (2, 3) in state.closed_areas() and state.scores()[0] == 3


def test_an_area_left_open_by_one_empty_neighbour_scores_nothing():
    # L is now wggw: its grey south triangle faces the empty cell 0,-2
    layout = [[0, 0, "gwwg"], [0, -1, "wggw"], [1, 0, "gwww"], [2, 0, "wwbw"], [2, -1, "bwwb"]]
    state = example("grey", layout)
    state.apply_action(state.string_to_action(MOVE))
    assert state.scores() == [0, 0]
    state = example("black", layout)
    state.apply_action(state.string_to_action(MOVE))
    assert state.scores() == [3, 0]  # the black area is closed all the same


def test_placements_must_match_every_touching_triangle():
    state = example("grey")
    assert state.string_to_action("wbwg@1,-1") in state.legal_actions()
    with pytest.raises(IllegalActionError, match="wbgw@1,-1"):
        state.string_to_action("wbgw@1,-1")  # not a tile in hand... and not matching
    with pytest.raises(IllegalActionError):
        state.string_to_action("gggg@1,-1")  # grey north against C's white south
    with pytest.raises(IllegalActionError):
        state.string_to_action("gggg@5,5")  # touches nothing


def test_symmetric_tiles_give_one_action_per_result():
    # two copies of gwgw (it looks the same after a half turn) and the plain wwww
    state = position(tiles(), layout=[[0, 0, "wwww"]], hands=[["gwgw", "gwgw", "bbbb"], ["bbgg"]])
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    assert len(moves) == len(set(moves))
    # each side of the white tile takes gwgw in exactly one way
    assert sorted(moves) == ["gwgw@-1,0", "gwgw@1,0", "wgwg@0,-1", "wgwg@0,1"]


# -- turns ---------------------------------------------------------------------------
def test_a_player_with_no_fitting_tile_must_discard():
    # no tile in hand has a white triangle, and every free side of the first tile is white
    state = position(tiles(), layout=[[0, 0, "wwww"]], hands=[["gggg", "bbbb", "bbbg"], ["wgww"]])
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "discard bbbb", "discard bbbg", "discard gggg",
    ]
    state.apply_action(state.string_to_action("discard gggg"))
    assert state.view()["discards"] == ["gggg"]
    assert state.view()["hand_sizes"] == [2, 1]
    assert state.is_chance_node()  # P2 draws before playing


def remaining_codes(*used):
    left = list(TileSet.default().codes)
    for code in used:
        left.remove(next(c for c in left if TileSet.default().kind_of(c) == TileSet.default().kind_of(code)))
    return left


def test_a_player_with_an_empty_hand_passes_and_the_game_ends_with_the_last_tile():
    discards = remaining_codes("wwww", "wgww")
    state = position(tiles(), layout=[[0, 0, "wwww"]], hands=[[], ["wgww"]], discards=discards, points=[0, 0])
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass"]
    state.apply_action(state.string_to_action("pass"))
    assert state.current_player() == 1  # nothing to draw: P2 plays at once
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.returns() == [0.5, 0.5]


def test_the_highest_score_wins():
    discards = remaining_codes("wwww", "wgww")
    state = position(tiles(), layout=[[0, 0, "wwww"]], hands=[[], ["wgww"]], discards=discards, points=[3, 1])
    state.apply_action(state.string_to_action("pass"))
    state.apply_action(state.legal_actions()[0])
    assert state.returns() == [1.0, 0.0]


def test_setup_deals_seven_each_and_turns_up_the_first_tile():
    state = tiles().new_initial_state()
    state.apply_action(state.string_to_action("grey,black"))
    state.apply_action(state.string_to_action("P2"))
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    view = state.view(1)
    assert view["hand_sizes"] == [7, 8]  # seven each, and P2, who starts, has drawn
    assert len(view["layout"]) == 1 and view["layout"][0][:2] == [0, 0]
    assert state.current_player() == 1


# -- hidden information --------------------------------------------------------------------
def mid_game(seed=3):
    game = tiles(players=3)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while len(state.history()) < 60:
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


def test_views_show_only_the_viewers_own_hand():
    state = mid_game()
    for seat in range(3):
        view = state.view(seat)
        assert view["hand"] == state.to_json()["state"]["hands"][seat]
    assert state.view(SPECTATOR)["hand"] is None
    text = state.observation_string(1)
    assert "P2 hand:" in text and "P1 hand:" not in text and "P3 hand:" not in text


def test_resampling_keeps_what_the_seat_knows_and_deals_the_rest_anew():
    state = mid_game()
    seat = state.current_player() if state.current_player() >= 0 else 0
    mine = state.to_json()["state"]["hands"][seat]
    seen_other_hands = set()
    for i in range(20):
        other = state.resample_hidden(seat, random.Random(i))
        fields = other.to_json()["state"]
        assert fields["hands"][seat] == mine
        assert fields["layout"] == state.to_json()["state"]["layout"]
        assert other.view(seat) == state.view(seat)
        replay = tiles(players=3).new_initial_state()
        for action in other.history():
            replay.apply_action(action)
        assert replay == other  # a history that really leads there
        seen_other_hands.add(tuple(tuple(h) for s, h in enumerate(fields["hands"]) if s != seat))
    assert len(seen_other_hands) > 1


# -- what a forced discard reveals ----------------------------------------------------------
# Only the all-white tile lies on the table when P1 discards: P1 held no tile
# with a white triangle (any of them would have fitted against it).
FORCED_DISCARD = [
    "white,grey", "P1",
    "bbbb", "gggg", "bggg", "bggg", "bbgg", "bbgg", "bgbg",  # P1's hand
    "gwww", "gwww", "bwww", "bwww", "ggww", "ggww", "bbww",  # P2's hand
    "wwww",  # the first tile, at 0,0
    "bgbg", "discard gggg",  # P1 draws, nothing fits: a forced discard
    "gwgw", "wbww@0,-1",  # P2 draws and plays below the first tile
]


def after(moves, **options):
    state = tiles(**options).new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def test_a_resampled_hand_never_holds_a_tile_that_fitted_at_a_forced_discard():
    state = after(FORCED_DISCARD)
    assert state.decision() == "P1 draws a tile"
    seen = set()
    for seed in range(200):
        other = state.resample_hidden(1, random.Random(seed))  # P2 imagines P1's hand
        p1_hand = other.view(0)["hand"]
        assert len(p1_hand) == 7
        assert not any("w" in code for code in p1_hand), f"seed {seed}: P1 could not have held {p1_hand}"
        replay = tiles().new_initial_state()
        for action in other.history():
            replay.apply_action(action)  # the discard stays legal in the resampled history
        assert replay == other  # and the history leads to the resampled hands, not the true ones
        seen.add(tuple(p1_hand))
    assert len(seen) > 5  # the hands that fit the evidence are dealt anew


def test_resampling_after_a_forced_discard_is_uniform_over_the_hands_that_fit():
    # Nine tiles without white are unseen by P2 (bbbb once; bbbg, bggg, bbgg,
    # bgbg twice each; the one gggg was discarded). Every 7 of those 9 is an
    # equally likely hand, so each tile is in it 7 times in 9.
    state = after(FORCED_DISCARD)
    tileset = tiles().tileset
    copies = {code: n for code, n in zip(tileset.kinds, tileset.count) if "w" not in code and code != "gggg"}
    assert sum(copies.values()) == 9
    deals = 400
    counts = dict.fromkeys(copies, 0)
    for seed in range(deals):
        for code in state.resample_hidden(1, random.Random(seed)).view(0)["hand"]:
            counts[code] += 1
    for code, n in copies.items():
        assert counts[code] / (n * deals) == pytest.approx(7 / 9, abs=0.06), code


def test_the_player_who_discarded_keeps_their_hand_when_they_resample():
    state = after(FORCED_DISCARD)
    mine = state.view(0)["hand"]
    for seed in range(20):
        other = state.resample_hidden(0, random.Random(seed))
        assert other.view(0)["hand"] == mine
        assert other.view(0) == state.view(0)


def test_resampling_a_position_without_a_history_deals_without_replaying():
    state = after(FORCED_DISCARD)
    data = state.to_json()
    data["history"] = []
    data["state"]["hand_slots"] = [[], []]
    data["state"]["private_to"] = []
    bare = tiles().state_from_json(data)
    other = bare.resample_hidden(1, random.Random(1))
    assert other.history() == []
    assert other.view(1) == bare.view(1)


# -- records ------------------------------------------------------------------------------
@pytest.mark.parametrize("field, value", [
    ("layout", [[0, 0, "ww"]]), ("hands", [["bbb"], []]), ("discards", ["g"]), ("deck", {"": 1}),
])
def test_a_record_with_a_short_tile_code_names_the_field(field, value):
    data = after(FORCED_DISCARD).to_json()
    data["state"][field] = value
    with pytest.raises(RecordError, match=f"state field '{field}.*is not a tile code"):
        tiles().state_from_json(data)


@pytest.mark.parametrize("field, value", [
    ("hand_slots", [[2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15]]),  # P1's draw of bgbg left out
    ("private_to", [-1] * 22),  # as if every draw were public
])
def test_a_record_whose_draw_slots_contradict_its_history_is_refused(field, value):
    data = after(FORCED_DISCARD).to_json()
    data["state"][field] = value
    with pytest.raises(RecordError, match=f"state field '{field}' contradicts the history"):
        tiles().state_from_json(data)


def test_draw_slots_without_a_history_are_refused():
    data = after(FORCED_DISCARD).to_json()
    data["history"] = []
    with pytest.raises(RecordError, match="hand_slots"):
        tiles().state_from_json(data)


# -- tile sets ------------------------------------------------------------------------------
def test_a_custom_tile_set_from_codes_or_a_file_named_on_the_command_line(tmp_path):
    codes = ["wwww", "gggg", "bbbb", "wgbw"] * 5
    game = tiles(tile_set=",".join(codes))
    assert len(game.tileset) == 20 and game.options()["tile_set"] == ",".join(codes)
    path = tmp_path / "my.tiles"
    path.write_text("# my set\n" + "\n".join(codes) + "\n")
    assert parse_options("tiles", [f"tile_set=@{path}"]) == {"tile_set": ",".join(codes)}
    with pytest.raises(ValueError, match="cannot read option file"):
        parse_options("tiles", ["tile_set=@/nonexistent/file.tiles"])


def test_the_engine_never_reads_a_file_named_in_an_option(tmp_path):
    path = tmp_path / "my.tiles"
    path.write_text(",".join(["wgbw"] * 20))
    with pytest.raises(ValueError, match=r"tile 1 '@.*' is not a tile code"):
        tiles(tile_set=f"@{path}")


@pytest.mark.parametrize(
    "value, message",
    [
        ("wwww,wwwx" + ",wwww" * 20, r"tile 2 'wwwx' is not a tile code"),
        ("wwww,ww", r"tile 2 'ww' is not a tile code"),
        (",".join(["wwww"] * 10), r"10 tiles is too small"),
        (",".join(["wwww"] * 101), r"101 tiles is too large"),
    ],
)
def test_malformed_or_impossible_tile_sets_are_refused(value, message):
    with pytest.raises(ValueError, match=message):
        tiles(tile_set=value)
