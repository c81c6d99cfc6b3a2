"""Players in a real Chromium: two accounts play a rated game by clicks and
both ratings move; a clock runs out and the computer moves for the seat;
a chosen piece is changed before the last click; the results panel, the
profile and the leaderboard. Screenshots go to tests/web/artifacts/."""

from __future__ import annotations

import time

import httpx

from tests.web.test_e2e import ARTIFACTS, browser, click_first, create, server  # noqa: F401 (fixtures)

PASSWORD = "violet kiln tortoise 42"


def register(page, base, username):
    page.goto(base + "/account")
    page.fill("#register [name=username]", username)
    page.fill("#register [name=password]", PASSWORD)
    page.click("#register button")
    page.wait_for_url("**/players/**")


def play_by_clicks(pages, seconds=240):
    """Whoever has a highlighted shape (or a move button) clicks it, until the game is over."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all("Game over" in p.inner_text("#status") for p in pages):
            return
        for page in pages:
            click_first(page)
        pages[0].wait_for_timeout(40)
    raise AssertionError("the game did not end")


def test_two_accounts_play_a_rated_game_and_both_ratings_move(server, browser):
    alice = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    bob = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    suffix = str(int(time.time() * 1000))[-6:]
    names = ["alice" + suffix, "bob" + suffix]
    register(alice, server.url, names[0])
    register(bob, server.url, names[1])
    alice.goto(server.url + "/")
    alice.wait_for_selector("#game option", state="attached")
    assert alice.locator("#guest").is_hidden()  # an account plays under its username
    alice.select_option("#game", "tuileries")
    alice.select_option("#seats select[name=seat1]", "open")
    alice.check("#rated")
    alice.click("#create button[type=submit]")
    alice.wait_for_selector("#board svg")
    bob.goto(server.url + "/")
    bob.click("#open-games li:has-text('rated') button:text('join as P2')")
    bob.wait_for_selector("#board svg")
    for page in (alice, bob):
        page.wait_for_function(f"document.querySelector('#players').textContent.includes('{names[1]}')")
    assert "rated game" in alice.inner_text("#players")
    play_by_clicks([alice, bob])
    for page in (alice, bob):
        page.wait_for_selector("#results:not([hidden])")
        rows = page.locator("#summary tbody th").all_inner_texts()
        assert rows == ["groups", "Score", "Place", "Rating"]  # the score as Tuileries makes it, places, ratings
        assert "★" in page.inner_text("#summary thead")  # the winner marked
    alice.screenshot(path=str(ARTIFACTS / "rated-results.png"))
    result = httpx.get(f"{server.url}/api/games/{alice.url.split('/')[-1]}").json()["result"]
    assert all(change is not None for change in result["ratings"])
    board = httpx.get(f"{server.url}/api/leaderboard/tuileries").json()
    mine = {row["username"]: row for row in board if row["username"] in names}
    assert set(mine) == set(names) and all(row["games"] == 1 for row in mine.values())
    if result["returns"][0] != result["returns"][1]:  # the winner's μ rose, the loser's fell
        winner = names[result["returns"].index(max(result["returns"]))]
        assert mine[winner]["mu"] > 25 > min(row["mu"] for row in mine.values())
    # the profile shows the game with its result and rating change, and the leaderboard both players
    alice.click("#me")
    alice.wait_for_selector("#games tbody tr")
    assert "Tuileries" in alice.inner_text("#ratings")
    assert alice.locator("#logout").is_visible()
    alice.screenshot(path=str(ARTIFACTS / "profile.png"))
    alice.goto(server.url + "/leaderboards/tuileries")
    alice.wait_for_selector("#standings tbody tr")
    listed = alice.locator("#standings tbody tr td:nth-child(2)").all_inner_texts()
    assert set(names) <= set(listed)
    alice.screenshot(path=str(ARTIFACTS / "leaderboard.png"))
    alice.context.close()
    bob.context.close()


def test_a_clock_runs_out_and_the_seat_loses(server, browser):
    created = httpx.post(f"{server.url}/api/games", json={
        "game": "azul", "players": ["human", "random"], "name": "Kim",
        "clock": {"kind": "realtime", "minutes": 0.06, "increment": 0}}).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#players .clock")
    assert "Kim (guest)" in page.inner_text("#players")  # a guest's name is marked as one
    page.wait_for_selector("#players .clock.running")
    first = page.inner_text("#players .clock.running")
    page.wait_for_timeout(1200)
    assert page.inner_text("#players .clock.running") != first  # it ticks between views
    page.wait_for_selector("#results:not([hidden])", timeout=30_000)
    assert "Out of time, and so placed last: P1. P2 computer (random moves) wins." in page.inner_text("#winner")
    assert "Game over: P2 wins." in page.inner_text("#status")
    places = page.locator("#summary tr", has_text="Place").locator("td").all_inner_texts()
    assert places == ["2 (out of time)", "1"]
    assert page.inner_text("#players .clock") == "0:00"
    page.screenshot(path=str(ARTIFACTS / "clock-ran-out.png"))
    page.close()


def test_the_page_says_when_it_lost_the_server_and_catches_up_when_it_returns(tmp_path, browser):
    from tests.server.test_restart import Server

    own = Server(f"sqlite:///{tmp_path / 'games.db'}").start()
    try:
        created = httpx.post(f"{own.url}/api/games", json={"game": "kiln", "players": ["human", "human"]}).json()
        tokens = [s["token"] for s in created["seats"]]
        game_id = created["id"]
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{own.url}/play/{game_id}#token={tokens[0]}")
        page.wait_for_selector("#board svg")
        assert page.locator("#offline").is_hidden()
        own.kill()
        page.wait_for_selector("#offline", state="visible", timeout=10_000)
        assert "reconnecting" in page.inner_text("#offline")
        own.start()
        view = httpx.get(f"{own.url}/api/games/{game_id}", headers={"X-Seat-Token": tokens[0]}).json()
        mover = view["to_move"]
        legal = httpx.get(f"{own.url}/api/games/{game_id}", headers={"X-Seat-Token": tokens[mover]}).json()
        moved = httpx.post(f"{own.url}/api/games/{game_id}/moves", json={"move": legal["view"]["legal"][0],
                           "ply": view["ply"]}, headers={"X-Seat-Token": tokens[mover]})
        assert moved.status_code == 200  # made while the page was still away
        page.wait_for_selector("#offline", state="hidden", timeout=20_000)
        page.wait_for_function("document.querySelectorAll('#moves li').length === 1")
        page.close()
    finally:
        if own.process and own.process.poll() is None:
            own.kill()


def test_a_chosen_piece_can_be_changed_before_the_last_click(server, browser):
    created = create(server, "azul", ["human", "human"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    tokens = "&".join("token=" + s["token"] for s in created["seats"])
    page.goto(f"{server.url}/play/{created['id']}#{tokens}")  # both seats at one screen
    page.wait_for_selector("#board svg .target")
    page.locator("#board svg .target[data-source='1']").first.click()
    first = page.inner_text("#chosen")
    assert first.startswith("Chosen so far: factory 1")
    # another factory's tile replaces the choice, before any line is chosen
    page.locator("#board svg .alternative[data-source='2']").first.click()
    second = page.inner_text("#chosen")
    assert "factory 2" in second and "factory 1" not in second
    # clicking the chosen tile takes the choice back
    page.locator("#board svg .picked").first.click()
    assert page.inner_text("#chosen") == ""
    page.locator("#board svg .target[data-source='2']").first.click()
    page.locator("#board svg .target[data-line]").first.click()
    page.wait_for_function("document.querySelectorAll('#moves li').length === 1")
    logged = page.inner_text("#moves li")
    assert logged[:9] in ("P1 takes ", "P2 takes ") and " from factory 2 to line " in logged  # the log says it in words
    assert page.inner_text("#moves li .notation").startswith("2")  # with its notation
    page.close()


def test_a_profile_lists_the_turn_based_games_waiting_for_the_player(server, browser):
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    username = "carol" + str(int(time.time() * 1000))[-6:]
    register(page, server.url, username)
    turn_based = {"kind": "turn", "hours": 48}
    mine = page.request.post(f"{server.url}/api/games", data={
        "game": "azul", "players": ["human", "random"], "clock": turn_based}).json()
    waiting = page.request.post(f"{server.url}/api/games", data={  # its second seat is still open
        "game": "azul", "players": ["human", "human"], "open_seats": [2], "clock": turn_based}).json()
    deadline = time.monotonic() + 30
    while page.request.get(f"{server.url}/api/games/{mine['id']}").json()["view"]["to_move"] != 0:
        assert time.monotonic() < deadline, "the computer did not move"  # chance may let it start
        time.sleep(0.1)
    page.goto(f"{server.url}/players/{username}")
    page.wait_for_selector("#turns:not([hidden]) #turn-games li")
    assert page.eval_on_selector_all("#turn-games a", "links => links.map(a => a.getAttribute('href'))") \
        == [f"/play/{mine['id']}"]
    assert waiting["id"] not in page.inner_text("#turn-games")
    page.click(f"#turn-games a[href='/play/{mine['id']}']")
    page.wait_for_selector("#board svg .target")  # the account's seat, no token in the link
    page.context.close()
