"""The registry of games: ``load_game`` and ``list_games``.

Games register themselves when the ``tileworks.games`` package is imported;
the registry imports that package lazily so that ``tileworks.core`` itself
never names a game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from tileworks.core.i18n import _, gettext
from tileworks.core.options import OptionSet

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.core.game import Game


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows about one game.

    ``options`` always includes ``players``. ``test_configs`` are the option
    combinations the shared conformance suite plays: adding a game to the
    suite is adding it to the registry.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options: OptionSet
    factory: Callable[[dict[str, Any]], "Game"]
    summary: str = ""
    test_configs: tuple[dict[str, Any], ...] = field(default=({},))


_REGISTRY: dict[str, GameInfo] = {}
_LOADED = False


def register(info: GameInfo) -> GameInfo:
    """Add a game to the registry (called by each game package on import)."""
    known = _REGISTRY.get(info.name)
    if known is not None and _origin(known) != _origin(info):
        raise ValueError(f"a game named {info.name!r} is already registered")
    _REGISTRY[info.name] = info
    return info


def _origin(info: GameInfo) -> tuple[str, str]:
    """Where a game's factory is defined: the same game imported twice (as
    doctest collection may do) registers again without conflict."""
    return info.factory.__module__, info.factory.__qualname__


def _ensure_loaded() -> None:
    global _LOADED
    if not _LOADED:
        importlib.import_module("tileworks.games")
        _LOADED = True


def game_info(name: str) -> GameInfo:
    """The :class:`GameInfo` for ``name``; ``ValueError`` lists the known games."""
    _ensure_loaded()
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _REGISTRY:
        raise ValueError(_("unknown game {name}; known games: {games}", name=repr(name), games=", ".join(sorted(_REGISTRY))))
    return _REGISTRY[key]


def load_game(name: str, **options: Any) -> "Game":
    """Create a game with the given options.

    >>> load_game("kiln", players=3, goal=20).num_players()
    3
    >>> load_game("kiln", colour="red")
    Traceback (most recent call last):
    ...
    ValueError: unknown option 'colour' for kiln; options are: advanced_scoring, erase_rule, goal, heat_tokens, players, turn_limit, variant
    """
    info = game_info(name)
    values = info.options.resolve(info.name, options)
    return info.factory(values)


def list_games() -> list[dict[str, Any]]:
    """Every registered game with its player counts, options and defaults,
    described in the current language. ``safeguard`` marks options that are
    not rules of the game (limits that stop endless games)."""
    _ensure_loaded()
    out = []
    for info in sorted(_REGISTRY.values(), key=lambda i: i.name):
        out.append(
            {
                "name": info.name,
                "title": gettext(info.title),
                "summary": gettext(info.summary),
                "players": (info.min_players, info.max_players),
                "options": [
                    {"name": o.name, "label": gettext(o.label or o.name), "default": o.default,
                     "allowed": o.allowed_text, "doc": gettext(o.doc), "kind": o.kind,
                     "choices": [{"value": c, "label": gettext(str(c))} for c in o.choices],
                     "safeguard": o.doc.startswith("safeguard")}
                    for o in info.options.options
                ],
            }
        )
    return out


def registered_games() -> list[GameInfo]:
    """The :class:`GameInfo` of every registered game, sorted by name."""
    _ensure_loaded()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
