"""A move's preview: what it would change on the mover's picture, drawn
from the position after it, asked for before the move is made. Only the
seat to move may ask, for the ply it sees; nothing changes."""

from __future__ import annotations

import re

import pytest

import tileworks
from tileworks.core.svg import preview_overlay
from tileworks.games.azul import position as azul_position
from tileworks.games.tuileries import position as tuileries_position


def tokens_of(created):
    return {s["seat"]: s["token"] for s in created["seats"]}


def shapes(overlay):
    return re.findall(r"<(rect|polygon|circle)\b[^>]*>", overlay)


def test_an_azul_draft_previews_the_tiles_on_the_line_and_the_floor():
    # P1 takes 3 red from factory 1 to line 2: two fill it, one falls to the floor; the blue goes to the centre
    state = azul_position(tileworks.load_game("azul"), factories=["rrrb", "yykk", "", "", ""], centre="")
    action = state.string_to_action("1r2")
    overlay = preview_overlay(state.svg(0), state.svg_after(action, 0))
    faces = re.findall(r'fill="(#[0-9a-f]{6})" stroke="#555"', overlay)  # each tile's face (shadow and glaze aside)
    assert sorted(faces) == ["#2f6fd0", "#d8443c", "#d8443c", "#d8443c"]  # 2 red on line 2, 1 on the floor, blue to the centre
    assert overlay.startswith('<g class="preview" pointer-events="none">')
    assert state.to_json() == azul_position(tileworks.load_game("azul"), factories=["rrrb", "yykk", "", "", ""],
                                            centre="").to_json()  # the state is untouched


def test_a_tuileries_placement_previews_the_tile_on_its_square_and_nothing_else():
    state = tuileries_position(tileworks.load_game("tuileries"), board={"c3": "rnd"}, hands=[["bks", "gqh"], ["yjc"]])
    overlay = preview_overlay(state.svg(0), state.svg_after(state.string_to_action("bks@f3"), 0))
    faces = re.findall(r'fill="(#[0-9a-f]{6})" stroke="#333"', overlay)
    assert faces == ["#2f6fd0"]  # the blue tile's face on f3, with its shadow and glaze; the hand keeps its layout
    assert len(shapes(overlay)) <= 4


def test_the_api_previews_for_the_mover_only_and_changes_nothing(api):
    created = api.create("azul", ["human", "human"])
    game_id, tokens = created["id"], tokens_of(created)
    view = api.view(game_id, tokens[0])
    api.view(game_id, tokens[1])
    mover, move, ply = view["to_move"], view["view"]["legal"][0], view["ply"]

    def ask(token, move=move, ply=ply):
        return api.client.get(f"/api/games/{game_id}/preview", params={"move": move, "ply": ply},
                              headers={"X-Seat-Token": token})

    answer = ask(tokens[mover])
    assert answer.status_code == 200 and answer.json()["svg"].startswith('<g class="preview"')
    assert ask(tokens[1 - mover]).status_code == 409  # not their turn
    assert ask(tokens[mover], ply=ply + 1).status_code == 409  # another position
    refused = ask(tokens[mover], move="9k9")
    assert refused.status_code == 400 and "cannot read '9k9'" in refused.json()["error"]
    assert api.client.get(f"/api/games/{game_id}/preview", params={"move": move, "ply": ply}).status_code in (401, 403)
    assert api.view(game_id)["ply"] == ply  # nothing was made


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_every_game_previews_its_moves(api, game):
    created = api.create(game, ["human", "human"])
    game_id, tokens = created["id"], tokens_of(created)
    previewed = 0
    for _step in range(8):
        view = api.view(game_id, *tokens.values())
        mover = view["to_move"]
        for move in view["view"]["legal"][:3]:
            answer = api.client.get(f"/api/games/{game_id}/preview", params={"move": move, "ply": view["ply"]},
                                    headers={"X-Seat-Token": tokens[mover]})
            assert answer.status_code == 200, answer.text
            previewed += answer.json()["svg"] is not None
        api.play(game_id, tokens[mover])
    assert previewed >= 12  # most moves show something (a KILN push shows the tiles it shifts)


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_a_lobby_card_picture_is_drawn_for_its_size_and_every_letter_on_it_is_legible(api, game):
    from xml.etree import ElementTree

    answer = api.client.get(f"/pictures/{game}.svg")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    root = ElementTree.fromstring(answer.text)
    _x, _y, width, height = map(float, root.get("viewBox").split())
    scale = min(240 / width, 176 / height)  # a card's picture box: 15rem by 11rem
    sizes = [float(t.get("font-size")) * scale for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert not sizes or min(sizes) >= 11, (game, min(sizes))  # (Tiles' card has no letters at all)
    assert width <= 400  # a close-up, not the whole table shrunk
