"""Player accounts: registration refuses what it should with a clear message,
a wrong password says nothing about whether the account exists, logins are
limited, sessions are HttpOnly SameSite cookies that expire, and an account
can never act for a seat it does not hold."""

from __future__ import annotations

import time

import httpx
import pytest
from fastapi.testclient import TestClient

from tileworks.server import create_app
from tileworks.server.store import Store, connect

from .conftest import Api, server_app
from .test_restart import Server

PASSWORD = "violet kiln tortoise 42"


def register(client, username, password=PASSWORD, status=201):
    response = client.post("/api/accounts", json={"username": username, "password": password})
    assert response.status_code == status, response.text
    return response.json()


def login(client, username, password=PASSWORD):
    return client.post("/api/session", json={"username": username, "password": password})


_addresses = iter(range(1, 1_000_000))


def new_client(client, address=None):
    """Another browser on the same server: its own cookies and, unless told
    otherwise, its own network address. Its requests run on the server's
    one event loop, as a real server's do (a TestClient of its own would run
    each on a loop of its own, which ends, with any clock it started, as the
    request does)."""
    number = next(_addresses)
    other = TestClient(client.app, client=(address or f"10.{number // 65536}.{number // 256 % 256}.{number % 256}", 50000))
    other.portal = client.portal
    return other


@pytest.mark.parametrize("username, password, message", [
    ("ab", PASSWORD, "a username has 3 to 24 letters"),
    ("_ada", PASSWORD, "starts with a letter or digit"),
    ("ada lovelace", PASSWORD, "a username has 3 to 24 letters"),
    ("a" * 25, PASSWORD, "a username has 3 to 24 letters"),
    ("ada", "short", "a password has at least 10 characters"),
    ("ada", "x" * 129, "a password has at most 128 characters"),
    ("ada", "password123", "too easy to guess"),
    ("ada", "ada1234567", "too easy to guess"),
    ("ada", "qwertyuiop", "too easy to guess"),
    ("ada", "aaaaaaaaaaaa", "too easy to guess"),
])
def test_registration_refuses_bad_names_and_weak_or_over_long_passwords(client, username, password, message):
    refused = register(client, username, password, status=400)
    assert message in refused["error"]
    assert login(client, username, password).status_code == 401  # nothing was made
    assert "tileworks-session" not in client.cookies


def test_an_account_name_is_taken_in_any_case(client):
    register(client, "Ada")
    other = new_client(client)
    refused = register(other, "ada", "another fine passphrase 7", status=409)
    assert refused["error"] == "the username ada is taken"
    assert login(other, "ada", "another fine passphrase 7").status_code == 401
    assert login(other, "ADA").status_code == 200  # names are matched without case


def test_registering_logs_in_with_an_http_only_same_site_cookie(client):
    response = client.post("/api/accounts", json={"username": "grace", "password": PASSWORD})
    cookie = response.headers["set-cookie"]
    assert "tileworks-session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert client.get("/api/session").json() == {"username": "grace"}
    assert new_client(client).get("/api/session").json() == {"username": None}


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client):
    register(client, "alan")
    other = new_client(client)
    wrong = login(other, "alan", "not the passphrase 99")
    unknown = login(other, "nobody-here", "not the passphrase 99")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": "wrong username or password", "status": 401}
    assert "set-cookie" not in wrong.headers


def test_failures_from_elsewhere_never_keep_the_right_password_out(client):
    """The audit: five wrong passwords for alice from any address, then her
    own from hers: she logs in (there is no lock for others to set off)."""
    register(client, "alice")
    attacker = new_client(client, address="203.0.113.9")
    for attempt in range(8):
        answer = login(attacker, "alice", f"guessing again {attempt}")
        assert answer.status_code in (401, 429)
        time.sleep(float(answer.headers.get("retry-after", 0)) if attempt < 4 else 0)
    assert login(new_client(client), "alice").status_code == 200


def test_failed_logins_slow_down_per_name_and_address(client):
    register(client, "edsger")
    other = new_client(client)
    for _ in range(3):  # three free tries
        assert login(other, "edsger", "guessing again 1234").status_code == 401
    blocked = login(other, "edsger")  # then a wait after each failure, even for the right password
    assert blocked.status_code == 429 and blocked.json()["error"] == "too many failed logins: try again in 1 s"
    assert blocked.headers["retry-after"] == "1" and "set-cookie" not in blocked.headers
    time.sleep(1.05)
    assert login(other, "edsger", "guessing again 1234").status_code == 401
    assert login(other, "edsger").headers["retry-after"] == "2"  # twice as long after each further failure
    time.sleep(2.05)
    assert login(other, "edsger").status_code == 200  # waited out: the right password works, and resets it
    assert login(other, "edsger", "one more wrong 5678").status_code == 401


def test_an_address_is_limited_across_names(db_url):
    with TestClient(server_app(db_url)) as client:
        register(client, "barbara")
        spray = new_client(client, address="198.51.100.7")
        for n in range(30):  # one guess at each of thirty names
            assert login(spray, f"victim{n}", "Winter2026!").status_code == 401
        refused = login(spray, "barbara")
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 800
        assert login(new_client(client), "barbara").status_code == 200  # other addresses are not held up


def test_account_creation_is_limited_per_address(client):
    crowd = new_client(client, address="192.0.2.50")
    for n in range(5):
        register(crowd, f"member{n}")
    refused = register(crowd, "member5", status=429)
    assert refused["error"].startswith("too many new accounts from this address: try again in ")
    assert login(crowd, "member5").status_code == 401  # nothing was made
    register(new_client(client), "member5")  # another address may


def test_a_guest_may_not_take_an_accounts_name(client):
    register(client, "bob_1")
    guest = new_client(client)
    for name in ("bob_1", "BOB_1", "ｂｏｂ_1"):  # as accounts compare: casefolded, NFKC
        refused = guest.post("/api/games", json={"game": "kiln", "players": ["human", "human"], "name": name})
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == f"{name} is the name of an account: log in to play as {name}, or choose another name"
    assert guest.get("/api/games").json() == []
    created = guest.post("/api/games", json={"game": "kiln", "players": ["human", "human"], "open_seats": [2],
                                             "name": "Kim"}).json()
    claim = guest.post(f"/api/games/{created['id']}/seats/2/claim", json={"name": "bob_1"})
    assert claim.status_code == 400 and "is the name of an account" in claim.json()["error"]
    # a guest shows as one wherever its name shows; an account does not
    listed = guest.get("/api/games").json()[0]
    assert listed["names"] == ["Kim", None] and listed["guests"] == [True, False]
    seats = guest.get(f"/api/games/{created['id']}").json()["seats"]
    assert [(s["name"], s["guest"]) for s in seats] == [("Kim", True), (None, False)]
    assert client.post(f"/api/games/{created['id']}/seats/2/claim").status_code == 200
    seats = guest.get(f"/api/games/{created['id']}").json()["seats"]
    assert [(s["name"], s["guest"], s["account"]) for s in seats] == [("Kim", True, False), ("bob_1", False, True)]
    record = guest.get(f"/api/games/{created['id']}/record").json()
    assert record["names"] == [{"name": "Kim", "guest": True}, {"name": "bob_1", "guest": False}]


def test_no_response_carries_a_password_hash_or_a_session_secret(client):
    register(client, "donald")
    secret = client.cookies["tileworks-session"]
    api = Api(client)
    game = api.create("azul", ["human", "random"])
    bodies = [
        client.get("/api/session").text, client.get("/api/players/donald").text,
        client.get(f"/api/games/{game['id']}").text, client.get("/api/games").text,
        client.get("/api/leaderboard/azul").text,
    ]
    for body in bodies:
        assert "$argon2" not in body and secret not in body


def test_logging_out_ends_the_session_on_the_server(client):
    register(client, "ken")
    secret = client.cookies["tileworks-session"]
    assert client.delete("/api/session").json() == {"username": None}
    thief = new_client(client)
    thief.cookies.set("tileworks-session", secret)
    assert thief.get("/api/session").json() == {"username": None}


def stored_hash(client, username):
    """The password hash the server's database keeps for ``username``."""
    return client.app.state.accounts.store.password_of(username)[1]


def test_passwords_are_hashed_with_rfc_9106s_low_memory_argon2id_by_default(db_url):
    with TestClient(create_app(db_url=db_url, ai_workers=1)) as client:
        register(client, "ada")
        assert stored_hash(client, "ada").startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert login(new_client(client), "ada").status_code == 200
        assert login(new_client(client), "ada", "violet kiln tortoise 43").status_code == 401


def test_an_account_moves_to_new_hash_settings_at_its_next_login(db_url):
    with TestClient(server_app(db_url)) as client:  # the suite's cheap settings: 32 KiB, one pass
        register(client, "ada")
        old = stored_hash(client, "ada")
    assert old.startswith("$argon2id$v=19$m=32,t=1,p=4$")
    with TestClient(server_app(db_url, password_memory_kib=64, password_passes=2)) as client:
        assert login(client, "ada", "violet kiln tortoise 43").status_code == 401
        assert stored_hash(client, "ada") == old  # a wrong password moves nothing
        assert login(client, "ada").status_code == 200
        moved = stored_hash(client, "ada")
        assert moved.startswith("$argon2id$v=19$m=64,t=2,p=4$")
        assert login(new_client(client), "ada").status_code == 200
        assert stored_hash(client, "ada") == moved  # moved once


def test_the_serve_command_hashes_with_the_settings_it_is_given(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    server = Server(url, extra=["--password-memory", "1", "--password-passes", "2"]).start()
    try:
        made = httpx.post(f"{server.url}/api/accounts", json={"username": "ada", "password": PASSWORD}, timeout=10)
        assert made.status_code == 201, made.text
    finally:
        server.kill()
    engine = connect(url)
    _, stored = Store(engine).password_of("ada")
    engine.dispose()
    assert stored.startswith("$argon2id$v=19$m=1024,t=2,p=4$")


def test_sessions_expire(db_url):
    lifetime = 5  # seconds: a login and a game's creation fit in it on a busy machine (1 s once did not, in CI)
    with TestClient(server_app(db_url, session_seconds=lifetime)) as client:
        register(client, "margaret")
        signed_in = time.monotonic()  # no earlier than the session began
        game = Api(client).create("kiln", ["human", "random"])
        assert client.get("/api/session").json() == {"username": "margaret"}
        time.sleep(max(0.0, signed_in + lifetime + 0.2 - time.monotonic()))
        assert client.get("/api/session").json() == {"username": None}
        # the seat belongs to the account: its token alone no longer acts for it
        view = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Token": game["seats"][0]["token"]})
        assert view.status_code == 403 and "log in as its holder" in view.json()["error"]


def test_another_account_can_never_act_for_a_seat_it_does_not_hold(client):
    register(client, "alice")
    bob = new_client(client)
    register(bob, "bob")
    created = client.post("/api/games", json={"game": "kiln", "players": ["human", "human"], "open_seats": [2]})
    assert created.status_code == 201
    game_id = created.json()["id"]
    alice_token = created.json()["seats"][0]["token"]
    claimed = bob.post(f"/api/games/{game_id}/seats/2/claim")
    assert claimed.status_code == 200
    bob_token = claimed.json()["token"]
    # each sees the game from its own seat, by its session alone
    assert client.get(f"/api/games/{game_id}").json()["you"] == [0]
    assert bob.get(f"/api/games/{game_id}").json()["you"] == [1]
    view = client.get(f"/api/games/{game_id}").json()
    mover, other = (client, bob) if view["to_move"] == 0 else (bob, client)
    before = view["ply"]
    move = {"move": mover.get(f"/api/games/{game_id}").json()["view"]["legal"][0], "ply": before}
    # the other account: with its own session it is not its turn
    refused = other.post(f"/api/games/{game_id}/moves", json=move)
    assert refused.status_code == 409 and "not your turn" in refused.json()["error"]
    # ... and the mover's token does not help it, nor does the token without any session
    mover_token = alice_token if mover is client else bob_token
    stolen = other.post(f"/api/games/{game_id}/moves", json=move, headers={"X-Seat-Token": mover_token})
    assert stolen.status_code == 403 and "belongs to an account" in stolen.json()["error"]
    anonymous = TestClient(client.app).post(f"/api/games/{game_id}/moves", json=move, headers={"X-Seat-Token": mover_token})
    assert anonymous.status_code == 403
    assert client.get(f"/api/games/{game_id}").json()["ply"] == before  # nothing changed
    assert mover.post(f"/api/games/{game_id}/moves", json=move).status_code == 200


def test_guests_play_at_once_under_a_chosen_name(client, api):
    created = client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "open_seats": [2],
                                              "name": "  Kim  "}).json()
    claimed = client.post(f"/api/games/{created['id']}/seats/2/claim", json={"name": "Lee"})
    assert claimed.status_code == 200
    view = api.view(created["id"])
    assert [s["name"] for s in view["seats"]] == ["Kim", "Lee"]
    assert [s["account"] for s in view["seats"]] == [False, False]
    listed = next(g for g in client.get("/api/games").json() if g["id"] == created["id"])
    assert listed["names"] == ["Kim", "Lee"]
    bad = client.post("/api/games", json={"game": "azul", "players": ["human", "human"], "name": "x" * 25})
    assert bad.status_code == 400 and "a name has at most 24 printable characters" in bad.json()["error"]


def test_profiles_of_unknown_players_are_not_found(client):
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/_x").status_code == 404
    unknown = client.get("/api/leaderboard/chess")
    assert unknown.status_code == 404 and "unknown game 'chess'" in unknown.json()["error"]
