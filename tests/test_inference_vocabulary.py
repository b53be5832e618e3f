"""One inference vocabulary across games: one reader protocol, one marginals type, a public Belief API."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from heimlich_lab import Belief, Rules, play, secrets
from heimlich_lab.bots import RandomBot
from heimlich_lab.errors import ModelError
from heimlich_lab.inference import (BeliefSet, DecisionReader, IndependentBelief, Marginals, PointsShareBelief,
                                    ViewFollower, read_all)
from heimlich_lab.inference.dossier import DossierNoteWriter, dossier_notes
from heimlich_lab.inference.likelihoods import PushModel, ask_model
from heimlich_lab.rules.actions import Action
from heimlich_lab.rules.replay import public_decisions
from heimlich_lab.games.secrets import transcript as secrets_transcript
from heimlich_lab.transcript import TranscriptWriter, transcript
import heimlich_lab.games.secrets.transcript as secrets_transcript

PLAYERS = ("Ann", "Bob", "Cy")


@pytest.fixture(scope="module")
def rec():
    return play(Rules(top_secret=True), {p: RandomBot(i) for i, p in enumerate(PLAYERS)}, seed=4)


@pytest.fixture(scope="module")
def srec():
    return secrets.play([secrets.RandomBot(i) for i in range(5)], seed=2)


def test_every_reader_of_both_games_follows_the_one_protocol(rec, srec):
    model = PushModel(0.5)
    agents = rec.rules.agents_for(3)
    own = rec.deal["Bob"]
    readers = [Belief(PLAYERS, agents, "Bob", model, own), IndependentBelief(PLAYERS, agents, "Bob", model, own),
               PointsShareBelief(PLAYERS, agents, "Bob", own), DossierNoteWriter("Bob"), TranscriptWriter("Bob"),
               secrets.Belief(srec.players, "Ann"), secrets_transcript.TranscriptWriter("Ann")]
    assert all(isinstance(r, DecisionReader) for r in readers)
    assert isinstance(readers[0], ViewFollower) and isinstance(readers[5], ViewFollower)
    assert not isinstance(object(), DecisionReader)


def test_feeding_a_heimlich_stream_to_each_reader_gives_what_each_builder_gives(rec):
    model = PushModel(0.5)
    agents = rec.rules.agents_for(3)
    own = rec.deal["Cy"]
    stream = list(public_decisions(rec.as_player("Cy"), "Cy"))
    fed = read_all(Belief(PLAYERS, agents, "Cy", model, own), stream)
    np.testing.assert_array_equal(np.asarray(fed.marginals()),
                                  np.asarray(Belief.from_record(rec.as_player("Cy"), "Cy", model).marginals()))
    np.testing.assert_array_equal(read_all(IndependentBelief(PLAYERS, agents, "Cy", model, own), stream)
                                  .marginals_array(), IndependentBelief.from_record(rec, "Cy", model).marginals_array())
    np.testing.assert_array_equal(read_all(PointsShareBelief(PLAYERS, agents, "Cy", own), stream).marginals_array(),
                                  PointsShareBelief.from_record(rec, "Cy").marginals_array())
    assert read_all(TranscriptWriter("Cy"), stream).lines == transcript(rec, "Cy")
    assert [str(n) for n in read_all(DossierNoteWriter("Cy"), stream).notes()] == \
        [str(n) for n in dossier_notes(rec, "Cy")]


def test_feeding_a_secrets_stream_to_each_reader_gives_what_each_builder_gives(srec):
    game = srec.replay()
    for obs in ("Bob", None):
        log = game.view(obs).log[:-1]           # the belief stops before the final reveal
        fed = read_all(secrets.Belief(srec.players, obs, srec.rules, secrets.SecretsModel(p_team=0.6)), log)
        built = secrets.Belief.from_record(srec, obs, secrets.SecretsModel(p_team=0.6))
        np.testing.assert_array_equal(np.asarray(fed.marginals()), np.asarray(built.marginals()))
        assert fed.seen == len(log)
        writer = read_all(secrets_transcript.TranscriptWriter(obs), game.view(obs).log)
        assert writer.lines == secrets_transcript.transcript(srec, obs)


def test_marginals_are_one_labelled_type_in_every_game(rec, srec):
    tables = {"heimlich": Belief.from_record(rec, "Ann", PushModel(0.5)).marginals(),
              "independent": IndependentBelief.from_record(rec, "Ann", PushModel(0.5)).marginals(),
              "points": PointsShareBelief.from_record(rec, "Ann").marginals(),
              "secrets": secrets.Belief.from_record(srec, "Ann").marginals()}
    for name, m in tables.items():
        assert type(m) is Marginals, name
        arr = np.asarray(m)
        assert arr.shape == (len(m.rows), len(m.columns))
        first, col = m.rows[0], m.columns[-1]
        assert m[first][col] == arr[0, -1] == m.table.loc[first, col] == m.T[col][first]
        assert isinstance(m.table, pd.DataFrame) and "<table" in m._repr_html_()
        assert dict(m) == m.to_dict() and sorted(m) == sorted(m.rows)
    h, s = tables["heimlich"], tables["secrets"]
    assert h.rows == (*PLAYERS, "free") and h.columns == rec.rules.agents_for(3)
    assert s.rows == secrets.TEAMS and s.columns == (*srec.players, secrets.MIDDLE)
    assert sum(h["Bob"].values()) == pytest.approx(1.0)
    assert np.asarray(s).sum(axis=0) == pytest.approx(np.ones(6))
    with pytest.raises(KeyError):
        h["Zed"]
    with pytest.raises(ModelError):
        Marginals(np.zeros((2, 2)), ["a"], ["x", "y"])


def test_the_belief_api_updates_snapshots_and_refuses_bad_values(rec):
    agents = rec.rules.agents_for(3)
    b = Belief(PLAYERS, agents, "Ann", PushModel(0.5), rec.deal["Ann"])
    d = next(d for d in public_decisions(rec, "Ann") if d.actor == "Bob" and d.action.kind == "move")
    v = ask_model(b.model, d.view, "Bob", d.action, len(agents))
    mark, before = b.snapshot(), b.marginals()
    step = b.update_with("Bob", d.action, v, "Bob moved", d.index, d.turn)
    assert step.kind == "observation" and b.marginals() != before
    b.restore(mark)
    assert b.marginals() == before and b.history == []
    with pytest.raises(ModelError, match="one log-likelihood per agent"):
        b.update_with("Bob", d.action, v[:-1])
    with pytest.raises(ModelError, match="impossible"):
        b.update_with("Bob", Action.parse("move red+1"), np.full(len(agents), -np.inf))
    assert b.marginals() == before and b.history == []
    with pytest.raises(ModelError, match="type tables"):
        b.receive_type_table("Bob", np.zeros((1, 1, len(agents))))
    assert b.type_table_prior() is None
    lazy = BeliefSet(PLAYERS, agents, {"Ann": [rec.deal["Ann"]]}, keep_updates=False)["Ann"]
    assert lazy.type_table_prior() is not None


def test_a_take_is_public_too(rec):
    agents = rec.rules.agents_for(3)
    b = Belief(PLAYERS, agents, "Ann", PushModel(0.5), rec.deal["Ann"])
    step = b.take("Bob", index=7)
    assert step.kind == "refine" and step.index == 7 and len(b.space) > 6
