"""Start positions ("what if..."): taking them, starting from them, and refusing impossible ones."""
from __future__ import annotations

import json

import pytest

from heimlich_lab import Game, Position, PositionError, Rules
from heimlich_lab.bots import RandomBot

P3 = ["Ann", "Bob", "Cy"]
AG6 = ("grey", "yellow", "orange", "red", "green", "blue")
OWN3 = {"Ann": "red", "Bob": "grey", "Cy": "blue"}
TS = Rules(top_secret=True)


def state(g: Game):
    return (g.phase, g.current_player, g.active_player, g.turn, g.die, g.points, g.positions, g.scores, g.safe,
            g.triggers, g.hands, g.supply_size, g.discards, g.owners, g.dossier_sheets, g.winners)


def pos(**kw):
    base = dict(positions={c: 0 for c in AG6}, owners=dict(OWN3))
    base.update(kw)
    return Position(**base)


@pytest.mark.parametrize("rules", [Rules(), TS, Rules(top_secret=True, dossier=True), Rules(dossier=True)],
                         ids=["basic", "ts", "ts+dossier", "dossier"])
def test_positions_round_trip_at_every_start_decision_and_play_on_identically(rules):
    g = Game(P3, rules=rules, seed=7)
    bot = RandomBot(seed=3)
    seen = set()
    while not g.is_over and len(g.history) < 4000:
        if g.phase in ("roll", "points", "move", "safe") and not g.is_chance_node:
            p = g.position()
            # JSON and back
            p2 = Position.from_dict(json.loads(json.dumps(p.to_dict())))
            again = Game(P3, rules=rules, seed=1, chance="manual", start=p2)
            assert state(again) == state(g)
            assert again.legal_actions() == g.legal_actions()
            seen.add(g.phase)
            # both games take the same decision and end up in the same state (up to chance)
            a = bot.choose(g.view(g.current_player), g.legal_actions())
            twin = g.copy()
            twin.apply(a)
            again.apply(a)
            if not again.is_chance_node and not twin.is_over:
                assert state(again)[6:9] == state(twin)[6:9]
            g.apply(a)
        else:
            g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))
    assert seen >= {"move", "safe"}


def test_position_only_at_start_decisions():
    g = Game(P3, rules=TS, chance="manual")
    with pytest.raises(PositionError, match="not at deal"):
        g.position()
    g.apply("deal Ann=red Bob=grey Cy=blue")
    with pytest.raises(PositionError, match="not at draw"):
        g.position()


def test_a_position_decision_roll_and_points_and_safe():
    g = Game(P3, chance="manual", start=pos(decision="roll", active="Bob", turn=9))
    assert g.phase == "roll" and g.is_chance_node and g.active_player == "Bob" and g.turn == 9
    g = Game(P3, chance="manual", start=pos(decision="points", die="1-3", active="Cy"))
    assert g.phase == "points" and g.current_player == "Cy"
    g = Game(P3, chance="manual", start=pos(decision="safe", active="Cy", safe=3))
    assert g.phase == "safe" and g.current_player == "Cy"
    assert all(a.args[0] != 3 for a in g.legal_actions())
    g.apply("safe 9")
    assert g.safe == 9 and g.active_player == "Ann" and g.turn == 2


def test_changing_the_position_afterwards_changes_neither_the_game_nor_its_record():
    p = pos(decision="move", die="3", positions={c: 0 for c in AG6} | {"red": 4})
    g = Game(P3, chance="manual", start=p)
    p.positions["red"] = 9
    p.owners["Ann"] = "green"
    assert g.positions["red"] == 4 and g.owners["Ann"] == ["red"]
    g.apply("move red+3")
    assert g.scores["red"] == 7
    assert g.record.replay().scores == g.scores


def test_an_ordered_supply_is_drawn_from_the_top_and_logged():
    rest = [c for c, n in TS.deck_for(3).items() for _ in range(n)]
    for c in ("ruins", "swap", "bonus"):
        rest.remove(c)
    p = pos(decision="points", die="1-3", hands={"Ann": ["ruins"]}, supply=["swap", "bonus"] + rest,
            supply_ordered=True)
    g = Game(P3, rules=TS, chance="manual", start=p)
    g.apply("points 0")
    g.apply("collect yes")
    assert not g.is_chance_node and g.hands["Ann"] == ["ruins", "swap"]
    assert [(who, str(a)) for who, a in g.history] == [("Ann", "points 0"), ("Ann", "collect yes"),
                                                        ("chance", "draw swap")]
    assert g.recipients == {2: "Ann"}
    g.apply("announce no")
    assert g.phase == "roll" and g.position().supply[:2] == ["bonus", "back12"] and g.position().supply_ordered
    # the record replays it and hides it from other players
    rec = g.record
    assert rec.replay().hands == g.hands
    assert [e.to_list() for e in rec.public().log] == [["Ann", "points 0"], ["Ann", "collect yes"],
                                                       ["chance", "draw ?", "Ann"], ["Ann", "announce no"]]


BAD = [
    (dict(positions={c: 0 for c in AG6[:5]}), "every agent in play"),
    (dict(positions={c: 0 for c in AG6} | {"violet": 0}), "every agent in play"),
    (dict(positions={c: 0 for c in AG6} | {"red": 11}), "no building has value 11"),
    (dict(scores={c: 0 for c in AG6[:4]}), "scores must give every agent"),
    (dict(scores={c: 0 for c in AG6} | {"red": -1}), ">= 0"),
    (dict(scores={c: 0 for c in AG6} | {"red": 42}), "ended the game"),
    (dict(scores={c: 0 for c in AG6} | {"red": 2.5}), "whole number"),
    (dict(safe=12), "safe: no building"),
    (dict(owners={"Ann": "red", "Bob": "grey"}), "owners must name every player"),
    (dict(owners={"Ann": "red", "Bob": "red", "Cy": "blue"}), "given to two players"),
    (dict(owners={"Ann": "red", "Bob": "violet", "Cy": "blue"}), "not in play"),
    (dict(owners={"Ann": "pink", "Bob": "grey", "Cy": "blue"}), "not in play"),
    (dict(owners={"Ann": [], "Bob": "grey", "Cy": "blue"}), "must control one agent"),
    (dict(owners={"Ann": ["red", "green", "yellow"], "Bob": "grey", "Cy": "blue"}), "must control one agent"),
    (dict(owners={"Ann": ["red", "green"], "Bob": "grey", "Cy": "blue"}), "needs the Top Secret variant"),
    (dict(active="Zed"), "not a player"),
    (dict(turn=0), "turn must be"),
    (dict(decision="announce"), "decision must be one of"),
    (dict(decision="roll", die="3"), "no die or points yet"),
    (dict(decision="points", die="4"), "after a 1-3 roll"),
    (dict(decision="move"), "needs the die face"),
    (dict(decision="move", die="1-3", points=0), "1, 2 or 3"),
    (dict(decision="move", die="4", points=3), "gives 4 points, not 3"),
    (dict(hands={"Ann": ["ruins"]}), "need the Top Secret variant"),
    # exact types: bool is not a number, and a string is not a flag
    (dict(scores={c: 0 for c in AG6} | {"red": True}), "whole number >= 0"),
    (dict(turn=True), "turn must be a whole number"),
    (dict(supply_ordered="no"), "supply_ordered must be true or false"),
    (dict(positions={c: 0 for c in AG6} | {"red": True}), "positions must be a mapping"),
    (dict(safe=True), "safe must be a building value"),
    (dict(decision="move", die="4", points=4.0), "points must be a whole number"),
    # a 'safe' decision checks die and points like a 'move' decision
    (dict(decision="safe", die="banana"), "die must be one of"),
    (dict(decision="safe", die="4", points=99), "gives 4 points, not 99"),
    (dict(decision="safe", die="1-3", points=0), r"points must be one of \[1, 2, 3\]"),
    (dict(decision="safe", points=2), "without a die face there are no points"),
    (dict(dossier_sheets={"Ann": {}}), "Secret Dossier variant"),
]


@pytest.mark.parametrize("kw, words", BAD)
def test_impossible_positions_basic(kw, words):
    with pytest.raises(PositionError, match=words):
        Game(P3, chance="manual", start=pos(**kw))


BAD_TS = [
    (dict(hands={"Ann": ["ruins"] * 3}), "more copies of a card than the deck"),
    (dict(hands={"Ann": ["ruins", "swap", "bonus", "church", "rescue"]}), "hand limit is 4"),
    (dict(hands={"Zed": ["ruins"]}), "unknown players"),
    (dict(hands={"Ann": ["ruins"]}, supply=["swap"]), "cards are not conserved"),
    (dict(hands={"Ann": ["joker"]}, supply=[]), "unknown card code"),
    (dict(discards=["church", "church"]), "more copies of a card than the deck"),
    (dict(owners={"Ann": ["red", "green"], "Bob": "grey", "Cy": ["green"]}), "given to two players"),
]


def test_a_safe_decision_after_points_0_is_top_secret_only():
    g = Game(P3, rules=TS, chance="manual", start=pos(decision="safe", die="1-3", points=0))
    assert g.phase == "safe" and g.points == 0 and g.die == "1-3"


@pytest.mark.parametrize("kw, words", BAD_TS)
def test_impossible_positions_top_secret(kw, words):
    with pytest.raises(PositionError, match=words):
        Game(P3, rules=TS, chance="manual", start=pos(**kw))


def test_a_full_deck_position_is_accepted_and_the_supply_is_the_rest():
    g = Game(P3, rules=TS, chance="manual", start=pos(hands={"Ann": ["ruins", "swap"]}, discards=["church"]))
    assert g.supply_size == 26 - 3 and g.discards == ["church"] and g.hands["Bob"] == []


def test_bad_start_objects():
    with pytest.raises(PositionError, match="start must be a Position"):
        Game(P3, start={"positions": {}})
    with pytest.raises(PositionError, match="unknown position field"):
        Position.from_dict({"positions": {}, "owners": {}, "weather": "rain"})


def test_a_second_agent_taken_after_the_dossier_round_trips():
    rules = Rules(top_secret=True, dossier=True)
    sheets = {"Ann": {"grey": "Bob", "yellow": "free", "orange": "free", "green": "free", "blue": "Cy"},
              "Bob": {c: "free" for c in AG6 if c != "grey"}, "Cy": {c: "free" for c in AG6 if c != "blue"}}
    # Ann wrote her sheet, then took orange: her sheet still has the orange entry
    p = pos(owners={"Ann": ["red", "orange"], "Bob": "grey", "Cy": "blue"}, dossier_sheets=sheets,
            scores={c: 0 for c in AG6} | {"red": 30})
    g = Game(P3, rules=rules, chance="manual", start=p)
    assert g.dossier_sheets == sheets
    # ...or before: then she has no entry for it
    sheets2 = sheets | {"Ann": {k: v for k, v in sheets["Ann"].items() if k != "orange"}}
    g2 = Game(P3, rules=rules, chance="manual", start=pos(owners={"Ann": ["red", "orange"], "Bob": "grey",
                                                                      "Cy": "blue"}, dossier_sheets=sheets2,
                                                          scores={c: 0 for c in AG6} | {"red": 30}))
    assert g2.dossier_sheets["Ann"] == sheets2["Ann"]
