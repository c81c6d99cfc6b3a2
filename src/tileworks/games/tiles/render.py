"""Drawing a Tiles view: each tile is a 3x3 block showing its four triangles.

::

     w        the north triangle
    g+b       west, the centre, east
     b        south

>>> import tileworks
>>> from tileworks.games.tiles import position
>>> game = tileworks.load_game("tiles")
>>> state = position(game, layout=[[0, 0, "wgbw"], [1, 0, "wwwg"]],
...                  hands=[["gggg", "bbbb"], ["wwww"]])
>>> print(render_text(state.view(0)))
TILES  deck 40  P1 white 0  P2 grey 0
     0  1
     w  w
  0 w+gg+w
     b  w
P1 hand: bbbb gggg
hands: P1 2  P2 1   discards: -
> P1 (white) places a tile, or discards if none fits
"""

from __future__ import annotations

from typing import Any

from tileworks.core.text import Segment, closing_line, plain, rich

STYLES = {"w": "black on white", "g": "black on grey62", "b": "white on grey11"}


def _tile_rows(view: dict[str, Any]) -> list[list[Segment]]:
    layout = {(x, y): code for x, y, code in view["layout"]}
    if not layout:
        return [[("(no tile yet)", "dim")]]
    minx, maxx, miny, maxy = view["bounds"]
    header: list[Segment] = [("    ", None)]
    for x in range(minx, maxx + 1):
        header.append((f"{x:>2} ", "dim"))
    lines = [header]
    for y in range(maxy, miny - 1, -1):
        top: list[Segment] = [("    ", None)]
        mid: list[Segment] = [(f"{y:>3} ", "dim")]
        bottom: list[Segment] = [("    ", None)]
        for x in range(minx, maxx + 1):
            code = layout.get((x, y))
            if code is None:
                for row in (top, mid, bottom):
                    row.append(("   ", None))
                continue
            n, e, s, w = code
            top += [(" ", None), (n, STYLES[n]), (" ", None)]
            mid += [(w, STYLES[w]), ("+", "dim"), (e, STYLES[e])]
            bottom += [(" ", None), (s, STYLES[s]), (" ", None)]
        lines += [top, mid, bottom]
    return lines


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    seats = "  ".join(f"P{i + 1} {c} {p}" for i, (c, p) in enumerate(zip(view["colours"], view["points"], strict=False)))
    lines: list[list[Segment]] = [[(f"TILES  deck {view['deck']}  {seats}".rstrip(), "bold")]]
    lines += _tile_rows(view)
    if view["hand"] is not None:
        hand: list[Segment] = [(f"P{view['viewer'] + 1} hand:", None)]
        for code in view["hand"]:
            hand.append((" ", None))
            hand += [(ch, STYLES[ch]) for ch in code]
        lines.append(hand)
    sizes = "  ".join(f"P{i + 1} {n}" for i, n in enumerate(view["hand_sizes"]))
    lines.append([(f"hands: {sizes}   discards: {' '.join(view['discards']) or '-'}", None)])
    lines.append(closing_line(view))
    return lines


def render_text(view: dict[str, Any]) -> str:
    """Plain text, one line per row, no trailing spaces."""
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    """A :class:`rich.text.Text` with the triangles in colour."""
    return rich(layout(view))
