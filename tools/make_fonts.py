"""Write the web font the pages ship: subsets of Noto Sans CJK JP.

    .venv/bin/python tools/make_fonts.py        (or: make fonts)

WOFF2 slices that a browser downloads only when the page shows one of
their characters (``unicode-range``), the way Google Fonts serves CJK:

- "tileworks Sans", ``latin-400`` and ``latin-700``: ASCII, the punctuation
  and symbols the pages use, and 日本語 (the language switch on every
  English page, so that English pages never download a Japanese slice);
- "tileworks Sans JA", ``ja-N-400``: first the characters of every page but
  the rules (rendered by the server here), then the rest of the Japanese
  catalogs, most used first, then the rules pages'. Bold is drawn by the
  browser from the regular face, which halves a Japanese page's font.

The source is Debian's fonts-noto-cjk (``make test`` installs it for the
browser tests); the font is under the SIL Open Font License, written beside
the slices. Writes ``src/tileworks/web/static/fonts/``: the slices and
``fonts.css`` (their ``@font-face`` rules). tests/web/test_fonts.py fails
when a catalog or rules page gains a character no slice holds.
"""

from __future__ import annotations

import collections
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from tileworks.web.fonts import (FAMILY, FAMILY_JA, FONTS, LATIN, SLICE_SIZE, japanese_texts,  # noqa: E402
                                 unicode_range)

SOURCE = Path("/usr/share/fonts/opentype/noto")
SOURCE_FILES = {400: "NotoSansCJK-Regular.ttc", 700: "NotoSansCJK-Bold.ttc"}
#: the collection's first font is the Japanese one (Noto Sans CJK JP)
JAPANESE = 0
LICENSE = Path("/usr/share/doc/fonts-noto-cjk/copyright")
#: the pages whose Japanese characters make the first slice (a game's page,
#: a replay, the lobby, accounts, leaderboards: all but the rules)
CHROME = ("/", "/play/any", "/replay/any", "/watch/any", "/account", "/players/any", "/leaderboards")


def beyond_latin(text: str) -> list[str]:
    return [ch for ch in text if ch not in LATIN and ch.isprintable() and not ch.isspace()]


def chrome_characters() -> set[str]:
    """The characters beyond Latin of the Japanese pages but the rules: the
    server renders each (a throwaway SQLite file) and they are read off."""
    import tempfile

    from fastapi.testclient import TestClient

    from tileworks.server.app import create_app

    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(f"sqlite:///{folder}/fonts.db")) as client:
        return {ch for path in CHROME for ch in beyond_latin(client.get(path, params={"lang": "ja"}).text)}


def japanese_slices() -> list[str]:
    """The characters beyond Latin that the Japanese pages show, in slices:
    first those of every page but the rules, then the rest of the catalogs,
    most used first, then the rules pages'."""
    from tileworks.core.i18n import catalog

    first = chrome_characters()
    catalogued = collections.Counter(ch for text in catalog("ja").values() for ch in beyond_latin(str(text)))
    everything = collections.Counter(ch for text in japanese_texts() for ch in beyond_latin(text))
    rest = sorted(set(everything) - first, key=lambda ch: (ch not in catalogued, -catalogued[ch], -everything[ch], ch))
    return ["".join(sorted(first))] + ["".join(rest[i:i + SLICE_SIZE]) for i in range(0, len(rest), SLICE_SIZE)]


def subset(weight: int, text: str) -> tuple[bytes, str]:
    """``text``'s glyphs of the font of ``weight`` in WOFF2, and the
    characters of ``text`` it holds."""
    from fontTools import subset as fontsubset
    from fontTools.ttLib import TTCollection

    font = TTCollection(SOURCE / SOURCE_FILES[weight]).fonts[JAPANESE]
    held = "".join(ch for ch in text if ord(ch) in font.getBestCmap())
    options = fontsubset.Options()
    options.flavor = "woff2"
    options.layout_features = ["kern", "palt", "liga"]
    options.hinting = False  # the browsers rasterise CFF outlines unhinted anyway
    options.desubroutinize = True  # compresses better
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep the copyright and the license
    subsetter = fontsubset.Subsetter(options)
    subsetter.populate(text=held)
    subsetter.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue(), held


def face(family: str, weight: int, file: str, text: str) -> str:
    return (f'@font-face{{font-family:"{family}";font-style:normal;font-weight:{weight};font-display:swap;'
            f'src:url("{file}") format("woff2");unicode-range:{unicode_range(text)}}}')


def main() -> None:
    missing = [SOURCE / name for name in SOURCE_FILES.values() if not (SOURCE / name).exists()]
    if missing:
        raise SystemExit(f"no {missing[0]}: install Debian's fonts-noto-cjk")
    for old in FONTS.glob("*.woff2"):
        old.unlink()
    slices = [(FAMILY, "latin", weight, LATIN) for weight in (400, 700)]
    slices += [(FAMILY_JA, f"ja-{i}", 400, text) for i, text in enumerate(japanese_slices(), start=1)]
    rules = []
    for family, name, weight, text in slices:
        file = f"{name}-{weight}.woff2"
        data, held = subset(weight, text)
        (FONTS / file).write_bytes(data)
        rules.append(face(family, weight, file, held))
        print(f"{file}: {len(held)} characters, {len(data) / 1000:.1f} kB")
    (FONTS / "fonts.css").write_text(
        "/* Written by tools/make_fonts.py: Noto Sans CJK JP (SIL OFL 1.1, see OFL.txt), in slices */\n"
        + "\n".join(rules) + "\n", encoding="utf-8")
    (FONTS / "OFL.txt").write_text(license_text(), encoding="utf-8")


def license_text() -> str:
    """The font's copyright notice and the SIL Open Font License, which
    must travel with it (from the font itself and Debian's copyright file)."""
    from fontTools.ttLib import TTCollection

    notice = TTCollection(SOURCE / SOURCE_FILES[400]).fonts[JAPANESE]["name"].getDebugName(0)
    lines = LICENSE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("License: SIL-1.1") and i + 1 < len(lines)
                 and lines[i + 1].strip().startswith("---"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("License:"))
    body = [line[1:] if line.startswith(" ") else line for line in lines[start + 1:end]]
    body = ["" if line == "." else line for line in body]
    return ("The web font in this folder: subsets of Noto Sans CJK JP Regular and Bold, "
            "written by tools/make_fonts.py.\n\n" + notice + "\n\n" + "\n".join(body).strip() + "\n")


if __name__ == "__main__":
    main()
