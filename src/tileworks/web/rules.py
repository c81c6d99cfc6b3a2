"""Each game's rules as a web page, from the rules documents shipped in
``tileworks/rules``: ``GAME.md`` in English, ``GAME.LANG.md`` in another
language. Markdown is rendered with markdown-it-py, raw HTML disabled."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "rules"


def rules_path(game: str, lang: str) -> Path:
    """The rules document of ``game`` in ``lang`` (English when there is none)."""
    localised = RULES / f"{game}.{lang}.md"
    return localised if lang != "en" and localised.exists() else RULES / f"{game}.md"


@lru_cache(maxsize=None)
def rules_html(game: str, lang: str) -> str:
    from markdown_it import MarkdownIt

    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    return '<article class="rules">' + renderer.render(rules_path(game, lang).read_text(encoding="utf-8")) + "</article>"
