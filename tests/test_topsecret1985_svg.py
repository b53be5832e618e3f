"""The static picture of a Top Secret position: what it draws, and only what its viewer may know."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import permutations

import pytest

from heimlich_lab.errors import HeimlichError
from heimlich_lab.games.topsecret1985 import RandomBot, TypeBot, play
from heimlich_lab.games.topsecret1985.records import TopSecretRecord
from heimlich_lab.games.topsecret1985.svg import board


@pytest.fixture(scope="module")
def record():
    return play([TypeBot("careful", seed=1), TypeBot("bluffer", seed=2), RandomBot(3)], seed=8)


def test_it_draws_every_place_agent_and_suitcase(record):
    game = record.replay(until=min(300, len(record.log)))
    picture = board(game)
    ET.fromstring(picture)                                        # well-formed
    assert picture.count("data-city=") == len(game.map.cities)
    agents = re.findall(r"data-agents=\"([^\"]+)\" data-count='(\d+)'", picture)
    alive = sum(1 for n in game.locations.values() if n is not None)
    assert sum(int(c) for _, c in agents) == alive
    shown = set(re.findall(r'data-suitcase="([^"]+)"', picture))
    out = {s for s, c in game.suitcase_places.items() if c is not None} | {s for s in game.carrying.values() if s}
    assert shown == out
    assert all(f'data-hand="{p}"' in picture for p in record.players)


def test_only_the_viewers_contents_are_drawn(record):
    game = record.replay(until=200)
    assert "data-contents" not in board(game)
    mine = board(game, viewer="Bob")
    assert re.findall(r'data-contents="([^"]+)"', mine) == ["Bob"]
    assert sorted(re.findall(r'data-contents="([^"]+)"', board(game, viewer="omniscient"))) == sorted(record.players)


def test_changing_what_the_viewer_may_not_know_changes_nothing(record):
    upto = 200
    game = record.replay(until=upto)
    shown = {s.rpartition(":")[2]: c for p in record.players for s, c in game.delivered[p] if s.startswith("Bob:")}
    true = tuple(record.contents["Bob"][L] for L in "ABCD")
    other = next(f for f in permutations(("5", "3", "1", "bomb")) if f != true
                 and all(f["ABCD".index(L)] == c for L, c in shown.items()))
    log = [(a, "contents " + " ".join(f"{L}={c}" for L, c in zip("ABCD", other))
            if a == "Bob" and t.startswith("contents") else t) for a, t in record.log[:upto]]
    changed = TopSecretRecord(record.players, record.rules, record.seed, record.chance, log, None)
    assert board(changed.replay(until=upto), viewer="Ann") == board(game, viewer="Ann")
    assert board(changed.replay(until=upto)) == board(game)
    assert board(changed.replay(until=upto), viewer="Bob") != board(game, viewer="Bob")


def test_bad_input(record, tmp_path):
    game = record.replay(until=50)
    with pytest.raises(HeimlichError, match="does not play"):
        board(game, viewer="Zed")
    with pytest.raises(HeimlichError, match="its own viewer"):
        board(game.view("Ann"), viewer="Bob")
    with pytest.raises(HeimlichError, match="draws a Top Secret game or view"):
        board("a game")
    path = board(game.view("Ann")).save(tmp_path / "board.svg")
    assert path.read_text(encoding="utf-8").startswith("<svg")


def test_a_city_name_is_drawn_on_the_side_the_map_gives(record):
    picture = board(record.replay(until=0))
    names = {g.get("data-city"): g.find("{http://www.w3.org/2000/svg}text")
             for g in ET.fromstring(picture).iter("{http://www.w3.org/2000/svg}g") if g.get("data-city")}
    board_ = record.replay(until=0).map
    for city, side in (("london", "left"), ("paris", "below"), ("santiago", "left"), ("buenos-aires", "below")):
        assert board_.label[city] == side
        x, y = board_.pos[city]
        text = names[city]
        tx, ty = float(text.get("x")), float(text.get("y"))
        if side == "left":
            assert text.get("text-anchor") == "end" and tx < x and abs(ty - y) < 6
        else:
            assert text.get("text-anchor") == "middle" and tx == x and ty > y + 10
    # a name by the board's edge runs inwards, not off it
    assert names["auckland"].get("text-anchor") == "end" and float(names["auckland"].get("x")) <= board_.width
