"""Drawing a Tuileries view: the 8x8 board with tiles as short codes.

>>> import tileworks
>>> from tileworks.games.tuileries import position
>>> game = tileworks.load_game("tuileries")
>>> state = position(game, board={"c3": "rnd"}, hands=[["bks", "gqh"], ["yjc"]])
>>> print(render_text(state.view(0)))
TUILERIES  draw 60  P1: 0 points  ·  P2: 0 points  ·  P1 started
     a   b   c   d   e   f   g   h
 8   .   .   .   .   .   .   .   .
 7   .   .   .   .   .   .   .   .
 6   .   .   o   .   .   o   .   .
 5   .   .   .   .   .   .   .   .
 4   .   .   .   .   .   .   .   .
 3   .   .  rnd  .   .   o   .   .
 2   .   .   .   .   .   .   .   .
 1   .   .   .   .   .   .   .   .
P1 hand: bks gqh
hands: P1 2  P2 1
> P1 places a tile on a circle square
"""

from __future__ import annotations

from typing import Any

from tileworks.core.i18n import _
from tileworks.core.text import Segment, closing_line, plain, points_of, rich, seat_name

STYLES = {"b": "bold blue", "y": "bold yellow", "r": "bold red", "g": "bold green"}


def _header_scores(view: dict[str, Any]) -> str:
    """Each seat's points, and who played first once chance has said."""
    scores = "  ·  ".join(points_of(seat_name(i), p) for i, p in enumerate(view["points"]))
    if view["first"] is not None:
        scores += "  ·  " + _("{who} started", who=seat_name(view["first"]))
    return scores


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    scores = _header_scores(view)
    lines: list[list[Segment]] = [[(_("TUILERIES  draw {pile}", pile=view["pile"]) + f"  {scores}", "bold")]]
    lines.append([("   " + "".join(f"  {f} " for f in "abcdefgh"), "dim")])
    board, circles = view["board"], set(view["circles"])
    for rank in range(8, 0, -1):
        line: list[Segment] = [(f" {rank} ", "dim")]
        for file in "abcdefgh":
            square = f"{file}{rank}"
            tile = board.get(square)
            if tile:
                line += [(" ", None), (tile, STYLES[tile[0]])]
            else:
                line.append(("  o " if square in circles else "  . ", "dim"))
        lines.append(line)
    if view["hand"] is not None:
        hand: list[Segment] = [(_("{who} hand:", who=seat_name(view["viewer"])), None)]
        for tile in view["hand"]:
            hand += [(" ", None), (tile, STYLES[tile[0]])]
        lines.append(hand)
    sizes = "  ".join(f"{seat_name(i)} {n}" for i, n in enumerate(view["hand_sizes"]))
    lines.append([(_("hands: {sizes}", sizes=sizes), None)])
    lines.append(closing_line(view))
    return lines


def render_text(view: dict[str, Any]) -> str:
    """Plain text, one line per row, no trailing spaces."""
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    """A :class:`rich.text.Text` with the tiles in their colours."""
    return rich(layout(view))


#: tile colours and sign symbols for pictures
SVG_FILL = {"b": "#2f6fd0", "y": "#e8b923", "r": "#d8443c", "g": "#3e9a4f"}
SVG_SIGN = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SVG_VALUE = {"k": "K", "q": "Q", "n": "N", "j": "J"}
SQUARE = 44


def _svg_tile(svg: Any, x: float, y: float, name: str, size: float, **data: Any) -> None:
    colour, value, sign = name
    svg.open_group(**data)
    svg.rect(x, y, size, size, fill="#fff", fill_opacity="0", class_="hit")  # the whole square answers a click or a tap
    svg.tile(x + 2, y + 2, size - 4, size - 4, SVG_FILL[colour], rx=5, stroke="#333")
    svg.text(x + size / 2, y + size / 2 + 1, SVG_VALUE[value], size=size * 0.36, fill="#fff", font_weight="bold")
    svg.text(x + size / 2, y + size - 7, SVG_SIGN[sign], size=size * 0.28, fill="#fff")
    svg.close_group()


def render_svg(view: dict[str, Any]) -> str:
    """The board (circles marked), the viewer's hand, scores and the
    decision, as SVG. Squares carry ``data-square`` and hand tiles
    ``data-tile``, so that a client can make the legal choices clickable."""
    from tileworks.core.svg import Svg

    svg = Svg()
    pad, top = 24, 30
    scores = _header_scores(view)
    svg.text(pad - 14, 18, _("Tuileries — pile {pile}", pile=view["pile"]) + f"  ·  {scores}", size=13, anchor="start")
    open_squares = {move.split("@")[1] for move in view["legal"] if "@" in move}
    for rank in range(8, 0, -1):
        for f, file in enumerate("abcdefgh"):
            name = f"{file}{rank}"
            x, y = pad + f * SQUARE, top + (8 - rank) * SQUARE
            shade = "#fff7d6" if name in open_squares else ("#efe7d6" if (f + rank) % 2 else "#f8f3ea")
            svg.rect(x, y, SQUARE, SQUARE, fill=shade, stroke="#c9b48c", data_square=name)
            if name in view["circles"]:
                svg.circle(x + SQUARE / 2, y + SQUARE / 2, SQUARE / 2 - 4, fill="none", stroke="#b05a2a",
                           stroke_width=2, pointer_events="none")  # a mark on the square, not a target
            tile = view["board"].get(name)
            if tile:
                _svg_tile(svg, x, y, tile, SQUARE, data_square=name)
        svg.text(pad - 8, top + (8 - rank) * SQUARE + SQUARE / 2 + 4, str(rank), size=10, fill="#777")
    for f, file in enumerate("abcdefgh"):
        svg.text(pad + f * SQUARE + SQUARE / 2, top + 8 * SQUARE + 12, file, size=10, fill="#777")
    y = top + 8 * SQUARE + 24
    width = pad * 2 + 8 * SQUARE
    if view["hand"] is not None:
        svg.text(pad, y + 4, _("{who}'s hand", who=seat_name(view["viewer"])), size=12, anchor="start")
        for i, name in enumerate(view["hand"]):
            _svg_tile(svg, pad + (i % 8) * SQUARE, y + 10 + (i // 8) * SQUARE, name, SQUARE, data_tile=name)
        y += 14 + (-(-len(view["hand"]) // 8)) * SQUARE
    sizes = "  ".join(f"{seat_name(i)}: {n}" for i, n in enumerate(view["hand_sizes"]))
    svg.text(pad, y + 12, _("tiles in hand  {sizes}", sizes=sizes), size=11, anchor="start")
    svg.text(pad, y + 30, view["decision"], size=12, anchor="start")
    return svg.render(width, y + 40, _("Tuileries: {decision}", decision=view["decision"]))


#: a corner of a game in progress: (file, rank from the top, tile)
CARD_TILES = ((0, 0, "rkd"), (1, 0, "rnd"), (1, 1, "bnh"), (2, 1, "bqh"), (3, 0, "gjs"))


def render_card(view: dict[str, Any]) -> str:
    """The lobby card's picture: a corner of the board with a circle square
    and a few tiles, large enough to read their value and sign."""
    from tileworks.core.svg import Svg

    svg, size = Svg(), 50
    for f in range(4):
        for r in range(2):
            x, y = 8 + f * size, 8 + r * size
            svg.rect(x, y, size, size, fill="#efe7d6" if (f + r) % 2 else "#f8f3ea", stroke="#c9b48c")
    svg.circle(8 + 2.5 * size, 8 + 0.5 * size, size / 2 - 4, fill="none", stroke="#b05a2a", stroke_width=2)
    for f, r, tile in CARD_TILES:
        _svg_tile(svg, 8 + f * size, 8 + r * size, tile, size)
    return svg.render(16 + 4 * size, 16 + 2 * size, "Tuileries")
