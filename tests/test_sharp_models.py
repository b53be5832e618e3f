"""Beliefs with sharp models (issue 23, item 9): any finite beta works (the card table in log space where it
would underflow), the log-space sums equal the plain ones for ordinary betas, and models refuse bad parameters
when they are made."""
from __future__ import annotations

import math

import numpy as np
import pytest

import heimlich_lab.inference.model as model_module
import heimlich_lab.inference.player_types as types_module
from heimlich_lab import Rules, play
from heimlich_lab.bots import GreedyBot, RandomBot
from heimlich_lab.errors import ModelError
from heimlich_lab.inference.belief import Belief
from heimlich_lab.inference.model import BoltzmannModel
from heimlich_lab.inference.player_types import PlayerPopulation, PlayerType


def _records(n: int, players=("Ann", "Bob", "Cy")):
    bots = (RandomBot, GreedyBot, RandomBot)
    return [play(Rules(top_secret=True), {p: b(seed * 10 + i) for i, (p, b) in enumerate(zip(players, bots))},
                 seed=seed) for seed in range(n)]


def _marginals(rec, observer, model) -> np.ndarray:
    m = Belief.from_record(rec, observer, model=model).marginals()
    return np.array([v for who in sorted(m) for _, v in sorted(m[who].items())])


def test_a_sharp_boltzmann_model_reads_top_secret_games_without_nan():
    for rec in _records(6):
        for observer in ("Ann", None):
            got = _marginals(rec, observer, BoltzmannModel(beta=30, epsilon=0.05))
            assert np.isfinite(got).all() and (got >= 0).all() and (got <= 1 + 1e-12).all()


def test_any_finite_beta_works():
    rec = _records(3)[2]
    for beta in (200.0, 1e6):
        got = _marginals(rec, "Bob", BoltzmannModel(beta=beta, epsilon=0.05))
        assert np.isfinite(got).all()
        try:    # without a tremble a choice the model gives no chance is impossible: said so, never NaN
            assert np.isfinite(_marginals(rec, "Bob", BoltzmannModel(beta=beta, epsilon=0.0))).all()
        except ModelError as e:
            assert "impossible" in str(e) and "NaN" not in str(e)


@pytest.mark.parametrize("beta, epsilon", [(0.5, 0.05), (1.0, 0.05), (3.0, 0.2), (1.0, 0.0)])
def test_the_log_space_card_table_gives_the_same_beliefs_for_ordinary_betas(monkeypatch, beta, epsilon):
    """Old (sums of exp) against new (log-space sums, forced everywhere): equal to 1e-12 on fixed seeds."""
    records = _records(4)
    plain = [_marginals(r, o, BoltzmannModel(beta=beta, epsilon=epsilon)) for r in records for o in ("Ann", None)]
    monkeypatch.setattr(model_module, "UNDERFLOW", math.inf)           # every hand through the log path
    logs = [_marginals(r, o, BoltzmannModel(beta=beta, epsilon=epsilon)) for r in records for o in ("Ann", None)]
    assert max(float(np.abs(a - b).max()) for a, b in zip(plain, logs)) < 1e-12


def test_a_population_with_a_sharp_type_reads_top_secret_games_and_agrees_on_ordinary_types(monkeypatch):
    sharp = PlayerPopulation([PlayerType("boltzmann", 30.0, 0.05), PlayerType("random", 0.0, 0.0)])
    for rec in _records(3):
        assert np.isfinite(_marginals(rec, "Ann", sharp)).all()
    ordinary = PlayerPopulation([PlayerType("boltzmann", 1.0, 0.05), PlayerType("boltzmann", 3.0, 0.1)])
    rec = _records(2)[1]
    plain = _marginals(rec, "Cy", ordinary)
    monkeypatch.setattr(types_module, "UNDERFLOW", math.inf)
    ordinary = PlayerPopulation([PlayerType("boltzmann", 1.0, 0.05), PlayerType("boltzmann", 3.0, 0.1)])
    assert float(np.abs(plain - _marginals(rec, "Cy", ordinary)).max()) < 1e-12


@pytest.mark.parametrize("kw", [{"beta": math.inf}, {"beta": "1"}, {"beta": True}, {"beta": -1}, {"beta": math.nan},
                                {"epsilon": 1.5}, {"epsilon": "0.1"}, {"epsilon": math.nan}, {"p_team": 1.0},
                                {"p_team": "0.5"}])
def test_a_secrets_model_refuses_bad_parameters_when_it_is_made(kw):
    from heimlich_lab.secrets.model import SecretsModel
    with pytest.raises(ModelError, match=next(iter(kw))):
        SecretsModel(**kw)


def test_a_secrets_model_with_epsilon_1_reads_nothing_from_choices():
    from heimlich_lab.secrets import Belief as SecretsBelief
    from heimlich_lab.secrets.bots import RandomBot as SecretsRandom
    from heimlich_lab.secrets.model import SecretsModel
    from heimlich_lab.secrets.play import play_game
    g = play_game({p: SecretsRandom(i) for i, p in enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"])}, seed=3)
    for obs in ("Ann", "Cy"):
        hard = SecretsBelief.for_game(g, obs, model=None)
        random_players = SecretsBelief.for_game(g, obs, model=SecretsModel(epsilon=1.0))
        assert np.allclose(random_players.marginals(), hard.marginals(), atol=1e-12)


def test_a_player_type_refuses_an_infinite_beta():
    with pytest.raises(ModelError, match="beta"):
        PlayerType("boltzmann", beta=math.inf)
