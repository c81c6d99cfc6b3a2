"""Translation of every sentence a player reads.

Code marks its sentences in one of two ways:

- ``_("{who} passes", who=name)`` translates now, into the language of the
  current context, then fills in the named fields;
- ``N_("red")`` only marks a string (data such as a colour name) so that the
  catalogs carry it; ``gettext`` translates it where it is shown.

A front end picks the language for what it is doing, ``with language("ja"):``.
With none picked, English comes out unchanged and nothing beyond the standard
library is imported, so the engines stay light.

>>> _("{who} passes", who="P1")
'P1 passes'
>>> with language("ja"):
...     gettext("red")
'赤'

The catalogs are gettext ``.po`` files under ``tileworks/locale``, read with
Babel the first time a language is used (``make messages`` refreshes them
from the source).
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

#: languages with a catalog; English is the language of the source
LANGUAGES = ("en", "ja")
#: each language by its own name, as the language switch shows it
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
DEFAULT = "en"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "tileworks"

_language: ContextVar[str] = ContextVar("tileworks_language", default=DEFAULT)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it."""
    return message


def gettext(message: str) -> str:
    """``message`` in the current language (itself when there is no translation)."""
    code = _language.get()
    if code == DEFAULT:
        return message
    return catalog(code).get(message) or message


def _(message: str, /, **fields: Any) -> str:
    """Translate ``message``, then fill in its ``{named}`` fields."""
    text = gettext(message)
    return text.format(**fields) if fields else text


def pgettext(context: str, message: str, /, **fields: Any) -> str:
    """Translate ``message`` as meant in ``context`` (gettext's ``msgctxt``),
    for a word with two meanings: a study's "cell" is no board cell.

    >>> with language("ja"):
    ...     pgettext("study", "cell"), _("cell")
    ('セル', 'マス')
    """
    code = _language.get()
    text = message if code == DEFAULT else catalog(code).get(context_key(context, message)) or message
    return text.format(**fields) if fields else text


def context_key(context: str | None, message: str) -> str:
    """A catalog entry's key: the message, after its context and gettext's EOT separator."""
    return message if context is None else f"{context}\x04{message}"


def current_language() -> str:
    return _language.get()


@contextmanager
def language(code: str | None) -> Iterator[str]:
    """Speak ``code`` (one of :data:`LANGUAGES`; None or unknown: English) within the block."""
    chosen = code if code in LANGUAGES else DEFAULT
    token = _language.set(chosen)
    try:
        yield chosen
    finally:
        _language.reset(token)


def use_language(code: str | None) -> str:
    """Speak ``code`` from now on in this context (a task, a request, a CLI run)."""
    chosen = code if code in LANGUAGES else DEFAULT
    _language.set(chosen)
    return chosen


def catalog_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


#: catalogs beside tileworks's own, as ``(folder, domain)``: a game plugin's
#: translations of its own words (``GameInfo.locale``)
_plugin_catalogs: list[tuple[Any, str]] = []


def add_catalogs(folder: Any, domain: str) -> None:
    """Translate with ``folder/LANG/LC_MESSAGES/DOMAIN.po`` too (a path or an
    ``importlib.resources`` folder): a plugin's catalogs, for the words it
    brings. Where both translate a message, tileworks's own catalog wins."""
    if (folder, domain) not in _plugin_catalogs:
        _plugin_catalogs.append((folder, domain))
        catalog.cache_clear()


@lru_cache(maxsize=None)
def catalog(code: str) -> dict[str, str]:
    """The translations of ``code`` as a dict (fuzzy and empty entries left
    out): tileworks's catalog over the plugins' catalogs."""
    found: dict[str, str] = {}
    for folder, domain in _plugin_catalogs:
        path = folder / code / "LC_MESSAGES" / f"{domain}.po"
        if path.is_file():
            found.update(read_catalog(path, code, domain))
    found.update(read_catalog(catalog_path(code), code, DOMAIN))
    return found


def read_catalog(path: Any, code: str, domain: str) -> dict[str, str]:
    """One ``.po`` file's translations (fuzzy and empty entries left out)."""
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        po = read_po(handle, locale=code, domain=domain)
    return {context_key(m.context, m.id): m.string for m in po
            if m.id and m.string and not m.fuzzy and isinstance(m.id, str)}


def negotiate(accept_language: str | None) -> str:
    """The best of :data:`LANGUAGES` for an HTTP ``Accept-Language`` header.

    >>> negotiate("ja-JP,ja;q=0.9,en;q=0.5")
    'ja'
    >>> negotiate("fr-CH, fr;q=0.9")
    'en'
    """
    if not accept_language:
        return DEFAULT
    from babel import negotiate_locale

    ranked = []
    for position, part in enumerate(accept_language.split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, position, tag.strip().replace("_", "-")))
    preferred = [tag for _q, _p, tag in sorted(ranked)]
    found = negotiate_locale(preferred, list(LANGUAGES), sep="-")
    return found or DEFAULT


def system_language() -> str:
    """The terminal's language, from ``TILEWORKS_LANG``, ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``."""
    import os

    for name in ("TILEWORKS_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        for code in value.split(":"):
            short = code.split(".")[0].split("_")[0].lower()
            if short in LANGUAGES:
                return short
            if short and short not in ("c", "posix"):
                return DEFAULT
    return DEFAULT


__all__ = ["DEFAULT", "LANGUAGES", "N_", "_", "add_catalogs", "catalog", "context_key", "current_language", "gettext", "language",
           "negotiate", "pgettext", "system_language", "use_language"]
