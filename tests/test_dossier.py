"""Tests for the automated Secret Dossier (heimlich_lab.inference.dossier, heimlich_lab.bots.dossier)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from heimlich_lab import Game, Position, Rules, play_game
from heimlich_lab.bots import BoltzmannBot, GreedyBot
from heimlich_lab.bots.dossier import belief_for_view, choose_dossier_entry
from heimlich_lab.errors import ModelError
from heimlich_lab.inference.belief import Belief, IndependentBelief, PushModel
from heimlich_lab.inference.dossier import (NOTE_KINDS, DossierNotes, best_matching_sheet, dossier_notes,
                                            expected_correct, secret_dossier)
from heimlich_lab.inference.model import BoltzmannModel

P3 = ["Ann", "Bob", "Cy"]
P4 = ["Ann", "Bob", "Cy", "Dee"]


def boltzmann_game(players, seed, rules=None):
    return play_game(rules or Rules(), {p: BoltzmannBot(seed=seed * 100 + i) for i, p in enumerate(players)},
                     seed=seed)


# --------------------------------------------------------------------------- notes


@pytest.fixture(scope="module")
def scripted():
    """Bob: no ruins, no scoring although both were possible; Cy: green to the ruins, no scoring;
    Ann: green out of the ruins and red onto the safe (a scoring)."""
    start = Position(positions={"grey": 9, "yellow": 2, "orange": 0, "red": 5, "green": 10, "blue": 1},
                     owners={"Ann": "red", "Bob": "grey", "Cy": "blue"}, safe=7, active="Bob",
                     decision="move", die="3", points=3)
    g = Game(P3, chance="manual", start=start)
    for a in ["move yellow+3", "roll 2", "move green+1 red+1", "roll 2", "move red+1 green+1", "safe 3"]:
        g.apply(a)
    return g


def test_notes_of_a_scripted_game(scripted):
    notes = dossier_notes(scripted, None)
    assert isinstance(notes, DossierNotes)
    got = [(n.kind, n.player, n.agents) for n in notes]
    assert got == [
        ("ruins_declined", "Bob", ("grey", "green")),
        ("scoring_declined", "Bob", ("red",)),
        ("to_ruins", "Cy", ("green",)),
        ("scoring_declined", "Cy", ("yellow", "red")),
        ("from_ruins", "Ann", ("green",)),
        ("ruins_declined", "Ann", ("grey",)),
        ("scoring", "Ann", ("grey", "red", "yellow", "blue")),
        ("support", "Bob", ("yellow",)),
        ("support", "Cy", ("red", "green")),
        ("support", "Ann", ("red", "green")),
    ]
    scoring = notes.of_kind("scoring")[0]
    assert scoring.text == ("Turn 3: Ann created a scoring (red at the safe); "
                            "profited: grey +9, red +7, yellow +5, blue +1")
    assert scoring.data["triggers"] == ["red"]
    assert notes.of_kind("support")[0].data == {"points": {"yellow": 3}, "total": 3}
    by_agent = notes.by_agent()
    assert [n.kind for n in by_agent["green"]] == ["ruins_declined", "to_ruins", "from_ruins", "support", "support"]
    assert set(notes.by_player()) == set(P3)
    assert all(n.kind in NOTE_KINDS for n in notes)
    assert "Cy moved green to the ruins" in notes.text()


def test_notes_leave_out_the_observers_own_decisions(scripted):
    ann = dossier_notes(scripted, "Ann")
    assert {n.player for n in ann} == {"Bob", "Cy"}
    assert len(dossier_notes(scripted, "Ann", include_own=True)) == len(dossier_notes(scripted, None))


def test_notes_from_any_source_agree():
    g = boltzmann_game(P4, 3, Rules(top_secret=True))
    rec = g.record
    ref = [n.text for n in dossier_notes(rec, "Bob", until="dossier")]
    assert ref and {n.kind for n in dossier_notes(rec, "Bob")} >= {"support", "scoring"}
    assert [n.text for n in dossier_notes(rec.as_player("Bob"), "Bob", until="dossier")] == ref
    assert [n.text for n in dossier_notes(g, "Bob", until="dossier")] == ref
    assert [n.text for n in dossier_notes(rec.public(), None)] == [n.text for n in dossier_notes(rec, None)]
    card_notes = [n for n in dossier_notes(rec, None) if n.data.get("card")]
    assert card_notes, "Top Secret cards move agents to and from the ruins"


def _ts_game(positions, hands):
    """A manual-chance Top Secret game: Ann active and to move 2 points, the safe on 7 (docs/rules.md#set-up)."""
    rules = Rules(top_secret=True)
    start = Position(positions={c: 0 for c in rules.agents_for(3)} | positions,
                     owners={"Ann": "red", "Bob": "blue", "Cy": "green"}, safe=7, active="Ann", decision="move",
                     die="2", hands={p: [] for p in P3} | hands)
    return Game(P3, rules=rules, chance="manual", start=start)


def _announce(g, yes):
    while g.phase == "announce":
        p = g.current_player
        g.apply("announce yes" if p in yes else "announce no", player=p)


def _scorings(g, observer, **kw):
    return [(n.player, n.data["triggers"], n.text) for n in dossier_notes(g, observer, **kw).of_kind("scoring")]


def test_top_secret_a_card_of_a_non_active_player_creates_the_scoring():
    """Ann moves grey (no trigger); Bob, not active, plays "to the safe" on red: Bob created the scoring."""
    g = _ts_game({"red": 3}, {"Bob": ["tosafe"]})
    g.apply("move grey+2")
    _announce(g, yes={"Bob"})
    g.apply("play tosafe red")
    g.apply("done")
    assert g.phase == "safe" and g.scores["red"] == 7
    want = [("Bob", ["red"], "Turn 1: Bob created a scoring (red at the safe); profited: red +7, grey +2")]
    for source, observer in ((g, None), (g, "Cy"), (g.record.as_player("Ann"), "Ann"), (g.record.public(), None)):
        assert _scorings(source, observer) == want
    assert _scorings(g, "Bob") == []                                  # one's own notes are left out
    assert _scorings(g, "Bob", include_own=True) == want


def test_top_secret_triggers_of_the_mover_and_of_a_card_are_credited_apart():
    g = _ts_game({"red": 5, "blue": 3}, {"Bob": ["tosafe"]})
    g.apply("move red+2")                                            # Ann: red on the safe
    _announce(g, yes={"Bob"})
    g.apply("play tosafe blue")                                      # Bob: blue on the safe
    g.apply("done")
    assert g.scores["red"] == 7 and g.scores["blue"] == 7
    assert [(who, trig) for who, trig, _ in _scorings(g, "Cy")] == [("Ann", ["red"]), ("Bob", ["blue"])]


def test_top_secret_a_cancelled_trigger_creates_no_scoring():
    g = _ts_game({"red": 5}, {"Bob": ["step1"]})
    g.apply("move red+2")                                            # Ann: red on the safe, a trigger
    _announce(g, yes={"Bob"})
    g.apply("play step1 red+1")                                      # Bob moves red off: cancelled
    g.apply("done")
    assert g.phase == "roll" and g.triggers == [] and not any(g.scores.values())
    for observer in (None, "Bob", "Cy"):
        assert _scorings(g, observer, include_own=True) == []
        assert not any("created a scoring" in n.text for n in dossier_notes(g, observer, include_own=True))


def test_top_secret_a_cancelled_trigger_is_not_credited_when_another_card_scores():
    """Ann's trigger is cancelled by Bob's card; Cy's card then puts blue on the safe: only Cy created it."""
    g = _ts_game({"red": 5, "blue": 3}, {"Bob": ["step1"], "Cy": ["tosafe"]})
    g.apply("move red+2")
    _announce(g, yes={"Bob", "Cy"})
    g.apply("play step1 red+1")
    g.apply("done")
    g.apply("play tosafe blue")
    g.apply("done")
    while g.phase == "round":
        g.apply("pass")
    assert g.phase == "safe" and g.scores["blue"] == 7
    for observer in (None, "Ann", "Bob"):
        got = _scorings(g, observer)
        assert [(who, trig) for who, trig, _ in got] == [("Cy", ["blue"])]
        assert not any("Ann created" in n.text for n in dossier_notes(g, observer, include_own=True))


# --------------------------------------------------------------------------- the sheet


@pytest.fixture(scope="module", params=[(P3, "Ann"), (P4, "Cy")])
def belief(request):
    players, observer = request.param
    rec = play_game(Rules(), {p: BoltzmannBot(beta=0.5, seed=i) for i, p in enumerate(players)}, seed=7).record
    return Belief.from_record(rec, observer, model=PushModel(0.3), until=25)


def _options(b):
    return [p for p in b.players if p != b.observer] + ["free"]


def _expected(b, sheet):
    m = b.marginals()
    return sum(m[w][a] for a, w in sheet.items())


def test_secret_dossier_maximises_expected_correct_entries(belief):
    b = belief
    agents = [a for a in b.agents if a not in b.own_agents]
    best = max(_expected(b, dict(zip(agents, names))) for names in itertools.product(_options(b), repeat=len(agents)))
    sheet = secret_dossier(b)
    assert sorted(sheet) == sorted(agents)
    assert expected_correct(b, sheet) == pytest.approx(_expected(b, sheet))
    assert expected_correct(b, sheet) == pytest.approx(best, abs=1e-12)


def test_best_matching_sheet_is_the_best_one_to_one_sheet(belief):
    b = belief
    agents = [a for a in b.agents if a not in b.own_agents]
    opp = [p for p in b.players if p != b.observer]
    best = -1.0
    for chosen in itertools.permutations(agents, len(opp)):
        sheet = {a: "free" for a in agents} | dict(zip(chosen, opp))
        best = max(best, _expected(b, sheet))
    sheet, value = best_matching_sheet(b)
    assert sorted(sheet) == sorted(agents)
    assert sorted(w for w in sheet.values() if w != "free") == sorted(opp)
    assert value == pytest.approx(best, abs=1e-12)
    assert value == pytest.approx(expected_correct(b, sheet))
    assert value <= expected_correct(b, secret_dossier(b)) + 1e-12


def test_sheet_of_a_baseline_and_errors():
    rec = boltzmann_game(P3, 2).record
    ib = IndependentBelief.from_record(rec, "Bob", model=BoltzmannModel(), until="dossier")
    sheet = secret_dossier(ib)
    assert rec.deal["Bob"] not in sheet and set(sheet.values()) <= {"Ann", "Cy", "free"}
    b = Belief.from_record(rec, "Bob", model=BoltzmannModel(), until="dossier")
    with pytest.raises(ModelError):
        expected_correct(b, {"purple": "Ann"})
    with pytest.raises(ModelError):
        expected_correct(b, {"red": "Zed"})
    with pytest.raises(ModelError):
        secret_dossier("not a belief")


# --------------------------------------------------------------------------- the bots' entries


@pytest.mark.parametrize("rules", [Rules(dossier=True), Rules(dossier=True, top_secret=True)])
def test_bots_write_the_sheet_of_their_exact_belief(rules):
    bots = {"Ann": BoltzmannBot(seed=1), "Bob": GreedyBot(seed=2), "Cy": BoltzmannBot(seed=3), "Dee": GreedyBot(4)}
    g = play_game(rules, bots, seed=9)
    rec = g.record
    for p in P4:
        b = Belief.from_record(rec, p, model=BoltzmannModel(), until="dossier")
        assert g.dossier_sheets[p] == secret_dossier(b)


def test_choose_dossier_entry_from_the_view_only():
    rules = Rules(dossier=True)
    g1 = Game(P3, rules=rules, seed=4)
    g2 = Game(P3, rules=rules, seed=5)
    bots = {p: BoltzmannBot(seed=i) for i, p in enumerate(P3)}
    model = BoltzmannModel()
    # two games advanced side by side: the cached beliefs must not mix them up
    while not (g1.phase == "dossier" and g2.phase == "dossier"):
        for g in (g1, g2):
            if g.phase != "dossier":
                p = g.current_player
                g.apply(bots[p].choose(g.view(p), g.legal_actions()))
            v = g.view("Bob")
            belief_for_view(v, model)
    for g in (g1, g2):
        p = g.current_player
        legal = g.legal_actions()
        act = choose_dossier_entry(g.view(p), legal, model, np.random.default_rng(0))
        assert act in legal
        ref = Belief.from_record(g.record.as_player(p), p, model=model)
        np.testing.assert_allclose(belief_for_view(g.view(p), model).marginals_array(), ref.marginals_array(),
                                   atol=1e-12)
        assert act.args[1] == secret_dossier(ref)[act.args[0]]
    np.testing.assert_allclose(belief_for_view(g1.view("Bob"), model).marginals_array(),
                               Belief.for_game(g1, "Bob", model=model).marginals_array(), atol=1e-12)
