"""Tile sets: the data, its validation, and the tables the engine derives.

A tile is four triangles, written as a code of four letters for the north,
east, south and west triangles: ``w`` white, ``g`` grey, ``b`` black. So
``wgbw`` has a white north, grey east, black south and white west. A tile
may be turned a quarter at a time, so codes that are rotations of each other
are the same **kind** of tile; a kind is named by its smallest rotation.

>>> ts = TileSet.default()
>>> len(ts.codes), len(ts.kinds)
(45, 24)
>>> ts.kind_of("gwww"), ts.count[ts.kind_of("gwww")]
(22, 2)
>>> rotate("wgbw")
'wwgb'
"""

from __future__ import annotations

from tileworks.core.i18n import N_, _

import re
from functools import lru_cache
from importlib import resources

COLOURS = "wgb"
COLOUR_NAMES = (N_("white"), N_("grey"), N_("black"))
FREE = 3  # a side with no neighbour: any colour fits
MAX_TILES = 100


def rotate(code: str) -> str:
    """The code after a clockwise quarter turn (west moves to north)."""
    return code[3] + code[:3]


def rotations(code: str) -> list[str]:
    """The code turned 0 to 3 quarter turns clockwise."""
    out = [code]
    for _turn in range(3):
        out.append(rotate(out[-1]))
    return out


def canonical(code: str) -> str:
    """The name of a kind: the smallest of its rotations (by letters b < g < w)."""
    return min(rotations(code))


def parse_codes(text: str) -> list[str]:
    """Tile codes from text: separated by commas, spaces or new lines; ``#``
    starts a comment. Raises ``ValueError`` naming the first bad code."""
    codes = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for word in re.split(r"[\s,]+", line.strip().lower()):
            if not word:
                continue
            if len(word) != 4 or set(word) - set(COLOURS):
                raise ValueError(
                    _("tile {number} {code} is not a tile code: four letters from w, g, b (N E S W)",
                      number=len(codes) + 1, code=repr(word))
                )
            codes.append(word)
    return codes


def default_text() -> str:
    return resources.files("tileworks.games.tiles").joinpath("default.tiles").read_text(encoding="utf-8")


def normalise_tile_set(value: object) -> str:
    """The ``tile_set`` option: ``"default"`` or the codes as text (the
    command line reads ``@FILE`` into text first; the engine never opens
    files, so a server cannot be asked to read one). The canonical value is
    ``"default"`` or the codes joined by commas, so a game record carries
    the whole set."""
    if not isinstance(value, str):
        raise ValueError(N_("expected 'default' or tile codes"))
    text = value.strip()
    if text.lower() == "default":
        return "default"
    codes = parse_codes(text)
    if len(codes) < 16:
        raise ValueError(
            _("a set of {count} tiles is too small: 3 players need 3 hands of 5 and a first tile (16)", count=len(codes))
        )
    if len(codes) > MAX_TILES:
        raise ValueError(_("a set of {count} tiles is too large (at most {most})", count=len(codes), most=MAX_TILES))
    return ",".join(codes)


class TileSet:
    """A set of tiles and the tables the engine uses."""

    def __init__(self, codes: list[str]):
        self.codes = list(codes)
        self.kinds: list[str] = sorted({canonical(c) for c in codes})
        self.index = {name: i for i, name in enumerate(self.kinds)}
        self.count = [0] * len(self.kinds)
        for code in codes:
            self.count[self.index[canonical(code)]] += 1
        #: per kind, its code at each of the four turns (every placement asks)
        self.turned: list[list[str]] = [rotations(name) for name in self.kinds]
        #: per kind, its distinct orientations: (orientation number, code)
        self.orientations: list[list[tuple[int, str]]] = []
        for turned in self.turned:
            seen: set[str] = set()
            distinct = []
            for turn, code in enumerate(turned):
                if code not in seen:
                    seen.add(code)
                    distinct.append((turn, code))
            self.orientations.append(distinct)
        #: FITS[pattern][kind] = orientations of that kind that fit the pattern
        self.fits = _fit_table(tuple(tuple(o) for o in self.orientations))
        #: per requirement pattern, the kinds (a bitmask) with some turn that fits it
        self.fitting = tuple(sum(1 << kind for kind, turns in enumerate(row) if turns) for row in self.fits)

    @classmethod
    def default(cls) -> "TileSet":
        return _default_set()

    @classmethod
    def from_option(cls, value: str) -> "TileSet":
        return cls.default() if value == "default" else _cached_set(value)

    def kind_of(self, code: str) -> int:
        """The kind index of any rotation of ``code``."""
        return self.index[canonical(code)]

    def oriented(self, kind: int, turn: int) -> str:
        return self.turned[kind][turn]

    def __len__(self) -> int:
        return len(self.codes)


@lru_cache(maxsize=1024)
def colours_of(code: str) -> tuple[int, int, int, int]:
    """The colour of each side, north first (cached: every tile placed in a
    search asks, and the codes are few)."""
    return tuple(COLOURS.index(ch) for ch in code)  # type: ignore[return-value]


def pattern_of(sides: tuple[int, int, int, int]) -> int:
    """A requirement pattern: one base-4 digit per side (N E S W), 3 = free."""
    return sides[0] | sides[1] << 2 | sides[2] << 4 | sides[3] << 6


@lru_cache(maxsize=8)
def _fit_table(orientations: tuple[tuple[tuple[int, str], ...], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    table = []
    for pattern in range(256):
        need = [(pattern >> (2 * side)) & 3 for side in range(4)]
        row = []
        for kind_orients in orientations:
            ok = tuple(
                turn for turn, code in kind_orients
                if all(n == FREE or n == COLOURS.index(code[side]) for side, n in enumerate(need))
            )
            row.append(ok)
        table.append(tuple(row))
    return tuple(table)


@lru_cache(maxsize=1)
def _default_set() -> TileSet:
    return TileSet(parse_codes(default_text()))


@lru_cache(maxsize=16)
def _cached_set(value: str) -> TileSet:
    return TileSet(value.split(","))
