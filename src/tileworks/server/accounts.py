"""Player accounts: names, passwords, sessions, and the limits on logins and sign-ups.

Passwords are hashed with argon2id (``argon2-cffi``, its RFC 9106 settings)
and checked for strength with zxcvbn; a session is a random secret in an
HttpOnly, SameSite cookie, of which the database keeps only the SHA-256.
A wrong password and an unknown name get the same answer, after the same
work, so the answer tells nobody whether an account exists.

>>> check_username("Ada_L")
'ada_l'
>>> check_username("x")
Traceback (most recent call last):
...
tileworks.server.errors.ServerError: a username has 3 to 24 letters, digits, _ or -, and starts with a letter or digit
"""

from __future__ import annotations

import math
import re
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

from tileworks.core.i18n import _
from tileworks.server.errors import ServerError
from tileworks.server.hub import token_hash
from tileworks.server.store import Account, Store

#: the session cookie: HttpOnly (no script reads it), SameSite=Lax
SESSION_COOKIE = "tileworks-session"
#: a session lasts this long from its login
SESSION_SECONDS = 30 * 24 * 3600
USERNAME = re.compile(r"[^\W_][\w-]{2,23}")
MIN_PASSWORD = 10
#: argon2 hashes any length, but a very long password only costs the server
MAX_PASSWORD = 128
#: zxcvbn's scale: 3 is "safely unguessable: moderate protection from offline attacks"
MIN_STRENGTH = 3
#: zxcvbn judges at most this many characters (its own limit: its work grows
#: steeply with length); a longer password is judged by its start
JUDGED_LENGTH = 72
#: a guest's display name
MAX_NAME = 24

#: argon2id's memory (KiB) and passes by default: RFC 9106's second
#: recommended option, for servers that cannot spare 2 GiB a login
PASSWORD_MEMORY_KIB = 64 * 1024
PASSWORD_PASSES = 3
#: argon2id's lanes, as both of RFC 9106's recommended options have
PASSWORD_LANES = 4


def password_hasher(memory_kib: int = PASSWORD_MEMORY_KIB, passes: int = PASSWORD_PASSES) -> PasswordHasher:
    """argon2id with ``memory_kib`` of memory and ``passes`` over it: the
    defaults are RFC 9106's low-memory settings; an operator tunes them to
    the server (a login costs one hash), and each account's hash moves to
    the new settings at its next login.

    >>> password_hasher().hash("violet kiln tortoise 42")[:31]
    '$argon2id$v=19$m=65536,t=3,p=4$'
    >>> password_hasher(memory_kib=16)
    Traceback (most recent call last):
    ...
    ValueError: argon2id needs at least 32 KiB of memory (8 for each of its 4 lanes), not 16
    """
    if memory_kib < 8 * PASSWORD_LANES:
        raise ValueError(f"argon2id needs at least {8 * PASSWORD_LANES} KiB of memory "
                         f"(8 for each of its {PASSWORD_LANES} lanes), not {memory_kib}")
    if passes < 1:
        raise ValueError(f"argon2id makes at least 1 pass over its memory, not {passes}")
    return PasswordHasher(time_cost=passes, memory_cost=memory_kib, parallelism=PASSWORD_LANES)


def check_username(username: str) -> str:
    """The account's key (its name casefolded, NFKC), or a 400 naming the rule."""
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise ServerError(400, _("a username has 3 to 24 letters, digits, _ or -, and starts with a letter or digit"))
    return key_of(username)


def check_password(password: str, username: str) -> None:
    """A 400 naming what is wrong with a new password, if anything."""
    if len(password) < MIN_PASSWORD:
        raise ServerError(400, _("a password has at least {count} characters", count=MIN_PASSWORD))
    if len(password) > MAX_PASSWORD:
        raise ServerError(400, _("a password has at most {count} characters", count=MAX_PASSWORD))
    if zxcvbn(password[:JUDGED_LENGTH], user_inputs=[username, "tileworks"])["score"] < MIN_STRENGTH:
        raise ServerError(400, _("that password is too easy to guess: use a longer one, such as several unrelated words"))


def display_name(name: str | None) -> str | None:
    """A guest's chosen name, trimmed; None for none; a 400 if unusable."""
    if name is None:
        return None
    if len(name) > MAX_NAME or any(unicodedata.category(c).startswith("C") for c in name):
        raise ServerError(400, _("a name has at most {count} printable characters", count=MAX_NAME))
    return " ".join(name.split()) or None


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass
class RateLimit:
    """At most ``limit`` events per key within any ``window`` seconds."""

    limit: int
    window: float
    events: dict[Any, deque[float]] = field(default_factory=dict)

    def wait(self, key: Any, now: float) -> float:
        """Seconds until ``key`` may have another event (0: now)."""
        found = self.events.get(key)
        if not found:
            return 0.0
        while found and found[0] <= now - self.window:
            found.popleft()
        if not found:
            del self.events[key]
            return 0.0
        return found[0] + self.window - now if len(found) >= self.limit else 0.0

    def add(self, key: Any, now: float) -> None:
        self.events.setdefault(key, deque()).append(now)
        _bound(self.events)


@dataclass
class Backoff:
    """Failures per key, each costing a longer wait: the first ``free`` are
    free, then each next try waits ``first`` seconds after the last failure,
    twice as long each time, up to ``most``. A success, or ``memory``
    seconds without a failure, forgets the key.

    >>> backoff = Backoff()
    >>> for _ in range(5):
    ...     backoff.fail("k", now=100.0)
    >>> backoff.wait("k", now=100.0), backoff.wait("k", now=104.0)
    (4.0, 0.0)
    """

    free: int = 3
    first: float = 1.0
    most: float = 900.0
    memory: float = 24 * 3600.0
    failures: dict[Any, tuple[int, float]] = field(default_factory=dict)

    def wait(self, key: Any, now: float) -> float:
        count, last = self.failures.get(key, (0, 0.0))
        if count and now - last > self.memory:
            del self.failures[key]
            return 0.0
        if count < self.free:
            return 0.0
        return max(0.0, last + min(self.most, self.first * 2 ** (count - self.free)) - now)

    def fail(self, key: Any, now: float) -> None:
        count, _ = self.failures.get(key, (0, now))
        self.failures[key] = (count + 1, now)
        _bound(self.failures)

    def forget(self, key: Any) -> None:
        self.failures.pop(key, None)


def _bound(table: dict[Any, Any]) -> None:
    """Forget the oldest keys rather than grow without end."""
    if len(table) > 100_000:
        for old in list(table)[:50_000]:
            del table[old]


def key_of(name: str) -> str:
    """How names are compared: NFKC, casefolded (one account per name, whatever its case)."""
    return unicodedata.normalize("NFKC", name).casefold()


def wait_text(seconds: float) -> str:
    """A wait as people say it: seconds under two minutes, else minutes."""
    if seconds < 120:
        return _("{count} s", count=max(1, math.ceil(seconds)))
    return _("{count} min", count=math.ceil(seconds / 60))


class Accounts:
    """Registration, login and sessions over a :class:`Store`, with the
    limits OWASP's authentication guidance recommends in place of locking
    accounts: failed logins slow down per (name, address) pair (``Backoff``),
    and each address has at most ``per_address`` failures within ``window``
    seconds, so that failures from one address never keep the right
    password out from another. Each address may create at most
    ``registrations`` accounts within ``registration_window`` seconds.
    Passwords are hashed by ``hasher`` (default: :func:`password_hasher`)."""

    def __init__(self, store: Store, per_address: int = 30, window: float = 900.0,
                 registrations: int = 5, registration_window: float = 3600.0,
                 session_seconds: float = SESSION_SECONDS, hasher: PasswordHasher | None = None):
        self.store = store
        self.hasher = hasher or password_hasher()
        #: checked against when no account has the name, so that both answers cost the same
        self.nobody = self.hasher.hash(secrets.token_urlsafe(16))
        self.by_pair = Backoff()
        self.by_address = RateLimit(per_address, window)
        self.new_accounts = RateLimit(registrations, registration_window)
        self.session_seconds = session_seconds

    def register(self, username: str, password: str, address: str) -> Account:
        key = check_username(username)
        check_password(password, username)
        now = time.monotonic()
        wait = self.new_accounts.wait(address, now)
        if wait:
            raise ServerError(429, _("too many new accounts from this address: try again in {wait}",
                                     wait=wait_text(wait)), retry_after=wait)
        self.new_accounts.add(address, now)  # the hash below is the costly part, taken or not
        account = self.store.create_account(username, key, self.hasher.hash(password))
        if account is None:
            raise ServerError(409, _("the username {name} is taken", name=username))
        return account

    def login(self, username: str, password: str, address: str) -> tuple[Account, str]:
        """The account and a new session's secret; 401 for a wrong name or
        password alike, 429 while a limit holds."""
        now = time.monotonic()
        key = key_of(username)[:64]
        wait = max(self.by_pair.wait((key, address), now), self.by_address.wait(address, now))
        if wait:
            raise ServerError(429, _("too many failed logins: try again in {wait}", wait=wait_text(wait)),
                              retry_after=wait)
        found = self.store.password_of(key) if len(password) <= MAX_PASSWORD else None
        try:
            self.hasher.verify(found[1] if found else self.nobody, password[:MAX_PASSWORD])
            ok = found is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or found is None:
            self.by_pair.fail((key, address), now)
            self.by_address.add(address, now)
            raise ServerError(401, _("wrong username or password"))
        account, stored_hash = found
        self.by_pair.forget((key, address))
        if self.hasher.check_needs_rehash(stored_hash):
            self.store.set_password(account.id, self.hasher.hash(password))
        token = new_session_token()
        self.store.add_session(token_hash(token), account.id, self.session_seconds)
        return account, token

    def guest_name(self, name: str | None) -> str | None:
        """A guest's chosen name (see :func:`display_name`), refused when an
        account has it (compared as account names are): names are owned."""
        shown = display_name(name)
        if shown is not None and self.store.account(key_of(shown)) is not None:
            raise ServerError(400, _("{name} is the name of an account: log in to play as {name}, "
                                     "or choose another name", name=shown))
        return shown

    def session(self, token: str | None) -> Account | None:
        """The account a session cookie holds, while it lasts."""
        if not token or len(token) > 100:
            return None
        return self.store.session_account(token_hash(token))

    def logout(self, token: str | None) -> None:
        if token and len(token) <= 100:
            self.store.end_session(token_hash(token))
