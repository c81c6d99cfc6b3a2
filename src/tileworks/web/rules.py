"""Each game's rules as a web page, from the rules documents its GameInfo
points to (``GameInfo.rules``): ``GAME.md`` in English, ``GAME.LANG.md`` in
another language. Markdown is rendered with markdown-it-py, raw HTML
disabled. The sections for researchers (action ids, observation tensors,
the API's handling of hidden information) fold away below the player's
rules. A game without rules documents gets a page that says so. Every
page ends with the server's own rules (``playing.md``: clocks, time-outs,
places, rated games, names, abandoned games), the same for every game."""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from pathlib import Path
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


#: the server's rules, shown below every game's
SERVER_RULES = Path(__file__).parent / "playing.md"


def server_rules_path(lang: str) -> Path:
    localised = SERVER_RULES.with_name(f"playing.{lang}.md")
    return localised if lang != "en" and localised.is_file() else SERVER_RULES


@lru_cache(maxsize=None)
def rules_html(game: str, lang: str) -> str:
    from markdown_it import MarkdownIt

    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    server = renderer.render(server_rules_path(lang).read_text(encoding="utf-8"))
    path = rules_path(game, lang)
    if path is None:
        message = _("{game} comes with no rules document.", game=game)
        return f'<article class="rules"><p role="note">{escape(message)}</p>{server}</article>'
    players, research = split_research(path.read_text(encoding="utf-8"))
    folded = ""
    if research:
        title = escape(_("For researchers: action ids, observation tensors and the API"))
        folded = f'<details class="research"><summary>{title}</summary>{renderer.render(research)}</details>'
    return '<article class="rules">' + renderer.render(players) + folded + server + "</article>"


#: how a rules document marks a section for researchers, in its heading
RESEARCH_MARKS = re.compile(r"\((for researchers|for learning agents)\)|（(研究者向け|学習エージェント向け)）")


def split_research(text: str) -> tuple[str, str]:
    r"""A rules document's sections for players, and those for researchers
    (each ``##`` section whose heading ends "(for researchers)" or "(for
    learning agents)", in either language), each in the document's order.

    >>> split_research("# T\n## Play\nx\n## Action ids (for researchers)\ny\n## End\nz\n")
    ('# T\n## Play\nx\n## End\nz\n', '## Action ids (for researchers)\ny\n')
    """
    players, research = [], []
    for section in re.split(r"(?m)^(?=## )", text):
        heading = section.split("\n", 1)[0]
        (research if heading.startswith("## ") and RESEARCH_MARKS.search(heading) else players).append(section)
    return "".join(players), "".join(research)
