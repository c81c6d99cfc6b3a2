"""Storage: a move lands only on the version it was checked against, so two
server processes on one database can never both apply a move for one turn."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from sqlalchemy import event

from tileworks.server.store import Store, connect

from .conftest import Api, server_app


def test_an_append_on_a_stale_version_writes_nothing(db_url):
    with TestClient(server_app(db_url)) as client:
        game_id = Api(client).create("kiln", ["human", "human"])["id"]
    store = Store(connect(db_url))
    row, history, _ = store.load(game_id)
    assert store.append(game_id, row.version, [history[0]], "playing", None)
    assert not store.append(game_id, row.version, [history[0]], "playing", None)
    again, longer, _ = store.load(game_id)
    assert again.version == row.version + 1 and longer == history + [history[0]]


def test_two_servers_on_one_database_cannot_both_take_a_turn(db_url):
    with TestClient(server_app(db_url)) as first, \
            TestClient(server_app(db_url)) as second:
        a, b = Api(first), Api(second)
        created = a.create("kiln", ["human", "human"])
        game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
        view = b.view(game_id)  # the second server now holds the game in memory
        token = tokens[view["to_move"]]
        legal = view["view"]["legal"]
        assert a.move(game_id, legal[0], view["ply"], token).status_code == 200
        raced = b.move(game_id, legal[1], view["ply"], token)
        # the second server sees that the store is ahead of its copy before it checks the move
        assert raced.status_code == 409 and "stale move" in raced.json()["error"], raced.text
        assert b.view(game_id) == a.view(game_id)  # the loser took the winner's state


def test_players_moving_at_once_share_the_connections_the_server_keeps_open(postgres):
    """Forty games moving at once through one process on PostgreSQL: every
    move lands, on connections the server keeps open, none opened for a
    moment and closed again (each new connection costs PostgreSQL a backend
    process; on SQLite it is a file opened in microseconds)."""
    db_url = postgres.new_database("moving_at_once")
    with TestClient(server_app(db_url)) as client:
        api, store = Api(client), client.app.state.hub.store
        games = [api.create("azul", ["human", "human"]) for _ in range(40)]
        opened, closed = [], []
        event.listen(store.engine.pool, "connect", lambda *_: opened.append(1))
        event.listen(store.engine.pool, "close", lambda *_: closed.append(1))

        def play_three(created):
            tokens = [s["token"] for s in created["seats"]]
            for _ in range(3):
                view = api.view(created["id"], *tokens)
                assert api.move(created["id"], view["view"]["legal"][0], view["ply"], *tokens).status_code == 200

        with ThreadPoolExecutor(40) as players:
            list(players.map(play_three, games))
        assert all(api.view(g["id"])["moves_made"] == 3 for g in games)
        assert closed == [] and len(opened) <= store.connections


def test_on_postgresql_a_move_is_one_statement_and_every_write_is_announced_by_its_process(postgres):
    """A move is the game's update and its actions in one statement (one
    round trip) and reads open no transaction; every write that changes a game, the move included, is
    announced on the channel when it commits, signed by the process that
    made it, and a refused move announces nothing."""
    import psycopg

    from tileworks.server.changes import psycopg_url
    from tileworks.server.store import CHANNEL

    db_url = postgres.new_database("announced")
    with TestClient(server_app(db_url)) as client:
        game_id = Api(client).create("kiln", ["human", "human"])["id"]
    mine, theirs = Store(connect(db_url)), Store(connect(db_url))
    row, history, _ = mine.load(game_id)
    statements, in_transaction = [], []
    event.listen(mine.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    event.listen(mine.engine, "after_cursor_execute", lambda conn, *_: in_transaction.append(
        conn.connection.dbapi_connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE))
    with psycopg.connect(psycopg_url(mine), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        assert mine.append(game_id, row.version, [history[0]], "playing", None)
        assert len(statements) == 1
        # nor does a move or a read open a transaction (a BEGIN and a COMMIT or ROLLBACK more)
        assert mine.load(game_id)[1] == history + [history[0]] and mine.revision(game_id) == row.revision + 1
        assert len(in_transaction) == 5 and not any(in_transaction)
        assert not theirs.append(game_id, row.version, [history[0]], "playing", None)  # stale: nothing written
        theirs.set_seats(game_id, {0: {"name": "Ada"}})
        heard = [note.payload for note in listener.notifies(timeout=1.0)]
    assert heard == [f"{game_id} {mine.origin}", f"{game_id} {theirs.origin}"]
    assert mine.load(game_id)[0].revision == row.revision + 2


def test_idle_games_leave_memory_and_come_back_from_the_store(db_url):
    app = server_app(db_url)
    with TestClient(app) as client:
        api = Api(client)
        hub = client.app.state.hub
        hub.max_rooms = 3
        games = [api.create("kiln", ["human", "human"]) for _ in range(5)]
        assert len(hub.rooms) == 3
        first = games[0]
        token = first["seats"][0]["token"]
        view = api.view(first["id"], token)  # reloaded from the store
        assert view["ply"] > 0 and first["id"] in hub.rooms and len(hub.rooms) == 3
        mover = {s["seat"]: s["token"] for s in first["seats"]}[view["to_move"]]
        assert api.move(first["id"], view["view"]["legal"][0], view["ply"], mover).status_code == 200


def test_a_database_of_the_first_schema_is_migrated_in_place(tmp_path):
    import sqlite3

    from sqlalchemy import select

    from tileworks.server.store import SCHEMA_VERSION, meta

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE meta (key VARCHAR(32) PRIMARY KEY, value VARCHAR(64) NOT NULL);
        INSERT INTO meta VALUES ('schema', '1');
        CREATE TABLE games (id VARCHAR(24) PRIMARY KEY, game VARCHAR(32) NOT NULL, options TEXT NOT NULL,
            status VARCHAR(16) NOT NULL, version INTEGER NOT NULL, seed VARCHAR(64) NOT NULL,
            created FLOAT NOT NULL, updated FLOAT NOT NULL, result TEXT, rematch_of VARCHAR(24), rematch VARCHAR(24));
        CREATE TABLE seats (game_id VARCHAR(24) NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,
            player VARCHAR(200) NOT NULL, token_hash VARCHAR(64), claim_hash VARCHAR(64), joined BOOLEAN NOT NULL,
            PRIMARY KEY (game_id, seat));
        CREATE TABLE actions (game_id VARCHAR(24) NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
            action INTEGER NOT NULL, PRIMARY KEY (game_id, ply));
        INSERT INTO games VALUES ('g1', 'kiln', '{"players": 2}', 'open', 0, 'abc', 0, 0, NULL, NULL, NULL);
        INSERT INTO seats VALUES ('g1', 0, 'human', 'h0', NULL, 0), ('g1', 1, 'random', NULL, NULL, 0);
    """)
    old.commit()
    old.close()
    engine = connect(f"sqlite:///{path}")
    with engine.connect() as conn:
        assert conn.execute(select(meta.c.value).where(meta.c.key == "schema")).scalar() == str(SCHEMA_VERSION)
    row, history, _ = Store(engine).load("g1")
    assert [(s.player, s.token_hash, s.public) for s in row.seats] == [("human", "h0", False), ("random", None, False)]


def test_schema_3_gets_move_counts_placings_and_ratings_from_people_only(tmp_path):
    """Ratings once came from games against fixed-rating computer levels too.
    Moving to schema 4 makes those games unrated, rates every rated game
    between people again in order, counts each game's player decisions, and
    gives each finished game its placing."""
    import json

    from sqlalchemy import text

    from .test_ratings import play_out, rated_game_between
    from .test_accounts import new_client, register

    url = f"sqlite:///{tmp_path / 'three.db'}"
    with TestClient(server_app(url)) as client:
        register(client, "kim")
        lee = new_client(client)
        register(lee, "lee")
        people = rated_game_between(client, lee)
        between_people = play_out([client, lee], people)
        against = client.post("/api/games", json={"game": "tuileries", "players": ["human", "random"]}).json()["id"]
        play_out([client], against)
        board = client.get("/api/leaderboard/tuileries").json()
    engine = connect(url)
    with engine.begin() as conn:  # back to schema 3, and the game against random rated as it was then
        for game_id in (people, against):
            result = json.loads(conn.execute(text("SELECT result FROM games WHERE id = :g"), {"g": game_id}).scalar())
            for key in ("ranks", "ended"):
                result.pop(key)
            if game_id == against:
                result["ratings"] = [{"before": 0.0, "after": 9.9}, None]
            conn.execute(text("UPDATE games SET result = :r, rated = :rated WHERE id = :g"),
                         {"r": json.dumps(result), "rated": True, "g": game_id})
        conn.execute(text("UPDATE ratings SET mu = 60, games = 7"))
        conn.execute(text("ALTER TABLE games DROP COLUMN moves"))
        conn.execute(text("DROP INDEX ix_games_needs_server"))  # and what schema 5 added
        conn.execute(text("ALTER TABLE games DROP COLUMN needs_server"))
        conn.execute(text("ALTER TABLE games DROP COLUMN revision"))
        conn.execute(text("UPDATE meta SET value = '3' WHERE key = 'schema'"))
    engine.dispose()
    with TestClient(server_app(url)) as client:
        assert client.get("/api/leaderboard/tuileries").json() == board  # made again from the game between people
        assert [row["games"] for row in board] == [1, 1]
        games = {g["id"]: g for g in client.get("/api/games").json()}
        assert games[against]["rated"] is False and games[people]["rated"] is True
        assert games[people]["moves"] == len(client.get(f"/api/games/{people}?picture=true").json()["moves"])
        assert client.get(f"/api/games/{people}").json()["result"]["ranks"] == between_people["result"]["ranks"]
        mine = client.get("/api/players/kim").json()["games"]
        assert next(g for g in mine if g["id"] == against)["rating"] is None
