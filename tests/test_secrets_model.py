"""The Secrets player model: exact under the model (brute force over deals and hidden sides, each weighted by
the model's probability of every choice it reads), normalized, and informative on team players' games."""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab.errors import ModelError
from heimlich_lab.secrets import MIDDLE, TEAMS, Belief, SecretsModel, TeamBot, play_game
from heimlich_lab.secrets.model import decision_utilities
from test_secrets_belief import DEAL, PLAYERS, SCRIPT, consistent_worlds, run

READ = ("offer", "accept", "refuse", "interrupt", "allow", "give", "shoot")


def model_weight(deal: str, script: list[str], observer: str | None, model: SecretsModel) -> float:
    """log P(every choice of the others that the model reads | this deal and these sides), step by step."""
    g = run(deal, [])
    total = 0.0
    for text in script:
        decider = g.current_player
        if decider is not None and decider != observer and text.split()[0] in READ:
            legal = list(g.legal_actions())
            row = np.array([[TEAMS.index(g.identities[s]) for s in g.slots]])
            u = decision_utilities(row, g.players, g.players.index(decider), legal, rules=g.rules,
                                   tableaux=g.tableaux, candidates=g.candidates, offerer=g.active_player,
                                   target=None if g.offer is None else g.offer[1])
            total += float(model.choice_loglik(u, [str(a) for a in legal].index(text))[0])
        g.apply(text)
    return total


@pytest.mark.parametrize("observer", ["Ann", "Bob", "Dee", None])
def test_the_model_belief_equals_brute_force_under_the_model(observer):
    model = SecretsModel(beta=0.7, epsilon=0.2)
    actual = run(DEAL, SCRIPT)
    weights: dict[tuple, float] = {}
    for deal, script, g, prior in consistent_worlds(observer):
        key = tuple(g.identities.items())
        weights[key] = weights.get(key, 0.0) + np.exp(model_weight(deal, script, observer, model)) * float(prior)
    z = sum(weights.values())
    got = Belief.for_game(actual, observer, model=model).identities()
    for s in PLAYERS + [MIDDLE]:
        for t in TEAMS:
            want = sum(w for key, w in weights.items() if dict(key)[s] == t) / z
            assert got[s][t] == pytest.approx(want, abs=1e-10), (observer, s, t)


def test_choice_probabilities_sum_to_one_in_every_hypothesis():
    model = SecretsModel(beta=2.0, epsilon=0.05)
    u = np.random.default_rng(1).normal(size=(7, 5))
    total = np.exp(np.stack([model.choice_loglik(u, k) for k in range(5)])).sum(axis=0)
    assert total == pytest.approx(np.ones(7))
    with pytest.raises(ModelError):
        SecretsModel(beta=-1)


def test_reading_choices_sharpens_the_belief_in_games_of_team_players():
    def mean_log_loss(model):
        losses = []
        for s in range(12):
            g = play_game([TeamBot(10 * s + i) for i in range(6)], seed=s)
            truth = g.record.final_identities
            for p in g.players:
                ident = Belief.from_record(g.record, observer=p, model=model).identities()
                losses += [-np.log(max(ident[slot][truth[slot]], 1e-15)) for slot in ident]
        return float(np.mean(losses))
    hard, soft = mean_log_loss(None), mean_log_loss(SecretsModel())
    assert soft < 0.8 * hard, (hard, soft)
