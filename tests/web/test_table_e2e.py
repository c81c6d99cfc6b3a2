"""The table tells a player what is going on, in a real Chromium: the tab's
title and icon on their turn, a chime when it arrives (once turned on), a
piece under the pointer lit up, a click beside the pieces answered, a move
previewed before it is made, the last move outlined in every game, the game
log in words, and on a phone the status in sight and the log in a drawer."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.web.test_e2e import browser, click_first, create, server  # noqa: F401 (fixtures)

OUTLINE = "rgb(122, 63, 196)"  # the last move's colour (style.css)


def open_seats(browser, server, game, seats=(0, 1), **options):
    created = create(server, game, ["human", "human"], **options)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    tokens = "&".join("token=" + created["seats"][s]["token"] for s in seats)
    page.goto(f"{server.url}/play/{created['id']}#{tokens}")
    page.wait_for_selector("#board svg")
    return created, page


def make_one_move(page):
    """Click the first piece (or button) on offer until one move is in the log."""
    deadline = time.monotonic() + 30
    while not page.locator("#moves > li").count():
        assert time.monotonic() < deadline, "no move was made"
        click_first(page)
        page.wait_for_timeout(60)


def test_the_tab_title_and_icon_say_when_it_is_your_turn_and_a_chime_can_say_it_arrived(server, browser):
    created = create(server, "azul", ["human", "human"])
    view = httpx.get(f"{server.url}/api/games/{created['id']}").json()
    mover = view["view"]["to_move"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][mover]['token']}")
    page.wait_for_selector("#board svg .target")
    assert page.title().startswith("● Your move")
    assert page.get_attribute("link[rel=icon]", "data-turn") == "yours"
    page.check("#sound")  # on for the next time the turn comes round
    page.locator("#board svg .target").first.click()
    page.locator("#board svg .target").first.click()
    page.wait_for_function("!document.title.startsWith('●')")
    assert page.get_attribute("link[rel=icon]", "data-turn") == ""
    assert page.evaluate("window.chimed || 0") == 0
    other = created["seats"][1 - mover]["token"]
    state = httpx.get(f"{server.url}/api/games/{created['id']}", headers={"X-Seat-Token": other}).json()
    moved = httpx.post(f"{server.url}/api/games/{created['id']}/moves", headers={"X-Seat-Token": other},
                       json={"move": state["view"]["legal"][0], "ply": state["ply"]})
    assert moved.status_code == 200, moved.text
    page.wait_for_function("document.title.startsWith('● Your move')")
    assert page.evaluate("window.chimed") == 1
    page.reload()  # the choice is remembered
    page.wait_for_selector("#board svg")
    assert page.is_checked("#sound") and not page.is_checked("#notify")
    page.close()


def test_a_piece_lights_up_under_the_pointer_and_a_click_beside_the_pieces_is_answered(server, browser):
    _created, page = open_seats(browser, server, "kiln")
    target = page.locator("#board svg .target").first
    before = target.evaluate("e => getComputedStyle(e).strokeWidth")
    target.hover()
    assert target.evaluate("e => getComputedStyle(e).strokeWidth") != before
    box = page.locator("#board svg").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 3)  # the picture's top edge: no piece there
    assert page.inner_text("#message") == "That cannot be chosen now: click a highlighted piece."
    assert page.locator("#moves > li").count() == 0
    page.close()


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_the_last_move_is_outlined_in_every_game(server, browser, game):
    _created, page = open_seats(browser, server, game)
    make_one_move(page)
    page.wait_for_selector("#board svg .last-move")
    outlines = page.eval_on_selector_all("#board svg .last-move", """els => els.map(e => {
        const shapes = e.tagName === 'g' ? [...e.children].filter(c => c.tagName !== 'text' && !c.classList.contains('hit')) : [e];
        return shapes.some(s => getComputedStyle(s).stroke === '%s' && getComputedStyle(s).strokeDasharray !== 'none'); })""" % OUTLINE)
    assert outlines and all(outlines), outlines
    logged = page.inner_text("#moves > li")
    assert logged.startswith("P1 ") or logged.startswith("P2 ")
    assert page.inner_text("#moves > li .notation")  # the notation beside the words
    page.close()


def test_the_replay_log_follows_the_move_shown(server, browser):
    created = create(server, "kiln", ["random", "random"], goal=6)
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/games/{created['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/replay/{created['id']}")
    page.wait_for_selector("#moves > li")
    assert "Home" in page.inner_text("#keys") and "End" in page.inner_text("#keys")
    page.keyboard.press("End")
    page.wait_for_selector("#moves > li.last")
    inside = page.evaluate("""() => { const list = document.getElementById('moves').getBoundingClientRect();
        const item = document.querySelector('#moves > li.last').getBoundingClientRect();
        return item.top >= list.top - 1 && item.bottom <= list.bottom + 1; }""")
    assert inside, "the last move is out of sight in the log"
    page.keyboard.press("Home")
    page.wait_for_function("document.getElementById('moves').scrollTop === 0")
    page.close()


def test_on_a_phone_the_status_stays_on_screen_and_the_log_is_a_drawer(server, browser):
    created = create(server, "azul", ["human", "random"])
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
    page = phone.new_page()
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.getElementById('status').textContent.length > 0")
    status = "(() => { const r = document.getElementById('status').getBoundingClientRect(); return [r.top, r.bottom]; })()"
    top, bottom = page.evaluate(status)
    assert 0 <= top and bottom <= page.evaluate("document.querySelector('#board svg').getBoundingClientRect().top") + 1
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # to the end of the page
    assert page.evaluate("window.scrollY") > 0
    top, bottom = page.evaluate(status)
    assert 0 <= top and bottom <= 844  # still on screen
    assert not page.evaluate("document.getElementById('log').open")  # the log waits in its drawer
    page.locator("#log summary").tap()
    assert page.evaluate("document.getElementById('log').open")
    phone.close()


def test_the_clock_fields_show_only_for_the_clock_chosen(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    shown = "sel => [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect().height > 0)"
    assert page.evaluate(f"({shown})('#create label.realtime, #create label.turn')") == [False, False, False]
    page.select_option("#clock-kind", "realtime")
    assert page.evaluate(f"({shown})('#create label.realtime')") == [True, True]
    assert page.evaluate(f"({shown})('#create label.turn')") == [False]
    page.select_option("#clock-kind", "turn")
    assert page.evaluate(f"({shown})('#create label.realtime, #create label.turn')") == [False, False, True]
    page.close()


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_pointing_at_the_last_step_of_a_move_previews_it(server, browser, game):
    _created, page = open_seats(browser, server, game)
    deadline = time.monotonic() + 30
    while True:  # take steps until a piece would complete a move
        assert time.monotonic() < deadline, "no step completes a move"
        # a piece or a button is offered once the last step's picture has come (not in between)
        page.wait_for_selector("#board svg .target, #buttons button:not(.cancel)")
        targets = page.locator("#board svg .target")
        if not targets.count():
            page.locator("#buttons button:not(.cancel)").first.click()
            continue
        targets.first.hover()
        try:
            page.wait_for_selector("#board svg g.preview", timeout=1500)
            break
        except Exception:  # (not the last step yet: take it)
            targets.first.click()
            page.wait_for_timeout(100)
    assert page.locator("#board svg g.preview > *").count() >= 1
    assert page.locator("#board svg g.preview").get_attribute("pointer-events") == "none"
    page.mouse.move(1, 1)  # the pointer leaves: the preview goes
    page.wait_for_selector("#board svg g.preview", state="detached")
    page.close()


SCREENS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_screenshots_of_every_game_on_a_desktop_and_a_phone(server, browser, theme, locale):
    """Screenshots for people to look at (tests/web/artifacts/): every game,
    a desktop and a phone, light and dark, English and Japanese; and the
    header's button chooses the theme, remembered across pages."""
    from tests.web.test_e2e import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    for screen, size in SCREENS.items():
        phone = screen == "phone"
        context = browser.new_context(viewport=size, locale=locale, device_scale_factor=2 if phone else 1,
                                      is_mobile=phone, has_touch=phone)
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector(".card img")
        while page.evaluate("document.documentElement.dataset.theme") != theme:  # auto -> light -> dark
            page.click("#theme")
        lang = locale[:2]
        page.screenshot(path=str(ARTIFACTS / f"lobby-{screen}-{theme}-{lang}.png"), full_page=True)
        for game in ("kiln", "azul", "tiles", "tuileries"):
            created = create(server, game, ["human", "random"])
            page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
            page.wait_for_selector("#board svg")
            assert page.evaluate("document.documentElement.dataset.theme") == theme  # remembered
            page.screenshot(path=str(ARTIFACTS / f"{game}-{screen}-{theme}-{lang}.png"), full_page=not phone)
        context.close()
    assert len(list(ARTIFACTS.glob(f"*-{theme}-{locale[:2]}.png"))) >= 10
