"""The pages' web font: subsets of Noto Sans CJK JP in WOFF2 slices under
``static/fonts`` (written by ``tools/make_fonts.py``).

A browser downloads a slice only when the page shows one of its characters
(each ``@font-face`` rule has its ``unicode-range``): English pages load the
Latin slices alone; Japanese pages also load the first Japanese slice (the
characters of every page's header, forms and client strings) and those of
the later slices (the rest of the catalog, then the rules pages) that their
words fall in. Characters outside every slice (a player's name, say) come
from the system's fonts, named after the families in ``style.css``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from tileworks.core.i18n import LANGUAGE_NAMES
from tileworks.core.text import runs_of

#: the Latin family (regular and bold) and the Japanese one (regular: the
#: browser draws its bold, which halves what a Japanese page loads)
FAMILY = "tileworks Sans"
FAMILY_JA = "tileworks Sans JA"
FONTS = Path(__file__).parent / "static" / "fonts"
#: the slices each language's pages always draw with (preloaded with the styles)
FIRST_SLICES = {"en": ("latin-400.woff2",), "ja": ("latin-400.woff2", "ja-1-400.woff2")}
#: the Japanese characters per slice after the first (a slice of 100 CJK glyphs is about 15 kB)
SLICE_SIZE = 100
#: the Latin slices' characters: ASCII, the punctuation and symbols the
#: pages use, and the language switch's names (so that an English page never
#: loads a Japanese slice for the word 日本語). Other letters (a player's
#: é) come from the system's fonts.
LATIN = "".join(sorted(
    {chr(c) for c in range(0x20, 0x7F)}
    | set("–—‘’“”•·…′″→←↑↓−±×÷≤≥²μσχ●○◆■□▲▼▸▾★☆✓✗♠♥♦♣é")
    | set("".join(LANGUAGE_NAMES.values()))
))


def unicode_range(text: Iterable[str]) -> str:
    """CSS ``unicode-range`` for the characters of ``text``, runs joined.

    >>> unicode_range("abcz日")
    'U+61-63,U+7A,U+65E5'
    """
    return ",".join(f"U+{a:X}" if a == b else f"U+{a:X}-{b:X}" for a, b in runs_of(ord(ch) for ch in text))


def covered() -> set[str]:
    """Every character some shipped slice holds, read from ``fonts.css``."""
    found: set[str] = set()
    css = (FONTS / "fonts.css").read_text(encoding="utf-8")
    for ranges in re.findall(r"unicode-range:([^}]*)", css):
        for run in ranges.split(","):
            first, _dash, last = run.strip().removeprefix("U+").partition("-")
            found.update(chr(c) for c in range(int(first, 16), int(last or first, 16) + 1))
    return found


def japanese_texts() -> Iterator[str]:
    """Every Japanese text a page may show: the catalogs' translations
    (tileworks's and the plugins') and the rules pages."""
    from tileworks.core.i18n import catalog
    from tileworks.core.registry import registered_games
    from tileworks.web.rules import rules_path, server_rules_path

    games = [info.name for info in registered_games()]  # registering a plugin adds its catalogs
    for text in catalog("ja").values():
        yield from (text if isinstance(text, tuple) else (text,))
    for path in [rules_path(game, "ja") for game in games] + [server_rules_path("ja")]:
        if path is not None:
            yield path.read_text(encoding="utf-8")
