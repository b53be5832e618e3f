"""The Secrets table in the notebook, from Python: the synced state follows the information rule (a differential
test), the live controller (humans' clicks, bots, the hot-seat curtain, autoplay's step), the belief panel and the
replay, which opens at step 0. The real-browser tests are in tests/browser/test_secrets_browser.py."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from heimlich_lab import secrets
from heimlich_lab.errors import HeimlichError, WrongPlayer
from heimlich_lab.secrets import Belief, Game, RandomBot
from heimlich_lab.secrets.widget import SecretsController, SecretsReplay, static_dir
from heimlich_lab.secrets.widget_state import table_state

ROOT = Path(__file__).resolve().parents[1]
FOUR = ["Ann", "Bob", "Cy", "Dee"]
# Two deals that differ only where Ann (4 players: she sees her own marker) cannot look; same middle marker, which
# a Diplomat shows to everyone.
DEAL_A = "deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB"
DEAL_B = "deal Ann=CIA Bob=Hippie Cy=KGB Dee=CIA middle=KGB"


def synced(game, viewer="Ann") -> bytes:
    """What the table would sync for ``viewer``: the state with their belief, as the bytes sent to the browser."""
    view = game.view(viewer)
    human = game.current_player == viewer
    state = table_state(view, Belief.from_view(view), legal=game.legal_actions() if human else (), human=human)
    return json.dumps(state, sort_keys=True).encode()


def manual(deal, actions):
    g = Game(FOUR, chance="manual")
    for a in [deal, *actions]:
        g.apply(a)
    return g


TURN_1 = ["reveal psychiatrist", "reveal detective", "offer detective Bob", "accept", "look Cy"]
TURN_2 = ["reveal diplomat", "reveal scientist"]


def test_the_synced_state_does_not_change_with_what_the_viewer_may_not_know():
    # other markers, another player's look: Ann's state is byte-identical
    a, b = manual(DEAL_A, TURN_1 + TURN_2), manual(DEAL_B, TURN_1 + TURN_2)
    assert a.identities != b.identities
    assert synced(a) == synced(b)
    # an open offer's card is the offerer's secret
    a1, b1 = a.copy(), b.copy()
    a1.apply("offer diplomat Cy")
    b1.apply("offer scientist Cy")
    assert synced(a1) == synced(b1)
    # a Diplomat's side is seen only by the Diplomat (the middle marker is shown to everyone, and is the same)
    for g, side in ((a, "left"), (b, "right")):
        for act in ["offer diplomat Cy", "accept", f"side {side}"]:
            g.apply(act)
    assert a.identities["Dee"] != b.identities["Dee"] or a.identities["Bob"] != b.identities["Bob"]
    assert synced(a) == synced(b)
    # Bob and Cy see the difference (not a vacuous test): Bob looked at Cy's marker, Cy chose the side
    assert synced(a, "Bob") != synced(b, "Bob") and synced(a, "Cy") != synced(b, "Cy")


def test_what_the_viewer_sees_does_change_the_state():
    a = manual(DEAL_A, TURN_1)
    b = manual(DEAL_A.replace("Ann=CIA", "Ann=KGB").replace("Bob=KGB", "Bob=CIA"), TURN_1)
    assert synced(a) != synced(b)           # Ann's own marker
    assert json.loads(synced(a))["seats"][0]["marker"] == "CIA"


def test_belief_panel_shows_the_viewers_own_seat_when_it_becomes_uncertain():
    g = manual(DEAL_A, ["reveal psychiatrist", "reveal detective", "offer psychiatrist Bob", "accept",
                        "swap Ann Cy"])
    s = json.loads(synced(g))
    me = s["belief"]["identities"]["Ann"]
    assert s["seats"][0]["marker"] is None               # Ann no longer knows her own marker...
    assert s["belief"]["identities"]["Cy"]["CIA"] == 1.0  # ...she knows where it went
    assert 0 < max(me.values()) < 1 and sum(me.values()) == pytest.approx(1)
    assert "Psychiatrist" in s["belief"]["explanation"] and "swapped" in s["belief"]["explanation"]
    assert set(s["belief"]["identities"]) == {*FOUR, "middle"}


def human_vs_bots(seed=3, **kw):
    bots = {p: RandomBot(seed=i) for i, p in enumerate(FOUR[1:])}
    return SecretsController(FOUR, bots=bots, seed=seed, **kw)


def test_a_human_offers_and_a_bot_answers():
    ctl = human_vs_bots()
    st = ctl.widget.state
    assert st["viewer"] == "Ann" and st["is_human_turn"] and st["phase"] == "offer"
    assert [d["notation"] for d in st["decisions"]] == [str(a) for a in ctl.game.legal_actions()]
    offer = next(d["notation"] for d in st["decisions"] if d["notation"].endswith(" Bob"))
    ctl.send_action(offer)
    assert ctl.decider == "Bob" and not ctl.widget.state["is_human_turn"]     # no autoplay in plain Python
    assert ctl.step()
    actor, answer = ctl.game.history[-1] if ctl.game.history[-1][0] == "Bob" else \
        next((p, a) for p, a in ctl.game.history if p == "Bob")
    assert actor == "Bob" and str(answer) in ("accept", "refuse")
    assert f"Bob {answer}s." in ctl.widget.state["log"]
    since = ctl.widget.state["since_last_turn"]
    assert since[0] == f"Bob {answer}s.", since            # what happened since Ann's offer, her own line not in it
    assert not any(line.startswith("Ann offers") for line in since)


def test_the_table_speaks_to_a_player_called_you_and_explains_every_card():
    """Issue 24, item 3: "Your view", "You are", never "You's" or "You (you)"; each card's value and effect."""
    from heimlich_lab.games.secrets.widget_state import CARD_EFFECTS
    ctl = SecretsController(["You", "Bob", "Cy", "Dee"], bots={p: RandomBot(i) for i, p in enumerate(["Bob", "Cy", "Dee"])},
                            seed=3)
    st = ctl.widget.state
    text = json.dumps(st)
    assert st["label"] == "Your view" and "You's" not in text and "You (you)" not in text and "You is " not in text
    assert st["belief"]["title"].startswith("Your belief") and st["belief"]["rows"]["You"] == "You"
    assert st["headline"].endswith("Your decision: offer a card to another player")
    ref = {c["card"]: c for c in ctl.widget.setup["cards"]}
    assert set(ref) == set(CARD_EFFECTS) and ref["scientist"]["value"] == 5
    assert ref["assassin"]["text"].startswith("Assassin (0 points): draw the top bullet")
    docs = (ROOT / "docs" / "secrets.md").read_text()
    for card, effect in CARD_EFFECTS.items():       # the effects are docs/secrets.md's, word for word
        row = next(line for line in docs.splitlines() if line.startswith("| ") and f"(`{card}`)" in line)
        assert row.split("|")[4].strip().replace("*", "") == effect, card


def test_a_refused_click_shows_an_error_and_leaves_the_game_as_it_was():
    ctl = human_vs_bots()
    before = (list(ctl.game.history), synced(ctl.game))
    ctl.send_action("accept")
    assert ctl.widget.state["error"].startswith("accept")
    ctl.send_action("offer scientist Ann")
    assert "not legal" in ctl.widget.state["error"] or "offer" in ctl.widget.state["error"]
    assert (list(ctl.game.history), synced(ctl.game)) == before
    ctl.send_action(ctl.widget.state["decisions"][0]["notation"], player="Bob")
    assert "not Bob's" in ctl.widget.state["error"]


def test_a_whole_game_against_bots_by_clicks_replays_exactly():
    ctl = human_vs_bots(seed=11)
    for _ in range(500):
        if ctl.game.is_over:
            break
        st = ctl.widget.state
        if st["decisions"]:
            ctl.handle_message({"type": "action", "action": st["decisions"][-1]["notation"]})
        else:
            ctl.run_bots()
    st = ctl.widget.state
    assert st["is_over"] and st["winners"] == list(ctl.game.winners) and not ctl.playing
    assert [s["marker"] for s in st["seats"]] == [ctl.game.identities[p] for p in FOUR]   # revealed at the end
    assert secrets.SecretsRecord.from_json(ctl.record.to_json()).replay().history == ctl.game.history


def test_hot_seat_curtain_shows_public_facts_only():
    bots = {"Cy": RandomBot(1), "Dee": RandomBot(2)}
    ctl = SecretsController(FOUR, bots=bots, seed=5)
    st = ctl.widget.state
    assert st["curtain"].startswith("Hand the screen to Ann")
    assert st["decisions"] == [] and st["belief"] is None and st["viewer"] is None
    assert all(s["marker"] is None for s in st["seats"])          # a spectator of 4 players sees no marker
    n = len(ctl.game.history)
    ctl.send_action(str(ctl.game.legal_actions()[0]))
    assert "hand the screen to Ann" in ctl.widget.state["error"] and len(ctl.game.history) == n
    ctl.handle_message({"type": "curtain"})
    st = ctl.widget.state
    assert st["curtain"] is None and st["viewer"] == "Ann" and st["decisions"]
    assert st["seats"][0]["marker"] == ctl.game.identities["Ann"] and st["belief"]["observer"] == "Ann"
    ctl.send_action(next(d["notation"] for d in st["decisions"] if d["notation"].endswith(" Bob")))
    # Bob must answer: the screen changes hands
    assert ctl.decider == "Bob" and ctl.widget.state["curtain"].startswith("Hand the screen to Bob")
    ctl.reveal()
    st = ctl.widget.state
    assert st["viewer"] == "Bob" and {d["notation"] for d in st["decisions"]} == {"accept", "refuse"}
    assert st["offer"]["card"] is None                       # Ann's offered card stays hers until answered
    assert st["seats"][1]["marker"] == ctl.game.identities["Bob"]


def test_bots_alone_step_play_pause_and_the_omniscient_view():
    bots = {p: RandomBot(seed=i) for i, p in enumerate(FOUR)}
    ctl = SecretsController(FOUR, bots=bots, seed=2, viewer="omniscient")
    assert not ctl.playing and ctl.widget.state["autoplay"] == {"available": True, "playing": False, "speed_ms": 400}
    n = len(ctl.game.history)
    ctl.handle_message({"type": "control", "command": "step"})
    assert len(ctl.game.history) > n
    assert [s["marker"] for s in ctl.widget.state["seats"]] == [ctl.game.identities[p] for p in FOUR]
    assert ctl.widget.state["belief"] is None                  # omniscient is nobody's knowledge
    ctl.handle_message({"type": "control", "command": "play"})
    assert ctl.playing and ctl.widget.state["autoplay"]["playing"]
    ctl.handle_message({"type": "control", "command": "pause"})
    assert not ctl.playing
    ctl.run_bots()
    assert ctl.game.is_over and ctl.widget.state["is_over"]


def test_a_spectators_table_has_a_spectators_belief():
    bots = {p: RandomBot(seed=i) for i, p in enumerate(FOUR)}
    ctl = SecretsController(FOUR, bots=bots, seed=2)
    st = ctl.widget.state
    assert st["viewer"] is None and st["belief"]["observer"] is None
    assert st["belief"]["identities"]["Ann"]["Hippie"] == pytest.approx(0.2)   # 1 Hippie among 5 markers


def test_bad_arguments_are_refused_with_the_librarys_errors():
    with pytest.raises(HeimlichError, match="unknown player"):
        SecretsController(FOUR, bots={"Zed": RandomBot(1)})
    with pytest.raises(HeimlichError, match="choose"):
        SecretsController(FOUR, bots={"Bob": object()})
    with pytest.raises(WrongPlayer, match="viewer"):
        SecretsController(FOUR, bots={p: RandomBot(1) for p in FOUR}, viewer="Zed")
    with pytest.raises(HeimlichError, match="speed_ms"):
        SecretsController(FOUR, speed_ms="fast")
    with pytest.raises(HeimlichError, match="SecretsRecord"):
        SecretsReplay({"log": []})


def test_replay_opens_at_step_0_and_seeks():
    rec = secrets.play([RandomBot(i) for i in range(5)], seed=7)
    w = secrets.replay_in_notebook(rec, viewer="Ann")
    ctl = w.controller
    st = w.state
    assert st["replay"] == {"index": 0, "length": len(ctl.states)} and st["label"] == "Replay, Ann's view"
    assert st["turn"] == 1 and all(s["size"] == 0 for s in st["seats"]) and st["decisions"] == []
    assert set(st["belief"]["identities"]) == {*rec.players, "middle"}
    ctl.handle_message({"type": "control", "command": "step"})
    assert w.state["replay"]["index"] == 1
    ctl.handle_message({"type": "replay", "index": 10 ** 6})
    assert w.state["is_over"] and w.state["winners"] == rec.winners
    ctl.handle_message({"type": "replay", "index": "x"})     # ignored
    assert w.state["replay"]["index"] == len(ctl.states) - 1
    # the last step's belief is Belief.from_record's (the exact filter, before the reveal)
    want = Belief.from_record(rec, observer="Ann").identities()
    got = w.state["belief"]["identities"]
    assert all(got[s][t] == pytest.approx(want[s][t], abs=1e-4) for s in want for t in want[s])


def test_replay_as_spectator_and_omniscient():
    rec = secrets.play([RandomBot(i) for i in range(4)], seed=1)
    spec = SecretsReplay(rec)
    assert spec.widget.state["label"] == "Replay, a spectator (public information only)"
    omni = SecretsReplay(rec, viewer="omniscient")
    omni.seek(0)
    first = rec.replay(0)
    assert [s["marker"] for s in omni.widget.state["seats"]] == [first.identities[p] for p in rec.players]
    assert omni.widget.state["belief"] is None
    with pytest.raises(WrongPlayer):
        SecretsReplay(rec, viewer="Zed")


def test_the_front_end_is_shipped_in_the_wheel():
    assert (static_dir() / "table.bundle.js").is_file() and (static_dir() / "table.css").is_file()
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]["wheel"][
        "force-include"]
    assert include["widgets/secrets/table.bundle.js"] == "heimlich_lab/games/secrets/static/table.bundle.js"
    assert include["widgets/secrets/table.css"] == "heimlich_lab/games/secrets/static/table.css"


def test_an_installed_wheel_loads_its_own_table(tmp_path):
    for f in ("table.bundle.js", "table.css"):
        assert not re.search(r"https?://", (ROOT / "widgets" / "secrets" / f).read_text()), f"{f}: no outside URL"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--wheel-dir", str(tmp_path), str(ROOT)], check=True, capture_output=True, timeout=300)
    (whl,) = tmp_path.glob("heimlich_lab-*.whl")
    with zipfile.ZipFile(whl) as z:
        assert z.read("heimlich_lab/games/secrets/static/table.bundle.js").decode() == (ROOT / "widgets/secrets/table.bundle.js").read_text()
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", "--target", str(site),
                    str(whl)], check=True, capture_output=True, timeout=300)
    out = subprocess.run([sys.executable, "-c", "from heimlich_lab.secrets.widget import static_dir; print(static_dir())"],
                         cwd=tmp_path, env={"PYTHONPATH": str(site), "PATH": ""}, capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip() == str(site / "heimlich_lab" / "games" / "secrets" / "static"), out.stderr[-2000:]


def test_the_belief_panel_can_read_choices_with_a_player_model():
    rec = secrets.play([RandomBot(i) for i in range(5)], seed=4)
    model = secrets.SecretsModel()
    replay = SecretsReplay(rec, viewer="Bob", model=model)
    replay.seek(10 ** 6)
    want = Belief.from_record(rec, observer="Bob", model=model).identities()
    plain = Belief.from_record(rec, observer="Bob").identities()
    got = replay.widget.state["belief"]["identities"]
    assert all(got[s][t] == pytest.approx(want[s][t], abs=1e-4) for s in want for t in want[s])
    assert any(abs(want[s][t] - plain[s][t]) > 1e-3 for s in want for t in want[s])   # the model made a difference
    live = SecretsController(FOUR, bots={p: RandomBot(i) for i, p in enumerate(FOUR[1:])}, seed=3, model=model)
    assert live.beliefs["Ann"].model is model


def test_the_headline_is_the_most_informative_update_since_the_viewers_last_turn_never_their_own():
    """Issue 24, item 4: the belief panel's headline, for Secrets (its own wording, the shell shows it)."""
    from heimlich_lab.games.secrets.model import SecretsModel
    from heimlich_lab.games.secrets.widget_state import GLOSSARY
    from heimlich_lab.widget.story import information_bits
    ctl = human_vs_bots(seed=3, model=SecretsModel())
    told = []
    for _ in range(120):
        s = ctl.widget.state
        if not s["is_human_turn"]:
            if not ctl.step():
                break
            continue
        b, history = s["belief"], ctl.beliefs["Ann"].posterior.history
        since = ctl._turn_ends.get("Ann", 0)
        others = [u for u in history[since:] if not (u.label.startswith("Ann ") or u.label.startswith("you "))]
        gain = [max(float(information_bits(u.marginals_before[r], u.marginals_after[r]).max())
                    for r in range(len(u.marginals_before))) for u in others]
        h = b["headline"]
        if not gain or max(gain) <= 0.01:
            assert h["text"] == ("Nothing has changed the belief much since Ann's last turn." if since
                                 else "Nothing has changed the belief much yet.")
        else:
            best = others[gain.index(max(gain))]
            assert h["text"].startswith(best.label + ": ") and h["bits"] == round(max(gain), 4)
            assert f"({h['before']:.2f} \u2192 {h['after']:.2f})" in h["text"]
            told.append(h["text"])
        assert not h["text"].startswith(("Ann ", "you ")) and "P(" not in h["text"] and " middle is " not in h["text"]
        assert b["glossary"] == [dict(g) for g in GLOSSARY]
        ctl.send_action(s["decisions"][0]["notation"])
    assert len(set(told)) >= 3 and any(" more likely if " in t for t in told)
    assert set(ctl._turn_ends) == {"Ann"}       # Ann's turns ended and the story started anew
