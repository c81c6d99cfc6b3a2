"""The pages' own font, Noto Sans CJK JP in slices: every Japanese word the
pages can show has its glyphs in a slice, a Japanese page is drawn in it (in
a real Chromium, asked which font drew the text), and an English page never
downloads a Japanese slice."""

from __future__ import annotations

import re

import pytest

from tests.web.test_e2e import browser, create, server  # noqa: F401 (fixtures)
from tileworks.web.fonts import FAMILY, FAMILY_JA, FONTS, LATIN, covered, japanese_texts, unicode_range


def test_every_character_of_the_japanese_catalogs_and_rules_pages_is_in_a_slice():
    shown = {ch for text in japanese_texts() for ch in text if ch.isprintable() and not ch.isspace()}
    missing = "".join(sorted(shown - covered()))
    assert missing == "", f"no shipped font slice holds {missing!r}: run `make fonts`"


def test_each_slice_named_by_the_styles_is_shipped_with_its_licence():
    css = (FONTS / "fonts.css").read_text(encoding="utf-8")
    files = re.findall(r'url\("([^"]+)"\)', css)
    assert {"latin-400.woff2", "latin-700.woff2", "ja-1-400.woff2"} <= set(files)
    for file in files:
        assert (FONTS / file).read_bytes()[:4] == b"wOF2", file
    assert sorted(files) == sorted(path.name for path in FONTS.glob("*.woff2"))
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FONTS / "OFL.txt").read_text(encoding="utf-8")
    assert f'font-family:"{FAMILY}"' in css and f'font-family:"{FAMILY_JA}"' in css


def test_a_unicode_range_joins_runs_of_characters():
    assert unicode_range("cab") == "U+61-63"
    assert unicode_range("a日c") == "U+61,U+63,U+65E5"
    assert {"日", "本", "語"} <= set(LATIN)  # the language switch, on every English page


def fonts_drawing(page, selector):
    """The fonts Chromium drew the text of ``selector`` with (DevTools' CSS domain)."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument")["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    return {(font["familyName"], font["isCustomFont"]) for font in session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_game_page_is_drawn_in_the_shipped_font_and_loads_only_its_languages_slices(server, browser, locale):
    created = create(server, "azul", ["human", "random"])
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    fonts = []
    page.on("requestfinished", lambda request: fonts.append(request.url.rsplit("/", 1)[-1])
            if request.resource_type == "font" else None)
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg .target")
    page.wait_for_load_state("networkidle")
    page.evaluate("document.fonts.ready")
    assert "latin-400.woff2" in fonts
    drawn = fonts_drawing(page, "#status")
    if locale == "ja-JP":
        assert "ja-1-400.woff2" in fonts
        assert any(custom and "CJK" in family for family, custom in drawn), drawn  # the slice, not a system font
        assert not any(not custom for _family, custom in drawn), drawn
    else:
        assert not [name for name in fonts if name.startswith("ja-")], fonts
        assert drawn and all(custom for _family, custom in drawn), drawn
    context.close()
