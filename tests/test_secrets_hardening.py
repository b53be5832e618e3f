"""Secrets under attack (issue 23): the rules a bot reads cannot be changed, a legal action changed in place is
refused, and a public record never shows a bullet that is still waiting for its shot."""
from __future__ import annotations

import json

import pytest

from heimlich_lab.errors import IllegalAction, RecordError
from heimlich_lab.games.secrets import Game
from heimlich_lab.games.secrets.records import SecretsRecord
from heimlich_lab.games.secrets.rules import SecretsRules

P4 = ["Ann", "Bob", "Cy", "Dee"]
ASSASSIN = ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal assassin", "reveal scientist",
            "offer assassin Bob", "accept", "bullet -2"]


def manual(actions, players=P4, **kw) -> Game:
    g = Game(players, chance="manual", seed=0, **kw)
    for a in actions:
        g.apply(a)
    return g


# ---------------------------------------------------------------- the rules in a view are read-only
def test_a_bot_cannot_edit_the_rules_it_reads():
    g = Game(P4, seed=2, rules=SecretsRules(markers={4: (2, 2, 1)}))
    rules = g.view("Ann").rules
    with pytest.raises(TypeError):
        rules.markers[4] = (1, 3, 1)
    with pytest.raises(TypeError):
        rules.markers[5] = (2, 2, 2)
    assert g.rules.markers_for(4) == {"CIA": 2, "KGB": 2, "Hippie": 1}
    assert SecretsRecord.from_json(g.record.to_json()).rules == g.rules      # the record still loads
    assert g.copy().rules == g.rules                                         # and the game still copies


# ---------------------------------------------------------------- legal actions are checked by value
def test_a_legal_action_changed_in_place_is_refused_and_changes_nothing():
    g = Game(P4, seed=3)
    assert "assassin" not in g.candidates
    legal = g.legal_actions()
    object.__setattr__(legal[0], "args", ("assassin", "Bob"))     # a card that was never drawn
    before = (g.phase, list(g.history), len(g.events))
    with pytest.raises(IllegalAction):
        g.apply(legal[0])
    assert (g.phase, list(g.history), len(g.events)) == before
    g.apply(f"offer {g.candidates[0]} Bob")                        # the real offers still work


def test_a_legal_action_with_look_alike_types_is_refused():
    g = manual(ASSASSIN[:5])
    assert g.phase == "bullet"
    with pytest.raises(IllegalAction):
        g.apply(g.Action("bullet", (-2.0,)))
    with pytest.raises(IllegalAction):
        g.apply(g.Action("bullet", (False,)))       # False == 0, but it is no bullet
    g.apply(g.Action("bullet", (0,)))


# ---------------------------------------------------------------- a pending bullet is the Assassin's secret
def test_a_bullet_waiting_for_its_shot_is_hidden_in_the_public_record():
    g = manual(ASSASSIN)
    assert g.phase == "shoot" and g.current_player == "Bob"
    assert g.record.public().log[-1] == ("chance", "bullet ?")
    assert g.record.as_player("Cy").log[-1] == ("chance", "bullet ?")
    assert g.record.as_player("Bob").log[-1] == ("chance", "bullet -2")     # the Assassin saw it
    d = g.record.public().to_dict()
    d["log"][-1] = ["chance", "bullet -2"]
    with pytest.raises(RecordError, match="log entry 5 .*secret"):
        SecretsRecord.from_json(json.dumps(d))


def test_the_assassin_is_who_took_the_card_whichever_way():
    # refused: the offerer adds the Assassin and draws the bullet
    g = manual(ASSASSIN[:4] + ["refuse", "bullet -1"])
    assert g.current_player == "Ann"
    assert g.record.as_player("Ann").log[-1] == ("chance", "bullet -1")
    assert g.record.as_player("Bob").log[-1] == ("chance", "bullet ?")
    g.apply("shoot Cy")
    assert g.record.public().log[-2] == ("chance", "bullet ?")
    assert g.record.as_player("Ann").log[-2] == ("chance", "bullet -1")
