"""End to end in a real Chromium (Debian's, driven by Playwright): each game
played to the end against a computer opponent only by clicking; two browser
contexts as two seats of one game; a spectator's page without hands.
Screenshots of each board go to tests/web/artifacts/."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import httpx
import playwright.sync_api as playwright
import pytest

from tests.server.test_restart import Server  # a real server process
from tileworks.core.registry import registered_games

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('web') / 'games.db'}").start()
    yield running
    running.kill()


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: `make test` installs it (apt-get install chromium)"
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def create(server, game, seats, **options):
    response = httpx.post(f"{server.url}/api/games", json={"game": game, "players": seats, "options": options})
    assert response.status_code == 201, response.text
    return response.json()


def click_first(page) -> bool:
    """Click the first highlighted shape, or else the first move button; False when there is neither."""
    targets = page.locator("#board svg .target")
    buttons = page.locator("#buttons button:not(.cancel)")
    if targets.count():
        targets.first.click()
    elif buttons.count():
        buttons.first.click()
    else:
        return False
    return True


def click_to_the_end(page, seconds=240, over="Game over"):
    """Click the first highlighted shape (or the first move button) until the game is over."""
    deadline = time.monotonic() + seconds
    clicks = 0
    while time.monotonic() < deadline:
        if over in page.inner_text("#status"):
            return clicks
        clicks += click_first(page)
        page.wait_for_timeout(60)
    raise AssertionError(f"no end after {clicks} clicks: {page.inner_text('#status')}")


@pytest.mark.parametrize("game, options", [
    ("kiln", {"goal": 6}), ("azul", {}), ("tiles", {}), ("tuileries", {}),
    # a plugin game (examples/dominoes, installed by make test): no code of
    # its own in tileworks.web or tileworks.server
    ("dominoes", {}), ("dominoes", {"players": 3, "draw": True}),
])
def test_a_whole_game_played_by_clicking(server, browser, game, options):
    seats = ["human"] + ["mcts:beginner"] * (options.get("players", 2) - 1)
    created = create(server, game, seats, **options)
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{game}-start.png"))
    assert click_to_the_end(page) > 0
    # the results panel: the winner, the scores as the game makes them, and the ways on
    page.wait_for_selector("#results:not([hidden])")
    assert page.inner_text("#winner").endswith("wins.") or "share the win" in page.inner_text("#winner")
    assert page.locator("#results a#lobby[href='/']").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"{game}-end.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(ARTIFACTS / f"{game}-end-phone.png"), full_page=True)
    final = httpx.get(f"{server.url}/api/games/{created['id']}").json()
    assert final["status"] == "finished"
    assert errors == []
    page.close()


def test_two_seats_in_two_browsers_see_each_others_moves_live(server, browser):
    created = create(server, "azul", ["human", "human"])
    pages = []
    for seat in created["seats"]:
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{server.url}/play/{created['id']}#token={seat['token']}")
        page.wait_for_selector("#board svg")
        pages.append(page)
    for _ in range(4):
        mover = next(p for p in pages if p.locator("#board svg .target").count())
        other = pages[1 - pages.index(mover)]
        before = other.locator("#moves li").count()
        mover.locator("#board svg .target").first.click()
        mover.locator("#board svg .target").first.click()
        other.wait_for_function(f"document.querySelectorAll('#moves li').length > {before}")
    for page in pages:
        page.context.close()


def test_a_spectators_page_never_holds_a_hand(server, browser):
    created = create(server, "tuileries", ["human", "human"])
    page = browser.new_page()
    page.goto(f"{server.url}/watch/{created['id']}")
    page.wait_for_selector("#board svg")
    hands = [httpx.get(f"{server.url}/api/games/{created['id']}", headers={"X-Seat-Token": s["token"]}).json()
             ["view"]["hand"] for s in created["seats"]]
    html = page.content()
    assert "data-tile" not in html
    assert "'s hand" not in page.inner_text("#board")
    assert all(hands)
    page.close()


def test_a_game_started_on_the_home_page_and_joined_from_the_list(server, browser):
    host = browser.new_page()
    host.goto(server.url + "/")
    host.wait_for_selector("#game option", state="attached")
    host.select_option("#game", "tuileries")
    host.select_option("#seats select[name=seat1]", "open")
    host.click("#create button[type=submit]")
    host.wait_for_selector("#board svg")
    guest = browser.new_context().new_page()
    guest.goto(server.url + "/")
    guest.click("#open-games button:text('join as P2')")
    guest.wait_for_selector("#board svg")
    guest.wait_for_function("document.querySelector('#players').textContent.includes('P2 human')")
    host.wait_for_function("!document.querySelector('#players').textContent.includes('waiting')")
    host.close()
    guest.context.close()


def _assert_learned_placed_where_measured(values: list[str], about: dict) -> None:
    """Each learned player among a seat's choices (strongest first) sits
    just above the strongest level it was measured to beat, just below the
    weakest it lost to where it beat none, and on top where not measured."""
    from tileworks.agents.learned import LEVEL_LADDER, standing, weakest_loss

    beats, losses = standing(about), weakest_loss(about)
    for spec in ("alpha", "net"):
        if spec not in beats:
            assert values.index(spec) < values.index("mcts:expert"), values
        elif beats[spec] is not None:
            beaten = LEVEL_LADDER.index(beats[spec])
            assert values.index(spec) < values.index(beats[spec]), values
            if beaten + 1 < len(LEVEL_LADDER):
                assert values.index(LEVEL_LADDER[beaten + 1]) < values.index(spec), values
        else:
            assert values.index(losses[spec]) < values.index(spec), values
            weaker = LEVEL_LADDER.index(losses[spec]) - 1
            if weaker >= 0:
                assert values.index(spec) < values.index(LEVEL_LADDER[weaker]), values


def test_the_learned_players_are_offered_where_they_stand_where_a_network_was_trained(server, browser):
    """Azul for 2 ships a network: its seats list the learned players
    strongest first among the levels, each just above the strongest level
    it was measured to beat (its network's ``measured`` results; one not
    measured yet on top, saying so: Block Dominoes' alpha); for 3 and 4 players their own
    networks place them again;
    with the grey wall no network fits and those two cannot be chosen.
    Azul's 2-player ``alpha`` beat ``mcts:expert`` and is the first
    computer player listed. KILN's ``alpha`` beat ``mcts:hard`` and is
    listed just above it; Tuileries' and Tiles' beat ``mcts:medium`` and
    are listed just above that. Their ``net`` beat random alone and is
    listed between random and greedy."""
    from tileworks.agents.learned import LEVEL_LADDER, networks_of, standing

    page = browser.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    seat = "#seats select[name=seat1]"
    choices = "options => options.map((o) => o.value)"
    # each game's standing (from its network's measured rows) and the order its seat lists, strongest first:
    # Tuileries' and Tiles' alpha beat mcts:medium, KILN's mcts:hard; their net beat random alone
    above_medium = ({"net": "random", "alpha": "mcts:medium"}, ["mcts:hard", "alpha", "mcts:medium", "greedy", "net"])
    above_hard = ({"net": "random", "alpha": "mcts:hard"}, ["mcts:expert", "alpha", "mcts:hard", "greedy", "net"])

    def listed(about: dict, stands: dict, order: list[str]) -> list[str]:
        """The seat's choices, once the network's standing and their order are as expected, alpha's measured."""
        values = page.eval_on_selector_all(seat + " option", choices)
        assert standing(about) == stands
        places = [values.index(value) for value in order]
        assert places == sorted(places), values
        assert "not measured" not in page.text_content(seat + " option[value=alpha]")
        return values

    def azul_network(players: int) -> dict:
        (_, about), = [found for found in networks_of("azul") if found[1]["options"]["players"] == players]
        return about

    for game, placed in (("tuileries", above_medium), ("tiles", above_medium), ("kiln", above_hard)):
        page.select_option("#game", game)
        (_, about), = networks_of(game)
        _assert_learned_placed_where_measured(listed(about, *placed), about)
    page.select_option("#game", "azul")
    values = page.eval_on_selector_all(seat + " option", choices)
    levels = [value for value in values[2:] if value not in ("alpha", "net")]
    assert levels == list(reversed(LEVEL_LADDER)), values
    about = azul_network(2)
    # alpha beat mcts:expert over 200 games at its default budget: the first computer player listed
    assert standing(about) == {"net": "mcts:easy", "alpha": "mcts:expert"}
    assert values[2] == "alpha", values
    _assert_learned_placed_where_measured(values, about)
    assert page.text_content(seat + " option[value=alpha]") == "computer (trained network and search)"
    enabled = "(select) => [...select.options].filter((o) => !o.disabled).map((o) => o.value)"
    assert {"alpha", "net"} <= set(page.eval_on_selector(seat, enabled))
    page.select_option("#options [name=option-variant]", "grey")
    assert not {"alpha", "net"} & set(page.eval_on_selector(seat, enabled))
    page.select_option("#options [name=option-variant]", "standard")
    page.select_option("#players", "3")
    assert {"alpha", "net"} <= set(page.eval_on_selector(seat, enabled))
    # both beat two greedy seats (alpha 0.81, net 0.5025) and were not measured against mcts:beginner
    listed(azul_network(3), {"net": "greedy", "alpha": "greedy"}, ["mcts:beginner", "alpha", "net", "greedy"])
    # for 4 players both beat three greedy seats too (a fair share 0.25: alpha 0.74, net 0.355)
    page.select_option("#players", "4")
    listed(azul_network(4), {"net": "greedy", "alpha": "greedy"}, ["mcts:beginner", "alpha", "net", "greedy", "random"])
    page.select_option("#players", "2")
    # Block Dominoes' alpha (a plugin's network) has no result yet: on top, and the choice says so
    page.select_option("#game", "dominoes")
    values = page.eval_on_selector_all(seat + " option", choices)
    (_, dominoes), = networks_of("dominoes")
    assert "alpha" not in standing(dominoes) and values.index("alpha") < values.index("mcts:expert"), values
    assert "not measured" in page.text_content(seat + " option[value=alpha]")
    assert "not measured" not in page.text_content(seat + " option[value=net]")
    page.select_option("#game", "azul")
    page.select_option(seat, "alpha")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#board svg .target")
    assert "trained network and search" in page.inner_text("#players")
    page.close()


def test_a_learned_player_that_beat_none_of_its_levels_is_listed_just_below_the_weakest_it_lost_to(server, browser):
    """A network whose results say its agent beat none of the levels it met
    (as Tuileries' ``alpha`` did, 0.08 against greedy, before its leaves were
    valued by rollouts): the seats list it between the level it lost to and
    the one below, not under random. The page is served this catalogue, the
    real one with that standing for Tuileries."""
    def lost_to_greedy(route):
        catalogue = route.fetch().json()
        tuileries = next(entry for entry in catalogue if entry["name"] == "tuileries")
        for network in tuileries["networks"]:
            network["beats"] = {**network["beats"], "alpha": None}
            network["loses_to"] = {**network["loses_to"], "alpha": "greedy"}
        route.fulfill(json=catalogue)

    page = browser.new_page()
    page.route("**/api/catalogue", lost_to_greedy)
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "tuileries")
    values = page.eval_on_selector_all("#seats select[name=seat1] option", "options => options.map((o) => o.value)")
    assert values.index("greedy") < values.index("alpha") < values.index("random"), values
    page.close()


VISIBLE_TEXT = """() => {
  const copy = document.body.cloneNode(true);
  copy.querySelectorAll('[translate=no], code, script, [lang]:not([lang=ja])').forEach((e) => e.remove());
  document.body.append(copy);
  const text = copy.innerText;
  copy.remove();
  return text;
}"""
#: words that are the same in every language: the brand, and seat names
SAME_IN_EVERY_LANGUAGE = {"tileworks"}


#: a plugin game's own words are its package's to translate; tileworks's
#: catalogs cover tileworks and the games it ships
PLUGIN_TITLES = {info.title for info in registered_games()
                 if info.name not in ("azul", "kiln", "tiles", "tuileries", "dominoes")}  # (Dominoes ships Japanese)


def english_words(page):
    """English words shown on the page, each with the line that shows it."""
    lines = page.evaluate(VISIBLE_TEXT).splitlines()
    words = {word: line.strip() for line in lines for word in re.findall(r"[A-Za-z]{3,}", line)}
    return sorted(f"{word} (in {line!r})" for word, line in words.items()
                  if word not in SAME_IN_EVERY_LANGUAGE | PLUGIN_TITLES)


def test_the_japanese_pages_show_no_english(server, browser):
    created = create(server, "kiln", ["human", "mcts:beginner"], goal=4)
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    page.wait_for_selector("#finished-games li")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert english_words(page) == []
    for game in ("kiln", "azul", "tiles", "tuileries", "dominoes"):
        page.select_option("#game", game)
        assert english_words(page) == [], game
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.querySelector('#hint').textContent.length > 0")
    assert english_words(page) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "kiln-ja.png"))
    click_to_the_end(page, over="ゲーム終了")
    assert english_words(page) == []
    page.goto(f"{server.url}/replay/{created['id']}")
    page.wait_for_selector("#board svg")
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#status').textContent.includes('手目')")
    assert english_words(page) == []
    for game in ("azul", "tiles", "tuileries", "dominoes"):  # every step of a few moves of the other games
        other = create(server, game, ["human", "random"])
        page.goto(f"{server.url}/play/{other['id']}#token={other['seats'][0]['token']}")
        page.wait_for_selector("#board svg")
        for _click in range(8):
            # a first move may be a button alone: a Dominoes hand with nothing to play passes (1 deal in 20)
            page.wait_for_function("document.querySelector('#board svg .target, #buttons button:not(.cancel)')"
                                   " || document.getElementById('status').textContent.includes('ゲーム終了')", timeout=20_000)
            assert english_words(page) == [], game
            if "ゲーム終了" in page.inner_text("#status"):
                break
            targets = page.locator("#board svg .target")
            (targets.first if targets.count() else page.locator("#buttons button:not(.cancel)").first).click()
            page.wait_for_timeout(150)
        page.screenshot(path=str(ARTIFACTS / f"{game}-ja.png"))
    page.goto(f"{server.url}/rules/kiln")
    assert "外側のタイル" in page.inner_text("main") and "倉庫" in page.inner_text("main")
    page.goto(f"{server.url}/rules/dominoes")
    assert "山札" in page.inner_text("main")
    assert set(re.findall(r"[A-Za-z]{3,}", page.inner_text("header nav"))) <= PLUGIN_TITLES
    # the account pages: log in and register, a profile with a game, a leaderboard
    page.goto(f"{server.url}/account")
    assert english_words(page) == []
    username = "花子" + str(int(time.time() * 1000))[-6:]  # a name in any script
    page.fill("#register [name=username]", username)
    page.fill("#register [name=password]", "violet kiln tortoise 42")
    page.click("#register button")
    page.wait_for_url("**/players/**")
    timed = page.request.post(f"{server.url}/api/games", data={
        "game": "tuileries", "players": ["human", "random"], "clock": {"kind": "turn", "hours": 24}}).json()
    page.goto(f"{server.url}/play/{timed['id']}")
    page.wait_for_selector("#players .clock")
    assert english_words(page) == []
    page.goto(f"{server.url}/players/{username}")
    page.wait_for_selector("#games tbody tr")
    assert english_words(page) == [] and username in page.inner_text("h1")
    page.goto(f"{server.url}/leaderboards/kiln")
    page.wait_for_selector("#empty:not(:empty)")
    assert english_words(page) == []
    context.close()


def test_the_language_switch_is_remembered(server, browser):
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server.url + "/")
    page.click("header .languages a[lang=ja]")
    page.wait_for_selector("html[lang=ja]")
    page.goto(server.url + "/rules/azul")
    assert page.locator("html").get_attribute("lang") == "ja" and "工房" in page.inner_text("main")
    page.click("header .languages a[lang=en]")
    page.wait_for_selector("html[lang=en]")
    assert "Factory displays" in page.inner_text("main")
    context.close()


def test_a_phone_width_screen_needs_no_sideways_scrolling(server, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for game in ("kiln", "azul", "tiles", "tuileries"):
        created = create(server, game, ["human", "random"])
        page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
        page.wait_for_selector("#board svg")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, game
        page.screenshot(path=str(ARTIFACTS / f"{game}-phone.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_every_piece_and_button_to_tap_is_44_pixels_on_a_phone(server, browser, game):
    created = create(server, game, ["human", "random"])
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg")
    checked = 0
    for _click in range(14):  # the steps of several moves: whatever the board asks to click
        page.wait_for_selector("#board svg .target, #buttons button:not(.cancel)", timeout=20_000)
        page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")  # pieces landed
        sizes = page.eval_on_selector_all("#board svg .target, #buttons button", """els => els.map(e => {
            const r = e.getBoundingClientRect(); return [Math.min(r.width, r.height), e.getAttribute('aria-label') || e.textContent]; })""")
        small = [s for s in sizes if s[0] < 44]  # WCAG 2.5.5: 44 CSS pixels
        assert small == [], small[:5]
        checked += len(sizes)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        targets = page.locator("#board svg .target")
        (targets.first if targets.count() else page.locator("#buttons button:not(.cancel)").first).tap()
        page.wait_for_timeout(150)
    assert checked > 20
    page.screenshot(path=str(ARTIFACTS / f"{game}-phone-play.png"), full_page=True)
    phone.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_a_game_page_weighs_under_150_kb_before_pictures(server, browser, locale):
    """Everything a game page loads but pictures: the page (with the
    translations its scripts use), its styles and scripts, and the first
    view over the WebSocket (the board's SVG aside)."""
    created = create(server, "kiln", ["human", "random"])
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    loaded = []
    page.on("requestfinished", lambda request: loaded.append(
        (request.resource_type, request.url, request.sizes()["responseBodySize"])))
    frames = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(frame)))
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg .target")
    page.wait_for_load_state("networkidle")
    assert {kind for kind, _url, _size in loaded} >= {"document", "stylesheet", "script"}
    first_view = json.loads(frames[0])
    picture = len(first_view.pop("svg").encode())
    weight = sum(size for kind, _url, size in loaded if kind != "image") + len(json.dumps(first_view).encode())
    print(f"game page ({locale}): {weight / 1000:.1f} kB before pictures, the board's SVG {picture / 1000:.1f} kB")
    assert weight < 150_000, loaded
    context.close()


def _boxes(page):
    board = page.locator("#board svg").bounding_box()
    side = page.locator("#side").bounding_box()
    return board, side


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_the_board_fills_a_desktop_screen_beside_the_panel_and_a_phone_above_it(server, browser, game):
    created = create(server, game, ["human", "random"])
    url = f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}"
    desktop = browser.new_page(viewport={"width": 1280, "height": 900})
    desktop.goto(url)
    desktop.wait_for_selector("#board svg")
    board, side = _boxes(desktop)
    drawn = desktop.evaluate("(() => { const s = document.querySelector('#board svg'); const b = s.viewBox.baseVal;"
                             " const r = s.getBoundingClientRect(); return Math.min(r.width / b.width, r.height / b.height)"
                             " * b.width; })()")
    assert board["width"] >= 0.65 * 1280 and side["x"] >= board["x"] + board["width"] - 1, (board, side)
    assert side["width"] <= 20 * 16 + 1
    assert board["y"] + board["height"] <= 900  # the whole board is on the screen
    # the picture itself is drawn at least 1.5 times its natural size (KILN's kiln was 260 px wide)
    natural = desktop.evaluate("document.querySelector('#board svg').viewBox.baseVal.width")
    assert drawn >= min(1.5 * natural, board["width"] - 1), (drawn, natural)
    desktop.screenshot(path=str(ARTIFACTS / f"{game}-desktop.png"))
    desktop.close()
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    page.goto(url)
    page.wait_for_selector("#board svg")
    board = page.locator("#board svg").bounding_box()
    status, players = page.locator("#status").bounding_box(), page.locator("#players").bounding_box()
    assert board["width"] >= 390 - 2 * 16 - 1, board
    # the status line above the board, the rest of the panel under it
    assert status["y"] + status["height"] <= board["y"] + 1 and players["y"] >= board["y"] + board["height"] - 1
    phone.close()


def test_a_move_made_with_the_keyboard_alone_shows_its_points(server, browser):
    created = create(server, "tuileries", ["human", "human"])
    first = httpx.get(f"{server.url}/api/games/{created['id']}").json()["view"]["to_move"]  # chance picked it
    page = browser.new_page()
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][first]['token']}")
    page.wait_for_selector("#board svg .target")
    for _step in range(2):  # the hand tile, then the square
        for _press in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('target')"):
                break
        assert page.get_attribute("#board svg", "role") == "group"  # its buttons reach screen readers
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert re.match(r"([KQNJ][♠♥♦♣], tile [bgry][kqnj][shdc]|square [a-h][1-8])$", label), label
        page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#moves li').length === 1")
    assert re.search(rf"P{first + 1} \+1\b", page.inner_text("#last")), page.inner_text("#last")  # a first tile scores 1
    marked = page.eval_on_selector_all("#board svg .last-move[data-square]", "els => els.map(e => e.dataset.square)")
    assert len(set(marked)) == 1 and marked  # where the tile went
    page.close()


@pytest.mark.parametrize("game", ["kiln", "azul"])
def test_colour_is_never_the_only_cue_on_a_board(server, browser, game):
    created = create(server, game, ["human", "random"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg")
    # every coloured tile carries its colour's letter (the notation's), which clicks pass through
    tiles = page.evaluate("""[...document.querySelectorAll('#board svg rect')].filter(r => {
        const f = r.getAttribute('fill'); return ['#d33', '#36c', '#2a2', '#eb2', '#2f6fd0', '#f2c230', '#d8443c',
        '#2b2b2b'].includes(f) && +r.getAttribute('width') >= 12; }).length""")
    cues = page.locator("#board svg text.cue")
    assert tiles > 10 and cues.count() >= tiles
    assert cues.first.evaluate("e => getComputedStyle(e).pointerEvents") == "none"
    # a simulated deuteranopia view (Viénot's matrix), saved for a person to look at
    page.evaluate("""() => {
        document.body.insertAdjacentHTML('beforeend', '<svg width="0" height="0" aria-hidden="true"><filter '
            + 'id="deuteranopia"><feColorMatrix type="matrix" values="0.625 0.375 0 0 0 0.7 0.3 0 0 0 '
            + '0 0.3 0.7 0 0 0 0 0 1 0"/></filter></svg>');
        document.querySelector('#board svg').style.filter = 'url(#deuteranopia)';
    }""")
    page.screenshot(path=str(ARTIFACTS / f"{game}-deuteranopia.png"))
    page.close()


def test_the_lobby_shows_every_game_and_the_games_to_join_watch_and_replay(server, browser):
    finished = create(server, "azul", ["random", "random"])  # computer seats play it out on their own
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/games/{finished['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the computers' game did not finish"
        time.sleep(0.2)
    waiting = httpx.post(f"{server.url}/api/games", json={"game": "kiln", "players": ["human", "human"],
                                                         "open_seats": [2]}).json()
    private = create(server, "kiln", ["human", "human"])  # both seats on the creator's link: none to join
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/")
    page.wait_for_selector(".card img")
    names = page.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.game)")
    assert sorted(names) == sorted(info.name for info in registered_games())
    # each card's picture is its game's opening position, drawn by its renderer
    page.wait_for_function("[...document.querySelectorAll('.card img')].every(i => i.complete && i.naturalWidth > 0)")
    picture = httpx.get(f"{server.url}/pictures/tuileries.svg")
    assert picture.headers["content-type"].startswith("image/svg+xml") and "<svg" in picture.text
    assert httpx.get(f"{server.url}/pictures/chess.svg").status_code == 404
    page.wait_for_selector(f"#finished-games a[href='/replay/{finished['id']}']")
    assert page.locator(f"#open-games a[href='/watch/{waiting['id']}']").count() == 1
    assert page.locator(f"#open-games li:has(a[href='/watch/{waiting['id']}']) button").inner_text() == "join as P2"
    assert page.locator(f"a[href='/watch/{private['id']}']").count() == 0  # open, but not to this visitor
    assert "(moves: 0)" in page.inner_text(f"#open-games li:has(a[href='/watch/{waiting['id']}'])")
    page.screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)
    # a quick game against the computer: one click from the lobby to the board
    page.click(".card[data-game=kiln] button.quick")
    page.wait_for_selector("#board svg")
    assert "computer (medium)" in page.inner_text("#side")
    page.close()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_opponents_move_is_animated_unless_motion_is_reduced(server, browser, motion):
    created = create(server, "azul", ["human", "mcts:beginner"])
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/games/{created['id']}").json()["view"]["to_move"] != 0:
        assert time.monotonic() < deadline, "the computer did not make its opening move"
        time.sleep(0.1)  # if chance picked the computer to start, it moves before the page opens
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion=motion)
    page = context.new_page()
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg")
    moved = "#board svg .arrive, #board svg .travel"
    assert page.locator(moved).count() == 0  # the first view brings nothing to animate
    # record every animation the page starts, with where its shape began
    page.evaluate("""() => { window.started = []; const animate = Element.prototype.animate;
        Element.prototype.animate = function (frames, options) { window.started.push(
            {line: this.dataset.line, from: frames[0].transform, ms: options.duration}); return animate.call(this, frames, options); }; }""")
    deadline = time.monotonic() + 60
    while not page.locator(moved).count():  # play until the computer has answered
        assert time.monotonic() < deadline, "the computer's move never arrived"
        targets = page.locator("#board svg .target")
        if targets.count():
            targets.first.click()
        page.wait_for_timeout(100)
    started = page.evaluate("window.started")
    if motion == "reduce":
        assert started == [] and page.locator("#board svg .travel").count() == 0
        assert page.locator("#board svg .arrive").first.evaluate("e => getComputedStyle(e).animationName") == "none"
    else:
        # the computer's tiles travel from their factory or the centre to a pattern line or the floor
        assert started and all(a["line"] in ("1", "2", "3", "4", "5", "f") and a["ms"] == 300 for a in started)
        assert all(re.match(r"translate\(-?[\d.]+px, -?[\d.]+px\) scale\(0\.8\)", a["from"]) for a in started)
        assert any(a["from"] != "translate(0px, 0px) scale(0.8)" for a in started)
    assert page.locator("#board svg .last-move").count() >= 1  # and the last move stays marked
    context.close()
