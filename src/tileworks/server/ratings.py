"""Ratings of accounts, one openskill rating (Plackett–Luce) per game.

A rated game is ranked by its returns (a shared win shares a rank) and
updates the rating of every account that played it. The computer levels
have fixed ratings: they anchor the scale and never move, so beating
``mcts:hard`` is worth more than beating ``greedy``. A newcomer starts at
μ = 25, σ = 25/3; the number shown is μ − 3σ (openskill's ordinal), which
starts at 0 and rises as games make σ small.

>>> shown(Rating(25.0, 25 / 3))
0.0
>>> computer_rating("mcts:medium").mu
30.0
>>> computer_rating("mcts:seconds=2") is None
True
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce

from tileworks.server.store import Rating, Store

MODEL = PlackettLuce()
#: the computer players a rated game may seat, and their fixed μ (σ = 1)
COMPUTER_MU = {
    "random": 5.0, "greedy": 18.0, "mcts:beginner": 20.0, "mcts:easy": 25.0,
    "mcts:medium": 30.0, "mcts:hard": 35.0, "mcts:expert": 40.0,
}
COMPUTER_SIGMA = 1.0


def new_rating() -> Rating:
    return Rating(MODEL.mu, MODEL.sigma, 0)


def computer_rating(spec: str) -> Rating | None:
    mu = COMPUTER_MU.get(spec)
    return Rating(mu, COMPUTER_SIGMA) if mu is not None else None


def shown(rating: Rating) -> float:
    """The rating people see: μ − 3σ, to one decimal."""
    return round(rating.mu - 3 * rating.sigma, 1)


def rate(before: list[Rating], returns: list[float]) -> list[Rating]:
    """Every seat's rating after a game with these returns (higher is better).

    >>> after = rate([new_rating(), new_rating()], [1.0, -1.0])
    >>> after[0].mu > 25 > after[1].mu, after[0].games
    (True, 1)
    """
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    rated = MODEL.rate(teams, ranks=[-r for r in returns])
    return [Rating(team[0].mu, team[0].sigma, old.games + 1) for team, old in zip(rated, before, strict=True)]


def rate_game(conn: Any, game: str, seats: list[tuple[str, int | None]], returns: list[float]) -> list[dict[str, Any] | None]:
    """Rate a finished game inside a store transaction. ``seats``: each
    seat's player spec and account. Returns each seat's change for the
    result (``{"before": 0.0, "after": 3.1}``; None for a computer)."""
    accounts = [a for _, a in seats if a is not None]
    known = Store.ratings_in(conn, game, accounts)
    before = [computer_rating(spec) if account is None else known.get(account, new_rating())
              for spec, account in seats]
    after = rate([r if r is not None else new_rating() for r in before], returns)
    changes: list[dict[str, Any] | None] = []
    for (spec, account), old, new in zip(seats, before, after, strict=True):
        if account is None or old is None:
            changes.append(None)
            continue
        Store.put_rating(conn, game, account, new)
        changes.append({"before": shown(old), "after": shown(new)})
    return changes
