"""Each game's rules in English and Japanese: the Japanese document covers
the same sections and tables and keeps every option, notation and number
written in code, and the rules pages serve each language."""

from __future__ import annotations

import re

import pytest

from tileworks.core.registry import game_info, registered_games
from tileworks.games import RULES
from tileworks.web.rules import rules_html, rules_path

#: the games tileworks ships, each with its rules in English and Japanese
GAMES = ["azul", "kiln", "tiles", "tuileries"]


def shape(text: str) -> tuple[int, int]:
    headings = len(re.findall(r"^#{1,3} ", text, flags=re.M))
    table_rows = len(re.findall(r"^\|", text, flags=re.M))
    return headings, table_rows


@pytest.mark.parametrize("game", GAMES)
def test_the_japanese_rules_match_the_english_section_by_section(game):
    english = (RULES / f"{game}.md").read_text(encoding="utf-8")
    japanese = (RULES / f"{game}.ja.md").read_text(encoding="utf-8")
    assert shape(japanese) == shape(english)
    missing = set(re.findall(r"`([^`]+)`", english)) - set(re.findall(r"`([^`]+)`", japanese))
    assert missing == set()
    assert len(re.findall(r"[\u3040-\u30ff]", japanese)) > 500


@pytest.mark.parametrize("game", [info.name for info in registered_games()])
def test_every_game_has_a_rules_page_in_english(game):
    """Plugin games too: from their own documents, or a page saying there are none."""
    html = rules_html(game, "en")
    assert html.startswith('<article class="rules">') and "<script" not in html
    if game_info(game).rules is not None:
        assert "<h1>" in html or "<h2>" in html


def test_a_game_without_rules_documents_gets_a_page_that_says_so(monkeypatch):
    from dataclasses import replace

    from tileworks.core import registry

    monkeypatch.setitem(registry._REGISTRY, "kiln", replace(game_info("kiln"), rules=None))
    rules_html.cache_clear()
    try:
        assert rules_path("kiln", "en") is None
        assert "kiln comes with no rules document." in rules_html("kiln", "en")
    finally:
        rules_html.cache_clear()


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_pages_render_each_language(game):
    assert rules_path(game, "ja").name == f"{game}.ja.md"
    assert rules_path(game, "en").name == f"{game}.md"
    html = rules_html(game, "ja")
    assert html.startswith('<article class="rules">') and "<h2>" in html and "<code>" in html
    assert "<script" not in rules_html(game, "en")


@pytest.mark.parametrize("game", [info.name for info in registered_games()])
def test_every_rules_page_ends_with_the_servers_rules_in_its_language(game):
    """Time-outs lose, rated games are between people, names are owned: the
    same rules for every game, plugins included, in both languages."""
    english, japanese = rules_html(game, "en"), rules_html(game, "ja")
    assert "Running out of time loses" in english and "placed last" in english
    assert "時間切れは負けです" in japanese
    assert english.index("Playing on a tileworks server") > english.index("<h2>") or game_info(game).rules is None


def test_the_servers_rules_read_the_same_in_both_languages():
    from tileworks.web.rules import server_rules_path

    english = server_rules_path("en").read_text(encoding="utf-8")
    japanese = server_rules_path("ja").read_text(encoding="utf-8")
    assert english.count("\n- **") == japanese.count("\n- **") == 6
    assert set(re.findall(r"`([^`]+)`", english)) == set(re.findall(r"`([^`]+)`", japanese))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", GAMES + ["dominoes"])
def test_a_players_rules_show_no_research_identifiers_which_fold_away_below(game, lang):
    page = rules_html(game, lang)
    players, _sep, rest = page.partition('<details class="research">')
    research = rest.split("</details>")[0]
    for identifier in ("num_distinct_actions", "observation_tensor", "resample_hidden", "information_state_string",
                       "scores()"):
        assert identifier not in players, (identifier, game, lang)
    assert "num_distinct_actions()" in research and "resample_hidden" in research
    assert "<summary>" in rest  # a heading that opens the researchers' part
