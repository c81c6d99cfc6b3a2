"""Each game's rules as a web page, from the rules documents its GameInfo
points to (``GameInfo.rules``): ``GAME.md`` in English, ``GAME.LANG.md`` in
another language. Markdown is rendered with markdown-it-py, raw HTML
disabled. A game without rules documents gets a page that says so."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from tileworks.core.i18n import _
from tileworks.core.registry import game_info


def rules_path(game: str, lang: str) -> Any:
    """The rules document of ``game`` in ``lang`` (English when there is
    none in that language), or None when the game ships no rules."""
    folder = game_info(game).rules
    if folder is None:
        return None
    localised = folder / f"{game}.{lang}.md"
    english = folder / f"{game}.md"
    if lang != "en" and localised.is_file():
        return localised
    return english if english.is_file() else None


@lru_cache(maxsize=None)
def rules_html(game: str, lang: str) -> str:
    from markdown_it import MarkdownIt

    path = rules_path(game, lang)
    if path is None:
        message = _("{game} comes with no rules document.", game=game)
        return f'<article class="rules"><p role="note">{escape(message)}</p></article>'
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    return '<article class="rules">' + renderer.render(path.read_text(encoding="utf-8")) + "</article>"
