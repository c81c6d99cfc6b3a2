"""The translation catalogs: every string the code marks is in each
catalog, translated into Japanese with the same fields, and the catalogs
carry nothing the code no longer uses. When one fails, run ``make messages``
and translate what it added."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from tileworks.core.i18n import LANGUAGES, catalog_path, context_key

ROOT = Path(__file__).resolve().parents[2]
METHODS = [("src/tileworks/**.py", "python"), ("src/tileworks/web/static/**.js", "javascript")]
FIELD = re.compile(r"\{(\w*)\}")


def marked_strings() -> set[str]:
    found = extract_from_dir(ROOT, METHODS, keywords={"_": None, "N_": None, "pgettext": ((1, "c"), 2)},
                             comment_tags=())
    return {context_key(context, message) for _file, _line, message, _comments, context in found
            if isinstance(message, str)}


MARKED = marked_strings()


def entries(code: str) -> dict[str, str]:
    with catalog_path(code).open("rb") as handle:
        return {context_key(m.context, m.id): m.string for m in read_po(handle) if m.id}


def test_the_code_marks_the_strings_players_read():
    # a sample from each part: an engine sentence, a picture, the terminal, the server, the pages
    assert {"{who} pushes the outer tile ({tile} on {cell})", "{who}'s hand", "Legal moves: {moves}",
            "not your turn: {mover} is to move", "Start the game", "Click a highlighted piece, or type a move."} <= MARKED


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_catalog_has_every_marked_string_and_no_stale_one(code):
    have = entries(code)
    assert sorted(MARKED - set(have)) == [], f"missing from {code}: run make messages"
    assert sorted(set(have) - MARKED) == [], f"no longer used, in {code}: run make messages"


def test_every_string_has_its_japanese_with_the_same_fields():
    japanese = entries("ja")
    untranslated = sorted(m for m in MARKED if not japanese.get(m))
    assert untranslated == []
    for message in MARKED:
        assert sorted(FIELD.findall(japanese[message])) == sorted(FIELD.findall(message)), message


def test_japanese_translations_are_japanese():
    kana_or_kanji = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    # only notation-like fragments may stay as they are
    as_is = {m for m in MARKED if not re.search(r"[a-z]{3}", FIELD.sub("", m))}
    for message, text in entries("ja").items():
        if message not in as_is:
            assert kana_or_kanji.search(text), (message, text)
