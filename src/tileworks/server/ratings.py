"""Ratings of accounts, one openskill rating (Plackett–Luce) per game.

Only games between people are rated: every seat of a rated game is held by
an account, so a rating measures play against people and cannot be raised
by leaving games against a computer level running. A finished rated game
updates every seat's rating once, by the game's final placing
(:func:`standing`: a seat whose clock ran out is placed last). A newcomer
starts at μ = 25, σ = 25/3; the number shown is μ − 3σ (openskill's
ordinal), which starts at 0 and rises as games make σ small.

>>> shown(Rating(25.0, 25 / 3))
0.0
"""

from __future__ import annotations

from typing import Any, Iterable

from openskill.models import PlackettLuce

from tileworks.server.store import Rating, Store

MODEL = PlackettLuce()


def new_rating() -> Rating:
    return Rating(MODEL.mu, MODEL.sigma, 0)


def shown(rating: Rating) -> float:
    """The rating people see: μ − 3σ, to one decimal."""
    return round(rating.mu - 3 * rating.sigma, 1)


def standing(returns: list[float], scores: list[int], out_of_time: Iterable[int] = ()) -> list[int]:
    """Each seat's place at the end (1 is first; equal places are shared):
    every seat whose clock ran out below every seat whose clock did not,
    whatever its score; within each group the game's winners first (its
    returns, with its own tie-breaks), then the rest by score.

    >>> standing([1.0, 0.0, 0.0], [40, 35, 35])
    [1, 2, 2]
    >>> standing([1.0, 0.0, 0.0], [40, 35, 20], out_of_time=[0])
    [3, 1, 2]
    >>> standing([0.5, 0.5], [30, 30])
    [1, 1]
    """
    late = set(out_of_time)
    keys = [(seat in late, -returns[seat], -scores[seat]) for seat in range(len(returns))]
    return [1 + sum(other < key for other in keys) for key in keys]


def rate(before: list[Rating], ranks: list[int]) -> list[Rating]:
    """Every seat's rating after a game with these places (1 is first).

    >>> after = rate([new_rating(), new_rating()], [1, 2])
    >>> after[0].mu > 25 > after[1].mu, after[0].games
    (True, 1)
    """
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [Rating(team[0].mu, team[0].sigma, old.games + 1) for team, old in zip(rated, before, strict=True)]


def rate_game(conn: Any, game: str, accounts: list[int], ranks: list[int]) -> list[dict[str, Any]]:
    """Rate a finished game inside a store transaction. ``accounts``: the
    account holding each seat. Returns each seat's change for the result
    (``{"before": 0.0, "after": 3.1}``)."""
    known = Store.ratings_in(conn, game, accounts)
    before = [known.get(account, new_rating()) for account in accounts]
    after = rate(before, ranks)
    changes = []
    for account, old, new in zip(accounts, before, after, strict=True):
        Store.put_rating(conn, game, account, new)
        changes.append({"before": shown(old), "after": shown(new)})
    return changes
