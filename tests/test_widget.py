"""The board widget, Python side: the synced state for every decision, the controller (humans' clicks,
chance, bots, curtain, autoplay), replays, beliefs, and the information rule on the synced state."""
from __future__ import annotations

import asyncio
import json
import re

import pytest

from heimlich_lab import GameRecord, Position, Rules
from heimlich_lab.bots import RandomBot
from heimlich_lab.rules.actions import Action
from heimlich_lab.rules.cards import CARDS
from heimlich_lab.widget import BoardWidget, GameController, ReplayController, board_state, play_in_notebook
from heimlich_lab.widget.board import replay_in_notebook, static_dir

THREE = ["Ann", "Bob", "Cy"]
AG6 = ("grey", "yellow", "orange", "red", "green", "blue")
TS = Rules(top_secret=True)


def pos(positions=None, owners=None, *, decision="roll", die=None, points=None, safe=7, scores=None, active="Ann",
        hands=None, rules=Rules(), players=THREE, dossier_sheets=None):
    agents = rules.agents_for(len(players))
    return Position(positions={c: 0 for c in agents} | (positions or {}),
                    owners=owners or {"Ann": "red", "Bob": "blue", "Cy": "green"},
                    scores=None if scores is None else {c: 0 for c in agents} | scores, safe=safe, active=active,
                    decision=decision, die=die, points=points,
                    hands=({p: [] for p in players} | (hands or {})) if rules.top_secret else None,
                    dossier_sheets=dossier_sheets)


def bots(*names, seed=1):
    return {p: RandomBot(seed=seed + i) for i, p in enumerate(names)}


def synced(w: BoardWidget) -> str:
    """What goes to the browser (the serialized ``setup`` and ``state`` traitlets), as JSON text."""
    return json.dumps(w.get_state(["setup", "state"]), sort_keys=True)


def notations(state) -> list[str]:
    """The notations of the decisions offered (moves are built from ``state["move"]``)."""
    return [d["notation"] for d in state["decisions"]]


def frozen(ctl: GameController) -> str:
    return ctl.record.to_json()


def first_allocation(state) -> str:
    return f"move {next(iter(state['move']['agents']))}+{state['move']['points']}"


def human_policy(state) -> str:
    """A fixed human: the first legal action, or everything on the first agent."""
    if state["phase"] == "move":
        return first_allocation(state)
    return notations(state)[0]


# ------------------------------------------------------------------ the front end is found
def test_the_widget_loads_the_bundle_and_the_css():
    w = BoardWidget()
    assert (static_dir() / "board.bundle.js").read_text() == w._esm
    assert "heimlich-board" in w._css
    assert "http://" not in w._esm.replace("http://www.w3.org/2000/svg", "") and "https://" not in w._esm


# ------------------------------------------------------------------ state for every decision kind
def test_roll_is_a_human_decision_and_the_controller_samples_the_face():
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), seed=3)
    s = ctl.widget.state
    assert (s["phase"], s["current_player"], s["is_human_turn"], notations(s)) == ("roll", "Ann", True, ["roll"])
    assert s["decision_text"] == "Ann: roll the die" and s["die"] is None
    assert ctl.game.is_chance_node and ctl.game.chance == "manual"
    n = len(ctl.game.history)
    ctl.handle_message({"type": "action", "action": "roll"})
    s = ctl.widget.state
    assert s["error"] == "" and s["die"] is not None
    assert ctl.game.history[n][0] == "chance" and ctl.game.history[n][1].kind == "roll"
    assert s["phase"] == ("points" if s["die"] == "1-3" else "move")


def test_points_after_a_1_3_roll_basic_and_top_secret():
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), start=pos(decision="points", die="1-3"), beliefs=False)
    s = ctl.widget.state
    assert s["phase"] == "points" and notations(s) == ["points 1", "points 2", "points 3"]
    assert s["decision_text"] == "Ann: choose 1, 2 or 3 points"
    ctl.send_action("points 2")
    assert ctl.widget.state["phase"] == "move" and ctl.widget.state["move"]["points"] == 2
    ts = GameController(THREE, bots=bots("Bob", "Cy"), rules=TS, start=pos(decision="points", die="1-3", rules=TS),
                        beliefs=False)
    assert notations(ts.widget.state) == ["points 0", "points 1", "points 2", "points 3"]
    assert "or 0 to draw a card" in ts.widget.state["decision_text"]


def test_move_gives_the_move_table_and_no_list_then_safe_after_a_scoring():
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), start=pos({"grey": 4}, decision="move", die="3"),
                         beliefs=False)
    s = ctl.widget.state
    assert (s["phase"], s["move"]["points"], notations(s), s["is_human_turn"]) == ("move", 3, [], True)
    assert s["decision_text"] == "Ann: allocate 3 points"
    ctl.send_action("move grey+3")                       # grey reaches the safe in 7: a scoring
    s = ctl.widget.state
    assert s["phase"] == "safe" and s["current_player"] == "Ann" and s["is_human_turn"]
    assert s["scores"]["grey"] == 7 and s["triggers"] == []
    assert sorted(notations(s)) == sorted(f"safe {b}" for b in ["church", 1, 2, 3, 4, 5, 6, 8, 9, 10, "ruins"])
    assert s["last_move"] == {"grey": [4, 7]}
    ctl.send_action("safe 4")
    assert ctl.game.safe == 4 and ctl.game.active_player == "Bob"


def test_announce_round_cards_with_targets_pass_and_done():
    start = pos(decision="move", die="2", rules=TS, hands={"Ann": ["fwd123"], "Bob": ["ruins"]})
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), rules=TS, start=start, beliefs=False, ask_cards="always")
    ctl.send_action("move grey+2")
    s = ctl.widget.state
    assert s["phase"] == "announce" and notations(s) == ["announce yes", "announce no"]   # screen order
    assert s["hand"] == ["fwd123"] and s["hand_sizes"] == {"Ann": 1, "Bob": 1, "Cy": 0}
    ctl.send_action("announce yes")
    ctl.run_bots()                                        # Bob answers
    s = ctl.widget.state
    assert s["phase"] == "round" and s["current_player"] == "Ann"
    assert "pass" not in notations(s), "who announced and acts first must play"
    assert "play fwd123 grey+1" in notations(s) and all(a.startswith("play fwd123 ") for a in notations(s))
    ctl.send_action("play fwd123 red+3")
    s = ctl.widget.state
    assert notations(s) == ["done"] and ctl.game.positions["red"] == 3 and s["hand"] == []
    ctl.send_action("done")
    assert ctl.widget.state["current_player"] != "Ann" or ctl.widget.state["phase"] != "round"


class LastBot:
    """Always the last legal action: announces yes, plays a card, then is done."""

    def choose(self, view, legal):
        return legal[-1]


def test_a_card_refused_for_its_targets_is_an_error_and_pass_when_allowed():
    start = pos(decision="move", die="2", rules=TS, hands={"Ann": ["fwd123"], "Bob": ["ruins"]})
    ctl = GameController(THREE, bots={"Bob": LastBot(), "Cy": RandomBot(1)}, rules=TS, start=start, beliefs=False)
    ctl.send_action("move grey+2")
    ctl.send_action("announce no")
    ctl.run_bots()                                       # Bob wants to play, plays his card, is done
    s = ctl.widget.state
    assert (s["phase"], s["current_player"]) == ("round", "Ann") and "pass" in notations(s)
    assert any("Bob plays ruins" in line for line in s["log"])
    before = frozen(ctl)
    ctl.send_action("play fwd123 red+4")
    assert "fwd123" in ctl.widget.state["error"] and frozen(ctl) == before
    ctl.send_action("play swap red blue")
    assert "no swap card" in ctl.widget.state["error"] and frozen(ctl) == before
    ctl.send_action("pass")
    assert ctl.widget.state["error"] == "" and ctl.game.phase != "round"


def test_dossier_decision_and_the_suggested_sheet():
    rules = Rules(dossier=True)
    start = pos({"grey": 6}, decision="move", die="1-3", points=1, scores={"grey": 25}, rules=rules)
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), rules=rules, start=start)
    ctl.send_action("move grey+1")
    s = ctl.widget.state
    assert s["phase"] == "dossier" and s["current_player"] == "Ann" and s["is_human_turn"]
    assert "fill in the Secret Dossier" in s["decision_text"]
    agent = notations(s)[0].split()[1].split("=")[0]
    assert sorted(notations(s)) == sorted(f"dossier {agent}={n}" for n in ("Bob", "Cy", "free"))
    if s["belief"] is not None:                          # the belief module is installed
        sheet = s["belief"]["sheet"]
        assert set(sheet) == set(AG6) - {"red"} and set(sheet.values()) <= {"Bob", "Cy", "free"}
        assert s["belief"]["notes"]
    ctl.send_action(f"dossier {agent}=free")
    assert ctl.widget.state["dossier_sheet"] == {agent: "free"}


# ------------------------------------------------------------------ refused actions
def test_errors_leave_the_game_unchanged_and_are_shown():
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), start=pos({"grey": 4}, decision="move", die="3"),
                         beliefs=False)
    for bad, words in [("move grey+2", "exactly 3"), ("move pink+3", "colour"), ("frobnicate", ""),
                       ("safe 4", "decision now is move"), ("roll", "nothing to roll")]:
        before = frozen(ctl)
        ctl.send_action(bad)
        err = ctl.widget.state["error"]
        assert err and words in err, (bad, err)
        assert frozen(ctl) == before and ctl.widget.state["phase"] == "move"
    ctl.send_action("move grey+3")
    assert ctl.widget.state["error"] == "" and ctl.game.phase == "safe"


def test_wrong_player_and_a_bots_decision_are_refused():
    ctl = GameController(THREE, bots=bots("Cy"), start=pos(decision="move", die="2"), beliefs=False)
    assert ctl.curtain == "Hand the screen to Ann, then click Reveal"
    before = frozen(ctl)
    ctl.send_action("move red+2")
    assert "hand the screen to Ann" in ctl.widget.state["error"] and frozen(ctl) == before
    ctl.reveal()
    ctl.send_action("move red+2", player="Bob")
    assert "Ann's decision, not Bob's" in ctl.widget.state["error"] and frozen(ctl) == before
    ctl.send_action("move red+2")
    assert ctl.decider == "Bob" and ctl.curtain == "Hand the screen to Bob, then click Reveal"
    ctl.send_action("roll")                             # Bob has not taken the screen yet
    assert "hand the screen to Bob" in ctl.widget.state["error"] and ctl.game.is_chance_node
    bot = GameController(THREE, bots=bots("Ann", "Bob"), start=pos(decision="move", die="2"), beliefs=False)
    before = frozen(bot)
    bot.send_action("move red+2")
    assert "bot" in bot.widget.state["error"] and frozen(bot) == before


# ------------------------------------------------------------------ hot seat and the curtain
def _private_fields_empty(s):
    return (s["hand"] is None and s["own_agents"] == [] and s["belief"] is None and s["dossier_sheet"] is None
            and notations(s) == [] and s["viewer"] is None and not s["is_human_turn"])


def test_curtain_flow_between_two_humans():
    ctl = GameController(THREE, bots=bots("Cy"), rules=TS, seed=4)
    s = ctl.widget.state
    assert s["curtain"] == "Hand the screen to Ann, then click Reveal" and _private_fields_empty(s)
    ctl.send_action("roll")
    assert ctl.game.is_chance_node and "hand the screen to Ann" in ctl.widget.state["error"]
    ctl.handle_message({"type": "curtain", "command": "reveal"})
    s = ctl.widget.state
    assert s["curtain"] is None and s["viewer"] == "Ann" and s["hand"] == ctl.game.hands["Ann"]
    assert s["own_agents"] == ctl.game.owners["Ann"] and notations(s) == ["roll"]
    seen_bob = False
    for _ in range(200):                                  # play until the screen must go to Bob
        s = ctl.widget.state
        if s["curtain"]:
            assert _private_fields_empty(s)
            if ctl.decider == "Bob":
                assert s["curtain"] == "Hand the screen to Bob, then click Reveal"
                ctl.reveal()
                s = ctl.widget.state
                assert s["viewer"] == "Bob" and s["hand"] == ctl.game.hands["Bob"]
                assert s["own_agents"] == ctl.game.owners["Bob"]
                seen_bob = True
                break
            if ctl.decider == "Ann":
                ctl.reveal()
            else:
                ctl.run_bots()
            continue
        assert s["viewer"] == ctl.decider == "Ann"
        ctl.send_action(human_policy(s))
    assert seen_bob


def test_under_the_curtain_the_synced_state_is_the_spectators():
    ctl = GameController(["Ann", "Bob", "Cy", "Dee"], bots=bots("Cy", "Dee"), rules=Rules(top_secret=True,
                                                                                            dossier=True), seed=8)
    checked = 0
    for _ in range(400):
        if ctl.game.is_over:
            break
        s = ctl.widget.state
        if s["curtain"]:
            spectator = board_state(ctl.game, None, human_players=ctl.humans, curtain=s["curtain"],
                                    autoplay=s["autoplay"], last_move=s["last_move"])
            spectator["view_label"], spectator["error"] = s["view_label"], ""
            assert s == spectator
            text = synced(ctl.widget)
            for p in ("Ann", "Bob"):
                assert f'"{p}\'s view"' not in text
            checked += 1
            ctl.reveal() if ctl.decider in ctl.humans else ctl.run_bots()
            continue
        ctl.send_action(human_policy(s))
    assert checked > 5


# ------------------------------------------------------------------ the information rule on the synced state
def _ann_states(owners, turns=24, rules=Rules(), hands=None):
    """Ann's synced state after every decision (hers and the bots') for ``turns`` turns."""
    start = pos(owners=owners, rules=rules, hands=hands)
    ctl = GameController(THREE, bots=bots("Bob", "Cy", seed=11), rules=rules, seed=5, start=start)
    out = [synced(ctl.widget)]
    while ctl.game.turn <= turns and not ctl.game.is_over:
        s = ctl.widget.state
        if s["is_human_turn"]:
            ctl.send_action(human_policy(s))
        else:
            assert ctl.step()
        out.append(synced(ctl.widget))
    return out


def test_other_players_deals_do_not_change_anns_synced_state():
    a = _ann_states({"Ann": "red", "Bob": "blue", "Cy": "green"})
    b = _ann_states({"Ann": "red", "Bob": "grey", "Cy": "yellow"})
    assert len(a) > 30
    assert a == b, "the same public history and Ann's card must give byte-identical states"
    assert all('"own_agents": ["red"]' in s for s in a)
    assert all(re.search(r'"(blue|green|grey|yellow)": "(Bob|Cy)"', s) is None for s in a)


def test_other_players_hands_do_not_change_anns_synced_state():
    owners = {"Ann": "red", "Bob": "blue", "Cy": "green"}
    s1 = GameController(THREE, bots=bots("Bob", "Cy"), rules=TS, seed=2, start=pos(
        owners=owners, rules=TS, hands={"Ann": ["swap"], "Bob": ["ruins", "church"], "Cy": ["tosafe"]}))
    s2 = GameController(THREE, bots=bots("Bob", "Cy"), rules=TS, seed=2, start=pos(
        owners=owners, rules=TS, hands={"Ann": ["swap"], "Bob": ["bonus", "join"], "Cy": ["second"]}))
    assert synced(s1.widget) == synced(s2.widget)
    s1.send_action("roll")
    s2.send_action("roll")
    assert synced(s1.widget) == synced(s2.widget)


def test_top_secret_no_other_hand_card_appears_except_played_ones():
    ctl = GameController(THREE, bots=bots("Bob", "Cy", seed=3), rules=TS, seed=9)
    checks = 0
    for _ in range(300):
        if ctl.game.is_over:
            break
        ctl.run_bots()
        s = ctl.widget.state
        text = json.dumps(s)     # the card table (public, fixed text) is in the setup, not the state
        played = {e[1].args[0] for e in ctl.game.history if e[1].kind == "play"}
        allowed = set(ctl.game.hands["Ann"]) | played
        for p in ("Bob", "Cy"):
            for code in set(ctl.game.hands[p]) - allowed:
                if code in ("church", "ruins"):                      # also building names in the log
                    continue
                assert re.search(rf"\b{code}\b", text) is None, (p, code)
                assert CARDS[code].text.rstrip(".") not in text
        assert s["hand"] == ctl.game.hands["Ann"]
        assert s["hand_sizes"] == {p: len(h) for p, h in ctl.game.hands.items()}
        checks += 1
        if s["is_human_turn"]:
            ctl.send_action(human_policy(s))
    assert checks > 10


# ------------------------------------------------------------------ autoplay
def test_step_play_pause_and_speed_via_messages_without_a_loop():
    ctl = GameController(THREE, bots=bots("Ann", "Bob", "Cy"), seed=1, beliefs=False)
    s = ctl.widget.state
    assert s["autoplay"] == {"available": True, "playing": False, "speed_ms": 400}
    assert s["viewer"] is None and s["view_label"].startswith("Spectator")
    n = len(ctl.game.history)
    ctl.handle_message({"type": "control", "command": "step"})
    assert len(ctl.game.history) > n and ctl.timings[-1]["what"] == "bot"
    ctl.handle_message({"type": "control", "command": "play"})
    assert ctl.widget.state["autoplay"]["playing"] and ctl._pending is None, "no loop: nothing is scheduled"
    ctl.handle_message({"type": "control", "command": "speed", "value": 120})
    assert ctl.widget.speed_ms == 120 and ctl.widget.state["autoplay"]["speed_ms"] == 120
    ctl.handle_message({"type": "control", "command": "pause"})
    assert not ctl.widget.state["autoplay"]["playing"]
    assert ctl.run_bots() > 0 and ctl.game.is_over and ctl.widget.state["winners"] is not None


def test_autoplay_on_a_running_loop_one_pending_step_and_pause_stops():
    async def main():
        ctl = GameController(THREE, bots=bots("Ann", "Bob", "Cy"), seed=1, beliefs=False, speed_ms=2)
        ctl.handle_message({"type": "control", "command": "play"})
        first = ctl._pending
        assert first is not None
        ctl._schedule()
        ctl.handle_message({"type": "control", "command": "play"})
        assert ctl._pending is first, "at most one step pending"
        for _ in range(200):
            await asyncio.sleep(0.005)
            if len(ctl.game.history) > 30:
                break
        assert len(ctl.game.history) > 30
        ctl.handle_message({"type": "control", "command": "pause"})
        assert ctl._pending is None
        n = len(ctl.game.history)
        await asyncio.sleep(0.05)
        assert len(ctl.game.history) == n
        ctl.play()
        for _ in range(3000):
            await asyncio.sleep(0.002)
            if ctl.game.is_over:
                break
        assert ctl.game.is_over and not ctl.playing and ctl._pending is None
    asyncio.run(main())


def test_humans_vs_bots_the_bots_answer_by_themselves_on_the_loop():
    async def main():
        ctl = GameController(THREE, bots=bots("Bob", "Cy"), seed=6, beliefs=False, speed_ms=1,
                             start=pos({"grey": 0}, decision="move", die="2"))
        assert ctl.playing
        ctl.send_action("move grey+2")
        for _ in range(500):
            await asyncio.sleep(0.002)
            if ctl.decider == "Ann":
                break
        assert ctl.decider == "Ann" and ctl.game.active_player == "Ann" and ctl._pending is None
    asyncio.run(main())


# ------------------------------------------------------------------ records: exact replay, same clicks
def _clicks(seed):
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), rules=TS, seed=seed, beliefs=False)
    for _ in range(300):
        if ctl.game.is_over or ctl.game.turn > 15:
            break
        ctl.run_bots()
        s = ctl.widget.state
        if s["is_human_turn"]:
            ctl.handle_message({"type": "action", "action": human_policy(s)})
    return ctl


def test_same_seed_and_same_clicks_give_the_same_record_and_it_replays_exactly():
    a, b, c = _clicks(21), _clicks(21), _clicks(22)
    assert a.record.to_json() == b.record.to_json()
    assert a.record.to_json() != c.record.to_json()
    rec = GameRecord.from_json(a.record.to_json())
    assert rec.chance == "manual" and any(e.action.kind == "draw" for e in rec.log)
    g = rec.replay()
    assert (g.positions, g.scores, g.hands, g.safe) == (a.game.positions, a.game.scores, a.game.hands, a.game.safe)


# ------------------------------------------------------------------ replay
def _finished():
    ctl = GameController(THREE, bots=bots("Ann", "Bob", "Cy"), seed=2, beliefs=False)
    ctl.run_bots()
    return ctl.record


def test_replay_seek_slider_messages_and_labels(tmp_path):
    rec = _finished()
    path = rec.save(tmp_path / "game.json")
    r = ReplayController(path, viewer="Bob")
    s = r.widget.state
    # a replay opens at the start, so that the result is not given away
    assert s["replay"] == {"index": 0, "length": len(rec.log) + 1} and s["winners"] is None
    assert s["banner"] == s["decision_text"] == "Turn 1: The agent cards were being dealt"     # past tense
    r.handle_message({"type": "replay", "index": len(rec.log)})
    s = r.widget.state
    assert s["view_label"] == "Replay, Bob's view" and s["winners"] is not None and not s["is_human_turn"]
    assert s["banner"].startswith("Game over") and s["result"]["winners"] == list(rec.winners)
    r.handle_message({"type": "replay", "index": 0})
    s = r.widget.state
    assert s["replay"]["index"] == 0 and set(s["positions"].values()) == {0} and s["own_agents"] == []
    r.handle_message({"type": "replay", "index": 5})
    s = r.widget.state
    assert s["own_agents"] == rec.owners["Bob"] and s["owners"] is None and notations(s) == []
    r.handle_message({"type": "replay", "index": 10 ** 6})
    assert r.widget.state["replay"]["index"] == len(rec.log)
    r.handle_message({"type": "replay", "index": "x"})
    r.seek(3)
    r.handle_message({"type": "control", "command": "step"})
    assert r.index == 4
    spec = ReplayController(rec, viewer=None)
    spec.seek(5)
    assert spec.widget.state["view_label"] == "Replay, a spectator (public information only)"
    assert spec.widget.state["own_agents"] == [] and spec.widget.state["hand"] is None
    omni = ReplayController(rec, viewer="omniscient")
    omni.seek(5)
    s = omni.widget.state
    assert s["view_label"] == "Replay, omniscient: every secret shown"
    assert s["owners"] == {c: p for p, cols in rec.owners.items() for c in cols} and s["belief"] is None
    with pytest.raises(ValueError):
        ReplayController(rec, viewer="Zed")


def test_replay_of_an_auto_chance_record_has_no_repeated_positions():
    from heimlich_lab import play
    rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
    r = ReplayController(rec, viewer="Ann", beliefs=False)
    assert r.applied == sorted(set(r.applied)) and r.applied[-1] == len(rec.log)
    assert len(r.views) < len(rec.log) + 1, "chance entries drawn with a decision are not positions of their own"
    logs = [len(v.log) for v in r.views]
    assert logs == sorted(logs) and len(set(logs)) == len(logs)
    r.seek(len(r.views) - 1)
    assert r.widget.state["winners"] == rec.winners


def test_replay_belief_follows_the_slider():
    rec = _finished()
    r = ReplayController(rec, viewer="Ann")
    r.seek(0)
    first = r.widget.state["belief"]
    assert first["observer"] == "Ann" and len(first["entropy"]) == 1
    r.seek(len(rec.log))
    last = r.widget.state["belief"]
    assert len(last["entropy"]) > 5 and last["entropy"][-1] < first["entropy"][0] and last["explanation"]
    assert replay_in_notebook(rec, viewer=None).state["belief"]["observer"] is None


# ------------------------------------------------------------------ the belief panel
def test_belief_panel_for_the_human_and_public_log_only_without_beliefs():
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), seed=3)
    for _ in range(60):
        ctl.run_bots()
        s = ctl.widget.state
        if s["is_human_turn"]:
            ctl.send_action(human_policy(s))
    b = ctl.widget.state["belief"]
    assert b["observer"] == "Ann" and b["rows"] == ["Ann", "Bob", "Cy", "free"] and b["cols"] == list(AG6)
    assert all(abs(sum(row[j] for row in b["p"]) - 1) < 1e-3 for j in range(6))
    own = AG6.index(ctl.game.owners["Ann"][0])
    assert b["p"][0][own] == 1.0
    assert len(b["entropy"]) > 3 and b["explanation"]
    off = GameController(THREE, bots=bots("Bob", "Cy"), seed=3, beliefs=False)
    assert off.widget.state["belief"] is None and off.widget.state["log"]


def test_a_custom_belief_factory_is_used():
    class Flat:
        observer = "Ann"

        def marginals(self):
            return {p: {c: 0.25 for c in AG6} for p in ["Ann", "Bob", "Cy", "free"]}

        def add(self, decision):          # every decision of Ann's stream, as Ann saw it
            if decision.view is not None:
                self.seen = (decision.view.viewer, decision.actor, str(decision.action))

    made = []
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), start=pos(decision="move", die="2"),
                         belief_factory=lambda g, o: made.append(o) or Flat())
    assert made == ["Ann"] and ctl.widget.state["belief"]["p"][0] == [0.25] * 6
    ctl.send_action("move red+2")
    assert ctl.beliefs["Ann"].seen == ("Ann", "Ann", "move red+2")


def test_play_in_notebook_returns_the_widget_with_its_controller():
    w = play_in_notebook(THREE, bots=bots("Bob", "Cy"), seed=1, beliefs=False, start=pos())
    assert isinstance(w, BoardWidget) and w.controller.widget is w and notations(w.state) == ["roll"]
    with pytest.raises(ValueError):
        play_in_notebook(THREE, bots={"Zed": RandomBot()})
    with pytest.raises(ValueError):
        play_in_notebook(THREE, bots={"Bob": object()})
    with pytest.raises(ValueError):
        play_in_notebook(THREE, bots=bots("Bob", "Cy"), viewer="Zed")


def test_a_second_agent_take_updates_each_belief_with_what_its_observer_saw():
    start = pos(decision="move", die="2", rules=TS, hands={"Ann": ["second"]})
    ctl = GameController(THREE, bots=bots("Cy"), rules=TS, start=start, seed=1, ask_cards="always")
    ctl.reveal()
    ctl.send_action("move grey+2")
    ctl.send_action("announce yes")
    ctl.send_action("play second")
    assert ctl.widget.state["error"] == "" and len(ctl.game.owners["Ann"]) == 2
    assert ctl.belief_errors == {} and set(ctl.beliefs) == {"Ann", "Bob"}
    taken = ctl.game.owners["Ann"][1]
    assert ctl.widget.state["own_agents"] == ctl.game.owners["Ann"]
    assert ctl.beliefs["Ann"].own_agents == tuple(ctl.game.owners["Ann"])
    assert ctl.beliefs["Ann"].history[-1].action.args == (taken,)
    assert ctl.beliefs["Bob"].history[-1].action.args == ("?",), "Bob cannot know which card Ann took"


# ------------------------------------------------------------------ the information rule over a whole game
class PublicBot:
    """A bot whose every choice depends on public information only: it never plays a card, says no
    at the announcement and passes, so two games that differ only in its hand look the same to others."""

    def __init__(self, seed):
        import random
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        ok = [a for a in legal if not str(a).startswith(("play", "announce yes"))]
        return self.rng.choice(ok)


def _ann_whole_top_secret_game(hands):
    start = pos(rules=TS, hands=hands)
    ctl = GameController(THREE, bots={"Bob": PublicBot(1), "Cy": PublicBot(2)}, rules=TS, seed=13, start=start)
    out, secrets, played = [synced(ctl.widget)], set(), 0
    for _ in range(3000):
        if ctl.game.is_over:
            break
        s = ctl.widget.state
        if s["is_human_turn"]:
            with_targets = [x for x in notations(s) if x.startswith("play ") and len(x.split()) > 2]
            a = ("announce yes" if "announce yes" in notations(s) else with_targets[0] if with_targets
                 else human_policy(s))
            played += a in with_targets
            ctl.send_action(a)
            assert ctl.widget.state["error"] == "", a
        else:
            assert ctl.step()
        out.append(synced(ctl.widget))
        secrets.add(json.dumps({p: sorted(ctl.game.hands[p]) for p in ("Bob", "Cy")}))
    return out, ctl, secrets, played


def test_a_whole_top_secret_game_other_hands_never_change_anns_synced_state():
    # the same multiset of cards in Bob's and Cy's hands (so the same supply and the same draws),
    # shared out differently: church and ruins included (also building names in the log)
    a, ca, ha, played = _ann_whole_top_secret_game({"Ann": ["fwd123", "swap"], "Bob": ["church", "ruins"],
                                                     "Cy": ["tosafe"]})
    b, cb, hb, _ = _ann_whole_top_secret_game({"Ann": ["fwd123", "swap"], "Bob": ["tosafe", "ruins"],
                                               "Cy": ["church"]})
    assert ca.game.is_over and cb.game.is_over and len(a) > 80
    assert played >= 2, "Ann played cards with targets"
    assert ha != hb and ca.game.hands["Bob"] != cb.game.hands["Bob"], "the hidden hands did differ"
    assert [e for e in ca.game.history if e[0] == "Ann"] == [e for e in cb.game.history if e[0] == "Ann"]
    for i, (x, y) in enumerate(zip(a, b)):
        assert x == y, f"Ann's synced state differs at step {i}"
    assert len(a) == len(b)


# ------------------------------------------------------------------ dossier notes throughout, and in replays
def test_dossier_notes_in_the_belief_panel_throughout_the_game_and_in_replays():
    from heimlich_lab.inference.dossier import dossier_notes
    from heimlich_lab.widget.panel import dossier_note_lines
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), seed=3)              # basic game: no dossier mark at all
    seen = []
    for _ in range(40):
        ctl.run_bots()
        s = ctl.widget.state
        seen.append(list(s["belief"]["notes"]))
        # written one decision at a time, they are the notes of the whole game so far
        assert seen[-1] == dossier_note_lines(dossier_notes(ctl.game, "Ann"))
        if max(ctl.game.scores.values()) >= 29 or ctl.game.is_over:
            break
        ctl.send_action(human_policy(s))
    assert max(ctl.game.scores.values()) < 29 or len(seen) > 5
    expected = [str(n) for n in dossier_notes(ctl.game, "Ann")]
    assert expected and set(seen[-1]) <= set(expected) and seen[-1], "the viewer's notes, before any dossier mark"
    assert any(line.startswith("Bob supports") for line in seen[-1])
    assert len({tuple(x) for x in seen}) > 2, "the notes follow the game"
    # the replay shows, at each position, the notes up to it (and the same as the live game at the end)
    r = ReplayController(ctl.record, viewer="Ann")
    r.seek(len(r.views) - 1)
    assert r.widget.state["belief"]["notes"] == seen[-1]
    r.seek(0)
    assert r.widget.state["belief"]["notes"] == [], "nothing to note before the first decision"
    mid = len(r.views) // 2
    r.seek(mid)
    upto = dossier_note_lines(dossier_notes(ctl.game, "Ann", until=r.applied[mid]))
    assert r.widget.state["belief"]["notes"] == upto and upto
    for k in range(0, len(r.views), 7):     # written in one pass, the notes by each position
        r.seek(k)
        assert r.widget.state["belief"]["notes"] == dossier_note_lines(dossier_notes(ctl.game, "Ann", r.applied[k]))
    r.seek(mid)
    assert r.widget.state["belief"]["notes"] != seen[-1]
    assert r.widget.state["belief"]["version"] < r._panels[len(r.views) - 1]["version"]


def test_dossier_replay_suggests_a_sheet_after_the_mark():
    rules = Rules(dossier=True)
    ctl = GameController(THREE, bots=bots("Ann", "Bob", "Cy"), rules=rules, seed=4, viewer="Ann", autoplay=False)
    ctl.run_bots()
    assert ctl.game.is_over
    r = ReplayController(ctl.record, viewer="Ann")
    done = [i for i, v in enumerate(r.views) if v.dossier_done]
    assert done and done[0] > 0
    r.seek(done[0] - 1)
    assert r.widget.state["belief"]["sheet"] is None
    r.seek(done[0])
    sheet = r.widget.state["belief"]["sheet"]
    own = set(ctl.game.owners["Ann"])
    assert sheet and set(sheet) == set(r.views[done[0]].agents) - own
    assert set(sheet.values()) <= {"Bob", "Cy", "free"}


# ------------------------------------------------------------------ one speed range, no dead messages
def test_the_speed_range_is_the_sliders_and_clamped():
    from heimlich_lab.widget import board
    logic = (static_dir() / "shell.js").read_text() if (static_dir() / "shell.js").exists() else \
        (static_dir() / "board.bundle.js").read_text()
    m = re.search(r"SPEED_RANGE = Object\.freeze\(\{ min: (\d+), max: (\d+), step: (\d+) \}\)", logic)
    assert m and tuple(map(int, m.groups())) == (board.SPEED_MIN_MS, board.SPEED_MAX_MS, board.SPEED_STEP_MS)
    ctl = GameController(THREE, bots=bots("Ann", "Bob", "Cy"), seed=1, beliefs=False, speed_ms=99999)
    assert ctl.widget.speed_ms == board.SPEED_MAX_MS
    for sent, got in ((120, 120), (5000, board.SPEED_MAX_MS), (-3, board.SPEED_MIN_MS), (2000, 2000)):
        ctl.handle_message({"type": "control", "command": "speed", "value": sent})
        assert ctl.widget.speed_ms == got and ctl.widget.state["autoplay"]["speed_ms"] == got
    ctl.handle_message({"type": "control", "command": "speed", "value": "fast"})
    assert ctl.widget.speed_ms == 2000
    n = len(ctl.timings)
    ctl.handle_message({"type": "timing", "what": "front-end", "ms": 5})      # no such message: ignored
    assert len(ctl.timings) == n


# ------------------------------------------------------------------ the structured decisions (the thin contract)
def _events_after(game, action):
    g = game.copy()
    n = len(g.omniscient_view().log)
    g.apply(action)
    return g, list(g.omniscient_view().log)[n:]


class Quiet:
    """A bot that never plays a card (so its hidden hand never changes the public history)."""

    def choose(self, view, legal):
        return next((a for a in legal if str(a) in ("announce no", "pass", "done")), legal[0])


def _to_anns_cards(ctl, move):
    """Ann moves, moves the safe if she scored, announces, and (the bots do not announce) is to play a card."""
    ctl.send_action(move)
    for _ in range(8):
        s = ctl.widget.state
        if s["phase"] == "round" and s["is_human_turn"]:
            return
        if not s["is_human_turn"]:
            ctl.run_bots()
        else:
            ctl.send_action(next(a for a in notations(s) if a.startswith("safe ") or a == "announce yes"))
    raise AssertionError(f"Ann does not get to play a card: {ctl.widget.state['decision_text']}")


def test_the_move_table_is_where_the_engine_moves_each_agent_and_when_it_scores():
    g = GameController(THREE, bots=bots("Bob", "Cy"), seed=4, start=pos(
        {"grey": 5, "yellow": 10, "orange": 6, "red": -3, "green": 7, "blue": 4}, decision="move", die="3"),
        beliefs=False).game
    table = board_state(g, "Ann", human_players=["Ann"])["move"]
    assert table["points"] == 3 and set(table["agents"]) == set(AG6)
    scorings = 0
    for c, row in table["agents"].items():
        assert row["from"] == g.positions[c] and row["to"][0] == g.positions[c]
        for n in range(1, 4) if c != "red" else (3,):   # the rest to red, in the Ruins: it never reaches the safe
            after, events = _events_after(g, Action.move({c: n} if n == 3 else {c: n, "red": 3 - n}))
            assert row["to"][n] == after.positions[c], (c, n)
            assert row["scores"][n] == any(e.kind == "score" for e in events), (c, n)
            scorings += row["scores"][n]
    assert scorings >= 2, "the position has scorings to find (grey and orange reach the safe on 7)"


def test_each_card_decision_says_what_the_engine_would_do():
    hand = ["fwd123", "placesafe", "swap", "bonus"]
    ctl = GameController(THREE, bots={"Bob": Quiet(), "Cy": Quiet()}, rules=TS, beliefs=False, start=pos(
        {"grey": 5, "orange": 6, "red": -3, "blue": 4}, decision="move", die="2", rules=TS,
        scores={"red": 12, "blue": 39}, hands={"Ann": hand}))
    _to_anns_cards(ctl, "move grey+2")
    s = ctl.widget.state
    cards = [d for d in s["decisions"] if d["kind"] == "play"]
    assert {d["group"] for d in cards} == {f"play:{c}" for c in hand}
    for d in cards:
        g = ctl.game
        after, _ = _events_after(g, d["notation"])
        moved = {c: [g.positions[c], after.positions[c]] for c in g.positions if after.positions[c] != g.positions[c]}
        assert d["effect"]["moves"] == moved, d
        assert d["effect"].get("safe") == ([g.safe, after.safe] if after.safe != g.safe else None), d
        gains = {c: after.scores[c] - g.scores[c] for c in g.scores if after.scores[c] != g.scores[c]}
        assert d["effect"].get("gains", {}) == gains, d
        if d["group"] == "play:placesafe":
            assert d["building"] == after.safe and d["label"] == {0: "Church", -3: "Ruins"}.get(after.safe, str(after.safe))
    assert any(d["effect"].get("gains") == {"blue": 1, "red": 3} for d in cards), "bonus: +3, not past 40"


def test_the_decisions_never_depend_on_other_players_secrets():
    def ann_decisions(owners, bob_hand):
        ctl = GameController(THREE, bots={"Bob": Quiet(), "Cy": Quiet()}, rules=TS, beliefs=False, start=pos(
            {"grey": 5, "orange": 6, "blue": 4}, owners=owners, decision="move", die="2", rules=TS,
            hands={"Ann": ["fwd123", "swap", "join"], "Bob": bob_hand, "Cy": ["second"]}))
        _to_anns_cards(ctl, "move grey+2")
        return json.dumps([ctl.widget.state["decisions"], ctl.widget.get_state("setup")], sort_keys=True)
    a = ann_decisions({"Ann": "red", "Bob": "blue", "Cy": "green"}, ["ruins", "church"])
    b = ann_decisions({"Ann": "red", "Bob": "grey", "Cy": "yellow"}, ["bonus", "tosafe"])
    assert a == b and '"play:join"' in a
    for secret in ("ruins", "church", "bonus", "tosafe", "second"):
        assert f'"play:{secret}"' not in a and f"play {secret}" not in a


# ------------------------------------------------------------------ the benchmark (figures, never timed assertions)
def test_the_board_benchmark_times_every_bot_step_of_a_whole_game():
    from heimlich_lab.benchmarks.board import step_times
    from heimlich_lab.commands.bench import BENCHMARKS
    times = step_times(0)
    assert len(times) > 50 and all(t >= 0 for t in times)
    assert "board" in BENCHMARKS


# ---------------------------------------------------------------- the classroom board (issue 13)

#: "You's", or "You" with a verb of the third person ("You rolls"); "You pass" is right
BAD_ENGLISH = re.compile(r"\bYou's\b|\bYou (?:already )?(?:is|has|does|[a-z]+[^s\W]s)\b")


def _strings(x):
    """Every string in a JSON-like value (what the front end can show)."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _strings(v)


def test_the_turn_banner_is_true_through_top_secret_rounds():
    """Checked against the game's own state at every decision of whole Top Secret games."""
    rounds = 0
    for seed in (1, 2, 3):
        ctl = GameController(["Ann", "You", "Cy"], bots=bots("Ann", "You", "Cy", seed=seed), rules=TS, seed=seed,
                             beliefs=False, viewer="Ann")
        g = ctl.game
        while not g.is_over:
            s = board_state(g, "Ann")
            active, decider = g.active_player, ctl.decider
            whose = "Your turn" if active == "You" else f"{active}'s turn"
            assert s["banner"].startswith(whose), (s["banner"], active)
            if g.die is not None:
                assert f"(rolled {g.die})" in s["banner"]
            if decider is not None and decider != active:
                assert f". {decider}: " in s["banner"], (s["banner"], decider)
                rounds += g.phase == "round"
            assert not BAD_ENGLISH.search(s["banner"])
            ctl.step()
        assert board_state(g, "Ann")["banner"].startswith("Game over")
    assert rounds > 0, "the games had Top Secret rounds where another player decides"


def test_a_human_called_you_reads_right_everywhere_on_the_board():
    ctl = GameController(["You", "Bob", "Cy"], bots=bots("Bob", "Cy"), rules=Rules(top_secret=True, dossier=True),
                         seed=4)
    w = ctl.widget
    texts = []
    for _ in range(400):
        if ctl.game.is_over:
            break
        s = w.state
        texts += list(_strings(s))
        if s["is_human_turn"]:
            ctl.send_action(human_policy(s))
        else:
            ctl.step()
    texts += list(_strings(w.state)) + list(_strings(ctl.replay("You").state))
    assert ctl.game.is_over
    assert [t for t in texts if BAD_ENGLISH.search(t)] == []
    assert "Your view" in texts and any(t.startswith("You control ") for t in texts)
    assert any(re.search(r"\bYou roll \d", t) for t in texts)


def test_the_end_is_a_results_table_and_the_bot_controls_are_off():
    ctl = GameController(THREE, bots=bots(*THREE), rules=Rules(dossier=True), seed=5, beliefs=False)
    assert ctl.widget.state["autoplay"]["available"] is True and ctl.widget.state["result"] is None
    ctl.run_bots()
    s = ctl.widget.state
    assert s["autoplay"]["available"] is False
    result, over = s["result"], ctl.game.view(None).log[-1].data
    assert result["winners"] == list(ctl.game.winners)
    assert {r["agent"]: r["final"] for r in result["rows"]} == ctl.game.scores
    assert [r["final"] for r in result["rows"]] == sorted(ctl.game.scores.values(), reverse=True)
    for r in result["rows"]:
        assert r["owner"] == over["owners"][r["agent"]] and r["marker"] + r["dossier"] == r["final"]
        assert r["farthest"] == (r["agent"] in over["farthest"])
    assert (result["note"] != "") == any(v > 42 for v in ctl.game.scores.values())


def test_card_options_name_agents_as_the_board_does_and_pass_is_no_other():
    p = pos({"red": 5, "blue": 3}, decision="roll", rules=TS, hands={"Ann": ["fwd123"]})
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), rules=TS, start=p, seed=1)
    for _ in range(60):
        s = ctl.widget.state
        plays = [d for d in s["decisions"] if d["kind"] == "play"]
        if plays:
            assert all(re.fullmatch(r"(Schulz|Perry|Bucci|Jaques|Mirkov|Doyle) \+[123]", d["label"]) for d in plays)
            if not any(d["kind"] == "pass" for d in s["decisions"]):     # the round's first player must play
                assert s["decision_text"].endswith("(the first to play in a round may not pass)")
            assert {d["group"] for d in s["decisions"] if d["kind"] in ("pass", "done")} <= {"round"}
            assert "Other" not in {d["title"] for d in s["decisions"]}
            return
        if s["is_human_turn"]:
            ctl.send_action("announce yes" if "announce yes" in notations(s) else human_policy(s))
        elif not ctl.step():
            break
    pytest.fail("no card decision came up")


def test_the_belief_panel_explains_itself():
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), seed=3)
    for _ in range(40):
        s = ctl.widget.state
        if s["is_human_turn"]:
            ctl.send_action(human_policy(s))
        else:
            ctl.step()
    b = ctl.widget.state["belief"]
    mine = ctl.game.owners["Ann"]
    assert b["own"] == mine and b["own_text"].startswith("Ann's own agent: ")
    assert b["caption"] == "cell = probability that this player controls this agent, given what Ann has seen"
    assert 1 <= len(b["updates"]) <= 3 and all(u["change"] > 0 for u in b["updates"])
    assert [u["change"] for u in b["updates"]] == sorted((u["change"] for u in b["updates"]), reverse=True)
    since = ctl.widget.state["since_last_turn"]
    assert since and not any(line.startswith("Ann ") for line in since[:1])


def test_the_last_move_of_each_player_is_sent_for_the_arrows():
    ctl = GameController(THREE, bots=bots(*THREE), seed=2, beliefs=False)
    for _ in range(12):
        ctl.step()
    lm = ctl.widget.state["last_moves"]
    moves = [e for e in ctl.game.view(None).log if e.kind == "move"]
    for player in {e.player for e in moves}:
        last = [e for e in moves if e.player == player][-1]
        assert lm[player] == {c: list(ft) for c, ft in last.data["moves"].items()}


def test_the_panels_prepare_the_humans_next_move_while_they_think():
    """When a human's belief reads its own decisions (the default model), the utilities of the move the human is
    about to make are computed once the board is shown, not after Confirm (924 options for six points among
    seven agents); and the belief then reads the move from them."""
    from heimlich_lab.inference.utility import PublicState
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
    colours = ["red", "grey", "yellow", "orange", "green", "blue", "violet"]
    start = Position(positions={c: 0 for c in colours}, owners=dict(zip(players, colours)), safe=7, active="Ann",
                     decision="move", die="6")
    ctl = GameController(players, bots={p: RandomBot(i) for i, p in enumerate(players[1:])}, seed=6, start=start,
                         autoplay=False)
    ann = ctl.beliefs["Ann"]
    assert ann.learns_from_own
    key = ("move", PublicState.from_view(ctl.game.view("Ann")), 6)
    assert key in ann.model.utility._cache                 # made while Ann thinks
    ctl._decide("move grey+6", "Ann")
    assert ann.history and ann.history[-1].actor == "Ann"   # her own move was read (the kind of table)


# ------------------------------------------------------------------ issue 24, item 9: wording and controls
def test_the_controls_are_off_while_a_human_rolls_even_when_playing():
    """Pause was enabled while the table waited for the human's own roll; Next and Play looked enabled and did
    nothing. ``available`` is false whenever no bot is due, so the shell disables all three."""
    ctl = GameController(THREE, bots=bots("Bob", "Cy"), seed=3, beliefs=False)
    ctl.play()
    assert ctl.decider == "Ann" and ctl.game.is_chance_node      # Ann's own roll
    assert ctl.widget.state["autoplay"] == {"available": False, "playing": True, "speed_ms": 400}
    ctl.send_action("roll")                                      # Ann's own decision next: still off
    assert ctl.decider == "Ann" and ctl.widget.state["autoplay"]["available"] is False
    bot_due = GameController(THREE, bots=bots("Ann", "Bob", "Cy"), seed=3, beliefs=False, viewer="Ann")
    assert bot_due.widget.state["autoplay"]["available"] is True


def test_the_curtain_label_says_down_and_the_words_are_plural():
    ctl = GameController(THREE, bots=bots("Cy"), seed=3, beliefs=False)
    assert ctl.curtain and ctl.widget.state["view_label"] == "Curtain down: public information only"
    from heimlich_lab.games.heimlich.widget.state import plural, turn_banner
    from heimlich_lab import Game
    assert [plural(1, "step"), plural(3, "point")] == ["1 step", "3 points"]
    s = board_state(Game(THREE, seed=2), "Ann")
    assert s["decision_text"] == "Ann: allocate 3 points" and s["banner"].endswith("move agents 3 steps")
    assert turn_banner(Game(THREE, seed=2).view("Ann")) == "Ann's turn (rolled 3): move agents 3 steps"


def test_the_end_table_names_the_dossier_only_in_a_game_with_one():
    from types import SimpleNamespace

    from heimlich_lab.games.heimlich.widget.state import game_result
    over = SimpleNamespace(kind="over", data={"scores": {"red": 45, "blue": 30}, "owners": {"red": "Ann"},
                                              "bonus": {}, "farthest": ["red"], "winners": ["Ann"]})
    plain = game_result(SimpleNamespace(is_over=True, log=[over], rules=Rules()))
    assert plain["note"] and "dossier" not in plain["note"]
    with_dossier = game_result(SimpleNamespace(is_over=True, log=[over], rules=Rules(dossier=True)))
    assert "dossier points are added" in with_dossier["note"]


# ------------------------------------------------------------------ the belief panel's headline (issue 24, item 4)
def _expected_headline_step(belief, log, observer):
    """The most informative other player's step since the observer's last decision, computed here again."""
    from heimlich_lab.widget.story import information_bits as _bits
    # the observer's last turn that is over ended just before the next turn's roll (written out again here)
    rolls = [(i, e.player) for i, e in enumerate(log) if e.kind == "roll"]
    mine = [n for n, (_, p) in enumerate(rolls) if p == observer]
    if mine and mine[-1] == len(rolls) - 1:
        mine.pop()
    last = -1 if not mine else rolls[mine[-1] + 1][0] - 1 if mine[-1] + 1 < len(rolls) else len(log) - 1
    best, best_bits = None, 0.01
    for st in belief.history:
        if st.index <= last or st.actor == observer or st.update is None:
            continue
        row = [*st.update.owners, "free"].index(st.actor)
        bits = float(_bits(st.update.marginals_before[row], st.update.marginals_after[row]).max())
        if bits > best_bits:
            best, best_bits = st, bits
    return best


def test_the_headline_is_the_most_informative_update_since_the_observers_last_turn_never_their_own():
    from heimlich_lab.widget.panel import GLOSSARY, JARGON
    from heimlich_lab.bots import GreedyBot
    greedy = {"Bob": GreedyBot(seed=2), "Cy": GreedyBot(seed=3)}   # they give their agents away, as in class
    ctl = GameController(THREE, bots=greedy, rules=TS, seed=3, ask_cards="always")    # every card question asked
    seen, own_steps = [], 0
    for _ in range(200):
        s = ctl.widget.state
        if s["is_human_turn"]:
            b = s["belief"]
            h = b["headline"]
            belief = ctl.beliefs["Ann"]
            own_steps += sum(st.actor == "Ann" and st.update is not None for st in belief.history)
            want = _expected_headline_step(belief, ctl.game.view("Ann").log, "Ann")
            if want is None:
                assert set(h) <= {"text", "earlier"} and h["text"] in (
                    "Nothing has changed the belief much yet.", "Nothing has changed the belief much since Ann's last turn.")
                assert "Ann " not in h.get("earlier", "")[:4]
            else:
                assert h["log"] == want.index and h["actor"] == want.actor != "Ann"
                assert h["text"].startswith(want.description.split(" ")[0] + " ")
                assert " more likely if " in h["text"] or "possible if" in h["text"] or "chance" in h["text"]
                assert f"({h['before']:.2f} \u2192 {h['after']:.2f})" in h["text"]
                seen.append(h["text"])
            assert not any(w.lower() in h["text"].lower() for w in JARGON), h["text"]
            assert "point(s)" not in h["text"] and not re.search(r"played [a-z0-9]+:", h["text"])   # no card codes
            assert b["glossary"] == [dict(g) for g in GLOSSARY] and all(g["term"] and g["gloss"] for g in b["glossary"])
            ctl.send_action(human_policy(s))
        elif not ctl.step():
            break
    # the default model reads Ann's own decisions too (which kind of table), and they never make the headline
    assert own_steps > 0 and len(set(seen)) >= 2 and not any(t.startswith("Ann ") for t in seen)
    assert "label" not in h
    from heimlich_lab.widget.panel import story_headline
    from heimlich_lab import Belief
    assert story_headline(Belief.from_record(ctl.record.public(), None))["label"] == "Lately:"   # no turn of theirs


def test_the_headline_says_each_kind_of_evidence_in_plain_words():
    import numpy as np
    from heimlich_lab.widget.panel import headline_text
    say = lambda lr, owner="Bob": headline_text("Bob chose 2 point(s)", owner, "red", 0.2, 0.69, lr)  # noqa: E731
    assert say(np.log(9.2)) == "Bob chose 2 points: 9\u00d7 more likely if Bob controls red (0.20 \u2192 0.69)"
    assert say(-np.log(2.5)) == "Bob chose 2 points: 2.5\u00d7 more likely if Bob does not control red (0.20 \u2192 0.69)"
    assert say(np.inf).endswith("only possible if Bob controls red (0.20 \u2192 0.69)")
    assert say(np.log(4), "free").endswith("4\u00d7 more likely if nobody controls red (0.20 \u2192 0.69)")
    assert say(np.nan).endswith("the chance that Bob controls red changed (0.20 \u2192 0.69)")
    assert headline_text("You moved red", "You", "red", 0.2, 0.5, 1.0).startswith("You moved red: 2.7\u00d7 more likely if You control red")
