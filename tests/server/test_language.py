"""The server answers in each client's language: refusals, decisions,
pictures and the catalogue, chosen by ?lang=, the cookie the pages' switch
sets, or Accept-Language; two clients of one game each get their own."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tileworks.core.i18n import catalog

JA = {"Accept-Language": "ja-JP,ja;q=0.9"}


def test_refusals_follow_accept_language(api):
    created = api.create("kiln", ["human", "human"])
    game_id = created["id"]
    mover = api.view(game_id)["to_move"]
    token = created["seats"][mover]["token"]
    view = api.view(game_id, token)
    refused = api.client.post(f"/api/games/{game_id}/moves", json={"move": "zz", "ply": view["ply"]},
                              headers={"X-Seat-Token": token, **JA})
    assert refused.status_code == 400 and "として読めません" in refused.json()["error"]
    assert api.view(game_id, token) == view  # nothing changed
    english = api.client.post(f"/api/games/{game_id}/moves", json={"move": "zz", "ply": view["ply"]},
                              headers={"X-Seat-Token": token})
    assert "cannot read 'zz'" in english.json()["error"]


def test_views_are_kept_per_language(api):
    created = api.create("tuileries", ["human", "human"])
    game_id, token = created["id"], created["seats"][0]["token"]
    japanese = api.client.get(f"/api/games/{game_id}?lang=ja", headers={"X-Seat-Token": token}).json()
    english = api.client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token}).json()
    mover = f"P{english['view']['to_move'] + 1}"  # chance picked who starts
    assert japanese["view"]["decision"] == f"{mover} が円のマスにタイルを置きます"
    assert english["view"]["decision"] == f"{mover} places a tile on a circle square"
    cookie = api.client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token, "Cookie": "tileworks-lang=ja"})
    assert cookie.json()["view"]["decision"] == japanese["view"]["decision"]


SCRIPTS = Path(__file__).resolve().parents[2] / "src/tileworks/web/static"
#: a script's call _("text"), outside a comment
SCRIPT_MESSAGE = re.compile(r'(?<![\w.])_\("((?:[^"\\]|\\.)*)"')


def test_a_japanese_page_carries_every_phrase_its_scripts_translate(api):
    # e.g. the " and " that joins the seats sharing a win, once lost because
    # it sat inside another call's arguments, where Babel's extractor misses it
    written = {json.loads(f'"{message}"') for path in SCRIPTS.glob("*.js")
               for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("//")
               for message in SCRIPT_MESSAGE.findall(line)}
    assert " and " in written and "{seats} share the win." in written
    page = api.client.get("/", headers=JA).text
    carried = json.loads(re.search(r'<script id="strings" type="application/json">(.*?)</script>', page).group(1))
    japanese = catalog("ja")
    assert sorted(m for m in written if m in japanese and m not in carried) == []
    assert carried[" and "] == "と"


def test_the_catalogue_in_japanese(api):
    shipped = ("azul", "kiln", "tiles", "tuileries")  # plugin games bring their own words
    games = [g for g in api.client.get("/api/catalogue", headers=JA).json() if g["name"] in shipped]
    assert [g["title"] for g in games] == ["アズール", "キルン", "タイルズ", "チュイルリー"]
    english = {g["name"]: g["title"] for g in api.client.get("/api/catalogue").json()}
    assert english["kiln"] == "KILN"


def test_each_live_client_gets_its_own_language(client):
    created = client.post("/api/games", json={"game": "kiln", "players": ["human", "human"]}).json()
    game_id = created["id"]
    mover = client.get(f"/api/games/{game_id}").json()["to_move"]
    first, second = created["seats"][mover]["token"], created["seats"][1 - mover]["token"]  # first is to move
    with client.websocket_connect(f"/api/games/{game_id}/ws") as english, \
            client.websocket_connect(f"/api/games/{game_id}/ws") as japanese:
        english.send_json({"tokens": [first], "picture": True})
        seen_en = english.receive_json()
        japanese.send_json({"tokens": [second], "picture": True, "lang": "ja"})
        seen_ja = japanese.receive_json()
        assert "pushes the outer tile" in seen_en["view"]["decision"]
        assert "外側のタイル" in seen_ja["view"]["decision"] and "キルン" in seen_ja["svg"]
        english.receive_json()  # the second seat joined (the first client was in the room by then)
        english.send_json({"move": seen_en["view"]["legal"][0], "ply": seen_en["ply"]})
        after_en, after_ja = english.receive_json(), japanese.receive_json()
        assert after_en["ply"] == after_ja["ply"] > seen_en["ply"]
        assert after_ja["view"]["decision"] != after_en["view"]["decision"]
        assert "が" in after_ja["view"]["decision"] and "キルン" in after_ja["svg"]
        assert "KILN" in after_en["svg"] and "キルン" not in after_en["svg"]
