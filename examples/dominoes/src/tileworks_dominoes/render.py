"""Drawing a dominoes view: text, Rich text and SVG.

>>> import tileworks
>>> from tileworks_dominoes.notation import position
>>> state = position(tileworks.load_game("dominoes"), line=["6-6", "6-3"], hands=[["3-5", "0-1"], ["2-2"]])
>>> print(render_text(state.view(0)))
DOMINOES  block  boneyard 23
line: [6|6][6|3]   ends 6 and 3
P1 hand: 0-1 3-5
hands: P1 2  P2 1
> P1 plays a tile on the 6 or the 3 end, or passes
"""

from __future__ import annotations

from typing import Any

from tileworks.core.svg import Svg
from tileworks.core.i18n import _
from tileworks.core.text import Segment, closing_line, plain, points_of, rich, seat_name

#: where the pips of 0-6 sit on a half of a domino, in thirds of its side
PIP_SPOTS = {
    0: (), 1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)), 5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
HALF = 34  # a square half of a domino in the picture, in pixels
PER_ROW = 9  # tiles of the line drawn on one row before it wraps


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    heading = _("DOMINOES  draw  boneyard {count}", count=view["boneyard"]) if view["draw"] else \
        _("DOMINOES  block  boneyard {count}", count=view["boneyard"])
    lines: list[list[Segment]] = [[(heading, "bold")]]
    if view["line"]:
        tiles = "".join(f"[{a}|{b}]" for a, b in view["line"])
        left, right = view["ends"]
        lines.append([(_("line: "), None), (tiles, "bold"), ("   " + _("ends {left} and {right}", left=left, right=right), "dim")])
    else:
        lines.append([(_("line: empty"), "dim")])
    if view["hand"] is not None:
        lines.append([(_("{who} hand: ", who=seat_name(view["viewer"])), None), (" ".join(view["hand"]), "bold")])
    sizes = "  ".join(f"{seat_name(i)} {n}" for i, n in enumerate(view["hand_sizes"]))
    lines.append([(_("hands: {sizes}", sizes=sizes), None)])
    if view["final_hands"] is not None:
        for seat, (hand, total) in enumerate(zip(view["final_hands"], view["pips"], strict=True)):
            lines.append([(_("{who} held {tiles} ({pips} pips), scores {points}", who=seat_name(seat),
                             tiles=" ".join(hand) or "-", pips=total, points=view["points"][seat]), None)])
        if view["blocked"]:
            lines.append([(_("blocked: the lightest hand wins"), "dim")])
    lines.append(closing_line(view))
    return lines


def render_text(view: dict[str, Any]) -> str:
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    return rich(layout(view))


def _half(svg: Svg, x: float, y: float, count: int) -> None:
    for col, row in PIP_SPOTS[count]:
        svg.circle(x + HALF * (col + 1) / 4, y + HALF * (row + 1) / 4, 3.6, fill="#222", pointer_events="none")


def _domino(svg: Svg, x: float, y: float, a: int, b: int, **data: Any) -> None:
    """A domino lying flat, ``a`` on the left half and ``b`` on the right."""
    svg.open_group(**data)
    svg.rect(x, y, 2 * HALF, HALF, rx=5, fill="#fbf8f0", stroke="#333", stroke_width=1.5)
    svg.rect(x + HALF - 0.75, y + 4, 1.5, HALF - 8, fill="#999", pointer_events="none")
    _half(svg, x, y, a)
    _half(svg, x + HALF, y, b)
    svg.close_group()


def render_svg(view: dict[str, Any]) -> str:
    """The line of play (wrapping after nine tiles), its two open ends as
    targets, the viewer's hand, the hand sizes and the decision. Hand tiles
    carry ``data-tile`` and the ends ``data-end``, so a client can make the
    legal choices clickable."""
    svg = Svg()
    pad, width = 16, 2 * 16 + (PER_ROW + 2) * (2 * HALF + 4)
    scores = "  ·  ".join(points_of(seat_name(i), p) for i, p in enumerate(view["points"]))
    heading = _("Draw Dominoes — boneyard {count}", count=view["boneyard"]) if view["draw"] else \
        _("Block Dominoes — boneyard {count}", count=view["boneyard"])
    svg.text(pad, 20, f"{heading}  ·  {scores}", size=14, anchor="start")
    top = 36
    line = view["line"]
    step = 2 * HALF + 4
    rows = max(1, -(-len(line) // PER_ROW))
    if line:
        # the left end's target, then the line row by row, then the right end's target
        svg.rect(pad, top, HALF, HALF, rx=5, fill="#e8f0ff", stroke="#6b8fd6", stroke_dasharray="4 3",
                 data_end="left", aria_label=_("left end ({pips})", pips=view["ends"][0]))
        for i, (a, b) in enumerate(line):
            x = pad + HALF + 8 + (i % PER_ROW) * step
            y = top + (i // PER_ROW) * (HALF + 10)
            _domino(svg, x, y, a, b, aria_label=f"{a}-{b}")
        last = len(line) - 1
        x = pad + HALF + 8 + (last % PER_ROW + 1) * step
        svg.rect(x, top + (last // PER_ROW) * (HALF + 10), HALF, HALF, rx=5, fill="#e8f0ff", stroke="#6b8fd6",
                 stroke_dasharray="4 3", data_end="right", aria_label=_("right end ({pips})", pips=view["ends"][1]))
    else:
        svg.text(pad, top + HALF / 2 + 5, _("the line is empty: the highest tile dealt opens it"), size=13,
                 anchor="start", fill="#666")
    y = top + rows * (HALF + 10) + 16
    if view["hand"] is not None:
        svg.text(pad, y, _("{who}'s hand", who=seat_name(view["viewer"])), size=13, anchor="start")
        for i, name in enumerate(view["hand"]):
            a, b = int(name[0]), int(name[2])
            _domino(svg, pad + (i % PER_ROW) * step, y + 8 + (i // PER_ROW) * (HALF + 8), a, b,
                    data_tile=name, aria_label=_("tile {tile}", tile=name))
        y += 16 + max(1, -(-len(view["hand"]) // PER_ROW)) * (HALF + 8)
    sizes = "  ".join(f"{seat_name(i)}: {n}" for i, n in enumerate(view["hand_sizes"]))
    svg.text(pad, y + 10, _("tiles in hand: {sizes}", sizes=sizes), size=12, anchor="start")
    if view["final_hands"] is not None:
        for seat, (hand, total) in enumerate(zip(view["final_hands"], view["pips"], strict=True)):
            y += 18
            svg.text(pad, y + 10, _("{who} held {tiles} ({pips} pips)", who=seat_name(seat), tiles=" ".join(hand) or "-",
                                    pips=total), size=12,
                     anchor="start")
    svg.text(pad, y + 30, view["decision"], size=13, anchor="start")
    return svg.render(width, y + 42, _("Dominoes: {decision}", decision=view["decision"]))


def render_card(view: dict[str, Any]) -> str:
    """The lobby card's picture: a short line of dominoes, large, no words."""
    svg = Svg()
    for i, (a, b) in enumerate(((6, 6), (6, 3), (3, 5))):
        _domino(svg, 8 + i * (2 * HALF + 4), 8 + i * 14, a, b)
    return svg.render(16 + 3 * (2 * HALF + 4), 16 + HALF + 28, "Dominoes")
