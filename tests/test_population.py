"""fit_population: the population prior over types fitted to a class's finished games (empirical Bayes)."""
import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BoltzmannBot, RandomBot
from heimlich_lab.errors import ModelError, RecordError
from heimlich_lab.inference.belief import Belief
from heimlich_lab.inference.player_types import PlayerPopulation, PlayerType
from heimlich_lab.inference.population import fit_population, player_type_log_likelihoods

NAMES = ["Ann", "Bob", "Cy", "Dee"]
TWO_TYPES = PlayerPopulation([PlayerType("random", 0.0, 0.0), PlayerType("boltzmann", 1.0, 0.05)])


def class_games(n, random_seats):
    """Games where the first ``random_seats`` seats are random players, the others BoltzmannBots."""
    return [play(Rules(), {p: RandomBot(100 * g + i) if i < random_seats else BoltzmannBot(seed=100 * g + i)
                           for i, p in enumerate(NAMES)}, seed=g) for g in range(n)]


def test_the_fit_finds_the_share_of_random_players():
    recs = class_games(6, random_seats=1)              # a quarter of the players are random
    pop = fit_population(recs, TWO_TYPES, bootstrap=50)
    assert pop.fit["players"] == 24
    assert pop.prior[0] == pytest.approx(0.25, abs=0.1)
    lo, hi = pop.fit["intervals"]["random"]
    assert lo <= pop.prior[0] <= hi and hi - lo < 0.5
    # each player's evidence points at their real type
    ll = player_type_log_likelihoods(recs[0], TWO_TYPES)
    assert ll["Ann"][0] > ll["Ann"][1] and all(ll[p][1] > ll[p][0] for p in NAMES[1:])


def test_a_fitted_population_is_a_model_and_survives_json(tmp_path):
    recs = class_games(2, random_seats=2)
    pop = fit_population(recs, bootstrap=10)
    path = tmp_path / "class.json"
    pop.save(path)
    again = PlayerPopulation.load(path)
    np.testing.assert_allclose(again.prior, pop.prior)
    assert again.fit == pop.fit
    a = Belief.from_record(recs[0], "Ann", model=pop, until="dossier").marginals_array()
    b = Belief.from_record(recs[0], "Ann", model=again, until="dossier").marginals_array()
    np.testing.assert_allclose(a, b, atol=1e-12)


def test_bad_input_is_explained():
    rec = class_games(1, random_seats=0)[0]
    with pytest.raises(ModelError, match="at least one"):
        fit_population([])
    with pytest.raises(RecordError, match="full records"):
        fit_population([rec.public()])
    with pytest.raises(ModelError, match="GameRecords"):
        fit_population(["not a record"])
    with pytest.raises(ModelError, match="level"):
        fit_population([rec], level=1.5)
