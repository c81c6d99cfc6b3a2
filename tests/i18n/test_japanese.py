"""Japanese in the engines, the pictures, the terminal and the server."""

from __future__ import annotations

import random
import re

import pytest
from typer.testing import CliRunner

import tileworks
from tileworks.cli.main import app
from tileworks.core import SPECTATOR, IllegalActionError, sample_chance
from tileworks.core.i18n import _, current_language, gettext, language, negotiate

GAMES = ["kiln", "azul", "tiles", "tuileries"]
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


def midgame(name: str, moves: int = 12, seed: int = 3):
    state = tileworks.load_game(name).new_initial_state()
    rng = random.Random(seed)
    made = 0
    while not state.is_terminal() and (state.is_chance_node() or made < moves):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            made += 1
    return state


def test_kiln_speaks_the_vocabulary_of_its_japanese_edition():
    state = midgame("kiln", moves=0)
    with language("ja"):
        decision = state.decision()
        picture = state.svg()
    assert "外側のタイル" in decision and "押し込みます" in decision
    assert "キルン" in picture and "目標点" in picture


def test_english_is_unchanged_outside_a_language_block():
    state = midgame("kiln", moves=0)
    assert "pushes the outer tile" in state.decision()
    with language("ja"):
        assert current_language() == "ja"
    assert current_language() == "en" and gettext("red") == "red"


@pytest.mark.parametrize("name", GAMES)
def test_every_picture_text_is_japanese_or_notation(name):
    state = midgame(name)
    with language("ja"):
        for viewer in (SPECTATOR, 0):
            texts = re.findall(r"<text[^>]*>([^<]*)</text>", state.svg(viewer))
            english = [t for t in texts if ENGLISH_WORD.search(t)]
            assert english == [], english


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_move_is_refused_in_japanese_and_changes_nothing(name):
    state = midgame(name)
    before = state.clone()
    with language("ja"), pytest.raises(IllegalActionError, match="として読めません") as refused:
        state.string_to_action("zzz")
    assert not ENGLISH_WORD.sub("", str(refused.value)).isascii()
    assert state == before


def test_options_are_described_in_japanese():
    with language("ja"):
        kiln = next(g for g in tileworks.list_games() if g["name"] == "kiln")
        with pytest.raises(ValueError, match="オプション 'goal' の値 0 は使えません.*1 から 100 までの整数"):
            tileworks.load_game("kiln", goal=0)
    assert kiln["title"] == "キルン"
    variant = next(o for o in kiln["options"] if o["name"] == "variant")
    assert variant["label"] == "バリエーション" and [c["label"] for c in variant["choices"]] == ["標準", "上級"]


def test_fields_are_filled_after_translation():
    with language("ja"):
        assert _("{who} draws a tile", who="P2") == "P2 がタイルを引きます"


def test_the_language_follows_the_browser():
    assert negotiate("ja,en-US;q=0.7") == "ja"
    assert negotiate("en-GB,ja;q=0.5") == "en"
    assert negotiate("de-DE,ja-JP;q=0.3") == "ja"
    assert negotiate("zz;q=x") == "en"


def test_the_terminal_plays_in_japanese():
    result = CliRunner().invoke(app, ["--lang", "ja", "play", "kiln", "--seed", "2"], input="?\nzz\nquit\n")
    assert result.exit_code == 0, result.output
    assert "指せる手:" in result.output and "指せない手です:" in result.output and "ゲームを中断しました。" in result.output


def test_the_terminal_refuses_an_unknown_language():
    result = CliRunner().invoke(app, ["--lang", "fr", "games"])
    assert result.exit_code == 2 and "unknown language 'fr'" in result.output
