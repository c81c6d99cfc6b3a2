"""Rendering a KILN view: text, Rich colour and SVG show the same table."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import tileworks
from tileworks.games.kiln import position
from tileworks.games.kiln.render import render_rich, render_svg, render_text

SINGLES = ["RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY", "RBGYRB", "GYRBGY"]


def table(points=None, **options):
    game = tileworks.load_game("kiln", **options)
    return position(game, kiln=SINGLES, outer={"tile": "K", "cell": "d1"},
                    warehouses={"red": ["#####", ".....", ".....", ".....", "....."]},
                    points=points or [3] + [0] * (game.num_discs - 1))


def test_text_shows_kiln_outer_tile_warehouses_scores_and_goal():
    text = render_text(table(heat_tokens=[5, 14]).view())
    lines = text.splitlines()
    assert lines[0] == "KILN  goal 17  turn 1/300  heat 5 14"
    assert lines[3] == " 7  . R B G Y R B ."
    assert lines[9] == " 1    . . K . . ."  # the black tile waits on d1
    assert "P1 red 3/17" in text and "P2 blue 0/17" in text
    assert " 1 # # # # #" in text


def test_advanced_variant_shows_two_warehouses_per_player_each_with_its_disc():
    # discs by colour: red 3, blue 0, green 5, yellow 1
    view = table(variant="advanced", points=[3, 0, 5, 1]).view()
    text = render_text(view)
    for title in ("P1 red 3/17", "P1 green 5/17", "P2 blue 0/17", "P2 yellow 1/17"):
        assert title in text
    assert [seat["points"] for seat in view["seats"]] == [5, 1]  # each player's higher disc
    svg = render_svg(view)
    for title in ("P1 red 3", "P1 green 5", "P2 blue 0", "P2 yellow 1"):
        assert title in svg


def test_advanced_variant_with_combined_scoring_shows_one_score_per_player():
    text = render_text(table(variant="advanced", advanced_scoring="combined", points=[4, 2]).view())
    assert "one score a player" in text.splitlines()[0]
    for title in ("P1 red 4/17", "P1 green 4/17", "P2 blue 2/17", "P2 yellow 2/17"):
        assert title in text


def test_rich_text_colours_each_tile():
    rich = render_rich(table().view())
    styles = {str(span.style) for span in rich.spans}
    assert {"bold red", "bold blue", "bold green", "bold yellow", "bold white on black"} <= styles
    assert "\n".join(line.rstrip() for line in rich.plain.splitlines()) == render_text(table().view())


def test_svg_draws_every_kiln_tile_and_warehouse_cell():
    svg = render_svg(table(players=3).view())
    root = ET.fromstring(svg)
    # the shapes a click may name (a tile's shadow and glaze are drawn around its face and name nothing)
    rects = [r for r in root.findall("{http://www.w3.org/2000/svg}rect") if any(k.startswith("data-") for k in r.keys())]
    handles = [(r.get("data-warehouse"), r.get("data-sale")) for r in rects if r.get("data-sale")]
    assert handles == [("red", "r1")]  # P1's complete top row can be clicked to sell it
    # 36 kiln tiles + 24 border cells + 3 warehouses of 25 cells, and the handle
    assert len(rects) == 36 + 24 + 3 * 25 + 1
    fills = [r.get("fill") for r in rects]
    assert fills.count("#111") == 1  # the black tile
    assert fills.count("#d33") == 9 + 5  # red kiln tiles and P1's painted row
