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
TILES  deck 40  P1 (white): 0 points  ·  P2 (grey): 0 points
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

from tileworks.core.i18n import _, gettext
from tileworks.core.text import Segment, closing_line, plain, points_of, rich, seat_name

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


def _seat_scores(view: dict[str, Any]) -> str:
    """Each seat with its colour and points (none before chance gives the colours)."""
    return "  ·  ".join(points_of(f"{seat_name(i)} ({gettext(c)})", p)
                        for i, (c, p) in enumerate(zip(view["colours"], view["points"], strict=False)))


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    lines: list[list[Segment]] = [[(_("TILES  deck {deck}", deck=view["deck"]) + f"  {_seat_scores(view)}".rstrip(), "bold")]]
    lines += _tile_rows(view)
    if view["hand"] is not None:
        hand: list[Segment] = [(_("{who} hand:", who=seat_name(view["viewer"])), None)]
        for code in view["hand"]:
            hand.append((" ", None))
            hand += [(ch, STYLES[ch]) for ch in code]
        lines.append(hand)
    sizes = "  ".join(f"{seat_name(i)} {n}" for i, n in enumerate(view["hand_sizes"]))
    lines.append([(_("hands: {sizes}   discards: {discards}", sizes=sizes, discards=" ".join(view["discards"]) or "-"), None)])
    lines.append(closing_line(view))
    return lines


def render_text(view: dict[str, Any]) -> str:
    """Plain text, one line per row, no trailing spaces."""
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    """A :class:`rich.text.Text` with the triangles in colour."""
    return rich(layout(view))


#: triangle colours for pictures
SVG_FILL = {"w": "#f7f7f2", "g": "#9c9c9c", "b": "#262626"}
CELL = 40


def _svg_tile(svg: Any, x: float, y: float, code: str, size: float, **data: Any) -> None:
    """A tile whose top-left corner is (x, y): four triangles meeting at its centre."""
    cx, cy = x + size / 2, y + size / 2
    corners = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
    svg.open_group(**data)
    for side, colour in enumerate(code):  # north, east, south, west
        a, b = corners[side], corners[(side + 1) % 4]
        svg.polygon([a, b, (cx, cy)], fill=SVG_FILL[colour], stroke="#777", stroke_width=0.5)
    svg.close_group()


def render_svg(view: dict[str, Any]) -> str:
    """The layout, the cells where the mover's tiles fit (dashed), and the
    viewer's hand, as SVG. Cells carry ``data-cell="x,y"`` and hand tiles
    ``data-tile``, so that a client can make the legal choices clickable."""
    from tileworks.core.svg import Svg

    svg = Svg()
    pad = 10
    svg.text(pad, 16, _("Tiles — deck {deck}", deck=view["deck"]) + f"  ·  {_seat_scores(view)}", size=13, anchor="start")
    fitting = sorted({move.split("@")[1] for move in view["legal"] if "@" in move})
    cells = [(x, y) for x, y, _ in view["layout"]] + [tuple(map(int, c.split(","))) for c in fitting]
    minx = min((x for x, _ in cells), default=0)
    maxx = max((x for x, _ in cells), default=0)
    miny = min((y for _, y in cells), default=0)
    maxy = max((y for _, y in cells), default=0)
    top = 28

    def corner(x: int, y: int) -> tuple[float, float]:
        return pad + (x - minx) * CELL, top + (maxy - y) * CELL  # north is up

    for cell in fitting:
        x, y = map(int, cell.split(","))
        px, py = corner(x, y)
        svg.rect(px, py, CELL, CELL, fill="#fff7d6", stroke="#d08a2a", stroke_dasharray="4 3",
                 data_cell=cell)  # the whole cell, to be easy to hit on a phone
    for x, y, code in view["layout"]:
        px, py = corner(x, y)
        _svg_tile(svg, px, py, code, CELL, data_cell=f"{x},{y}")
    y = top + (maxy - miny + 1) * CELL + 16
    width = max(pad * 2 + (maxx - minx + 1) * CELL, 360)
    if view["hand"] is not None:
        svg.text(pad, y + 4, _("{who}'s hand", who=seat_name(view["viewer"])), size=12, anchor="start")
        for i, code in enumerate(view["hand"]):
            _svg_tile(svg, pad + i * (CELL + 6), y + 12, code, CELL, data_tile=code)
        width = max(width, pad * 2 + len(view["hand"]) * (CELL + 6))
        y += CELL + 28
    sizes = "  ".join(f"{seat_name(i)}: {n}" for i, n in enumerate(view["hand_sizes"]))
    svg.text(pad, y + 4, _("tiles in hand  {sizes}   discards: {discards}", sizes=sizes, discards=len(view["discards"])),
             size=11, anchor="start")
    svg.text(pad, y + 22, view["decision"], size=12, anchor="start")
    return svg.render(width, y + 32, _("Tiles: {decision}", decision=view["decision"]))


#: a few tiles as they might lie mid-game, matching where they touch (north, east, south, west;
#: the second row is drawn south of the first)
CARD_LAYOUT = ((0, 0, "wgbw"), (1, 0, "wwgg"), (2, 0, "bbgw"), (0, 1, "bwbb"), (1, 1, "gbgw"), (2, 1, "gbwb"))


def render_card(view: dict[str, Any]) -> str:
    """The lobby card's picture: a few tiles laid edge to edge, large, no words."""
    from tileworks.core.svg import Svg

    svg, size = Svg(), 52
    for x, y, code in CARD_LAYOUT:
        _svg_tile(svg, 8 + x * size, 8 + y * size, code, size)
    return svg.render(16 + 3 * size, 16 + 2 * size, "Tiles")
