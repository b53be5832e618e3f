"""Player types: the exact posterior over agents and types (core), the Heimlich population, the belief's read-out."""
import math
from itertools import permutations

import numpy as np
import pandas as pd
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BoltzmannBot, RandomBot
from heimlich_lab.errors import ModelError
from heimlich_lab.inference.belief import Belief, BeliefSet
from heimlich_lab.inference.core import HypothesisSpace
from heimlich_lab.inference.metrics import score_belief
from heimlich_lab.inference.mixture import TypedPosterior
from heimlich_lab.inference.model import BoltzmannModel
from heimlich_lab.inference.player_types import PlayerPopulation, PlayerType, default_population, single_type

OWNERS, SLOTS = ("A", "B", "C"), ("w", "x", "y", "z")


def brute_force(prior, observations, take=None, populations=None):
    """Marginals and type posteriors by enumerating (first assignment, slot taken, population, type of every
    owner): ``prior`` is (M, K) with population weights ``populations`` (M,)."""
    prior = np.atleast_2d(prior)
    M, K = prior.shape
    populations = np.ones(M) / M if populations is None else np.asarray(populations)
    S = len(SLOTS)
    marg = np.zeros((len(OWNERS) + 1, S))
    types = np.zeros((len(OWNERS), K))
    for perm in permutations(range(S), len(OWNERS)):
        first = dict(zip(OWNERS, perm))
        free = [s for s in range(S) if s not in perm]
        for extra in (free if take else [None]):
            final = {o: [first[o]] + ([extra] if take and o == take[0] else []) for o in OWNERS}
            for m in range(M):
                per_owner = []
                for o in OWNERS:
                    lk = prior[m].copy()
                    for t, (who, values) in enumerate(observations):
                        if who == o:
                            held = [first[o]] + ([extra] if take and o == take[0] and t >= take[1] else [])
                            lk = lk * np.exp(values)[:, held].mean(axis=1)
                    per_owner.append(lk)
                w = populations[m] / (len(free) if take else 1) * np.prod([lk.sum() for lk in per_owner])
                for i, o in enumerate(OWNERS):
                    for s in final[o]:
                        marg[i, s] += w
                    types[i] += w * per_owner[i] / per_owner[i].sum()
                for s in range(S):
                    if not any(s in v for v in final.values()):
                        marg[-1, s] += w
    total = marg[:, 0].sum()
    return marg / total, types / total


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("keep_updates", [True, False])   # False: the weights follow lazily (TypedPosterior._sync)
def test_typed_posterior_equals_enumeration_including_a_take(seed, keep_updates):
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.ones(3), size=1 + seed % 2)        # one population, or a mixture of two
    populations = rng.dirichlet(np.ones(len(prior)))
    obs = [(OWNERS[rng.integers(3)], np.log(rng.dirichlet(np.ones(4), size=3))) for _ in range(8)]
    take = ("B", 4)   # B takes a free slot before observation 4
    post = TypedPosterior(HypothesisSpace.assignments(OWNERS, SLOTS), np.log(prior), ("r", "s", "t"),
                          population_log_prior=np.log(populations), keep_updates=keep_updates)
    for t, (who, values) in enumerate(obs):
        if t == take[1]:
            post.refine(take[0])
        post.update_actor(who, values)
    marg, types = brute_force(prior, obs, take, populations)
    np.testing.assert_allclose(post.marginals(), marg, atol=1e-12)
    for i, o in enumerate(OWNERS):
        np.testing.assert_allclose(post.type_posterior(o), types[i], atol=1e-12)


def test_lazy_weights_follow_checkpoints_and_equal_the_eager_ones():
    """Without update records an observation only changes the actor's type table: the weights follow when read.
    A checkpoint taken with observations pending, and rewound to, gives what the eager posterior gives."""
    rng = np.random.default_rng(7)
    obs = [(OWNERS[rng.integers(3)], np.log(rng.dirichlet(np.ones(4), size=3))) for _ in range(6)]
    args = (HypothesisSpace.assignments(OWNERS, SLOTS), np.log([[0.6, 0.3, 0.1], [0.1, 0.3, 0.6]]), ("r", "s", "t"))
    lazy, eager = TypedPosterior(*args, keep_updates=False), TypedPosterior(*args)
    for who, values in obs[:3]:
        assert lazy.update_actor(who, values) is None
        eager.update_actor(who, values)
    assert lazy._pending                                       # nothing brought up to date yet
    mark = lazy.checkpoint()
    for who, values in obs[3:]:
        lazy.update_actor(who, values)
    after_all = lazy.marginals()
    assert not lazy._pending
    lazy.rewind(mark)                                          # back to three observations, still pending
    assert lazy._pending
    np.testing.assert_allclose(lazy.marginals(), eager.marginals(), atol=1e-12)
    np.testing.assert_allclose(lazy.population_posterior(), eager.population_posterior(), atol=1e-12)
    assert lazy.log_evidence == pytest.approx(eager.log_evidence, abs=1e-9)
    for o in OWNERS:
        np.testing.assert_allclose(lazy.type_posterior(o), eager.type_posterior(o), atol=1e-12)
    for who, values in obs[3:]:
        eager.update_actor(who, values)
    np.testing.assert_allclose(after_all, eager.marginals(), atol=1e-12)
    # an observation that rules hypotheses out is taken at once (it could be impossible): same result
    with np.errstate(divide="ignore"):
        impossible_for_b = np.log([[0.5, 0.5, 0.0, 0.5]] * 3)   # B cannot play for slot 2
    lazy2, eager2 = TypedPosterior(*args, keep_updates=False), TypedPosterior(*args)
    for post in (lazy2, eager2):
        post.update_actor("B", obs[0][1])
        post.update_actor("B", impossible_for_b)
    assert not lazy2._pending
    np.testing.assert_allclose(lazy2.marginals(), eager2.marginals(), atol=1e-12)


@pytest.mark.parametrize("top_secret, n_players, seed", [(False, 5, 11), (True, 5, 11), (True, 3, 0)])
def test_a_belief_set_without_update_records_equals_one_with(top_secret, n_players, seed):
    """The lazy weights (keep_updates=False) give the beliefs of the eager ones: basic and Top Secret games,
    with second agents taken in the Top Secret ones (a take brings the weights up to date first)."""
    rec = play(Rules(top_secret=top_secret), {p: BoltzmannBot(seed=i) for i, p in
                                               enumerate(["Ann", "Bob", "Cy", "Dee", "Eve"][:n_players])}, seed=seed)
    pop = default_population()
    lean = BeliefSet.from_record(rec, model=pop, keep_updates=False)
    full = BeliefSet.from_record(rec, model=pop)
    assert any(s.kind == "refine" for s in full[rec.players[0]].history) == top_secret   # second agents taken
    for p in rec.players:
        np.testing.assert_allclose(lean[p].marginals_array(), full[p].marginals_array(), atol=1e-10)
        assert lean[p].table_kinds() == pytest.approx(full[p].table_kinds(), abs=1e-10)
        for who, types in full[p].player_types().items():
            assert lean[p].player_types()[who] == pytest.approx(types, abs=1e-10)
        assert len(lean[p].history) == len(full[p].history)
        assert lean[p].marginals_history().shape[0] < full[p].marginals_history().shape[0]



@pytest.mark.parametrize("top_secret, impossible_at, n_players", [(False, None, 5), (True, None, 5), (False, 4, 5),
                                                                  (False, None, 3), (False, None, 7)])
def test_a_belief_set_sharing_type_tables_equals_each_belief_updating_its_own(monkeypatch, top_secret,
                                                                               impossible_at, n_players):
    """A BeliefSet without update records keeps each player's type table once for all observers; the beliefs
    are the same, bit for bit, as when each updates its own: basic games, Top Secret ones (a hand read from
    each observer's own pool and a take end the sharing) and a decision impossible for one agent (read by
    each belief itself)."""
    import heimlich_lab.inference.belief_set as bsm
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"][:n_players]
    rec = play(Rules(top_secret=top_secret), {p: (BoltzmannBot(seed=i) if i % 2 else RandomBot(i))
                                              for i, p in enumerate(players)}, seed=5)
    pop = default_population()
    if impossible_at is not None:   # the impossible_at-th informative decision rules out one agent for every type
        asked = []
        plain = pop.type_log_likelihoods

        def with_a_hole(view, actor, action):
            out = plain(view, actor, action)
            if out is not None:
                asked.append(actor)
                if len(asked) == impossible_at:   # an agent the actor does not control
                    out = out.copy()
                    out[:, [a for a, c in enumerate(view.agents) if c != rec.deal[actor]][0]] = -np.inf
            return out
        monkeypatch.setattr(pop, "type_log_likelihoods", with_a_hole)
        # the hole is made decision by decision: no reading of the whole game at once (tests/test_belief_arrays.py)
        monkeypatch.setattr(pop, "batch_type_log_likelihoods", None)
    shared_decisions = []
    add = bsm._SharedTypeTables.add

    def counting(self, actor, *rest):
        done = add(self, actor, *rest)
        shared_decisions.extend([actor] if done else [])
        return done
    monkeypatch.setattr(bsm._SharedTypeTables, "add", counting)
    sharing = bsm._SharedTypeTables.for_beliefs
    for until in (None, "dossier", 20):   # stopped early too: some players have not acted yet
        monkeypatch.setattr(bsm._SharedTypeTables, "for_beliefs", sharing)
        shared_decisions.clear()
        if impossible_at is not None:
            asked.clear()
        lean = BeliefSet.from_record(rec, model=pop, until=until, keep_updates=False)
        assert len(shared_decisions) >= (1 if top_secret else impossible_at - 1 if impossible_at else 8)   # used
        monkeypatch.setattr(bsm._SharedTypeTables, "for_beliefs", classmethod(lambda cls, bs: None))
        if impossible_at is not None:
            asked.clear()
        own = BeliefSet.from_record(rec, model=pop, until=until, keep_updates=False)
        for p in players:
            np.testing.assert_array_equal(lean[p].marginals_array(), own[p].marginals_array())
            assert lean[p].player_types() == own[p].player_types()
            assert lean[p].table_kinds() == own[p].table_kinds()
            assert [(s.index, s.kind, s.description) for s in lean[p].history] == \
                [(s.index, s.kind, s.description) for s in own[p].history]
def test_bad_values_are_refused_and_change_nothing():
    post = TypedPosterior(HypothesisSpace.assignments(OWNERS, SLOTS), np.log([0.5, 0.5]))
    post.update_actor("A", np.log([[0.4, 0.3, 0.2, 0.1], [0.25, 0.25, 0.25, 0.25]]))
    before, types = post.marginals(), post.type_posterior("A")
    for bad in (np.zeros((3, 4)), [[np.nan] * 4] * 2, [[np.inf] * 4] * 2, np.full((2, 4), -np.inf), "x"):
        with pytest.raises(ModelError):
            post.update_actor("A", bad)
    np.testing.assert_array_equal(post.marginals(), before)
    np.testing.assert_array_equal(post.type_posterior("A"), types)
    with pytest.raises(ModelError, match="type_names"):
        TypedPosterior(HypothesisSpace.assignments(OWNERS, SLOTS), [0.0, 0.0], ("same", "same"))


def test_a_failed_update_in_a_belief_restores_the_types():
    post = TypedPosterior(HypothesisSpace.assignments(OWNERS, SLOTS), np.log([0.5, 0.5]))
    mark = post.checkpoint()
    post.update_actor("A", np.log([[0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]]))
    post.rewind(mark)
    np.testing.assert_allclose(post.type_posterior("A"), [0.5, 0.5])
    np.testing.assert_allclose(post.marginals()[0], 0.25)


def five_player_game(bots, seed):
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    return play(Rules(), {p: b(i) for i, (p, b) in enumerate(zip(names, bots))}, seed=seed)


def test_one_boltzmann_type_is_the_boltzmann_model():
    rec = five_player_game([lambda i: BoltzmannBot(seed=i)] * 5, seed=3)
    model = BoltzmannModel(beta=2.0, epsilon=0.1)
    a = Belief.from_record(rec, "Ann", model=model, until="dossier").marginals_array()
    b = Belief.from_record(rec, "Ann", model=single_type(model), until="dossier").marginals_array()
    np.testing.assert_allclose(a, b, atol=1e-12)


def test_belief_set_equals_belief_with_types():
    rec = five_player_game([lambda i: RandomBot(i), lambda i: BoltzmannBot(seed=i)] * 3, seed=5)
    pop = default_population()
    bs = BeliefSet.from_record(rec, model=pop, until="dossier")
    for p in ("Ann", "Cy"):
        b = Belief.from_record(rec, p, model=pop, until="dossier")
        np.testing.assert_allclose(bs[p].marginals_array(), b.marginals_array(), atol=1e-12)
        for who, types in b.player_types().items():
            assert bs[p].player_types()[who] == pytest.approx(types)


def test_types_are_learned_and_shown():
    rec = five_player_game([lambda i: BoltzmannBot(seed=i), lambda i: RandomBot(i)] * 3, seed=1)
    b = Belief.from_record(rec, "Ann", model=default_population(), until="dossier")
    types = b.player_types()
    assert sorted(types) == ["Bob", "Cy", "Dee", "Eve"]
    for t in types.values():
        assert sum(t.values()) == pytest.approx(1.0)
        assert list(t.values()) == sorted(t.values(), reverse=True)
    # the random bots (Bob, Dee) look more random than the Boltzmann bots (Cy, Eve)
    assert min(types["Bob"]["random"], types["Dee"]["random"]) > max(types["Cy"]["random"], types["Eve"]["random"])
    line = b.describe_types()[0]
    assert line.startswith("Bob plays like: ") and "random" in line
    # every step says how the actor's type coloured it
    lines = b.explanations()
    assert len(lines) == 2 * len(b.history)
    assert any("typical of a random player" in x or "read through" in x for x in lines)
    assert Belief.from_record(rec, "Ann", model=BoltzmannModel(), until="dossier").player_types() == {}


def test_the_observers_own_decisions_tell_the_kind_of_table_and_nothing_else():
    """With kinds of table, the observer's own moves (its agent known) are evidence of the kind of table:
    P(kind | own moves) is prior x sum_k P(type k | kind) prod_t L_k(move t | own agent), checked by hand;
    until someone else moves, who controls which agent stays the prior. A model of one kind ignores them."""
    from scipy.special import logsumexp
    from heimlich_lab import Game
    from heimlich_lab.rules.replay import DecisionStream
    pop = default_population()
    g = Game(["Ann", "Bob", "Cy", "Dee", "Eve"], seed=4)
    ann = Belief(g.players, g.agents, "Ann", pop, g.view("Ann").own_agents)
    plain = Belief(g.players, g.agents, "Ann", BoltzmannModel(), g.view("Ann").own_agents)
    assert ann.learns_from_own and not plain.learns_from_own
    own = g.agents.index(g.view("Ann").own_agents[0])
    stream, plain_stream = DecisionStream(g, "Ann"), DecisionStream(g, "Ann")
    ll = np.zeros(len(pop.types))
    bot = BoltzmannBot(seed=1)
    for d in stream.new():
        ann.add(d)
    for d in plain_stream.new():
        plain.add(d)
    assert g.current_player == "Ann"
    while g.current_player == "Ann":          # Ann's first turn: her own decision(s), nobody else's
        act = bot.choose(g.view("Ann"), g.legal_actions())
        t = pop.type_log_likelihoods(g.view(None), "Ann", act)
        if t is not None:
            ll += t[:, own]
        g.apply(act)
        for d in stream.new():
            ann.add(d)
        for d in plain_stream.new():
            plain.add(d)
    assert len(ann.history) >= 1 and plain.history == []
    expected = pop.table_log_prior + logsumexp(pop.log_tables + ll[None, :], axis=1)
    expected = np.exp(expected - logsumexp(expected))
    got = ann.table_kinds()
    assert [got[n] for n in pop.table_names] == pytest.approx(expected, abs=1e-12)
    assert got != pytest.approx(dict(zip(pop.table_names, pop.table_prior)))   # it did learn something
    np.testing.assert_allclose(ann.marginals_array(), plain.marginals_array(), atol=1e-12)
    assert "says nothing about who controls which agent" in ann.explanations()[-1]


def test_robust_belief_is_honest_against_random_players():
    """Against random players the single BoltzmannModel is confidently wrong; the population is not."""
    robust, single = [], []
    for seed in range(3):
        rec = five_player_game([lambda i: RandomBot(i + 10 * seed)] * 5, seed=seed)
        bs_r = BeliefSet.from_record(rec, model=default_population(), until="dossier", keep_updates=False)
        bs_s = BeliefSet.from_record(rec, model=BoltzmannModel(), until="dossier", keep_updates=False)
        for p in rec.players:
            for bs, out in ((bs_r, robust), (bs_s, single)):
                out.append(score_belief(bs[p].marginals_array(), rec.players, bs.agents, bs.truth, observer=p,
                                        own_agents=bs[p].own_agents)["log_loss"])
    assert np.mean(robust) < np.mean(single) - 0.5


def test_population_input_and_json():
    pop = default_population()
    again = PlayerPopulation.from_json(pop.to_json())
    assert again.type_names == pop.type_names and np.allclose(again.prior, pop.prior)
    assert again.cache_key == pop.cache_key
    assert set(pop.to_dict()["types"][0]) == {"kind", "beta", "epsilon", "secrecy"}     # saved files as before
    hiders = PlayerPopulation([PlayerType("random"), PlayerType("cover", 2.0, secrecy=2.0, cover=0.35, slack=2.0)])
    again = PlayerPopulation.from_json(hiders.to_json())
    assert again.types == hiders.types
    assert again.type_names[1] == "hider who covers (β≈2, secrecy 2, cover 0.35, slack 2)"
    for bad in ({"cover": 1.5}, {"cover": -0.1}, {"slack": math.inf}, {"slack": -1.0}):
        with pytest.raises(ModelError, match=next(iter(bad))):
            PlayerType("cover", 2.0, **bad)
    with pytest.raises(ModelError, match="kind"):
        PlayerType("genius")
    with pytest.raises(ModelError, match="epsilon"):
        PlayerType("boltzmann", 1.0, 1.5)
    with pytest.raises(ModelError, match="prior"):
        PlayerPopulation([PlayerType("random")], [-1.0])
    with pytest.raises(ModelError, match="same name"):
        PlayerPopulation([PlayerType("random"), PlayerType("random")])
    with pytest.raises(ModelError, match="JSON"):
        PlayerPopulation.from_json("{not json")


def test_evaluate_population_grid(tmp_path, capsys):
    from heimlich_lab.cli import main
    from heimlich_lab.commands.evaluate import evaluate_populations, population
    from heimlich_lab.errors import HeimlichError
    res = evaluate_populations(["random", "random+greedy"], games=2, n_players=4, seed=1,
                               model=default_population(), compare=BoltzmannModel(), progress=False)
    assert list(res) == ["random", "random+greedy"]
    table, scores, events = res["random"]
    assert list(table.index) == ["exact", "compare", "independent", "points-share", "uniform"]
    assert {"log_loss", "brier", "accuracy", "expected_correct", "actual_correct", "ece", "max_z"} <= set(table)
    assert set(scores.bot) == {"random"} and set(res["random+greedy"][1].bot) == {"random", "greedy"}
    p, y, g = events["exact"]
    assert len(p) == len(y) == len(g) and set(np.unique(y)) <= {0.0, 1.0}
    with pytest.raises(HeimlichError, match="unknown bot"):
        population("random+nobody")
    for flag in (["--targets"], ["--plots", str(tmp_path / "p")]):
        assert main(["evaluate", "--bots", "random", "--games", "1", "--players", "3", *flag]) != 0
        assert "goes with --populations" in capsys.readouterr().err
    assert not (tmp_path / "p").exists()
    plots = tmp_path / "plots"
    assert main(["evaluate", "--populations", "greedy", "--games", "1", "--players", "3", "--seed", "2",
                 "--model", "robust", "--plots", str(plots), "--targets"]) == 0
    out = capsys.readouterr().out
    assert "== greedy ==" in out and "ece" in out and "compare" in out
    assert "== targets" in out and "log loss / compare <= 1.05" in out and "undecided" in out   # one game decides nothing
    assert (plots / "reliability-greedy.png").stat().st_size > 1000


def test_evaluate_reads_with_the_careful_hiders_population(capsys):
    """``evaluate --model hiders`` reads with :func:`careful_hiders_population` (the default population with its hider
    who covers of secrecy 2 instead of 0), the single BoltzmannModel beside it."""
    from heimlich_lab.cli import main
    from heimlich_lab.inference.player_types import careful_hiders_population
    pop = careful_hiders_population()
    base = default_population()
    assert pop.types[:-1] == base.types[:-1] and pop.types[-1].kind == base.types[-1].kind == "cover"
    assert pop.types[-1].secrecy == 2 and base.types[-1].secrecy == 0
    assert main(["evaluate", "--populations", "hider", "--games", "1", "--players", "3", "--seed", "1",
                 "--model", "hiders"]) == 0
    out = capsys.readouterr().out
    assert "exact: the robust population (10 player types, 5 kinds of table)" in out and "== hider ==" in out
    assert main(["evaluate", "--bots", "hider", "--games", "1", "--players", "3", "--seed", "1",
                 "--model", "hiders"]) == 0
    assert "10 player types" in capsys.readouterr().out


def test_the_belief_panel_shows_the_types():
    from heimlich_lab.widget.panel import belief_panel
    rec = five_player_game([lambda i: RandomBot(i)] * 5, seed=2)
    panel = belief_panel(Belief.from_record(rec, "Ann", model=default_population(), until="dossier"))
    assert sorted(panel["types"]) == ["Bob", "Cy", "Dee", "Eve"]
    assert sum(panel["types"]["Bob"].values()) == pytest.approx(1.0, abs=1e-3)
    assert belief_panel(Belief.from_record(rec, "Ann", model=BoltzmannModel(), until="dossier"))["types"] == {}


def test_one_pass_over_the_options_equals_asking_per_action():
    from heimlich_lab import Game
    pop = default_population()
    g = Game(["Ann", "Bob", "Cy", "Dee", "Eve"], seed=4)
    view, legal = g.view(None), g.legal_actions()
    table = pop.option_log_probabilities(view, g.current_player, legal)
    for j, x in enumerate(legal):
        np.testing.assert_allclose(table[:, j, :], pop.type_log_likelihoods(view, g.current_player, x), atol=1e-12)
    np.testing.assert_allclose(np.exp(table).sum(axis=1), 1.0, atol=1e-9)    # every type: a distribution


def test_simulation_based_calibration_bots_drawn_from_the_population():
    """When the table is drawn from the model's own population (kind of table, then each player's type), the
    robust belief is calibrated: its probabilities come true as often as they say (per-bin z-scores clustered
    by game)."""
    from heimlich_lab.bots.type_bot import draw_table
    from heimlich_lab.inference.metrics import (binary_events, calibration_z_scores, expected_calibration_error,
                                                truth_table)
    from heimlich_lab.play import play_game
    pop, names = default_population(), ["Ann", "Bob", "Cy", "Dee", "Eve"]
    p, y, games = [], [], []
    for g in range(25):
        rec = play_game(Rules(), draw_table(pop, names, seed=g), seed=1000 + g).record
        bs = BeliefSet.from_record(rec, model=pop, until="dossier", keep_updates=False)
        truth = truth_table(names, bs.agents, bs.truth)
        for i, obs in enumerate(names):
            opponents = [j for j in range(len(names) + 1) if j != i]
            pe, ye = binary_events(bs[obs].marginals_array(), truth, opponents,
                                   np.array([a not in bs[obs].own_agents for a in bs.agents]))
            p.append(pe), y.append(ye), games.append(np.full(len(pe), g))
    p, y, games = map(np.concatenate, (p, y, games))
    assert expected_calibration_error(p, y) < 0.03
    z = calibration_z_scores(p, y, games).z
    assert z.abs().max() < 3.0, z


def test_the_fast_option_table_equals_the_plain_definition():
    """The hot path (options along memory, exposure in probabilities) gives each type's probabilities as the
    module doc defines them, written out plainly here, for one option and for all of them, with a fresh
    spectator and with a spectator that already leans."""
    from scipy.special import softmax
    pop = default_population()
    rng = np.random.default_rng(3)
    U = rng.normal(size=(40, 7))
    n = len(U)

    def plain(i, row):
        p1 = 0.95 * softmax(U, axis=0) + 0.05 / n                            # P(option | agent), beta 1
        w = p1 * (np.ones(7) if row is None else row)[None, :]
        exposure = w / w.sum(axis=1, keepdims=True)                           # spectator's belief after it
        out = []
        for t in pop.types:
            if t.kind == "random":
                out.append(np.full(7, 1.0 / n))
                continue
            z = t.beta * (U - t.secrecy * exposure) if t.kind in ("bluff", "cover") else t.beta * U
            p = (1 - t.epsilon) * softmax(z, axis=0)[i] + t.epsilon / n
            if t.kind == "cover":     # of the options within slack of its best, the least exposing
                near = U >= U.max(axis=0) - t.slack
                least = np.where(near, exposure, np.inf).min(axis=0)
                low = near & (exposure <= least + 1e-9)
                p = (1 - t.cover) * p + t.cover * low[i] / low.sum(axis=0)
            out.append(p)
        return np.log(np.array(out))

    lean = rng.dirichlet(np.ones(7))
    for row in (None, lean):
        for i in (0, 17):
            np.testing.assert_allclose(pop._table_log_likelihoods(U, i, row), plain(i, row), atol=1e-12)
        every = pop._table_log_likelihoods(U, np.arange(n), row)
        np.testing.assert_allclose(every, np.stack([plain(i, row) for i in range(n)], axis=1), atol=1e-12)


def test_the_bluffer_type_is_what_a_bluffbot_plays():
    """The population's bluffer reads the spectator's running belief, as BluffBot does: for the bot's own agent,
    the type's probability of every move, points and safe decision the bot made is the bot's own probability."""
    from heimlich_lab import Game
    from heimlich_lab.bots import BluffBot
    bluffer = PlayerPopulation([PlayerType("bluff", 1.0, 0.05, 8.0)])
    players = ["Ann", "Bob", "Cy", "Dee"]
    g = Game(players, seed=3)
    bots = {p: BluffBot(seed=i) for i, p in enumerate(players)}
    checked = 0
    while not g.is_over and checked < 25:
        p, legal = g.current_player, g.legal_actions()
        act = bots[p].choose(g.view(p), legal)
        if act.kind in ("move", "points", "safe"):
            own = g.agents.index(g.view(p).own_agents[0])
            ll = bluffer.type_log_likelihoods(g.view(None), p, act)
            assert np.exp(ll[0, own]) == pytest.approx(bots[p].last["probability"][legal.index(act)], rel=1e-9)
            checked += 1
        g.apply(act)
    assert checked == 25


def test_a_hider_type_sits_beside_the_bluffer_each_at_its_own_beta_and_secrecy():
    """Several bluff types in one population (a bluffer and a hider, who gives up less for secrecy) are each read
    at their own beta and secrecy: every row is what a population of that type alone gives, in a game of
    HiderBots (the careful players who hide of ``evaluate --populations hider``)."""
    from heimlich_lab import Game
    from heimlich_lab.games.heimlich.bots import HiderBot
    hider, bluffer = PlayerType("bluff", 3.0, 0.05, 2.0), PlayerType("bluff", 1.0, 0.05, 8.0)
    both = PlayerPopulation([PlayerType("random", 0, 0), bluffer, PlayerType("boltzmann", 1.0, 0.05), hider])
    assert both.type_names == ("random", "bluffer", "steady (β≈1)", "hider (β≈3, secrecy 2)")
    alone = [PlayerPopulation([t]) for t in both.types]
    players = ["Ann", "Bob", "Cy", "Dee"]
    g = Game(players, seed=5)
    bots = {p: HiderBot(seed=i) for i, p in enumerate(players)}
    differ = 0
    for _ in range(30):
        if g.is_over:
            break
        p = g.current_player
        act = bots[p].choose(g.view(p), g.legal_actions())
        ll = both.type_log_likelihoods(g.view(None), p, act)
        if ll is not None:
            for k, pop in enumerate(alone):
                np.testing.assert_allclose(ll[k], pop.type_log_likelihoods(g.view(None), p, act)[0], atol=1e-12)
            differ += not np.allclose(ll[1], ll[3])
        g.apply(act)
    assert differ >= 5


def test_the_cover_type_is_what_a_hiderbot_plays():
    """A hider who covers (kind ``cover``) is a HiderBot's own rule: for the bot's agent, the type's probability of
    every move, points and safe decision is the bot's, ``(1 - cover)`` times its BluffBot probability plus
    ``cover`` if the decision is its cover (the least exposing option within ``slack`` of its best), when the bot
    hides from the spectator the population watches (beta 1, epsilon 0.05). Decisions whose cover is tied between
    options (the bot takes the first, the type shares them) are left out and counted."""
    from heimlich_lab import Game
    from heimlich_lab.games.heimlich.bots import HiderBot
    from heimlich_lab.games.heimlich.inference.utility import PublicState
    hider = PlayerPopulation([PlayerType("cover", 1.0, 0.05, secrecy=2.0, cover=0.4, slack=1.5)])
    players = ["Ann", "Bob", "Cy", "Dee"]
    g = Game(players, seed=7)
    bots = {p: HiderBot(beta=1.0, epsilon=0.05, secrecy=2.0, cover=0.4, seed=i) for i, p in enumerate(players)}
    checked = covers = tied = 0
    while not g.is_over and checked < 30:
        p, legal = g.current_player, tuple(g.legal_actions())
        view = g.view(p)
        bot = bots[p]
        if legal[0].kind in ("move", "points", "safe"):
            st = PublicState.from_view(view)
            own = st.agents.index(view.own_agents[0])
            U = bot.model.utility.matrix(view, legal, st)
            ex = bot.exposures(view, legal, U, [own])
            z = bot.beta * (U[:, own] - bot.secrecy * ex)
            plain = np.exp(z - z.max())
            plain = 0.95 * plain / plain.sum() + 0.05 / len(legal)
            near = np.flatnonzero(U[:, own] >= U[:, own].max() - 1.5)
            low = near[ex[near] <= ex[near].min() + 1e-9]
        act = bot.choose(view, legal)
        if act.kind in ("move", "points", "safe"):
            if len(low) > 1:
                tied += 1
            else:
                x = legal.index(act)
                want = 0.6 * plain[x] + 0.4 * (x == low[0])
                ll = hider.type_log_likelihoods(g.view(None), p, act)
                assert np.exp(ll[0, own]) == pytest.approx(want, rel=1e-9), (act, want)
                checked += 1
                covers += bot.last["probability"] is None
        g.apply(act)
    assert checked == 30 and covers >= 5 and tied < checked, (checked, covers, tied)


def test_a_belief_without_update_records_keeps_its_tables_consistent():
    """Without update records observations carry no table: marginals_history, entropy_history and history_frame
    agree on the steps they show (the prior and any take), and the current belief is the full one's."""
    rec = play(Rules(top_secret=True), {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=0)
    lean = Belief.from_record(rec, "Ann", model=default_population(), keep_updates=False)
    full = Belief.from_record(rec, "Ann", model=default_population())
    kept = [s for s in lean.history if s.marginals is not None]
    assert kept and all(s.kind == "refine" for s in kept) and len(lean.history) > len(kept)
    hist = lean.marginals_history()
    assert hist.shape[0] == len(kept) + 1 == len(lean.entropy_history())
    frame = lean.history_frame()
    assert frame["step"].nunique() == hist.shape[0]
    np.testing.assert_allclose(frame["probability"].to_numpy(), hist.ravel())
    np.testing.assert_allclose(lean.marginals_array(), full.marginals_array(), atol=1e-10)
    assert not lean.reads_decisions_of("Ann") or lean.learns_from_own
    assert Belief.from_record(rec, "Ann", model=BoltzmannModel()).reads_decisions_of("Ann") is False


@pytest.mark.parametrize("top_secret, n_players, seed", [(False, 5, 1), (True, 5, 2), (True, 3, 0)])
def test_the_bluffers_spectator_fed_by_the_population_equals_the_one_reading_views(top_secret, n_players, seed):
    """The population hands the spectator its own answers for the decisions it reads (the beta-1 type's), instead
    of the spectator asking its model again: the rows are the same as a spectator's that reads every view, through
    card rounds and second-agent takes (where it reads the view), and in a basic game it never has to."""
    from heimlich_lab.bots import BluffBot
    from heimlich_lab.inference.exposure import PublicWatch
    from heimlich_lab.rules.actions import DECISION_KINDS
    from heimlich_lab.rules.replay import public_decisions
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:n_players]
    rec = play(Rules(top_secret=top_secret), {p: (BluffBot(seed=i) if i % 2 else BoltzmannBot(seed=i))
                                              for i, p in enumerate(names)}, seed=seed)
    pop, reading = default_population(), PublicWatch(BoltzmannModel())
    table_decisions = 0
    for d in public_decisions(rec, None):
        if d.action.kind in DECISION_KINDS:
            pop.type_log_likelihoods(d.view, d.actor, d.action)      # in game order, as a BeliefSet asks
            if d.action.kind in ("move", "points", "safe"):
                np.testing.assert_allclose(pop._public.fed_row(d.view, d.actor), reading.row(d.view, d.actor),
                                           atol=1e-12)
                table_decisions += 1
    assert table_decisions > 10
    if not top_secret:   # no view was read: the spectator started fresh and every decision was fed
        assert pop._public.games == 0


def test_one_population_reading_two_games_in_turn_keeps_them_apart():
    """A population asked about two games in turn (two boards sharing one model) gives each game's own spectator
    rows: the fed spectator notices the other game and reads its view instead."""
    from heimlich_lab.bots import BluffBot
    from heimlich_lab.inference.exposure import PublicWatch
    from heimlich_lab.rules.actions import DECISION_KINDS
    from heimlich_lab.rules.replay import public_decisions
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    recs = [play(Rules(), {p: (BluffBot(seed=10 * s + i) if i % 2 else BoltzmannBot(seed=10 * s + i))
                           for i, p in enumerate(names)}, seed=s) for s in (1, 2)]
    streams = [[d for d in public_decisions(r, None) if d.action.kind in DECISION_KINDS] for r in recs]
    pop, readers = default_population(), [PublicWatch(BoltzmannModel()), PublicWatch(BoltzmannModel())]
    for pair in zip(*streams):
        for d, reading in zip(pair, readers):
            pop.type_log_likelihoods(d.view, d.actor, d.action)
            np.testing.assert_allclose(pop._public.fed_row(d.view, d.actor), reading.row(d.view, d.actor), atol=1e-12)


def test_receive_table_refuses_what_it_cannot_take_and_changes_nothing():
    space = HypothesisSpace.assignments(["A", "B"], ["x", "y", "z"])
    eager = TypedPosterior(space, np.log([0.5, 0.5]), ("random", "loyal"))
    lazy = TypedPosterior(space, np.log([0.5, 0.5]), ("random", "loyal"), keep_updates=False)
    good = np.zeros((1, 2, 3))
    with pytest.raises(ModelError, match="without update records"):
        eager.receive_table("B", good)
    before = lazy.marginals().copy()
    with pytest.raises(ModelError, match=r"got shape \(1, 3, 3\)"):
        lazy.receive_table("B", np.zeros((1, 3, 3)))
    np.testing.assert_array_equal(lazy.marginals(), before)
    assert lazy.slot_columns("B").tolist() == [0, 1, 2]
    table = np.log(np.array([[[0.5, 0.5, 0.5], [0.9, 0.05, 0.05]]])) + np.log(0.5)   # one loyal-to-x move
    lazy.receive_table("B", table)
    eager.update_actor("B", np.log([[0.5, 0.5, 0.5], [0.9, 0.05, 0.05]]))
    np.testing.assert_allclose(lazy.marginals(), eager.marginals(), atol=1e-12)


def _fake_results(per_game: dict, players: int = 5, ece: float = 0.01, max_z: float = 1.0):
    """An evaluation's results built by hand: ``per_game`` maps method -> (log losses, correct) per game."""
    rows = []
    for method, (ll, correct) in per_game.items():
        for gi, (a, b) in enumerate(zip(ll, correct)):
            rows += [{"game": gi, "player": p, "method": method, "log_loss": a, "actual_correct": b}
                     for p in range(players)]
    table = pd.DataFrame({"ece": [ece], "max_z": [max_z]}, index=["exact"])
    return table, pd.DataFrame(rows), {}


def test_check_targets_reads_each_target_with_an_interval_over_games():
    from heimlich_lab.commands.evaluate import check_targets
    rng = np.random.default_rng(4)
    n = 60
    compare = rng.uniform(0.2, 0.4, n)
    base = {"uniform": (np.full(n, 1.56), np.full(n, 2.0)), "points-share": (np.full(n, 1.2), rng.uniform(3, 4, n))}
    far = {**base, "exact": (1.2 * compare, base["points-share"][1] * 1.3), "compare": (compare, np.full(n, 5.0))}
    noisy = 1.05 * compare * rng.choice([0.8, 1.2], n)           # the mean ratio is near 1.05
    near = {**base, "exact": (noisy, base["points-share"][1] * 1.0), "compare": (compare, np.full(n, 5.0))}
    out = check_targets({"boltzmann": _fake_results(far), "mixed": _fake_results(near, ece=0.05, max_z=4.0)},
                        resamples=500)
    got = out.set_index(["population", "target"])
    ratio = got.loc[("boltzmann", "log loss / compare <= 1.05")]
    assert ratio.estimate == pytest.approx(1.2) and ratio.low == pytest.approx(1.2) and ratio.verdict == "no"
    assert got.loc[("boltzmann", "log loss - uniform <= 0.02")].verdict == "yes"
    assert ("boltzmann", "correct / points-share >= 1.1") not in got.index       # mixed tables only
    useful = got.loc[("mixed", "correct / points-share >= 1.1")]
    assert useful.estimate == pytest.approx(1.0) and useful.verdict == "no"
    assert ("mixed", "log loss / compare <= 1.05") not in got.index
    assert ("mixed", "correct / points-share >= 1.15") not in got.index       # careful hiders' tables only
    hiders = check_targets({"hider": _fake_results(far)}, resamples=500).set_index("target")
    sharp = hiders.loc["correct / points-share >= 1.15"]
    assert sharp.estimate == pytest.approx(1.3) and sharp.verdict == "yes"
    assert "correct / points-share >= 1.1" not in hiders.index
    assert got.loc[("mixed", "ECE <= 0.03")].verdict == "no" and got.loc[("mixed", "max |z| <= 3.29")].verdict == "no"
    # an interval that straddles the bound cannot decide
    undecided = check_targets({"boltzmann": _fake_results(near)}, resamples=500).set_index("target")
    row = undecided.loc["log loss / compare <= 1.05"]
    assert row.low < 1.05 < row.high and row.verdict == "undecided"
    # games are the units: ten players a game instead of five leaves every interval as it was
    more = check_targets({"boltzmann": _fake_results(near, players=10)}, resamples=500).set_index("target")
    assert more.loc["log loss / compare <= 1.05", "low"] == pytest.approx(row.low)
    assert more.loc["log loss / compare <= 1.05", "high"] == pytest.approx(row.high)
