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
