"""The Top Secret table in the notebook, from Python: a human's clicks change the game, a refused one changes
nothing, bots play, the hot-seat curtain keeps the next human's secrets out of the synced state, the synced state
follows the information rule (a differential test), the belief panel is ``Belief``'s, and the replay opens at step 0
and ends where the record does. The real-browser tests are in tests/browser/test_topsecret1985_browser.py."""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from topsecret1985_helpers import set_up, to_tokyo_duel, turn

from heimlich_lab.errors import HeimlichError, RecordError, WrongPlayer
from heimlich_lab.games.topsecret1985 import Belief, RandomBot, play, svg
from heimlich_lab.games.topsecret1985.records import TopSecretRecord
from heimlich_lab.games.topsecret1985.widget import (
    TopSecretController,
    TopSecretReplay,
    TopSecretTableWidget,
    replay_in_notebook,
    static_dir,
)
from heimlich_lab.games.topsecret1985.widget_state import table_setup, table_state

ROOT = Path(__file__).resolve().parents[1]


def synced(game, viewer="Ann") -> bytes:
    """What the table would sync for ``viewer``: setup and state, as the bytes sent to the browser."""
    view = game.view(viewer)
    human = game.current_player == viewer
    state = table_state(view, legal=game.legal_actions() if human else (), human=human)
    return json.dumps([table_setup(game.view(None)), state], sort_keys=True).encode()


def ann_vs_bot(seed=3):
    ctl = TopSecretController(["Ann", "Bob"], bots={"Bob": RandomBot(1)}, seed=seed)
    ctl.run_bots()
    return ctl


def set_up_ann(ctl):
    """Ann hides her contents and places her suitcases by the table's decisions (the first city offered)."""
    ctl.send_action("contents A=5 B=3 C=1 D=bomb")
    for _ in range(20):
        ctl.run_bots()
        ds = ctl.widget.state["decisions"]
        if not ds or ds[0]["kind"] != "place":
            return
        ctl.send_action(ds[0]["notation"])


def test_a_human_click_changes_the_game_and_a_refused_one_changes_nothing():
    ctl = ann_vs_bot()
    st = ctl.widget.state
    assert st["viewer"] == "Ann" and st["is_human_turn"] and st["phase"] == "contents"
    assert {d["kind"] for d in st["decisions"]} == {"contents"} and len(st["decisions"]) == 24
    before = (list(ctl.game.history), synced(ctl.game))
    ctl.send_action("contents A=5 B=5 C=1 D=bomb")
    assert "one each" in ctl.widget.state["error"]
    ctl.send_action("step Ann#1 paris")
    assert ctl.widget.state["error"] and (list(ctl.game.history), synced(ctl.game)) == before
    set_up_ann(ctl)
    assert ctl.game.contents["Ann"] == {"A": "5", "B": "3", "C": "1", "D": "bomb"}
    assert all(ctl.game.suitcase_places[f"Ann:{L}"] is not None for L in "ABCD")
    # Ann's move: choose an agent, step to a city; the state says where the agent is now
    for _ in range(50):
        st = ctl.widget.state
        steps = [d for d in st["decisions"] if d["kind"] == "step"]
        if steps:
            break
        if st["decisions"]:
            ctl.send_action(st["decisions"][-1]["notation"])
        ctl.run_bots()
    d = steps[0]
    assert d["at"] == ctl.game.locations[d["agent"]] and d["city"] in ctl.game.map.neighbours[d["at"]]
    ctl.handle_message({"type": "action", "action": d["notation"]})
    assert ctl.widget.state["error"] == "" and ctl.game.locations[d["agent"]] == d["city"]
    assert ctl.widget.state["agents"][d["agent"]] == d["city"]
    carried = {c["agent"]: c["suitcase"] for seat in ctl.widget.state["seats"] for c in seat["carrying"]}
    assert carried == {a: s for a, s in ctl.game.carrying.items() if s is not None}


def test_a_game_against_a_bot_by_clicks_ends_and_replays_exactly():
    ctl = ann_vs_bot(seed=5)
    carried_seen = 0
    for _ in range(3000):
        if ctl.game.is_over:
            break
        st = ctl.widget.state
        carried = {c["agent"]: c["suitcase"] for seat in st["seats"] for c in seat["carrying"]}
        assert carried == {a: s for a, s in ctl.game.carrying.items() if s is not None}   # who carries what
        carried_seen += bool(carried)
        if st["decisions"]:
            ctl.handle_message({"type": "action", "action": st["decisions"][-1]["notation"]})
            assert st["is_human_turn"] and not ctl.widget.state["error"]
        else:
            ctl.run_bots()
    assert carried_seen and ctl.game.is_over and ctl.widget.state["is_over"] and not ctl.playing
    assert ctl.widget.state["winners"] == list(ctl.game.winners)
    assert ctl.record.replay().history == ctl.game.history


def test_bots_alone_play_and_pause_and_the_omniscient_view():
    ctl = TopSecretController(["Ann", "Bob", "Cy"], bots={p: RandomBot(i) for i, p in enumerate("Ann Bob Cy".split())},
                              seed=2, viewer="omniscient")
    assert not ctl.playing and ctl.widget.state["autoplay"]["available"]
    n = len(ctl.game.history)
    ctl.handle_message({"type": "control", "command": "step"})
    assert len(ctl.game.history) > n
    ctl.run_bots(200)
    st = ctl.widget.state
    assert st["belief"] is None and all(s["contents"] is not None for s in st["seats"])
    assert st["svg"].count("data-contents=") == 3
    ctl.handle_message({"type": "control", "command": "play"})
    assert ctl.playing
    ctl.handle_message({"type": "control", "command": "pause"})
    assert not ctl.playing


def test_hot_seat_the_curtain_hides_the_next_humans_contents_and_duel_card_until_they_reveal():
    ctl = TopSecretController(["Ann", "Bob"], seed=4)
    st = ctl.widget.state
    first = ctl.decider
    assert st["curtain"].startswith(f"Hand the screen to {first}") and st["decisions"] == []
    ctl.reveal()
    ctl.send_action("contents A=5 B=3 C=1 D=bomb")
    # the other human must hide theirs: the curtain is down, and the first human's contents are gone from the DOM
    st = ctl.widget.state
    assert st["curtain"] and st["viewer"] is None and st["belief"] is None
    assert all(s["contents"] is None for s in st["seats"]) and "data-contents" not in st["svg"]
    assert "A=5" not in json.dumps(st)
    second = ctl.decider
    ctl.reveal()
    st = ctl.widget.state
    assert st["viewer"] == second and st["decisions"]
    ctl.send_action("contents A=bomb B=1 C=3 D=5")
    assert ctl.widget.state["curtain"]
    ctl.reveal()
    assert ctl.widget.state["seats"][ctl.game.players.index(ctl.viewer)]["contents"] is not None


def test_the_synced_state_does_not_change_with_what_the_viewer_may_not_know():
    # Bob's contents differ; Ann's synced setup and state are byte-identical
    a = set_up(contents={"Ann": "A=5 B=3 C=1 D=bomb", "Bob": "A=bomb B=1 C=3 D=5"})
    b = set_up(contents={"Ann": "A=5 B=3 C=1 D=bomb", "Bob": "A=1 B=bomb C=5 D=3"})
    assert synced(a) == synced(b) and synced(a, "Bob") != synced(b, "Bob")
    # a duel: Ann attacks Bob, who waits in a city; the aggressor's face-down card is hers alone
    for g in (a, b):
        turn(g, (1, 1), "step Ann#1 vancouver", "step Ann#1 san-francisco")
    assert synced(a) == synced(b)


def test_an_aggressors_hidden_duel_card_stays_out_of_the_defenders_synced_state():
    a, b = to_tokyo_duel(), to_tokyo_duel()
    assert a.phase == "attack" and a.current_player == "Bob"
    a.apply("card 5")
    b.apply("card 0")
    assert a.phase == "defend" and a.current_player == "Ann"
    assert synced(a, "Ann") == synced(b, "Ann") and synced(a, None) == synced(b, None)
    assert synced(a, "Bob") != synced(b, "Bob")                      # Bob sees his own card (not vacuous)
    ann, bob = json.loads(synced(a, "Ann"))[1], json.loads(synced(a, "Bob"))[1]
    assert bob["duel"]["my_card"] == 5 and ann["duel"]["my_card"] is None and ann["duel"]["chosen"]
    assert [d["notation"] for d in ann["decisions"]] == [f"card {c}" for c in range(6)]


def test_the_belief_panel_is_the_beliefs_contents():
    rec = play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=6)
    ctl = TopSecretReplay(rec, viewer="Ann")
    ctl.seek(len(ctl) - 1)
    panel = ctl.widget.state["belief"]
    want = Belief.from_record(rec, "Ann").contents()
    assert panel["opponents"] == ["Bob", "Cy"] and set(panel["contents"]) == {"Bob", "Cy"}
    for p in want:
        for letter in "ABCD":
            assert list(panel["contents"][p][letter]) == ["5", "3", "1", "bomb"]
            for c in ("5", "3", "1", "bomb"):
                assert panel["contents"][p][letter][c] == pytest.approx(want[p][letter][c], abs=1e-4)
    ev = Belief.from_record(rec, "Ann").last_evidence()
    assert panel["last_evidence"]["words"] == ev.words and panel["headline"]["text"].startswith(ev.words)


def test_a_live_tables_belief_panel_is_the_beliefs_contents_of_its_record():
    ctl = TopSecretController(["Ann", "Bob"], bots={p: RandomBot(i) for i, p in enumerate(["Ann", "Bob"])}, seed=8,
                              viewer="Bob")
    ctl.run_bots(150)
    want = Belief.from_record(ctl.record, "Bob").contents()["Ann"]
    got = ctl.widget.state["belief"]["contents"]
    assert list(got) == ["Ann"]
    assert all(got["Ann"][L][c] == pytest.approx(want[L][c], abs=1e-4) for L in "ABCD" for c in want[L])


def test_replay_opens_at_step_0_and_ends_where_the_record_does():
    rec = play([RandomBot(1), RandomBot(2)], seed=4)
    w = replay_in_notebook(rec, viewer="Ann")
    ctl = w.controller
    st = w.state
    assert st["replay"] == {"index": 0, "length": len(rec.log) + 1} and st["label"] == "Replay, Ann's view"
    assert st["phase"] == "first" and st["decisions"] == [] and st["log_length"] == 0
    ctl.handle_message({"type": "control", "command": "step"})
    assert w.state["replay"]["index"] == 1
    for k in (1, 17, len(rec.log) // 2):
        ctl.seek(k)
        assert w.state["svg"] == svg.board(rec.replay(until=k), viewer="Ann")
    ctl.handle_message({"type": "replay", "index": 10 ** 6})
    end = rec.replay()
    assert w.state["is_over"] and w.state["winners"] == rec.winners
    assert w.state["headline"].startswith("Game over (") and w.state["end_reason"] == rec.result["end"]
    assert w.state["svg"] == svg.board(end, viewer="Ann")
    assert ctl.final.history == end.history
    ctl.handle_message({"type": "replay", "index": "x"})     # ignored
    assert w.state["replay"]["index"] == len(rec.log)


def full_replay_states(rec, viewer, beliefs=True):
    """Every step's synced state built up front, the straightforward way (what the replay showed before it made
    its states on demand): the reference the on-demand replay is compared with."""
    from heimlich_lab.engine.contract import CHANCE
    from heimlich_lab.games.topsecret1985 import Game
    from heimlich_lab.games.topsecret1985.belief import Reader
    from heimlich_lab.games.topsecret1985.widget_state import LogWords
    omniscient = viewer == "omniscient"
    belief = Belief(rec.players, None) if beliefs and not omniscient else None
    reader = Reader(belief, rec.players) if belief is not None else None
    game = Game(rec.players, seed=rec.seed, chance="manual", rules=rec.rules, map=rec.map)
    words = LogWords()
    label = TopSecretReplay(rec, viewer=viewer, beliefs=False).label

    def state():
        view = game.omniscient_view() if omniscient else game.view(viewer)
        return table_state(view, belief, label=label, words=words)

    states = [state()]
    for actor, text in rec.log:
        if reader is not None:
            reader.apply(game, text, actor)
        else:
            game.apply(text, player=None if actor == CHANCE else actor)
        states.append(state())
    for i, s in enumerate(states):
        s["replay"] = {"index": i, "length": len(states)}
    return states


@pytest.mark.parametrize("viewer", ["Ann", None, "omniscient"])
def test_the_on_demand_replay_shows_at_every_step_what_a_full_replay_does(viewer, monkeypatch):
    d = play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=6).to_dict()
    d["log"], d["result"] = d["log"][:240], None                     # the first 240 entries: a game under way
    rec = TopSecretRecord.from_dict(d)
    want = full_replay_states(rec, viewer)
    n = len(want)
    assert n == 241
    monkeypatch.setattr(TopSecretReplay, "CHECKPOINT_EVERY", 7)     # many kept positions, all of them crossed
    monkeypatch.setattr(TopSecretReplay, "KEEP_STATES", 3)
    ctl = TopSecretReplay(rec, viewer=viewer)
    assert len(ctl) == n and ctl.widget.state == want[0]
    for i in range(1, n):                                            # the Step control, to the end
        ctl.handle_message({"type": "control", "command": "step"})
        assert ctl.widget.state == want[i], i
    # back and forth: the kept positions and their neighbours, the ends, long jumps back, states made again
    order = [0, n - 1, 6, 7, 8, 13, 14, 15, n - 2, 1, n // 2, n // 2 - 1, n // 2 + 1, 0, n - 1, 14, 7, 6, 5, n // 3]
    order += list(range(n - 1, n - 40, -1))
    for i in order:
        ctl.handle_message({"type": "replay", "index": i})
        assert ctl.widget.state == want[i], i
    assert want[7] != want[6] and want[n - 1] != want[n - 2]       # not vacuous: the states differ


def test_the_default_replay_matches_a_full_one_around_its_kept_positions():
    rec = play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=6)
    want = full_replay_states(rec, "Bob")
    k, n = TopSecretReplay.CHECKPOINT_EVERY, len(want)
    ctl = TopSecretReplay(rec, viewer="Bob")
    sample = sorted({0, 1, n - 1, n - 2} | {j + d for j in range(0, n, k) for d in (-1, 0, 1) if 0 <= j + d < n})
    for i in sample + sample[::-1] + sample[::7]:
        ctl.seek(i)
        assert ctl.widget.state == want[i], i
    assert want[-1]["is_over"] and ctl.final.history == rec.replay().history


def test_a_record_that_does_not_replay_is_refused_and_nothing_opens(monkeypatch):
    rec = play([RandomBot(1), RandomBot(2), RandomBot(3)], seed=6)
    d = rec.to_dict()
    d["log"][40] = d["log"][41]                                      # a roll where Bob must move
    bad = TopSecretRecord.from_dict(d, check=False)
    opened = []
    monkeypatch.setattr(TopSecretTableWidget, "__init__", lambda self, **kw: opened.append(kw))
    with pytest.raises(RecordError, match=r"does not replay: entry 40 \('chance', 'roll .*'\): .*Bob's decision"):
        TopSecretReplay(bad, viewer="Ann")
    assert opened == []


def test_replay_as_omniscient_and_bad_arguments():
    rec = play([RandomBot(1), RandomBot(2)], seed=4)
    omni = TopSecretReplay(rec, viewer="omniscient", beliefs=False)
    omni.seek(len(omni) - 1)
    assert omni.widget.state["belief"] is None and omni.widget.state["svg"].count("data-contents=") == 2
    with pytest.raises(WrongPlayer):
        TopSecretReplay(rec, viewer="Zed")
    with pytest.raises(HeimlichError, match="TopSecretRecord"):
        TopSecretReplay({"log": []})
    with pytest.raises(HeimlichError, match="full record"):
        TopSecretReplay(rec.public())
    with pytest.raises(HeimlichError, match="unknown player"):
        TopSecretController(["Ann", "Bob"], bots={"Zed": RandomBot(1)})


def test_the_registry_opens_the_table_and_the_front_end_is_shipped_in_the_wheel():
    from heimlich_lab.engine.registry import game_spec as get
    spec = get("topsecret1985")
    assert spec.play_in_notebook is not None and spec.replay_in_notebook is not None
    assert (static_dir() / "table.bundle.js").is_file() and (static_dir() / "table.css").is_file()
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"][
        "force-include"]
    assert include["widgets/topsecret1985/table.bundle.js"] == "heimlich_lab/games/topsecret1985/static/table.bundle.js"
    assert include["widgets/topsecret1985/table.css"] == "heimlich_lab/games/topsecret1985/static/table.css"


def test_a_finished_game_is_saved_for_the_class_with_consent(tmp_path):
    ctl = TopSecretController(["Ann", "Bob"], bots={"Bob": RandomBot(1)}, seed=2, class_folder=tmp_path)
    ctl.set_consent("Ann", True)
    ctl.run_bots()
    for _ in range(3000):
        if ctl.game.is_over:
            break
        ds = ctl.widget.state["decisions"]
        if ds:
            ctl.send_action(ds[-1]["notation"])
        else:
            ctl.run_bots()
    (saved,) = tmp_path.glob("topsecret1985-*.json")
    assert saved.name in ctl.widget.class_data["status"]
    envelope = json.loads(saved.read_text())
    assert envelope["game"] == "topsecret1985" and envelope["consent"]["agreed"] == ["Ann"]
    from heimlich_lab.games.topsecret1985 import TopSecretRecord
    assert TopSecretRecord.from_dict(envelope["record"]).replay().history == ctl.game.history


def test_the_tables_log_names_places_as_the_games_own_map_does():
    from heimlich_lab.games.topsecret1985 import Map
    renamed = json.loads(Map.default().to_json())
    names = {}
    for node in renamed["nodes"]:
        if node.get("kind") == "city":
            names[node["name"]] = node["name"] = node["name"].upper()   # a teacher's map: other names, same places
    board = Map.from_data(renamed)
    game = play([RandomBot(1), RandomBot(2)], seed=5, map=board).replay()
    log = json.dumps(table_state(game.view(None), legal=(), human=False)["log"], ensure_ascii=False)
    assert any(upper in log for upper in names.values())
    assert not [name for name, upper in names.items() if name != upper and name in log]
