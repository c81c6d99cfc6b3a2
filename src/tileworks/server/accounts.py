"""Player accounts: names, passwords, sessions and the login limit.

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

import re
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field

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

HASHER = PasswordHasher()
#: hashed once, checked against when no account has the name, so that both answers cost the same
_NOBODY = HASHER.hash(secrets.token_urlsafe(16))


def check_username(username: str) -> str:
    """The account's key (its name casefolded, NFKC), or a 400 naming the rule."""
    if not isinstance(username, str) or not USERNAME.fullmatch(username):
        raise ServerError(400, _("a username has 3 to 24 letters, digits, _ or -, and starts with a letter or digit"))
    return unicodedata.normalize("NFKC", username).casefold()


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
class Attempts:
    """Failed logins within a window, per key (a name, or an address)."""

    limit: int
    window: float
    failures: dict[str, deque[float]] = field(default_factory=dict)

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        found = self.failures.get(key)
        if not found:
            return 0.0
        while found and found[0] <= now - self.window:
            found.popleft()
        if not found:
            del self.failures[key]
            return 0.0
        return found[0] + self.window - now if len(found) >= self.limit else 0.0

    def fail(self, key: str, now: float) -> None:
        self.failures.setdefault(key, deque()).append(now)
        if len(self.failures) > 100_000:  # forget the oldest keys rather than grow without end
            for old in list(self.failures)[:50_000]:
                del self.failures[old]

    def forget(self, key: str) -> None:
        self.failures.pop(key, None)


class Accounts:
    """Registration, login and sessions over a :class:`Store`. Logins are
    limited per name and per address: after ``per_name`` failures for a name
    (or ``per_address`` from one address) within ``window`` seconds, the next
    try is refused (429) until the oldest failure leaves the window."""

    def __init__(self, store: Store, per_name: int = 5, per_address: int = 30, window: float = 900.0,
                 session_seconds: float = SESSION_SECONDS):
        self.store = store
        self.by_name = Attempts(per_name, window)
        self.by_address = Attempts(per_address, window)
        self.session_seconds = session_seconds

    def register(self, username: str, password: str) -> Account:
        key = check_username(username)
        check_password(password, username)
        account = self.store.create_account(username, key, HASHER.hash(password))
        if account is None:
            raise ServerError(409, _("the username {name} is taken", name=username))
        return account

    def login(self, username: str, password: str, address: str) -> tuple[Account, str]:
        """The account and a new session's secret; 401 for a wrong name or
        password alike, 429 while the limit holds."""
        now = time.monotonic()
        key = unicodedata.normalize("NFKC", username).casefold()[:64]
        wait = max(self.by_name.wait(key, now), self.by_address.wait(address, now))
        if wait:
            raise ServerError(429, _("too many failed logins: try again in {minutes} minutes",
                                     minutes=max(1, round(wait / 60))))
        found = self.store.password_of(key) if len(password) <= MAX_PASSWORD else None
        try:
            HASHER.verify(found[1] if found else _NOBODY, password[:MAX_PASSWORD])
            ok = found is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or found is None:
            self.by_name.fail(key, now)
            self.by_address.fail(address, now)
            raise ServerError(401, _("wrong username or password"))
        account, stored_hash = found
        self.by_name.forget(key)
        if HASHER.check_needs_rehash(stored_hash):
            self.store.set_password(account.id, HASHER.hash(password))
        token = new_session_token()
        self.store.add_session(token_hash(token), account.id, self.session_seconds)
        return account, token

    def session(self, token: str | None) -> Account | None:
        """The account a session cookie holds, while it lasts."""
        if not token or len(token) > 100:
            return None
        return self.store.session_account(token_hash(token))

    def logout(self, token: str | None) -> None:
        if token and len(token) <= 100:
            self.store.end_session(token_hash(token))
