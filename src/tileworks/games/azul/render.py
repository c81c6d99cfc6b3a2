"""Drawing an Azul view as plain text or Rich colour text.

>>> import tileworks
>>> from tileworks.games.azul import position
>>> game = tileworks.load_game("azul")
>>> state = position(game, factories=["bbyr", "kkww", "", "rryw", "bykw"], centre="rr",
...                  lines=[["", "yy", "", "", ""], [""] * 5],
...                  walls=[["b....", ".....", ".....", ".....", "....."], ["....."] * 5],
...                  points=[4, 0])
>>> print(render_text(state.view()))
AZUL  round 1  bag 79  lid 0
factories  1:bbyr  2:kkww  3:-  4:yrrw  5:bykw
centre     rr +marker
P1  4 points  (starts this round)
  1         . | B y r k w
  2       Y Y | w b y r k
  3     . . . | k w b y r
  4   . . . . | r k w b y
  5 . . . . . | y r k w b
  floor: -
P2  0 points
  1         . | b y r k w
  2       . . | w b y r k
  3     . . . | k w b y r
  4   . . . . | r k w b y
  5 . . . . . | y r k w b
  floor: -
> P1 takes tiles from a factory or the centre
"""

from __future__ import annotations

from typing import Any

from tileworks.core.text import Segment, closing_line, plain, rich
from tileworks.games.azul.constants import COLOUR_LETTERS, FLOOR_PENALTY, wall_column

STYLES = {"b": "bold blue", "y": "bold yellow", "r": "bold red", "k": "bold white on grey23", "w": "bold black on white"}


def _tiles(text: str) -> list[Segment]:
    return [(ch, STYLES[ch]) for ch in text] if text else [("-", "dim")]


def _seat_lines(view: dict[str, Any], seat: dict[str, Any]) -> list[list[Segment]]:
    grey = view["variant"] == "grey"
    title = f"{seat['name']}  {seat['points']} points"
    if seat["starter"] and view["phase"] != "over":
        title += "  (starts this round)"
    lines: list[list[Segment]] = [[(title, "bold")]]
    for r in range(5):
        line: list[Segment] = [(f"  {r + 1} " + "  " * (4 - r), None)]
        held = seat["lines"][r]
        for slot in range(r + 1):
            # tiles fill a pattern line from the right, as on the board
            filled = slot >= r + 1 - len(held)
            line.append((held[0].upper(), STYLES[held[0]]) if filled else (".", "dim"))
            line.append((" ", None))
        line.append(("| ", "dim"))
        for col in range(5):
            ch = seat["wall"][r][col]
            if ch != ".":
                line.append((ch.upper(), STYLES[ch]))
            elif grey:
                line.append((".", "dim"))
            else:
                colour = next(c for c in range(5) if wall_column(c, r) == col)
                line.append((COLOUR_LETTERS[colour], "dim"))
            if col < 4:
                line.append((" ", None))
        lines.append(line)
    floor: list[Segment] = [("  floor: ", None)]
    if seat["floor_spaces"] > len(seat["floor"]):  # the marker takes the first space
        floor.append(("1", "bold"))
    floor += [(ch.upper(), STYLES[ch]) for ch in seat["floor"]]
    if len(floor) == 1:
        floor.append(("-", "dim"))
    if seat["floor_spaces"]:
        floor.append((f"  (-{FLOOR_PENALTY[seat['floor_spaces']]})", "red"))
    if seat["marker"] and view["phase"] != "over":
        floor.append(("  holds the first-player marker", None))
    lines.append(floor)
    return lines


def layout(view: dict[str, Any]) -> list[list[Segment]]:
    header = f"AZUL  round {view['round']}  bag {view['bag']}  lid {view['lid']}"
    if view["variant"] == "grey":
        header += "  grey wall"
    lines: list[list[Segment]] = [[(header, "bold")]]
    factories: list[Segment] = [("factories", None)]
    for i, tiles in enumerate(view["factories"]):
        factories.append((f"  {i + 1}:", "dim"))
        factories += _tiles(tiles)
    lines.append(factories)
    centre: list[Segment] = [("centre     ", None)] + _tiles(view["centre"])
    if view["marker_in_centre"]:
        centre.append((" +marker", "bold"))
    lines.append(centre)
    for seat in view["seats"]:
        lines += _seat_lines(view, seat)
    lines.append(closing_line(view))
    if view["phase"] != "over":
        if view["legal"] and view["phase"] == "place":
            lines.append([("  choices: " + " ".join(view["legal"]), None)])
    return lines


def render_text(view: dict[str, Any]) -> str:
    """Plain text, one line per row, no trailing spaces."""
    return plain(layout(view))


def render_rich(view: dict[str, Any]):
    """A :class:`rich.text.Text` with the tiles in colour."""
    return rich(layout(view))
