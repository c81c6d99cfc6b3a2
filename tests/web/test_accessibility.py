"""Accessibility in a real Chromium: axe-core (from the npm registry, checked
against its published integrity) finds no serious or critical violation of
WCAG 2.2 A/AA or axe's best practices on the lobby, each game's page, the
account page, a profile and a leaderboard, in English and Japanese."""

from __future__ import annotations

import time

import pytest

from tests.web.axe import serious_violations
from tests.web.test_e2e import browser, create, server  # noqa: F401 (fixtures)
from tests.web.test_players_e2e import register


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_lobby_and_the_account_pages_have_no_serious_violations(server, browser, locale):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(".card img")
    page.wait_for_selector("#game option", state="attached")
    assert serious_violations(page) == []
    # the checker itself finds a picture without words and a button without a name
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<img src=\"/pictures/azul.svg\"><button></button>')")
    assert {v.split()[0] for v in serious_violations(page)} == {"image-alt", "button-name"}
    page.goto(server.url + "/account")
    assert serious_violations(page) == []
    username = ("ally" if locale == "en-US" else "花子") + str(int(time.time() * 1000))[-6:]
    register(page, server.url, username)
    page.request.post(f"{server.url}/api/games", data={"game": "azul", "players": ["human", "random"],
                                                       "clock": {"kind": "turn", "hours": 24}})
    page.goto(f"{server.url}/players/{username}")
    page.wait_for_selector("#games tbody tr")
    assert serious_violations(page) == []
    page.goto(f"{server.url}/leaderboards/azul")
    page.wait_for_selector("#standings, #empty:not(:empty)")
    assert serious_violations(page) == []
    context.close()


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_a_game_page_has_no_serious_violations(server, browser, game):
    created = create(server, game, ["human", "random"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg .target")
    assert serious_violations(page) == []
    page.locator("#board svg .target").first.click()  # a step chosen: the picked and the remaining targets
    page.wait_for_timeout(100)
    assert serious_violations(page) == []
    page.close()


@pytest.mark.parametrize("game", ["kiln", "azul", "tiles", "tuileries"])
def test_the_dark_theme_has_no_serious_violations_either(server, browser, game):
    created = create(server, game, ["human", "random"])
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector(".card img")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(28, 26, 23)"  # the dark page
    assert serious_violations(page) == []
    page.goto(f"{server.url}/play/{created['id']}#token={created['seats'][0]['token']}")
    page.wait_for_selector("#board svg .target")
    assert serious_violations(page) == []
    context.close()
