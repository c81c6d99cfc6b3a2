"""SVG pictures of each game: what a player would expect to see drawn, and
the `tileworks render` command."""

from __future__ import annotations

import json
import random
from xml.etree import ElementTree

from typer.testing import CliRunner

import tileworks
from tileworks import SPECTATOR
from tileworks.cli.main import app
from tileworks.core import sample_chance
from tileworks.core.records import save_record

NS = "{http://www.w3.org/2000/svg}"


def shapes(svg, attribute):
    root = ElementTree.fromstring(svg)
    return [e for e in root.iter() if e.get(attribute) is not None]


def test_azul_shows_every_tile_on_the_factories_and_in_the_centre(random_position):
    state = random_position("azul", 3, players=3)
    view = state.view()
    on_table = sum(len(f) for f in view["factories"]) + len(view["centre"])
    takeable = [e for e in shapes(state.svg(), "data-colour") if e.get("data-source")]
    assert len(takeable) == on_table
    assert {e.get("data-source") for e in takeable} <= {str(i) for i in range(1, 8)} | {"c"}
    # each of the three boards: 15 pattern-line spaces, 25 wall spaces, 7 floor spaces (an
    # empty space a rect, a tile a group of its square and letter), in either layout
    for narrow in (False, True):
        picture = state.svg(narrow=narrow)
        assert len([e for e in shapes(picture, "data-line") if e.tag in (f"{NS}rect", f"{NS}g")]) == 3 * (15 + 7)
        assert len(shapes(picture, "data-row")) == 3 * 25


def test_an_azul_picture_that_reuses_unchanged_boards_is_the_picture_drawn_afresh():
    """A board's spaces and tiles are drawn once for each content and place,
    and reused by the pictures after it. Through a whole 3-player game (the
    boards fill, the marker moves, the round ends), every picture drawn in
    the order of play is the one drawn with nothing to reuse."""
    from tileworks.games.azul import render

    game, rng = tileworks.load_game("azul", players=3), random.Random(5)
    state, in_order = game.new_initial_state(), []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        in_order.append((state.clone(), state.svg(narrow=False), state.svg(narrow=True)))
        state.apply_action(rng.choice(state.legal_actions()))
    assert render._board_spaces.cache_info().hits > len(in_order)  # boards were reused
    for position, wide, narrow in in_order[::7]:
        render._board_spaces.cache_clear()
        assert position.svg(narrow=False) == wide
        render._board_spaces.cache_clear()
        assert position.svg(narrow=True) == narrow


def test_tiles_draws_each_laid_tile_and_marks_where_the_movers_tiles_fit(random_position):
    state = random_position("tiles", 6)
    mover = state.current_player()
    view = state.view(mover)
    svg = state.svg(mover)
    laid = [e for e in shapes(svg, "data-cell") if e.tag == f"{NS}g"]
    assert len(laid) == len(view["layout"])
    fitting = {e.get("data-cell") for e in shapes(svg, "data-cell") if e.get("stroke-dasharray")}
    assert fitting == {move.split("@")[1] for move in view["legal"] if "@" in move} != set()
    assert [e.get("data-tile") for e in shapes(svg, "data-tile")] == view["hand"]
    assert shapes(state.svg(SPECTATOR), "data-tile") == []  # a spectator sees no hand


def test_tuileries_draws_the_board_and_only_the_viewers_hand(random_position):
    state = random_position("tuileries", 5)
    svg = state.svg(0)
    squares = {e.get("data-square") for e in shapes(svg, "data-square") if e.tag == f"{NS}rect"}
    assert len(squares) == 64
    assert len([e for e in shapes(svg, "data-square") if e.tag == f"{NS}g"]) == len(state.view()["board"]) == 5
    assert [e.get("data-tile") for e in shapes(svg, "data-tile")] == state.view(0)["hand"]
    assert shapes(state.svg(SPECTATOR), "data-tile") == []


def test_a_state_shows_itself_in_jupyter_as_the_spectators_picture(random_position):
    state = random_position("tiles", 4)
    assert state._repr_svg_() == state.svg(SPECTATOR)


def test_render_draws_a_records_position_as_text_or_svg(tmp_path, random_position):
    state = random_position("azul", 6)
    record = save_record(state, tmp_path / "game.json")
    runner = CliRunner()
    text = runner.invoke(app, ["render", str(record), "--ply", "0"])
    assert text.exit_code == 0 and "AZUL  round 0" in text.output
    out = tmp_path / "picture.svg"
    drawn = runner.invoke(app, ["render", str(record), "--svg", "--seat", "2", "-o", str(out)])
    assert drawn.exit_code == 0, drawn.output
    assert out.read_text() == state.svg(1)
    bad = runner.invoke(app, ["render", str(record), "--ply", "9999"])
    assert bad.exit_code == 2 and "--ply must be between 0 and" in bad.output


def test_render_draws_a_saved_position_as_its_seat_sees_it(tmp_path, random_position):
    state = random_position("tuileries", 9)
    saved = tmp_path / "position.json"
    saved.write_text(json.dumps(state.to_json()), encoding="utf-8")
    runner = CliRunner()
    seen = runner.invoke(app, ["render", str(saved), "--seat", "1"])
    assert seen.exit_code == 0, seen.output
    assert seen.output.strip() == state.observation_string(0).strip()  # P1's hand, the other hands as sizes
    stepped = runner.invoke(app, ["render", str(saved), "--ply", "3"])
    assert stepped.exit_code == 2 and "holds one position" in stepped.output
    saved.write_text(json.dumps({**state.to_json(), "options": {"players": 9}}), encoding="utf-8")
    broken = runner.invoke(app, ["render", str(saved)])
    assert broken.exit_code == 2 and "players" in broken.output
