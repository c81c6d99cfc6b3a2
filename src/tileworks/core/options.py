"""Declared game options: names, defaults, parsing and validation.

A game declares its options once as :class:`Option` objects; the registry
uses them to validate ``load_game(name, **options)``, to parse
``KEY=VALUE`` strings from the command line, and to list defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from tileworks.core.i18n import N_, _


@dataclass(frozen=True)
class Option:
    """One game option.

    ``normalise`` turns any accepted spelling (a Python value or the string
    typed on a command line) into the canonical value, raising ``ValueError``
    with a short reason when it cannot; ``allowed`` is the human description
    of the valid values used in error messages.
    """

    name: str
    default: Any
    allowed: str
    normalise: Callable[[Any], Any]
    doc: str = ""
    #: fields filled into ``allowed``, which is a message for the catalogs
    allowed_fields: dict[str, Any] = field(default_factory=dict)
    #: what a form shows: ``int``, ``choice``, ``bool``, ``subset`` or ``text``
    kind: str = "text"
    #: the values of a ``choice`` option, or the universe of a ``subset`` one
    choices: tuple[Any, ...] = ()
    #: the option's name for players (a message for the catalogs)
    label: str = ""

    @property
    def allowed_text(self) -> str:
        """``allowed`` in the current language, its fields filled in."""
        return _(self.allowed, **self.allowed_fields)

    def validate(self, value: Any) -> Any:
        try:
            return self.normalise(value)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                _("bad value {value} for option {name}: {why}; allowed: {allowed}", value=repr(value),
                  name=repr(self.name), why=_(str(exc)), allowed=self.allowed_text)
            ) from None


def int_option(name: str, default: int, lo: int, hi: int, doc: str = "", label: str = "") -> Option:
    """An integer option in ``lo..hi`` (also accepts its decimal string)."""

    def normalise(value: Any) -> int:
        if isinstance(value, bool):
            raise ValueError(N_("expected an integer"))
        if isinstance(value, str):
            value = value.strip()
            if not value.lstrip("-").isdigit():
                raise ValueError(N_("expected an integer"))
            value = int(value)
        if not isinstance(value, int):
            raise ValueError(N_("expected an integer"))
        if not lo <= value <= hi:
            raise ValueError(N_("out of range"))
        return value

    return Option(name, default, N_("an integer from {lo} to {hi}"), normalise, doc, {"lo": lo, "hi": hi}, "int",
                  label=label)


def choice_option(name: str, default: str, choices: tuple[str, ...], doc: str = "", label: str = "") -> Option:
    """A string option with a fixed set of values."""

    def normalise(value: Any) -> str:
        if not isinstance(value, str) or value.strip().lower() not in choices:
            raise ValueError(N_("not one of the choices"))
        return value.strip().lower()

    return Option(name, default, N_("one of {choices}"), normalise, doc, {"choices": ", ".join(map(repr, choices))},
                  "choice", choices, label)


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def bool_option(name: str, default: bool, doc: str = "", label: str = "") -> Option:
    """A boolean option (also accepts true/false, yes/no, on/off, 1/0)."""

    def normalise(value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _TRUE:
                return True
            if word in _FALSE:
                return False
        raise ValueError(N_("expected true or false"))

    return Option(name, default, N_("true or false"), normalise, doc, kind="bool", label=label)


def subset_option(name: str, universe: tuple[int, ...], doc: str = "", label: str = "") -> Option:
    """A set of integers drawn from ``universe``; canonical form is a sorted tuple.

    Accepts any iterable of ints or a comma-separated string (``"5,14,17"``);
    the empty string or ``"none"`` is the empty set.
    """

    def normalise(value: Any) -> tuple[int, ...]:
        if isinstance(value, str):
            text = value.strip().lower()
            parts = [] if text in ("", "none") else [p.strip() for p in text.split(",")]
            if not all(p.isdigit() for p in parts):
                raise ValueError(N_("expected comma-separated integers"))
            value = [int(p) for p in parts]
        if isinstance(value, (int, bool)) or not hasattr(value, "__iter__"):
            raise ValueError(N_("expected a collection of integers"))
        items = list(value)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in items):
            raise ValueError(N_("expected integers"))
        bad = sorted(set(items) - set(universe))
        if bad:
            raise ValueError(_("{values} not allowed", values=", ".join(map(str, bad))))
        if len(set(items)) != len(items):
            raise ValueError(N_("a value is repeated"))
        return tuple(sorted(items))

    return Option(name, (), N_("any subset of {values}"), normalise, doc, {"values": ", ".join(map(str, universe))},
                  "subset", universe, label)


@dataclass(frozen=True)
class OptionSet:
    """The options of one game, with cross-option checks."""

    options: tuple[Option, ...]
    check: Callable[[dict[str, Any]], None] = field(default=lambda values: None)

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def resolve(self, game: str, given: dict[str, Any]) -> dict[str, Any]:
        """Validate ``given`` against the declarations and return all values."""
        by_name = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise ValueError(
                _("unknown option {key} for {game}; options are: {options}", key=repr(unknown[0]), game=game,
                  options=", ".join(sorted(by_name)))
            )
        values = self.defaults()
        for key, value in given.items():
            values[key] = by_name[key].validate(value)
        self.check(values)
        return values
