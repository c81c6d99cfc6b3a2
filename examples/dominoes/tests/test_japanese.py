"""Block Dominoes in Japanese, from its own catalog (tileworks's catalogs
carry only tileworks's words): every sentence the package marks is
translated with the same fields, and the game list, the terminal, the game
log and the rules page speak Japanese."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from typer.testing import CliRunner

import tileworks
from tileworks.cli.main import app
from tileworks.core.i18n import language
from tileworks.core.registry import list_games
from tileworks_dominoes.notation import position

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tileworks_dominoes"
CATALOG = PACKAGE / "locale" / "ja" / "LC_MESSAGES" / "dominoes.po"
FIELD = re.compile(r"\{(\w*)\}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def test_every_marked_sentence_has_its_japanese_with_the_same_fields():
    marked = {message for _f, _l, message, _c, _ctx in extract_from_dir(PACKAGE, [("**.py", "python")],
                                                                        keywords={"_": None, "N_": None})}
    with CATALOG.open("rb") as handle:
        japanese = {m.id: m.string for m in read_po(handle) if m.id}
    assert sorted(marked - set(japanese)) == [], "missing: run pybabel extract and update (README.md)"
    assert sorted(set(japanese) - marked) == [], "no longer used"
    for message, text in japanese.items():
        assert JAPANESE.search(text), message
        assert sorted(FIELD.findall(text)) == sorted(FIELD.findall(message)), message


def test_the_game_list_and_the_set_up_speak_japanese():
    with language("ja"):
        listed = next(g for g in list_games() if g["name"] == "dominoes")
    assert listed["title"] == "ドミノ" and listed["lang"] == "ja"
    assert [o["doc"] for o in listed["options"]] == ["プレイヤー数", "ドロー版: 出せない人は山札から引きます"]


def test_a_move_its_decision_and_the_table_in_japanese():
    state = position(tileworks.load_game("dominoes"), line=["6-6", "6-3"], hands=[["3-5", "0-1"], ["2-2"]])
    with language("ja"):
        assert state.decision() == "P1 が 6 か 3 の端にタイルを出します。出せなければパスします"
        assert state.describe(state.string_to_action("3-5R")) == "P1 が 3-5 を 3 の端に出します"
        assert state.observation_string(0).splitlines()[0] == "ドミノ  ブロック  山札 23"
        assert "P1 の手札" in state.svg(0)


def test_the_terminal_plays_in_japanese():
    result = CliRunner().invoke(app, ["play", "dominoes", "--players", "random,random", "--seed", "2", "--lang", "ja"])
    assert result.exit_code == 0, result.output
    assert "で始めます" in result.output and "ゲーム終了" in result.output


def test_the_rules_come_in_japanese_beside_the_english():
    assert (PACKAGE / "dominoes.ja.md").read_text(encoding="utf-8").startswith("# tileworks のブロック・ドミノ")
