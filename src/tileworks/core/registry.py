"""The registry of games: ``load_game`` and ``list_games``.

Games are plugins. A package declares each of its games as an entry point in
the ``tileworks.games`` group, naming the game's :class:`GameInfo`::

    [project.entry-points."tileworks.games"]
    dominoes = "tileworks_dominoes:GAME_INFO"

The first look-up loads every such entry point (the four games tileworks
ships are found the same way), so ``tileworks.core`` never names a game. A
plugin that fails to load, or whose name is taken, is skipped with a
:class:`PluginWarning` that names it; the other games load as usual.
:func:`register` adds a game from code (a notebook, a test).
"""

from __future__ import annotations

import importlib
import threading
import warnings
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Callable

from tileworks.core.i18n import _, add_catalogs, current_language, gettext
from tileworks.core.options import OptionSet

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.core.game import Game


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows about one game.

    ``options`` always includes ``players``. ``test_configs`` are the option
    combinations the shared conformance suite plays: adding a game to the
    suite is adding it to the registry. ``rules`` is the folder of the
    game's rules documents, ``NAME.md`` in English and ``NAME.LANG.md`` in
    other languages (a path or an ``importlib.resources`` folder; None: the
    game has none, and its rules page says so). ``score_kinds`` names the
    parts a score is made of (labels marked with ``N_`` for translation).
    ``click_words`` names the shapes a move's clicks name (the keys of
    ``notation.clicks``), for screen readers and the pages' labels.

    ``networks`` is the folder of the game's trained networks (``NAME.npz``
    beside ``NAME.json``, which names the options it was trained for), for
    the ``net`` and ``alpha`` agents; None: the game ships none.

    ``batched`` is the game's batched engine (JAX, Pgx's API), as an import
    path ``"module:Class"`` imported only when asked for
    (``tileworks.jax.make``), so that loading a game never imports JAX;
    None: the game has none. ``batched_test_configs`` are the option sets
    its checks play (:mod:`tileworks.testing.batched`; empty: ``test_configs``),
    the first also through Pgx's own API test.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options: OptionSet
    factory: Callable[[dict[str, Any]], "Game"]
    summary: str = ""
    test_configs: tuple[dict[str, Any], ...] = field(default=({},))
    rules: Any = None
    #: how a score is made, for results tables: ``(kind, label)`` in the order
    #: shown, each kind one the engine passes to ``core.scoring.note``
    score_kinds: tuple[tuple[str, str], ...] = ()
    #: what the shapes a click names are called: ``(key, label)``
    click_words: tuple[tuple[str, str], ...] = ()
    batched: str | None = None
    batched_test_configs: tuple[dict[str, Any], ...] = ()
    networks: Any = None
    #: a plugin's own catalogs, ``LANG/LC_MESSAGES/NAME.po`` in this folder
    #: (a path or an ``importlib.resources`` folder): its title, options,
    #: sentences and pictures in other languages; None: English only
    locale: Any = None

    def batched_configs(self) -> tuple[dict[str, Any], ...]:
        """The option sets the batched engine's checks play."""
        return self.batched_test_configs or self.test_configs


#: the entry-point group in which packages declare their games
ENTRY_POINT_GROUP = "tileworks.games"

_REGISTRY: dict[str, GameInfo] = {}
_LOADED = False
#: held while the entry points load: a server's threads may all ask for a game at once
_LOADING = threading.Lock()
#: the thread loading them (a plugin's import may ask for the games itself)
_LOADER: int | None = None


class PluginWarning(UserWarning):
    """A game plugin could not be added (the others still are)."""


def register(info: GameInfo) -> GameInfo:
    """Add a game to the registry from code; plugins are found through
    their entry points instead. ``ValueError`` if another game has the name."""
    if not isinstance(info, GameInfo):
        raise TypeError(f"register() takes a GameInfo, not {type(info).__name__}")
    known = _REGISTRY.get(info.name)
    if known is not None and _origin(known) != _origin(info):
        raise ValueError(f"a game named {info.name!r} is already registered (by {_where(known)})")
    _add(info)
    return info


def _add(info: GameInfo) -> None:
    _REGISTRY[info.name] = info
    if info.locale is not None:
        add_catalogs(info.locale, info.name)


def _origin(info: GameInfo) -> tuple[str, str]:
    """Where a game's factory is defined: the same game found twice
    registers again without conflict."""
    return info.factory.__module__, info.factory.__qualname__


def _where(info: GameInfo) -> str:
    return "{}.{}".format(*_origin(info))


def _ensure_loaded() -> None:
    """Register every game the installed packages declare, once. Other
    threads asking meanwhile wait for all of them (they once saw none)."""
    global _LOADED, _LOADER
    if _LOADED or _LOADER == threading.get_ident():
        return
    with _LOADING:
        if _LOADED:
            return
        _LOADER = threading.get_ident()
        try:
            for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=_plugin_order):
                _load_plugin(point)
        finally:
            _LOADER = None
        _LOADED = True


def _plugin_order(point: Any) -> tuple[bool, str, str]:
    """tileworks's own entry points first, so a plugin can never displace a
    shipped game by taking its name; then by name."""
    dist = getattr(point, "dist", None)
    return (dist is None or dist.name != "tileworks", point.name, point.value)


def _load_plugin(point: Any) -> None:
    """Register the game an entry point names, or warn and skip it."""
    where = f"game plugin {point.name!r} ({point.value})"
    try:
        info = point.load()
    except Exception as exc:  # any failure of a third party's import: report it, keep the rest
        warnings.warn(f"tileworks: {where} failed to load and is skipped: {type(exc).__name__}: {exc}",
                      PluginWarning, stacklevel=3)
        return
    if not isinstance(info, GameInfo):
        warnings.warn(f"tileworks: {where} is skipped: it names a {type(info).__name__}, not a GameInfo",
                      PluginWarning, stacklevel=3)
        return
    if info.name != point.name:
        warnings.warn(f"tileworks: {where} is skipped: its GameInfo is named {info.name!r}; "
                      "the entry point must carry the game's name", PluginWarning, stacklevel=3)
        return
    known = _REGISTRY.get(info.name)
    if known is not None and _origin(known) != _origin(info):
        warnings.warn(f"tileworks: {where} is skipped: the name {info.name!r} is already taken by {_where(known)}",
                      PluginWarning, stacklevel=3)
        return
    _add(info)


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
    described in the current language. ``lang`` is the language the title
    and summary came out in: a plugin with no translation of its own stays
    in English, and a page marks it so. ``safeguard`` marks options that are
    not rules of the game (limits that stop endless games). ``click_words``
    names the shapes a move's clicks name (``GameInfo.click_words``)."""
    _ensure_loaded()
    out = []
    for info in sorted(_REGISTRY.values(), key=lambda i: i.name):
        out.append(
            {
                "name": info.name,
                "title": gettext(info.title),
                "summary": gettext(info.summary),
                "lang": current_language() if gettext(info.summary) != info.summary else "en",
                "players": (info.min_players, info.max_players),
                "options": [
                    {"name": o.name, "label": gettext(o.label or o.name), "default": o.default,
                     "allowed": o.allowed_text, "doc": gettext(o.doc), "kind": o.kind,
                     "choices": [{"value": c, "label": gettext(str(c))} for c in o.choices],
                     "safeguard": o.doc.startswith("safeguard")}
                    for o in info.options.options
                ],
                "click_words": {key: gettext(label) for key, label in info.click_words},
            }
        )
    return out


def batched_games() -> list[str]:
    """The registered games that declare a batched engine, by name (nothing is imported)."""
    _ensure_loaded()
    return sorted(name for name, info in _REGISTRY.items() if info.batched)


def batched_engine(name: str) -> Any:
    """The batched engine class a game declares (``GameInfo.batched``),
    imported now; ``ValueError`` when the game is unknown or has none.

    >>> batched_engine("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: no JAX engine for 'chess' (no such game); the games with one: azul, ...
    """
    _ensure_loaded()
    info = _REGISTRY.get(name.strip().lower() if isinstance(name, str) else name)
    if info is None or not info.batched:
        why = "the game declares none" if info is not None else "no such game"
        raise ValueError(f"no JAX engine for {name!r} ({why}); the games with one: {', '.join(batched_games())}")
    module, _, attribute = info.batched.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"the JAX engine of {info.name} ({info.batched}) cannot be loaded: {exc}") from exc


def registered_games() -> list[GameInfo]:
    """The :class:`GameInfo` of every registered game, sorted by name."""
    _ensure_loaded()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
