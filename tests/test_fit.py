"""Fitting beta (and epsilon) by maximum likelihood: parameter recovery, the likelihood itself, errors."""
from __future__ import annotations

import math

import numpy as np
import pytest

from heimlich_lab import Game, ModelError, RecordError, Rules, play
from heimlich_lab.bots import BoltzmannBot, GreedyBot
from heimlich_lab.inference.fit import FitResult, decision_data, fit_boltzmann, log_likelihood
from heimlich_lab.inference.model import BoltzmannModel
from heimlich_lab.inference.utility import PublicState, card_plays
from heimlich_lab.rules.game import CHANCE

PLAYERS = ("A", "B", "C", "D", "E")


def simulate(beta, n_games, epsilon=0.05, rules=None, players=PLAYERS, seed0=0):
    return [play(rules or Rules(), {p: BoltzmannBot(beta=beta, epsilon=epsilon, seed=1000 * (seed0 + s) + i)
                                    for i, p in enumerate(players)}, seed=seed0 + s)
            for s in range(n_games)]


@pytest.fixture(scope="module")
def data_beta1():
    return decision_data(simulate(1.0, 30))


@pytest.fixture(scope="module")
def data_beta3():
    return decision_data(simulate(3.0, 30, seed0=500))


def test_parameter_recovery(data_beta1):
    res = fit_boltzmann(data_beta1)
    # 30 five-player games give ~1,200 informative decisions (points, moves, safe moves). The profile 95%
    # interval for beta is then about +-0.06 wide; the CI must cover the true value, and the estimate must be
    # within 0.15 of it (about 5 standard errors: a failure means a bias, not bad luck).
    assert res.n_decisions > 800
    assert res.ci_beta[0] <= 1.0 <= res.ci_beta[1]
    assert abs(res.beta - 1.0) < 0.15
    assert res.ci_beta[1] - res.ci_beta[0] < 0.3
    # epsilon is harder (a tremble is rare and often looks like a plausible choice): a wide interval
    assert res.ci_epsilon[0] <= 0.05 <= res.ci_epsilon[1]
    assert 0 <= res.epsilon < 0.2
    # with epsilon fixed at the truth
    fixed = fit_boltzmann(data_beta1, epsilon=0.05)
    assert fixed.ci_beta[0] <= 1.0 <= fixed.ci_beta[1] and fixed.epsilon == 0.05
    assert fixed.ci_epsilon == (0.05, 0.05)


def test_a_different_beta_gives_a_clearly_different_estimate(data_beta1, data_beta3):
    r1 = fit_boltzmann(data_beta1, epsilon=0.05)
    r3 = fit_boltzmann(data_beta3, epsilon=0.05)
    assert r3.ci_beta[0] <= 3.0 <= r3.ci_beta[1]
    assert abs(r3.beta - 3.0) < 0.45          # same reasoning as above, relative (higher beta: larger s.e.)
    assert r1.ci_beta[1] < r3.ci_beta[0]      # the intervals do not overlap


def test_the_estimate_maximises_the_likelihood_and_the_interval_is_the_profile(data_beta1):
    res = fit_boltzmann(data_beta1)
    ll = res.log_likelihood
    assert ll == pytest.approx(log_likelihood(data_beta1, res.beta, res.epsilon))
    for b in (0.5, 0.9, 1.1, 2.0):
        for e in (0.0, 0.02, 0.1, 0.3):
            assert log_likelihood(data_beta1, b, e) <= ll + 1e-6
    # at the interval's ends the profile likelihood is chi2(1, 95%)/2 = 1.92 below the maximum
    for b in res.ci_beta:
        ls = data_beta1.log_softmax(b)
        prof = max(data_beta1.log_likelihood_from(ls, e) for e in np.linspace(0, 0.3, 301))
        assert ll - prof == pytest.approx(1.92, abs=0.02)


def test_log_likelihood_agrees_with_the_model_decision_by_decision():
    """The vectorized likelihood equals the model's, summed over decisions (two-agent actors: mean over agents).

    The fit scores the decisions whose options are public: points, moves, safe, and the targets of a card
    given the card, i.e. the model's P(card + targets) / P(card) = P(play) / sum of P over that card's plays."""
    recs = simulate(0.8, 6, epsilon=0.1, rules=Rules(top_secret=True), players=("A", "B", "C"), seed0=40)
    data = decision_data(recs)
    assert not data.single, "no player took a second agent in these games: pick other seeds"
    for beta, eps in ((0.8, 0.1), (2.0, 0.0), (0.3, 0.5)):
        model = BoltzmannModel(beta=beta, epsilon=eps)
        total, n = 0.0, 0
        for rec in recs:
            for k, g in rec.games():
                if k >= len(rec.log) or rec.log[k].actor == CHANCE:
                    continue
                e = rec.log[k]
                if e.action.kind in ("announce", "pass", "done"):
                    continue
                v = g.view(None)
                ll = model.agent_log_likelihoods(v, e.actor, e.action)
                if ll is None:
                    continue
                if e.action.kind == "play":
                    plays = card_plays(PublicState.from_view(v), e.action.args[0])
                    if len(plays) == 1:
                        continue
                    ll = ll - np.log(sum(np.exp(model.agent_log_likelihoods(v, e.actor, x)) for x in plays))
                total += math.log(np.mean([math.exp(ll[g.agents.index(c)]) for c in g.owners[e.actor]]))
                n += 1
        assert n == data.n_decisions
        assert log_likelihood(data, beta, eps) == pytest.approx(total, rel=1e-9)


def test_fit_result_is_readable_and_gives_a_model(data_beta1):
    res = fit_boltzmann(data_beta1, epsilon=0.05)
    text = repr(res)
    assert text.startswith("FitResult(beta=") and "epsilon=0.05 (fixed)" in text and "n_decisions=" in text
    assert isinstance(res, FitResult)
    m = res.model()
    assert isinstance(m, BoltzmannModel) and m.beta == res.beta and m.epsilon == 0.05


def test_greedy_players_look_very_rational():
    recs = [play(Rules(), {p: GreedyBot(seed=10 * s + i) for i, p in enumerate(PLAYERS)}, seed=s) for s in range(4)]
    res = fit_boltzmann(recs)
    assert res.beta > 3.0        # a greedy player is the beta -> infinity limit (ties and softness aside)


def test_fit_needs_finished_full_records():
    rec = play(Rules(), {"A": BoltzmannBot(seed=1), "B": BoltzmannBot(seed=2)}, seed=1)
    with pytest.raises(RecordError, match="finished full records"):
        fit_boltzmann([rec.public()])
    g = Game(["A", "B"], seed=3)
    g.apply(g.legal_actions()[0])
    with pytest.raises(RecordError, match="unfinished"):
        fit_boltzmann([g.record])
    with pytest.raises(RecordError, match="GameRecord"):
        fit_boltzmann(["not a record"])
    with pytest.raises(ModelError, match="nothing to fit"):
        fit_boltzmann([])
    with pytest.raises(ModelError, match="level"):
        fit_boltzmann([rec], level=1.5)
    with pytest.raises(ModelError, match="epsilon"):
        fit_boltzmann([rec], epsilon=2.0)
