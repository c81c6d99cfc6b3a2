"""KILN rule tests, each a position a player would recognise.

Kiln rows are written top (rank 7) to bottom (rank 2), files b to g;
warehouse rows top to bottom, ``#`` painted. Letters: R red, B blue,
G green, Y yellow, K the black tile.
"""

from __future__ import annotations

import pytest

import tileworks
from tileworks import CHANCE, TERMINAL, IllegalActionError
from tileworks.games.kiln import position

# Every group of every colour is a single tile.
SINGLES = ["RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY"]
EMPTY = ["....."] * 5


def kiln(**options):
    return tileworks.load_game("kiln", **options)


def play(state, *moves):
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


def warehouse(state, colour="red"):
    return state.to_json()["state"]["warehouses"][colour]


# -- selling --------------------------------------------------------------------
SELLING_EXAMPLE = ["....#", "....#", "#####", "....#", "#####"]


def test_rulebook_selling_example_rows_3_and_5_score_3():
    state = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE})
    assert legal(state) == ["$r3", "$r5", "$r35", "$c5", "pass"]
    play(state, "$r35")
    assert state.scores() == [3, 0]
    assert warehouse(state) == ["....#", "....#", ".....", "....#", "....."]


def test_rulebook_selling_example_column_5_alone_scores_1():
    state = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE})
    play(state, "$c5")
    assert state.scores() == [1, 0]
    assert warehouse(state) == [".....", ".....", "####.", ".....", "####."]


def test_rows_and_columns_are_never_sold_together():
    state = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": SELLING_EXAMPLE})
    with pytest.raises(IllegalActionError):
        state.string_to_action("$r35c5")
    assert all(not (m.startswith("$r") and "c" in m) for m in legal(state))


@pytest.mark.parametrize("rows, price", [("1", 1), ("12", 3), ("123", 6), ("1234", 10), ("12345", 15)])
def test_triangular_prices(rows, price):
    state = position(kiln(), kiln=SINGLES, phase="sale", warehouses={"red": ["#####"] * 5})
    play(state, "$r" + rows)
    assert state.scores()[0] == price
    assert sum(row.count("#") for row in warehouse(state)) == 25 - 5 * len(rows)


def test_selling_is_optional():
    # mid-turn, a green tile outside: this turn's push did not release the black tile
    state = position(kiln(), kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"}, phase="sale",
                     warehouses={"red": SELLING_EXAMPLE})
    play(state, "pass")
    assert state.scores() == [0, 0]
    assert warehouse(state) == SELLING_EXAMPLE
    assert state.current_player() == 1


def test_no_sale_step_without_a_complete_line():
    state = position(kiln(), kiln=SINGLES)
    play(state, "c8", "p11")  # every red group is one tile: copy it to row 1, column 1
    assert state.current_player() == 1 and state.to_json()["state"]["phase"] == "push"


# -- winning ----------------------------------------------------------------------
def test_reaching_the_goal_wins_at_once():
    state = position(kiln(), kiln=SINGLES, phase="sale", points=[15, 16],
                     warehouses={"red": ["#####", "#####", ".....", ".....", "....."]})
    play(state, "$r12")
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.scores() == [18, 16]
    assert state.returns() == [1.0, 0.0]


def test_a_winning_sale_ends_the_game_before_its_lines_are_erased():
    # ruling 17: the win is declared first, so the sold rows stay painted
    full_rows = ["#####", "#####", "..#..", ".....", "....."]
    state = position(kiln(), kiln=SINGLES, phase="sale", points=[15, 0], warehouses={"red": full_rows})
    play(state, "$r12")
    assert state.is_terminal() and state.scores() == [18, 0]
    assert warehouse(state) == full_rows
    assert state.view()["seats"][0]["warehouses"][0] == full_rows


def test_a_sale_short_of_the_goal_erases_its_lines():
    state = position(kiln(), kiln=SINGLES, phase="sale", points=[13, 0],
                     warehouses={"red": ["#####", "#####", "..#..", ".....", "....."]})
    play(state, "$r12")
    assert not state.is_terminal() and state.scores() == [16, 0]
    assert warehouse(state) == [".....", ".....", "..#..", ".....", "....."]


def test_turn_limit_safeguard_ends_in_a_draw():
    state = position(kiln(turn_limit=1), kiln=SINGLES)
    play(state, "c8", "p11")
    assert state.is_terminal() and state.is_draw()
    assert state.returns() == [0.5, 0.5]


# -- starting player ----------------------------------------------------------------
def after_setup(rows, **options):
    """The position once chance has filled the kiln with ``rows`` and put the black tile on b8."""
    game = kiln(**options)
    state = position(game, kiln=rows, phase="black", outer={"tile": "K", "cell": None}, to_move=CHANCE)
    state.apply_action(state.string_to_action("b8"))
    return state


def test_owner_of_the_smallest_biggest_group_starts():
    # red's biggest group has 2 tiles, blue's only 1: blue (P2) starts
    rows = ["RRBGYB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY"]
    assert after_setup(rows).current_player() == 1


def test_tie_on_biggest_group_goes_to_the_next_group():
    # red has groups 2, 2, 1...; blue 2, 1, 1...: blue's second group is smaller
    rows = ["RRBGYB", "GYRBGY", "BGYRRB", "GYRBGY", "RBGYRB", "GYRYGB"]
    assert after_setup(rows).current_player() == 1


def test_colours_nobody_owns_do_not_compete():
    # yellow has the smallest lists of all, but with 2 players nobody plays yellow
    rows = ["RRBGYB", "GYRBGY", "BGYRRB", "GYRBGY", "RBGYRB", "GYRYGB"]
    state = after_setup(rows)
    assert state.current_player() == 1
    # with 4 players green (P3), all single tiles, has the smallest list
    assert after_setup(rows, players=4).current_player() == 2


def test_complete_tie_is_broken_by_chance_among_the_tied_players():
    state = after_setup(SINGLES, players=3)
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    play(state, "P3")
    assert state.current_player() == 2


def test_advanced_variant_compares_all_four_colours():
    # only red has a 2-tile group: blue/yellow's owner (P2) holds a smallest colour,
    # and so does P1 through green: complete tie between the two players
    rows = ["RRBGYB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY"]
    state = after_setup(rows, variant="advanced")
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]


# -- pushing ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "push, rows, outer",
    [
        # from the top: column c moves down, its bottom tile (Y) leaves to c1
        ("c8", ["RKGYRB", "GBRBGY", "RYGYRB", "GBRBGY", "RYGYRB", "GBRBGY"], {"tile": "Y", "cell": "c1"}),
        # from the right: rank 5 moves left, its leftmost tile (R) leaves to a5
        ("h5", ["RBGYRB", "GYRBGY", "BGYRBK", "GYRBGY", "RBGYRB", "GYRBGY"], {"tile": "R", "cell": "a5"}),
        # from the bottom: column e moves up, its top tile (Y) leaves to e8
        ("e1", ["RBGBRB", "GYRYGY", "RBGBRB", "GYRYGY", "RBGBRB", "GYRKGY"], {"tile": "Y", "cell": "e8"}),
        # from the left: rank 3 moves right, its rightmost tile (B) leaves to h3
        ("a3", ["RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY", "KRBGYR", "GYRBGY"], {"tile": "B", "cell": "h3"}),
    ],
)
def test_push_from_each_side(push, rows, outer):
    state = position(kiln(), kiln=SINGLES)
    play(state, push)
    fields = state.to_json()["state"]
    assert fields["kiln"] == rows
    assert fields["outer"] == outer


def test_the_outer_tile_must_move_to_a_different_border_cell():
    state = position(kiln(), kiln=SINGLES)  # the black tile waits on b8
    assert "b8" not in legal(state)
    assert "b1" in legal(state)  # the opposite end of its own column is allowed
    assert len(legal(state)) == 23
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="b8"):
        play(state, "b8")
    assert state.to_json() == before


# -- extra turns --------------------------------------------------------------------
# The black tile sits on b2 at the bottom of column b; a green tile waits outside.
BLACK_ON_B2 = ["RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "KYRBGY"]


def test_pushing_the_black_tile_out_gives_an_extra_turn():
    state = position(kiln(), kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"})
    play(state, "b8")  # pushes column b down: the black tile leaves to b1
    assert state.to_json()["state"]["outer"] == {"tile": "K", "cell": "b1"}
    play(state, "p11")
    assert state.current_player() == 0


def test_no_extra_turn_when_a_coloured_tile_comes_out():
    state = position(kiln(), kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"})
    play(state, "c8", "p11")
    assert state.current_player() == 1


def test_heat_token_gives_an_extra_turn_when_the_score_ends_on_it():
    state = position(kiln(heat_tokens=[5]), kiln=SINGLES, points=[2, 0],
                     warehouses={"red": ["#####", "#####", ".....", ".....", "....."]})
    play(state, "c8", "p51", "$r12")  # 2 + 3 = 5
    assert state.scores()[0] == 5
    assert state.current_player() == 0


def test_passing_over_a_heat_token_gives_nothing():
    state = position(kiln(heat_tokens=[5]), kiln=SINGLES, points=[4, 0],
                     warehouses={"red": ["#####", "#####", ".....", ".....", "....."]})
    play(state, "c8", "p51", "$r12")  # 4 + 3 = 7
    assert state.current_player() == 1


def test_standing_on_a_heat_token_without_scoring_gives_nothing():
    state = position(kiln(heat_tokens=[5]), kiln=SINGLES, points=[5, 0])
    play(state, "c8", "p11")
    assert state.current_player() == 1


def test_heat_token_and_black_tile_give_one_extra_turn_not_two():
    state = position(kiln(heat_tokens=[5]), kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"},
                     points=[2, 0], warehouses={"red": ["#####", "#####", ".....", ".....", "....."]})
    play(state, "b8", "p51", "$r12")  # black out and score ends on 5
    assert state.current_player() == 0
    play(state, "c8", "p11")  # the extra turn: a coloured tile comes out, nothing sold
    assert state.current_player() == 1


# -- copying ------------------------------------------------------------------------
THREE_DOMINOES = ["RRBGYB", "GYRBGY", "BGYRRB", "GYRBGY", "RBGYRB", "RYGBGY"]


def test_tied_groups_of_the_same_shape_are_one_choice():
    # two horizontal red dominoes (b7-c7 and e5-f5) and a vertical one (b3-b2)
    state = position(kiln(), kiln=THREE_DOMINOES, phase="group")
    assert legal(state) == ["b7", "b3"]
    assert state.string_to_action("f5") == state.string_to_action("b7")
    with pytest.raises(IllegalActionError, match="d6"):
        state.string_to_action("d6")  # a single red tile is not a largest group


def test_the_chosen_shape_is_copied_without_rotation():
    state = position(kiln(), kiln=THREE_DOMINOES, phase="group")
    play(state, "b3")  # the vertical domino
    assert len(legal(state)) == 20  # 5 columns x 4 positions
    play(state, "p45")
    assert warehouse(state) == [".....", ".....", ".....", "....#", "....#"]


def test_copying_is_compulsory_when_the_shape_fits():
    state = position(kiln(), kiln=THREE_DOMINOES, phase="group")
    play(state, "b7")
    assert all(move.startswith("p") for move in legal(state))
    with pytest.raises(IllegalActionError):
        state.string_to_action("pass")


def test_copy_only_onto_empty_cells():
    state = position(kiln(), kiln=THREE_DOMINOES, phase="group",
                     warehouses={"red": ["####.", "#####", "#####", "#####", "###.."]})
    play(state, "b7")  # the horizontal domino fits only on row 5, columns 4-5: no choice left
    assert warehouse(state) == ["####.", "#####", "#####", "#####", "#####"]


# Red's largest group is a line of six on rank 7.
RED_LINE = ["RRRRRR", "GYBGYB", "BGYRGY", "YBGBYG", "GYBRBY", "BGYGRB"]
CHECKERBOARD = ["#.#.#", ".#.#.", "#.#.#", ".#.#.", "#.#.#"]


def test_a_shape_too_long_for_the_warehouse_is_skipped():
    state = position(kiln(), kiln=RED_LINE, warehouses={"red": CHECKERBOARD})
    play(state, "h2")  # a push that leaves rank 7 alone
    assert warehouse(state) == CHECKERBOARD
    assert state.current_player() == 1


def test_a_shape_with_no_room_is_skipped():
    # a red domino, and a checkerboard warehouse with no two empty cells side by side
    state = position(kiln(), kiln=["RRBGYB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY"],
                     warehouses={"red": CHECKERBOARD})
    play(state, "h2")
    assert warehouse(state) == CHECKERBOARD
    assert state.current_player() == 1


def test_erase_rule_lets_the_player_erase_one_cell_when_the_copy_is_skipped():
    state = position(kiln(erase_rule=True), kiln=RED_LINE, warehouses={"red": CHECKERBOARD})
    play(state, "h2")
    assert legal(state)[-1] == "keep"
    assert len(legal(state)) == 13 + 1  # each painted cell, or keep
    play(state, "x11")
    assert warehouse(state)[0] == "..#.#"
    assert state.current_player() == 1


def test_erase_rule_can_be_declined():
    state = position(kiln(erase_rule=True), kiln=RED_LINE, warehouses={"red": CHECKERBOARD})
    play(state, "h2", "keep")
    assert warehouse(state) == CHECKERBOARD


def test_erase_rule_offers_nothing_with_an_empty_warehouse():
    state = position(kiln(erase_rule=True), kiln=RED_LINE)
    play(state, "h2")
    assert state.current_player() == 1


# Red's two largest groups tie at three tiles: a straight line b7-d7 and an L
# (e5, e4, f4). The warehouse has only its bottom row free: the line fits
# there, the L fits nowhere.
LINE_AND_L = ["RRRGYB", "GYBYRY", "BGYRBG", "YBGRRB", "GRBGYG", "BYGRBY"]
BOTTOM_ROW_FREE = ["#####"] * 4 + ["....."]


def test_choosing_the_unplaceable_l_over_a_line_that_fits_skips_the_copy_without_an_erase():
    # ruling 13: the erase rule is for a player who cannot copy any shape
    state = position(kiln(erase_rule=True), kiln=LINE_AND_L, phase="group", warehouses={"red": BOTTOM_ROW_FREE})
    assert legal(state) == ["b7", "e5"]  # the free choice among tied groups stays
    play(state, "e5")
    assert state.view()["phase"] == "sale"  # the four full rows may be sold; no erase step
    assert "keep" not in legal(state) and not any(m.startswith("x") for m in legal(state))
    assert warehouse(state) == BOTTOM_ROW_FREE


def test_choosing_the_line_that_fits_copies_it():
    state = position(kiln(erase_rule=True), kiln=LINE_AND_L, phase="group", warehouses={"red": BOTTOM_ROW_FREE})
    play(state, "b7")
    assert legal(state) == ["p51", "p52", "p53"]


def test_erase_is_offered_when_no_tied_largest_group_fits():
    # both tied groups need two free rows or three free cells side by side: neither fits
    nothing_fits = ["#####", "#.#.#", "#####", ".#.#.", "#####"]
    state = position(kiln(erase_rule=True), kiln=LINE_AND_L, warehouses={"red": nothing_fits})
    play(state, "h3")  # a push through rank 3 leaves both groups as they are
    assert state.view()["phase"] == "erase"  # no choice to make: every tied group is skipped alike
    assert legal(state)[-1] == "keep" and len(legal(state)) == 20 + 1


# -- advanced variant ------------------------------------------------------------------
def test_advanced_variant_copies_first_colour_then_second():
    state = position(kiln(variant="advanced"), kiln=SINGLES)
    play(state, "c8")
    assert state.view()["colour"] == "red"
    play(state, "p11")
    assert state.view()["colour"] == "green"
    play(state, "p55")
    assert warehouse(state, "red")[0] == "#...."
    assert warehouse(state, "green")[4] == "....#"
    assert state.current_player() == 1


# In the advanced variant with per-colour scoring (the default) "points"
# lists the discs by colour: red, blue, green, yellow.
RED_ROW_GREEN_COLUMN = {"red": ["#####"] + ["....."] * 4, "green": ["#...."] * 5}


def test_advanced_variant_sells_first_warehouse_then_second_each_moving_its_own_disc():
    state = position(kiln(variant="advanced"), kiln=BLACK_ON_B2, outer={"tile": "G", "cell": "h7"}, phase="sale",
                     points=[4, 0, 7, 0], warehouses=RED_ROW_GREEN_COLUMN)
    assert state.view()["colour"] == "red"
    play(state, "$r1")
    assert state.view()["colour"] == "green"
    play(state, "$c1")
    assert state.to_json()["state"]["points"] == [5, 0, 8, 0]  # red 4 -> 5, green 7 -> 8
    assert state.scores() == [8, 0]  # a player's score is their higher disc
    assert [seat["discs"] for seat in state.view()["seats"]] == [[5, 8], [0, 0]]
    assert state.current_player() == 1


def test_advanced_variant_with_combined_scoring_adds_both_sales_to_one_score():
    state = position(kiln(variant="advanced", advanced_scoring="combined"), kiln=BLACK_ON_B2,
                     outer={"tile": "G", "cell": "h7"}, phase="sale", points=[4, 0], warehouses=RED_ROW_GREEN_COLUMN)
    play(state, "$r1", "$c1")
    assert state.scores() == [6, 0]


def test_advanced_variant_wins_when_either_disc_reaches_the_goal():
    state = position(kiln(variant="advanced"), kiln=SINGLES, phase="sale", points=[3, 0, 16, 0],
                     warehouses=RED_ROW_GREEN_COLUMN)
    play(state, "$r1")  # red 3 -> 4: nothing yet
    assert not state.is_terminal()
    play(state, "$c1")  # green 16 -> 17: the goal
    assert state.is_terminal() and state.returns() == [1.0, 0.0] and state.scores() == [17, 0]


def test_advanced_variant_per_colour_discs_do_not_add_up_to_the_goal():
    # 9 + 9 would reach 17 on one combined score, but each disc stands alone
    state = position(kiln(variant="advanced"), kiln=SINGLES, phase="sale", points=[8, 0, 8, 0],
                     warehouses=RED_ROW_GREEN_COLUMN)
    play(state, "$r1", "$c1")
    assert not state.is_terminal() and state.scores() == [9, 0]


def test_advanced_variant_checks_the_win_after_each_scoring():
    state = position(kiln(variant="advanced"), kiln=SINGLES, phase="sale", points=[16, 0, 0, 0],
                     warehouses=RED_ROW_GREEN_COLUMN)
    play(state, "$r1")
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    assert warehouse(state, "green") == ["#...."] * 5  # never sold


def test_advanced_scoring_is_checked():
    with pytest.raises(ValueError, match="advanced_scoring"):
        kiln(variant="advanced", advanced_scoring="sum")


# Red and green each have a line of six (rank 7 and rank 2): too long for any warehouse.
RED_AND_GREEN_LINES = ["RRRRRR", "BYRYBY", "YBYBGB", "BRBYGY", "YBYGBR", "GGGGGG"]


def test_advanced_variant_erases_once_a_turn_when_both_copies_are_skipped():
    # ruling 14: two skipped copies still earn one erase
    state = position(kiln(variant="advanced", erase_rule=True), kiln=RED_AND_GREEN_LINES,
                     warehouses={"red": CHECKERBOARD, "green": CHECKERBOARD})
    play(state, "h4")  # a push through rank 4 leaves both lines whole
    assert state.view()["colour"] == "red" and state.view()["phase"] == "erase"
    play(state, "x11")
    assert warehouse(state, "red")[0] == "..#.#"
    assert warehouse(state, "green") == CHECKERBOARD  # no second erase
    assert state.current_player() == 1


def test_advanced_variant_erase_may_go_to_the_second_warehouse_instead():
    state = position(kiln(variant="advanced", erase_rule=True), kiln=RED_AND_GREEN_LINES,
                     warehouses={"red": CHECKERBOARD, "green": CHECKERBOARD})
    play(state, "h4")
    keep = next(choice for choice in state.choices() if choice["move"] == "keep")
    assert keep["label"] == "erase in green instead"
    play(state, "keep")
    assert state.view()["colour"] == "green" and state.view()["phase"] == "erase"
    play(state, "x55")
    assert warehouse(state, "green")[4] == "#.#.."
    assert warehouse(state, "red") == CHECKERBOARD
    assert state.current_player() == 1


def test_advanced_variant_erase_only_where_the_copy_was_skipped():
    # green's line of six is skipped; red copies its single tiles as usual
    rows = ["YRYRBR", "RGBBRB", "YRBRYG", "GYYBYB", "BRBRYY", "GGGGGG"]
    state = position(kiln(variant="advanced", erase_rule=True), kiln=rows,
                     warehouses={"red": CHECKERBOARD, "green": CHECKERBOARD})
    play(state, "h4", "p12")
    assert state.view()["colour"] == "green" and state.view()["phase"] == "erase"
    play(state, "keep")
    assert state.current_player() == 1


# -- heat tokens in the advanced variant (ruling 16) ---------------------------------
def test_heat_token_reached_by_the_first_of_two_movements_gives_an_extra_turn():
    # combined score 2: red's two rows take it to 5 (a token), green's column to 6
    state = position(kiln(variant="advanced", advanced_scoring="combined", heat_tokens=[5]), kiln=BLACK_ON_B2,
                     outer={"tile": "G", "cell": "h7"}, phase="sale", points=[2, 0],
                     warehouses={"red": ["#####", "#####"] + ["....."] * 3, "green": ["#...."] * 5})
    play(state, "$r12", "$c1")
    assert state.scores() == [6, 0]
    assert state.current_player() == 0


def test_heat_token_reached_by_either_disc_gives_an_extra_turn():
    # per colour: red stays short of 5, green lands on it
    state = position(kiln(variant="advanced", heat_tokens=[5]), kiln=BLACK_ON_B2,
                     outer={"tile": "G", "cell": "h7"}, phase="sale", points=[2, 0, 4, 0],
                     warehouses=RED_ROW_GREEN_COLUMN)
    play(state, "$r1", "$c1")  # red 2 -> 3, green 4 -> 5
    assert state.current_player() == 0


def test_two_movements_on_tokens_still_give_one_extra_turn():
    state = position(kiln(variant="advanced", heat_tokens=[5, 8]), kiln=BLACK_ON_B2,
                     outer={"tile": "G", "cell": "h7"}, phase="sale", points=[4, 0, 7, 0],
                     warehouses=RED_ROW_GREEN_COLUMN)
    play(state, "$r1", "$c1")  # red 4 -> 5, green 7 -> 8: both on tokens
    assert state.current_player() == 0
    play(state, "c8", "p11", "p11")  # the extra turn: coloured tile out, nothing sold
    assert state.current_player() == 1


def test_advanced_variant_needs_two_players():
    with pytest.raises(ValueError, match="players"):
        kiln(variant="advanced", players=3)


# -- setup ------------------------------------------------------------------------
def test_setup_draws_each_kiln_tile_from_what_is_left():
    state = kiln().new_initial_state()
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    for _ in range(9):
        play(state, "red")
    assert [a for a, _ in state.chance_outcomes()] == [1, 2, 3]
    assert state.chance_outcomes()[0][1] == pytest.approx(9 / 27)
    with pytest.raises(IllegalActionError, match="red"):
        play(state, "red")


def test_the_observation_carries_every_disc_by_colour():
    # red 3, blue 0, green 10, yellow 17 of 17
    state = position(kiln(variant="advanced"), kiln=SINGLES, points=[3, 0, 10, 16])
    discs = state.observation_tensor(0)[355:359]
    assert discs == pytest.approx([3 / 17, 0.0, 10 / 17, 16 / 17])
    combined = position(kiln(variant="advanced", advanced_scoring="combined"), kiln=SINGLES, points=[3, 8])
    assert combined.observation_tensor(0)[355:359] == pytest.approx([3 / 17, 8 / 17, 3 / 17, 8 / 17])
    standard = position(kiln(players=3), kiln=SINGLES, points=[1, 2, 4])
    assert standard.observation_tensor(0)[355:359] == pytest.approx([1 / 17, 2 / 17, 4 / 17, 0.0])
