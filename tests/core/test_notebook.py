"""States in notebooks: a state draws itself as the spectator sees it, so a
hidden hand never shows by accident; ``view_as`` shows one seat's view."""

from __future__ import annotations

import random
import types
from pathlib import Path
from xml.etree import ElementTree

import pytest

import tileworks
from tileworks import SPECTATOR
from tileworks.games.kiln import render as kiln_render
from tileworks.games.kiln.rules import KilnState
from tileworks.games.tiles import position as tiles_position

# P1 holds bbbb and gggg, P2 holds gwgw: codes that appear nowhere on the table
HANDS = [["bbbb", "gggg"], ["gwgw"]]


def tiles_on_the_table():
    return tiles_position(tileworks.load_game("tiles"), layout=[[0, 0, "wwww"], [0, -1, "wbww"]], hands=HANDS)


def texts(svg):
    return " ".join(e.text or "" for e in ElementTree.fromstring(svg).iter())


def test_a_state_draws_itself_as_the_spectator_sees_it():
    state = tiles_on_the_table()
    picture = state._repr_svg_()
    assert picture == state.svg(SPECTATOR)
    assert 'data-tile="' not in picture  # no hand is drawn
    for hand in HANDS:
        for code in hand:
            assert code not in picture


def test_view_as_shows_that_seat_and_no_other():
    state = tiles_on_the_table()
    mine = state.view_as(0)
    assert mine._repr_svg_() == state.svg(0)
    assert "bbbb" in mine._repr_svg_() and "gwgw" not in mine._repr_svg_()
    assert "P1 hand" in str(mine) and "gwgw" not in str(mine)
    with pytest.raises(ValueError):
        state.view_as(5)


def test_the_spectators_picture_is_the_same_for_any_deal_of_the_hands():
    state = tiles_on_the_table()
    for seed in range(5):
        assert state.resample_hidden(SPECTATOR, random.Random(seed))._repr_svg_() == state._repr_svg_()


def test_a_game_that_draws_no_svg_shows_its_text_in_the_picture():
    class TextOnlyKiln(KilnState):
        render = types.SimpleNamespace(render_text=kiln_render.render_text)

    game = tileworks.load_game("kiln")
    state = TextOnlyKiln(game)
    picture = state.svg(SPECTATOR)
    ElementTree.fromstring(picture)
    assert state.observation_string().splitlines()[0] in texts(picture)
    assert state._repr_svg_() == picture
    assert str(state.rich_text()) == state.observation_string()


def test_the_example_notebook_runs_and_draws_every_game(tmp_path):
    """docs/tileworks-in-a-notebook.ipynb, executed in a real Jupyter kernel."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(__file__).resolve().parents[2] / "docs" / "tileworks-in-a-notebook.ipynb"
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    pictures = [
        output["data"]["image/svg+xml"]
        for cell in notebook.cells if cell.cell_type == "code"
        for output in cell.outputs if "image/svg+xml" in output.get("data", {})
    ]
    assert len(pictures) == 6  # the four tables, then a seat's view of Tiles and of Tuileries
    for picture in pictures:
        ElementTree.fromstring(picture)
    kiln, azul, tiles, tiles_p1, tuileries, tuileries_p2 = pictures
    assert "KILN" in texts(kiln) and "data-tile" not in tiles and "data-tile" not in tuileries
    assert "data-tile" in tiles_p1 and "data-tile" in tuileries_p2  # a seat's view holds its hand
    printed = notebook.cells[-1].outputs[0]["text"]
    assert printed.startswith("TUILERIES")


def test_a_game_without_optional_hooks_still_plays_and_says_what_is_missing():
    class BareKiln(KilnState):
        render = types.SimpleNamespace(render_text=kiln_render.render_text)
        heuristics = None
        observation = None

    class BareGame(type(tileworks.load_game("kiln"))):
        state_class = BareKiln

    game = BareGame(tileworks.load_game("kiln").options())
    state = game.new_initial_state()
    assert state.rollout_depth() == game.max_game_length()  # no evaluation: searches roll out to the end
    assert state.evaluate(0) == 0.0  # the score alone
    with pytest.raises(NotImplementedError, match="game 'kiln' has no observation tensor"):
        state.observation_tensor(0)
    with pytest.raises(NotImplementedError, match="no observation tensor"):
        game.observation_tensor_size()
