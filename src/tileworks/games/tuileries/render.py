"""Drawing a Tuileries view: the 8x8 board with tiles as short codes.

>>> import tileworks
>>> from tileworks.games.tuileries import position
>>> game = tileworks.load_game("tuileries")
>>> state = position(game, board={"c3": "rnd"}, hands=[["bks", "gqh"], ["yjc"]])
>>> print(render_text(state.view(0)))
TUILERIES  draw 60  P1 0  P2 0
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

from tileworks.core.text import Segment, closing_line, plain, rich

STYLES = {"b": "bold blue", "y": "bold yellow", "r": "bold red", "g": "bold green"}


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    scores = "  ".join(f"P{i + 1} {p}" for i, p in enumerate(view["points"]))
    lines: list[list[Segment]] = [[(f"TUILERIES  draw {view['pile']}  {scores}", "bold")]]
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
        hand: list[Segment] = [(f"P{view['viewer'] + 1} hand:", None)]
        for tile in view["hand"]:
            hand += [(" ", None), (tile, STYLES[tile[0]])]
        lines.append(hand)
    lines.append([("hands: " + "  ".join(f"P{i + 1} {n}" for i, n in enumerate(view["hand_sizes"])), None)])
    lines.append(closing_line(view))
    return lines


def render_text(view: dict[str, Any]) -> str:
    """Plain text, one line per row, no trailing spaces."""
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    """A :class:`rich.text.Text` with the tiles in their colours."""
    return rich(layout(view))
