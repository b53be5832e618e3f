"""Secrets records: versioned JSON that replays exactly, redacts secrets, and refuses tampering with a
located RecordError."""
from __future__ import annotations

import json

import pytest

from heimlich_lab.errors import RecordError
from heimlich_lab.rules.records import GameRecord
from heimlich_lab.secrets import Game, RandomBot, SecretsRecord, SecretsRules, play, play_game


@pytest.fixture(scope="module")
def game() -> Game:
    return play_game([RandomBot(i) for i in range(6)], seed=17, rules=SecretsRules(double_agent_value=2))


def test_a_record_round_trips_and_replays_to_the_same_game(game, tmp_path):
    rec = game.record
    d = rec.to_dict()
    assert (d["format"], d["game"], d["version"]) == ("heimlich-lab-record", "secrets", 2)
    path = rec.save(tmp_path / "s.json")
    again = SecretsRecord.load(path)
    g = again.replay()
    assert g.history == game.history and g.winners == game.winners and g.scores == game.scores
    assert again.rules == SecretsRules(double_agent_value=2)
    assert again.final_identities == game.identities


def test_final_identities_are_the_markers_before_the_reveal_even_mid_game():
    g = Game(["Ann", "Bob", "Cy", "Dee", "Eve"], seed=4)
    for _ in range(12):
        g.apply(g.legal_actions()[-1])
    assert g.record.final_identities == g.identities
    assert set(g.record.final_identities) == {"Ann", "Bob", "Cy", "Dee", "Eve", "middle"}


def test_manual_chance_records_replay_too():
    g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual", seed=1)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    rec = SecretsRecord.from_json(g.record.to_json())
    assert rec.replay().history == g.history


@pytest.mark.parametrize("entry", [5, 20, 40])
def test_a_changed_action_is_refused_and_located(game, entry):
    d = game.record.to_dict()
    actor, text = d["log"][entry]
    d["log"][entry] = [actor, "look middle" if not text.startswith("look") else "accept"]
    with pytest.raises(RecordError, match=f"log entry {entry}"):
        SecretsRecord.from_dict(d)


def test_tampered_results_seeds_cuts_and_formats_are_refused(game):
    d = game.record.to_dict()
    bad = json.loads(json.dumps(d))
    bad["result"]["winners"] = ["Ann", "Bob", "Cy"]
    with pytest.raises(RecordError, match="result does not match"):
        SecretsRecord.from_dict(bad)
    bad = dict(d, seed=d["seed"] + 1)
    with pytest.raises(RecordError, match="log entry 0"):
        SecretsRecord.from_dict(bad)
    bad = dict(d, log=d["log"][:-3])
    with pytest.raises(RecordError, match="result|cut|seed continues"):
        SecretsRecord.from_dict(bad)
    with pytest.raises(RecordError, match="not a Secrets record"):
        SecretsRecord.from_dict(dict(d, game="heimlich"))
    with pytest.raises(RecordError, match="version"):
        SecretsRecord.from_dict(dict(d, version=9))
    with pytest.raises(RecordError, match="log entry 2"):
        SecretsRecord.from_dict(dict(d, log=d["log"][:2] + [["Zed", "accept"]] + d["log"][3:]))
    with pytest.raises(RecordError, match="not valid JSON"):
        SecretsRecord.from_json("{")
    with pytest.raises(RecordError):        # the first game's loader refuses a Secrets record, said where
        GameRecord.from_dict(d)


def test_public_and_player_records_hold_no_secret_but_the_viewers(game):
    full = game.record
    pub = full.public()
    assert pub.seed is None and pub.log[0] == ("chance", "deal ?")
    texts = [t for _, t in pub.log]
    assert all(t in ("side ?", "bullet ?") for t in texts if t.startswith(("side", "bullet")))
    again = SecretsRecord.from_json(pub.to_json())
    assert again.view == "public"
    with pytest.raises(RecordError, match="cannot be replayed"):
        again.replay()
    sides = [(a, t) for a, t in full.log if t.startswith("side")]
    assert sides, "the seed should give a game with a Diplomat"
    diplomat = sides[0][0]
    mine = full.as_player(diplomat)
    assert sides[0] in mine.log
    d = pub.to_dict()
    i = next(k for k, (_, t) in enumerate(d["log"]) if t.startswith("side"))
    d["log"][i][1] = "side left"
    with pytest.raises(RecordError, match=f"log entry {i}.*secret"):
        SecretsRecord.from_dict(d)


def test_play_takes_a_list_or_a_mapping_of_bots():
    rec = play([RandomBot(i) for i in range(4)], seed=2)
    assert rec.players == ("Ann", "Bob", "Cy", "Dee") and rec.winners is not None
    rec2 = play({"W": RandomBot(0), "X": RandomBot(1), "Y": RandomBot(2), "Z": RandomBot(3)}, seed=2)
    assert rec2.players == ("W", "X", "Y", "Z")
    assert rec.seed == 2 and rec.replay().is_over
