"""Shared pieces of notation and drawing that every game uses the same way."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Protocol, TypeVar

from tileworks.core.errors import IllegalActionError, RecordError
from tileworks.core.i18n import _


class Deciding(Protocol):
    """What reading a move needs of a state (``tileworks.core.game.State``
    has it; this module stays below ``game`` and never imports it)."""

    def decision(self) -> str: ...

    def legal_actions(self) -> list[int]: ...

    def why_illegal(self, action: Any, typed: str | None = None) -> str: ...


S = TypeVar("S", bound=Deciding)

#: one styled piece of a drawn line: (text, Rich style or None)
Segment = tuple[str, "str | None"]


def read_move(state: S, text: Any, parse: Callable[[S, str], "int | None"], game: str, examples: str) -> int:
    """Turn typed notation into a legal action of ``state``.

    ``parse`` reads the normalised word (lower case, no spaces) and returns an
    action id or None. The move must also be legal now; either failure raises
    :class:`IllegalActionError` saying why, with the decision being made.
    """
    if not isinstance(text, str):
        raise IllegalActionError(_("a move must be text, not {text}", text=repr(text)))
    word = re.sub(r"\s+", "", text.strip().lower())
    action = parse(state, word)
    if action is None:
        raise IllegalActionError(
            _("cannot read {text} as a move of {game} while {decision}; {examples}",
              text=repr(text), game=game, decision=state.decision(), examples=_(examples))
        )
    if action not in state.legal_actions():
        raise IllegalActionError(state.why_illegal(action, text))
    return action


def plain(lines: list[list[Segment]]) -> str:
    """Drawn lines as plain text, without trailing spaces."""
    return "\n".join("".join(t for t, _ in line).rstrip() for line in lines)


def rich(lines: list[list[Segment]]) -> Any:
    """Drawn lines as a :class:`rich.text.Text` (Rich is imported only here)."""
    from rich.text import Text

    text = Text()
    for i, line in enumerate(lines):
        if i:
            text.append("\n")
        for part, style in line:
            text.append(part, style=style)
    return text


def field_error(field: str, why: str) -> RecordError:
    """The error for a bad field of a serialised state."""
    return RecordError(f"state field {field!r}: {why}")


def read_int(fields: dict[str, Any], name: str, lo: int, hi: int) -> int:
    """An integer field in ``lo..hi``, or a :class:`RecordError` naming it."""
    value = fields.get(name)
    if type(value) is not int or not lo <= value <= hi:
        raise field_error(name, f"expected an integer from {lo} to {hi}, got {value!r}")
    return value


def read_draws(state: Any, fields: dict[str, Any], players: int) -> None:
    """Read a hidden-hand state's ``hand_slots`` (per seat, the history
    indices of the draws still in hand) and ``private_to`` (per history
    entry, the seat that alone saw it, or -1) into ``state``, or raise a
    :class:`RecordError` naming the field. Whether they agree with the
    history is checked when the history is read (``State._check_history``)."""
    slots = fields.get("hand_slots")
    if not isinstance(slots, list) or len(slots) != players or not all(
        isinstance(s, list) and all(type(i) is int and i >= 0 for i in s) for s in slots
    ):
        raise field_error("hand_slots", f"expected {players} lists of history indices")
    private = fields.get("private_to")
    if not isinstance(private, list) or not all(type(p) is int and -1 <= p < players for p in private):
        raise field_error("private_to", f"expected a list of seats (0 to {players - 1}) or -1")
    state.hand_slots = [list(s) for s in slots]
    state.private_to = list(private)


def check_viewer(viewer: Any, players: int) -> None:
    """A view is for a seat ``0..players-1`` or the spectator (``-2``)."""
    from tileworks.core.constants import SPECTATOR

    if viewer != SPECTATOR and not (type(viewer) is int and 0 <= viewer < players):
        raise ValueError(f"unknown viewer {viewer!r}: a seat 0-{players - 1} or SPECTATOR")


def seat_name(seat: int) -> str:
    """How every game names a seat to players: ``P1`` for seat 0."""
    return f"P{seat + 1}"


def points_of(who: str, points: int) -> str:
    """A seat's score as a heading shows it, in the current language.

    >>> points_of("P1", 1), points_of("P2", 8)
    ('P1: 1 point', 'P2: 8 points')
    """
    if points == 1:
        return _("{who}: 1 point", who=who)
    return _("{who}: {points} points", who=who, points=points)


def closing_line(view: dict[str, Any]) -> list[Segment]:
    """The last drawn line: who won once the game is over, else the decision."""
    if view["phase"] == "over":
        winners = view["winners"]
        if len(winners) == 1:
            return [(_("Game over: {seat} wins", seat=seat_name(winners[0])), "bold")]
        return [(_("Game over: {seats} share the win", seats=_(" and ").join(seat_name(s) for s in winners)), "bold")]
    return [("> " + view["decision"], "bold")]


def runs_of(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """The runs of consecutive numbers in ``numbers``, as (first, last), in order.

    >>> runs_of([7, 0, 1, 2, 3, 5, 8])
    [(0, 3), (5, 5), (7, 8)]
    """
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return [(first, last) for first, last in runs]
