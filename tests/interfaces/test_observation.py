"""Observation tensors as the rules documents lay them out (the conformance
suite checks sizes, bounds, masks and that nothing hidden leaks in, for
every configuration)."""

from __future__ import annotations


import pytest

import tileworks


@pytest.mark.parametrize("name, options, size", [
    ("kiln", {}, 360), ("kiln", {"players": 4}, 360), ("azul", {}, 384), ("azul", {"players": 3}, 560),
    ("azul", {"players": 4}, 736), ("tiles", {}, 26580), ("tuileries", {}, 914), ("tuileries", {"players": 6}, 934),
])
def test_sizes_are_the_documented_ones(name, options, size):
    assert tileworks.load_game(name, **options).observation_tensor_size() == size


def test_kiln_planes_show_each_tile_where_it_lies(random_position):
    state = random_position("kiln", 5)
    tensor = state.observation_tensor(0)
    for cell in range(36):
        assert tensor[36 * state.tile_at(cell) + cell] == 1.0
    assert sum(tensor[:180]) == 36  # the kiln is always full; the 37th tile is outside
    assert tensor[180 + state.outer_tile] == 1.0 and tensor[185 + state.outer_cell] == 1.0


def test_azul_wall_cells_carry_their_colour(random_position):
    state = random_position("azul", 40)
    game = state.game()
    tensor = state.observation_tensor(1)
    seat_base = 5 * game.factories + 16  # factories, centre, marker, bag, lid
    for seat in range(2):
        wall = seat_base + 163 * seat + 30
        for cell in range(25):
            colour = state.wall_colour_at(seat, cell)
            assert tensor[wall + 5 * cell: wall + 5 * cell + 5] == [float(c == colour) for c in range(5)]


def test_tiles_layout_uses_the_frame_of_placement_actions(random_position):
    state = random_position("tiles", 6)
    game = state.game()
    action = state.legal_actions()[0]
    assert action < game.discard_base
    _, _, key = state.placement(action)
    state.apply_action(action)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # the frame may have grown by the new tile: look where the new frame puts it
    tensor = state.observation_tensor(0)
    area = game.width ** 2
    from tileworks.games.tiles.constants import cell_xy
    x, y = cell_xy(key)
    minx, miny = state.bounds[0], state.bounds[2]
    cell = (y - miny + 1) * game.width + (x - minx + 1)
    assert sum(tensor[plane * area + cell] for plane in range(12)) == 4.0  # one colour per side


def test_tuileries_shows_the_viewers_hand_and_only_sizes_of_others(random_position):
    state = random_position("tuileries", 3)
    mine = state.observation_tensor(0)[832:896]
    assert [i for i, bit in enumerate(mine) if bit] == sorted(state.hands[0])
    assert sum(state.observation_tensor(-2)[832:896]) == 0  # the spectator sees no hand
