"""Game records: the JSON format, exact replay, redaction (public / player), checking, atomic saving.

docs/record-format.md describes the format."""
from __future__ import annotations

import json
import os

import pytest

from heimlich_lab import Game, GameRecord, Position, RecordError, Rules, play, play_game
from heimlich_lab.bots import RandomBot
from heimlich_lab.rules.records import FORMAT, VERSION

P3 = ["Ann", "Bob", "Cy"]
ALL = Rules(top_secret=True, dossier=True)


def state(g: Game):
    return (g.phase, g.current_player, g.active_player, g.turn, g.die, g.points, g.positions, g.scores, g.safe,
            g.triggers, g.hands, g.supply_size, g.discards, g.owners, g.dossier_sheets, g.winners,
            g.final_owners, g.legal_actions())


def played(rules=ALL, seed=1, players=P3, chance="auto", start=None, stop=None):
    """Play with random bots, returning the game and its state after construction and after every apply,
    keyed by the history length at that moment."""
    g = Game(players, rules=rules, seed=seed, chance=chance, start=start)
    bot = RandomBot(seed=seed + 100)
    states = {len(g.history): state(g)}
    while not g.is_over and (stop is None or len(g.history) < stop):
        if g.is_chance_node:
            outs = g.chance_outcomes()
            g.apply(outs[bot._rng.randrange(len(outs))][0])
        else:
            g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))
        states[len(g.history)] = state(g)
    return g, states


def finished_game_with_everything(seed_from=1):
    """A finished Top Secret + Dossier game in which a second agent was taken (so every redaction is used)."""
    for seed in range(seed_from, seed_from + 200):
        g, states = played(seed=seed)
        kinds = {a.kind for _, a in g.history}
        if {"take", "dossier", "draw", "deal"} <= kinds:
            return g, states
    raise AssertionError("no such game in 200 seeds")  # pragma: no cover


# ----------------------------------------------------------------------------- JSON and replay
@pytest.mark.parametrize("rules", [Rules(), Rules(top_secret=True), Rules(dossier=True), ALL,
                                   Rules(top_secret=True, safe_destination="unoccupied", deck={"ruins": 9})])
def test_json_round_trip(rules):
    g, _ = played(rules=rules, seed=3)
    rec = g.record
    text = rec.to_json()
    again = GameRecord.from_json(text)
    assert again.to_dict() == rec.to_dict() == json.loads(text)
    assert again.rules == rules and again.players == tuple(P3) and again.seed == 3
    assert again.view == "full" and again.result == rec.result
    d = json.loads(text)
    assert d["format"] == FORMAT == "heimlich-lab-record" and d["version"] == VERSION == 2
    assert set(d) == {"format", "version", "view", "players", "rules", "seed", "chance", "start", "deal", "log",
                      "result"}


def test_a_version_1_record_reads_as_always_draw():
    # version 1 was written before a card one may draw became a choice: its games drew without asking
    rules = Rules(top_secret=True, draws="always")
    g, _ = played(rules=rules, seed=3)
    d = g.record.to_dict()
    assert d["version"] == 2 and d["rules"]["draws"] == "always"
    del d["rules"]["draws"]
    d["version"] = 1
    old = GameRecord.from_dict(d)
    assert old.rules == rules and old.replay().history == g.history
    d["version"] = 2                           # without the field, version 2 means the books' "may draw"
    assert GameRecord.from_dict(d, check=False).rules.draws == "may"


def test_replay_reproduces_every_intermediate_state_auto_chance():
    g, states = finished_game_with_everything()
    rec = GameRecord.from_json(g.record.to_json())
    replayed = {k: state(game) for k, game in rec.games()}
    assert len(replayed) == len(g.history) + 1
    for k, s in states.items():
        assert replayed[k] == s, k
    final = rec.replay()
    assert state(final) == state(g) and final.history == g.history and final.events == g.events


def test_replay_reproduces_every_intermediate_state_manual_chance():
    g, states = played(seed=8, chance="manual")
    assert len(states) == len(g.history) + 1               # one state per action: chance ones included
    rec = GameRecord.from_json(g.record.to_json())
    assert rec.chance == "manual" and rec.log[0].action.kind == "deal"
    for k, game in rec.games():
        assert state(game) == states[k], k
    assert rec.replay(until=10).history == g.history[:10]


def test_replay_from_a_start_position():
    start = Position(positions={"grey": 3, "yellow": 2, "orange": 5, "red": 3, "green": 9, "blue": -3},
                     owners={"Ann": "red", "Bob": ["blue", "orange"], "Cy": "green"}, safe=6, active="Bob",
                     scores={"grey": 1, "yellow": 2, "orange": 3, "red": 4, "green": 5, "blue": 6},
                     hands={"Ann": ["ruins"], "Bob": ["swap", "bonus"]}, discards=["church"])
    g, states = played(rules=Rules(top_secret=True), seed=4, start=start)
    rec = GameRecord.from_json(g.record.to_json())
    assert rec.start == start and rec.deal == {"Ann": "red", "Bob": "blue", "Cy": "green"}
    assert rec.owners["Bob"][:2] == ["blue", "orange"]
    for k, game in rec.games():
        if k in states:
            assert state(game) == states[k]


def test_unfinished_games_record_and_replay():
    g, states = played(seed=5, stop=40)
    assert not g.is_over
    rec = GameRecord.from_json(g.record.to_json())
    assert rec.result is None and rec.winners is None
    assert state(rec.replay()) == state(g)
    assert rec.owners == g.owners


def test_record_facts():
    g, _ = finished_game_with_everything()
    rec = g.record
    assert rec.winners == list(g.winners) and len(rec) == len(g.history) and rec.actions == [a for _, a in g.history]
    assert rec.owners == g.owners
    assert rec.result["final_owners"] == g.final_owners and rec.result["dossier_bonus"] == g.dossier_bonus
    assert rec.result["dossier_sheets"] == g.dossier_sheets and rec.result["scores"] == g.scores
    took = [e for e in rec.log if e.action.kind == "take"][0]
    assert took.action.args[0] in rec.owners[took.to]


def test_play_returns_a_record_of_the_game():
    bots = {p: RandomBot(seed=i) for i, p in enumerate(P3)}
    rec = play(ALL, bots, seed=12)
    assert rec.result is not None and rec.replay().is_over
    again = play_game(ALL, {p: RandomBot(seed=i) for i, p in enumerate(P3)}, seed=12)
    assert again.record.to_dict() == rec.to_dict()


# ----------------------------------------------------------------------------- redaction
def test_public_record_has_no_secrets():
    g, _ = finished_game_with_everything()
    full = g.record
    pub = full.public()
    assert pub.view == "public" and pub.deal is None and pub.seed is None
    kinds = {}
    for e_full, e_pub in zip(full.log, pub.log):
        assert e_pub.actor == e_full.actor and e_pub.to == e_full.to     # who drew is public
        k = e_full.action.kind
        kinds[k] = kinds.get(k, 0) + 1
        if k == "deal":
            assert str(e_pub.action) == "deal ?"
        elif k in ("draw", "take"):
            assert str(e_pub.action) == f"{k} ?"
        elif k == "dossier":
            assert str(e_pub.action) == "dossier ?"       # not even the agent: it would reveal the writer's own
        else:
            assert e_pub.action == e_full.action
    assert kinds["draw"] and kinds["take"] and kinds["dossier"] and kinds["deal"]
    text = pub.to_json()
    assert "deal ?" in text and "Ann=" not in text.split('"result"')[0]
    # and the JSON of the public record reads back as a public record
    back = GameRecord.from_json(text)
    assert back.view == "public" and back.to_dict() == pub.to_dict()
    with pytest.raises(RecordError, match="cannot be replayed"):
        back.replay()


def test_player_record_keeps_only_that_players_secrets():
    g, _ = finished_game_with_everything()
    full = g.record
    for p in P3:
        mine = full.as_player(p)
        assert mine.view == f"player:{p}" and mine.deal == {p: full.deal[p]} and mine.seed is None
        for e_full, e_me in zip(full.log, mine.log):
            k = e_full.action.kind
            if k in ("draw", "take"):
                assert (e_me.action == e_full.action) == (e_full.to == p)
                assert e_me.action.is_redacted == (e_full.to != p)
            elif k == "dossier":
                assert (e_me.action == e_full.action) == (e_full.actor == p)
            elif k == "deal":
                assert str(e_me.action) == "deal ?"
        assert GameRecord.from_json(mine.to_json()).to_dict() == mine.to_dict()
        # a player record can become a public one, never another player's
        assert mine.public().to_dict() == full.public().to_dict()
        other = [q for q in P3 if q != p][0]
        with pytest.raises(RecordError, match="cannot be turned into"):
            mine.as_player(other)
    with pytest.raises(RecordError, match="not a player"):
        full.as_player("Zed")


def test_start_position_secrets_are_redacted():
    rest = [c for c, n in Rules(top_secret=True).deck_for(3).items() for _ in range(n)]
    for c in ("ruins", "swap", "bonus"):
        rest.remove(c)
    start = Position(positions={c: 0 for c in ("grey", "yellow", "orange", "red", "green", "blue")},
                     owners={"Ann": "red", "Bob": ["blue", "orange"], "Cy": "green"},
                     hands={"Ann": ["ruins"], "Bob": ["swap", "bonus"]}, supply=rest, supply_ordered=True)
    g = Game(P3, rules=Rules(top_secret=True), seed=2, start=start)
    rec = g.record
    pub = rec.public()
    assert pub.start.owners == {"Ann": ["?"], "Bob": ["?"], "Cy": ["?"]}
    assert pub.start.hands == {"Ann": ["?"], "Bob": ["?", "?"]}
    assert set(pub.start.supply) == {"?"} and len(pub.start.supply) == len(rest)   # stacked or not
    bob = rec.as_player("Bob")
    assert bob.start.owners["Bob"] == ["blue", "orange"] and bob.start.owners["Ann"] == ["?"]
    assert bob.start.hands["Bob"] == ["swap", "bonus"] and bob.start.hands["Ann"] == ["?"]
    for r in (pub, bob):
        text = r.to_json()
        assert "back12" not in text                        # the top of the stacked supply


def test_owners_of_a_redacted_record_only_at_the_end():
    g, _ = played(seed=5, stop=30)
    with pytest.raises(RecordError, match="does not hold the owners"):
        g.record.public().owners
    g2, _ = played(seed=5)
    assert g2.record.public().owners == g2.owners


# ----------------------------------------------------------------------------- bad records
def good_dict(seed=1, chance="auto"):
    g, _ = played(seed=seed, chance=chance)
    return g.record.to_dict()


def load(d_or_text, **kw):
    text = d_or_text if isinstance(d_or_text, str) else json.dumps(d_or_text)
    return GameRecord.from_json(text, **kw)


@pytest.mark.parametrize("text, words", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "a record is a JSON object"),
    ('{"format": "chess-pgn", "version": 1}', "'format' must be"),
    ('{"format": "heimlich-lab-record", "version": 99}', "unknown version 99"),
    ('{"format": "heimlich-lab-record", "version": 1, "players": ["Ann", "Bob"]}', r"missing field\(s\)"),
])
def test_malformed_records(text, words):
    with pytest.raises(RecordError, match=words):
        load(text)


def mutate(fn, words, chance="auto", seed=1):
    d = good_dict(seed=seed, chance=chance)
    fn(d)
    with pytest.raises(RecordError, match=words) as e:
        load(d, source="game.json")
    assert str(e.value).startswith("game.json: ")
    return str(e.value)


def index_of_kind(d, kind, start=0, actor=None):
    return next(i for i, e in enumerate(d["log"]) if i >= start and e[1].split()[0] == kind
                and (actor is None or e[0] == actor))


def test_bad_fields():
    mutate(lambda d: d.update(view="secret"), "'view' must be")
    mutate(lambda d: d.update(view="player:Zed"), "names no player")
    mutate(lambda d: d.update(players="Ann,Bob,Cy"), "'players' must be a list")
    mutate(lambda d: d.update(seed="one"), "'seed' must be")
    mutate(lambda d: d.update(chance="maybe"), "'chance' must be")
    mutate(lambda d: d.update(log={}), "'log' must be a list")
    mutate(lambda d: d["rules"].update(house_rule=True), "unknown rule option")
    mutate(lambda d: d["rules"].update(agents=["red", "blue"]), "cannot set up the game: 3 players use 6 agents")


def test_bad_result_fields():
    mutate(lambda d: d["result"].update(winners=3), "result 'winners' must be a list")
    mutate(lambda d: d["result"].update(scores="high"), "result 'scores' must be an object")
    mutate(lambda d: d["result"].update(scores={"grey": True}), "result 'scores' must be an object")
    mutate(lambda d: d["result"].update(controlled={"Ann": "yellow"}), "result 'controlled' must be")
    mutate(lambda d: d.update(deal={"Ann": 3}), "'deal' must map")


def start_dict():
    start = Position(positions={"grey": 3, "yellow": 2, "orange": 5, "red": 3, "green": 9, "blue": -3},
                     owners={"Ann": "red", "Bob": ["blue", "orange"], "Cy": "green"}, safe=6, active="Bob",
                     hands={"Ann": ["ruins"], "Bob": ["swap"]}, discards=["church"])
    g = Game(P3, rules=Rules(top_secret=True), seed=4, start=start)
    g.apply(g.legal_actions()[0])
    return g.record.to_dict()


@pytest.mark.parametrize("change, words", [
    (lambda s: s.update(positions=[3, 2, 5]), "positions must be a mapping"),
    (lambda s: s["positions"].update(red="3"), "positions must be a mapping"),
    (lambda s: s["owners"].update(Ann=7), "owners must be a mapping"),
    (lambda s: s.update(safe=[6]), "safe must be a building value"),
    (lambda s: s.update(supply=5), "supply must be a list"),
    (lambda s: s.update(scores="lots"), "scores must be a mapping"),
    (lambda s: s.update(hands={"Ann": "ruins"}), "hands must be a mapping"),
    (lambda s: s.update(supply_ordered="no"), "supply_ordered must be true or false"),
    (lambda s: s.update(turn=True), "turn must be a whole number"),
    (lambda s: s.update(weather="rain"), "unknown position field"),
    (lambda s: s.pop("owners"), "missing position field"),
])
def test_bad_start_position_fields_are_record_errors(change, words):
    d = start_dict()
    change(d["start"])
    with pytest.raises(RecordError, match=words) as e:
        load(d, source="game.json")
    assert str(e.value).startswith("game.json: ")


def test_an_unforeseen_failure_during_replay_is_a_record_error(monkeypatch):
    # whatever slips past the checks, the loader says where and raises a RecordError, not a TypeError
    d = good_dict(seed=1, chance="auto")

    def boom(self, *a, **kw):
        raise TypeError("unexpected")
    monkeypatch.setattr(Game, "_advance", boom)
    with pytest.raises(RecordError, match="game.json: the record does not replay: TypeError: unexpected"):
        load(d, source="game.json")


def redacted_dict(player=None):
    g, _ = finished_game_with_everything()
    rec = g.record.as_player(player) if player else g.record.public()
    return g, rec.to_dict()


def test_a_public_record_that_holds_secrets_is_refused():
    g, d = redacted_dict()
    assert load(d).view == "public"                      # the untouched one loads
    full = g.record.to_dict()
    for change, words in [
            (lambda d: d.update(seed=1), "has no seed"),
            (lambda d: d.update(deal=full["deal"]), "holds only no deal"),
            (lambda d: d["log"].__setitem__(index_of_kind(d, "draw"), full["log"][index_of_kind(d, "draw")]),
             "is a secret a public record does not hold"),
            (lambda d: d["log"].__setitem__(index_of_kind(d, "deal"), full["log"][index_of_kind(d, "deal")]),
             "is a secret"),
            (lambda d: d["log"].__setitem__(index_of_kind(d, "dossier"), full["log"][index_of_kind(d, "dossier")]),
             "is a secret")]:
        _, d = redacted_dict()
        change(d)
        with pytest.raises(RecordError, match=words):
            load(d, source="pub.json")


def test_a_player_record_may_hold_only_that_players_secrets():
    g, d = redacted_dict("Bob")
    assert load(d).view == "player:Bob"
    full = g.record.to_dict()
    i = next(i for i, e in enumerate(full["log"]) if e[1].startswith("draw") and e[2] != "Bob")
    d["log"][i] = full["log"][i]
    with pytest.raises(RecordError, match=f"log entry {i} .* is a secret a player:Bob record"):
        load(d)
    _, d = redacted_dict("Bob")
    d["deal"] = full["deal"]
    with pytest.raises(RecordError, match="holds only Bob's deal"):
        load(d)


def test_bad_log_entries_are_named_by_index():
    mutate(lambda d: d["log"].__setitem__(3, "roll 2"), "log entry 3 must be")
    mutate(lambda d: d["log"].__setitem__(4, ["Ann", "jump red+1"]), r"log entry 4 \('jump red\+1'\)")
    mutate(lambda d: d["log"].__setitem__(4, ["Zed", d["log"][4][1]]), "log entry 4: 'Zed' is not a player")


def test_an_illegal_action_in_the_log_names_its_index_and_rule():
    def change(d):
        i = index_of_kind(d, "move")
        d["log"][i][1] = "move red+1 grey+9"
        change.i = i
    msg = mutate(change, "is illegal", chance="manual")
    assert f"log entry {change.i} (" in msg and "turn-spend-all-points" in msg


def test_a_deal_that_does_not_match_the_log():
    def change(d):
        d["deal"] = {"Ann": d["deal"]["Bob"], "Bob": d["deal"]["Ann"], "Cy": d["deal"]["Cy"]}
    mutate(change, "does not match the record's deal")


def test_a_log_that_does_not_match_the_seed():
    def change(d):
        i = index_of_kind(d, "roll", start=5)
        face = d["log"][i][1].split()[1]
        d["log"][i][1] = "roll 6" if face != "6" else "roll 2"
        change.i = i
    msg = mutate(change, "does not match the seed")
    assert f"log entry {change.i} is chance: roll" in msg


def test_a_draw_given_to_the_wrong_player():
    def change(d):
        i = next(i for i, e in enumerate(d["log"]) if len(e) == 3)
        d["log"][i][2] = next(p for p in d["players"] if p != d["log"][i][2])
        change.i = i
    msg = mutate(change, "as the receiver", chance="manual")
    assert f"log entry {change.i} " in msg


def test_a_truncated_log():
    # cut inside the automatic chance events: the seed goes on
    def cut_chance(d):
        i = index_of_kind(d, "roll", start=5)
        del d["log"][i + 1:]
        d["result"] = None
        del d["log"][i]
    mutate(cut_chance, "cut short")
    # cut at the end but with the result still there
    mutate(lambda d: d["log"].pop(), "does not end the game")


def test_a_result_that_does_not_match():
    mutate(lambda d: d["result"].update(winners=["Zed"]), "result 'winners' must be a list of different players")
    mutate(lambda d: d["result"].update(winners=[p for p in d["players"] if p not in d["result"]["winners"]]),
           "result does not match")
    mutate(lambda d: d["result"]["scores"].update(red=99), "result does not match")
    mutate(lambda d: d["result"]["final_owners"].update(red="Zed"), "result does not match")


def test_check_false_loads_without_replaying():
    d = good_dict()
    d["log"][-1][1] = "move red+1 grey+9"
    rec = load(d, check=False)
    with pytest.raises(RecordError, match="is illegal"):
        rec.replay()


# ----------------------------------------------------------------------------- files
def test_save_and_load(tmp_path):
    g, _ = played(seed=2)
    path = g.record.save(tmp_path / "game.json")
    assert GameRecord.load(path).to_dict() == g.record.to_dict()
    assert os.listdir(tmp_path) == ["game.json"]
    with pytest.raises(RecordError, match="cannot read record"):
        GameRecord.load(tmp_path / "missing.json")


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_saved_records_get_normal_permissions(tmp_path, umask, mode):
    g, _ = played(seed=2, stop=30)
    old = os.umask(umask)
    try:
        path = g.record.save(tmp_path / "game.json")
    finally:
        os.umask(old)
    assert os.stat(path).st_mode & 0o777 == mode


def test_save_syncs_before_the_rename(tmp_path, monkeypatch):
    g, _ = played(seed=2, stop=30)
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    g.record.save(tmp_path / "game.json")
    assert calls == ["fsync", "replace"]


def test_save_is_atomic(tmp_path, monkeypatch):
    old, _ = played(seed=2)
    path = old.record.save(tmp_path / "game.json")
    before = path.read_text()
    new, _ = played(seed=3)

    def broken(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        new.record.save(path)
    assert path.read_text() == before                     # the old record is intact
    assert os.listdir(tmp_path) == ["game.json"]          # and no temporary file is left behind
    monkeypatch.undo()
    new.record.save(path)
    assert GameRecord.load(path).seed == 3


def test_the_example_in_the_record_format_doc_is_a_valid_record():
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "record-format.md").read_text()
    text = re.search(r"```json\n(.*?)```", doc, re.S).group(1)
    rec = GameRecord.from_json(text, source="record-format.md")      # parsed, replayed and checked
    g = rec.replay()
    assert g.is_over and g.winners == ("Ann",) and g.scores["orange"] == 43
    pub = rec.public().to_dict()
    assert pub["deal"] is None and pub["start"]["owners"] == {"Ann": ["?"], "Bob": ["?"]}
    bob = rec.as_player("Bob").to_dict()
    assert bob["deal"] == {"Bob": "yellow"} and bob["start"]["owners"] == {"Ann": ["?"], "Bob": ["yellow"]}
