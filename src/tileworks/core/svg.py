"""A small SVG writer shared by the games' renderers.

Shapes take their attributes as keywords (``stroke_width`` is written
``stroke-width``, ``data_move`` is ``data-move``); ``data-*`` attributes
name what a shape shows, so that a client can make it clickable. Text is
escaped.

>>> svg = Svg()
>>> svg.rect(0, 0, 10, 10, fill="#fff", data_cell="a1")
>>> svg.text(5, 8, "<1>", size=9)
>>> print(svg.render(20, 12, "a board"))  # doctest: +NORMALIZE_WHITESPACE
<svg xmlns="http://www.w3.org/2000/svg" width="20" height="12" viewBox="0 0 20 12" role="img" font-family="sans-serif" text-anchor="middle"><title>a board</title><rect x="0" y="0" width="10" height="10" fill="#fff" data-cell="a1"/><text x="5" y="8" font-size="9">&lt;1&gt;</text></svg>
"""

from __future__ import annotations

from functools import cache, lru_cache
from html import escape
from typing import Any, NamedTuple


@cache
def _attribute_name(keyword: str) -> str:
    """``stroke_width`` is written ``stroke-width``; ``class_`` is ``class``."""
    return keyword.rstrip("_").replace("_", "-")


def _attrs(attributes: dict[str, Any]) -> str:
    try:
        return _attribute_text(tuple(attributes.items()))
    except TypeError:  # a value that cannot be a cache key
        return _attribute_text.__wrapped__(tuple(attributes.items()))


@lru_cache(maxsize=8192)
def _attribute_text(items: tuple[tuple[str, Any], ...]) -> str:
    # a picture repeats a few hundred sets of attributes (a tile's colour,
    # its seat and line) many times: each is written once
    return "".join(f' {_attribute_name(key)}="{escape(str(value))}"' for key, value in items if value is not None)


@lru_cache(maxsize=8192)
def _number(value: float) -> str:
    # coordinates repeat from shape to shape and picture to picture
    return f"{value:g}"


#: shared paints a picture may use (``url(#id)``): the sheen of a glazed
#: tile, a ceramic disc, a board's paper
PAINTS = {
    "sheen": '<linearGradient id="sheen" x1="0" y1="0" x2="0" y2="1">'
             '<stop offset="0" stop-color="#fff" stop-opacity="0.55"/>'
             '<stop offset="0.45" stop-color="#fff" stop-opacity="0.08"/>'
             '<stop offset="1" stop-color="#000" stop-opacity="0.12"/></linearGradient>',
    "ceramic": '<radialGradient id="ceramic" cx="0.4" cy="0.35" r="0.75">'
               '<stop offset="0" stop-color="#fffaf0"/><stop offset="0.7" stop-color="#f1e4cc"/>'
               '<stop offset="1" stop-color="#dcc7a0"/></radialGradient>',
    "paper": '<linearGradient id="paper" x1="0" y1="0" x2="1" y2="1">'
             '<stop offset="0" stop-color="#fdf9f1"/><stop offset="1" stop-color="#f1e8d6"/></linearGradient>',
}


#: how a picture draws what every tile repeats, named by class rather than
#: written out on each shape (a table holds a hundred tiles): a tile's
#: shadow and glaze, which let clicks through to its face, and its colour
#: letter (``cue``; ``dark`` on a light tile, ``faint`` on an empty space)
STYLE = ("<style>.tw-shadow{fill:#000;fill-opacity:.28;pointer-events:none}"
         ".tw-glaze{fill:url(#sheen);pointer-events:none}"
         ".cue{font-weight:bold;fill:#fff;pointer-events:none}.cue.dark{fill:#222}.cue.faint{opacity:.45}</style>")


class Fragment(NamedTuple):
    """Shapes drawn once, to be put in many pictures (:meth:`Svg.include`):
    their text, the shared paints they use, and whether they need :data:`STYLE`."""

    text: str
    paints: frozenset[str]
    styled: bool = False


class Svg:
    """Collects shapes; :meth:`render` wraps them in an ``<svg>`` element,
    with the shared paints (:data:`PAINTS`) the shapes used.

    A part of a picture that often stays the same from one position to the
    next (a player's board) can be drawn once as a :meth:`fragment` and
    included in each picture that shows it:

    >>> part = Svg()
    >>> part.rect(0, 0, 4, 4, fill=part.paint("paper"))
    >>> svg = Svg()
    >>> svg.include(part.fragment())
    >>> svg.render(4, 4, "a square") == part.render(4, 4, "a square")
    True
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.paints: set[str] = set()
        self.styled = False  # whether the picture needs :data:`STYLE`

    def paint(self, name: str) -> str:
        """``url(#name)`` of a shared paint, which the picture then carries."""
        self.paints.add(name)
        return f"url(#{name})"

    def tile(self, x: float, y: float, width: float, height: float, fill: str, rx: float = 3,
             **attributes: Any) -> None:
        """A tile as it lies on the table: a shadow under it, its face (the
        ``fill``, the given attributes: the shape a click names) and a glaze
        over it. Shadow and glaze let clicks through to the face; they are
        drawn by the picture's :data:`STYLE`, not by attributes of their own."""
        self.styled = True
        self.paint("sheen")
        self.rect(x + 0.8, y + 1.4, width, height, rx=rx, class_="tw-shadow")
        self.rect(x, y, width, height, rx=rx, fill=fill, **attributes)
        self.rect(x, y, width, height, rx=rx, class_="tw-glaze")

    def rect(self, x: float, y: float, width: float, height: float, **attributes: Any) -> None:
        self.parts.append(f'<rect x="{_number(x)}" y="{_number(y)}" width="{_number(width)}" '
                          f'height="{_number(height)}"{_attrs(attributes)}/>')

    def circle(self, cx: float, cy: float, r: float, **attributes: Any) -> None:
        self.parts.append(f'<circle cx="{_number(cx)}" cy="{_number(cy)}" r="{_number(r)}"{_attrs(attributes)}/>')

    def polygon(self, points: list[tuple[float, float]], **attributes: Any) -> None:
        joined = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
        self.parts.append(f'<polygon points="{joined}"{_attrs(attributes)}/>')

    def text(self, x: float, y: float, words: str, size: float = 11, anchor: str = "middle", **attributes: Any) -> None:
        """Words centred on ``x`` (``anchor="start"``: starting at it), in the
        picture's sans-serif font unless ``font_family`` says otherwise."""
        placed = "" if anchor == "middle" else f' text-anchor="{anchor}"'  # (the picture's default is middle)
        self.parts.append(
            f'<text x="{_number(x)}" y="{_number(y)}" font-size="{_number(size)}"{placed}{_attrs(attributes)}>'
            f"{escape(words)}</text>"
        )

    def cue(self, x: float, y: float, size: float, letter: str, dark: bool = False, faint: bool = False) -> None:
        """A tile's colour letter, centred on the ``size`` square at ``x, y``:
        colour is never the only cue, for colour-blind players. It lets
        clicks through to the shape under it and is not read aloud (the
        shape's label says it)."""
        self.styled = True
        kind = "cue" + (" dark" if dark else "") + (" faint" if faint else "")
        self.text(x + size / 2, y + size / 2 + size * 0.18, letter, size=round(size * 0.5), class_=kind,
                  aria_hidden="true")

    def open_group(self, **attributes: Any) -> None:
        self.parts.append(f"<g{_attrs(attributes)}>")

    def close_group(self) -> None:
        self.parts.append("</g>")

    def fragment(self) -> Fragment:
        """What has been drawn so far, to :meth:`include` in other pictures."""
        return Fragment("".join(self.parts), frozenset(self.paints), self.styled)

    def include(self, fragment: Fragment) -> None:
        """Draw a :meth:`fragment` drawn before, as it was drawn."""
        self.parts.append(fragment.text)
        self.paints |= fragment.paints
        self.styled |= fragment.styled

    def render(self, width: float, height: float, title: str) -> str:
        defs = "<defs>" + "".join(PAINTS[name] for name in sorted(self.paints)) + "</defs>" if self.paints else ""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_number(width)}" height="{_number(height)}" '
            f'viewBox="0 0 {_number(width)} {_number(height)}" role="img" font-family="sans-serif" '
            f'text-anchor="middle"><title>{escape(title)}</title>'
            + (STYLE if self.styled else "") + defs + "".join(self.parts) + "</svg>"
        )


def text_picture(text: str, title: str, size: float = 14) -> str:
    """A text rendering drawn as an SVG picture, one monospace line per line:
    what a game without an SVG renderer shows wherever a picture is wanted.

    >>> text_picture("a  b", "two letters")  # doctest: +ELLIPSIS
    '<svg ... width="...<title>two letters</title><text x="8" y="20" font-size="14" font-family="monospace" text-anchor="start" xml:space="preserve">a  b</text></svg>'
    """
    lines = text.splitlines() or [""]
    svg = Svg()
    for i, line in enumerate(lines):
        svg.parts.append(
            f'<text x="8" y="{_number(20 + i * size * 1.3)}" font-size="{_number(size)}" font-family="monospace" '
            f'text-anchor="start" xml:space="preserve">{escape(line)}</text>'
        )
    width = 16 + 0.62 * size * max(len(line) for line in lines)
    return svg.render(round(width), round(12 + len(lines) * size * 1.3), title)


#: the drawn shapes a preview may show (words and groups are not shapes)
_SHAPES = ("rect", "circle", "polygon", "path", "line", "ellipse")


def preview_overlay(now: str, after: str) -> str | None:
    """What a move would change on the picture: the shapes of ``after`` (the
    picture once the move is made) that ``now`` does not have, as a group to
    lay over ``now`` (``class="preview"``, not clickable). None where nothing
    new is drawn, or where most of the picture moved (its layout changed).
    It knows no game: any game whose pictures keep their layout gets previews.

    >>> now = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9"><rect x="0" y="0" width="4" height="4" fill="#fff"/></svg>'
    >>> after = now.replace('fill="#fff"/>', 'fill="#fff"/><rect x="5" y="0" width="4" height="4" fill="#c33"/>')
    >>> preview_overlay(now, after)
    '<g class="preview" pointer-events="none"><rect x="5" y="0" width="4" height="4" fill="#c33" /></g>'
    >>> preview_overlay(now, now) is None
    True
    """
    from collections import Counter
    from xml.etree import ElementTree

    def shapes(picture: str) -> list[str]:
        root = ElementTree.fromstring(picture)
        found = []
        for element in root.iter():
            tag = element.tag.rsplit("}", 1)[-1]
            if tag in _SHAPES:
                attributes = "".join(f' {k}="{escape(v, quote=True)}"' for k, v in element.attrib.items()
                                     if not k.startswith("data-") and k not in ("aria-label", "role", "tabindex"))
                found.append(f"<{tag}{attributes} />")
        return found

    before, drawn = shapes(now), shapes(after)
    left = Counter(before)
    new = []
    for shape in drawn:
        if left[shape]:
            left[shape] -= 1
        else:
            new.append(shape)
    if not new or (len(new) > 8 and len(new) > len(drawn) // 3):  # (much of it moved: the layout changed)
        return None
    return f'<g class="preview" pointer-events="none">{"".join(new)}</g>'
