"""The Secrets population of player types: the belief that reads choices through it is exact (brute force over
deals and hidden Diplomat sides, each world weighted by the population's probability of every choice read, per
kind of table and per player's type), learns types, and refuses bad input."""
from __future__ import annotations

import numpy as np
import pytest
from test_secrets_belief import DEAL, PLAYERS, SCRIPT, consistent_worlds, run

from heimlich_lab.errors import ModelError
from heimlich_lab.games.secrets.model import decision_utilities
from heimlich_lab.games.secrets.population import SecretsPopulation, SecretsType, default_population
from heimlich_lab.secrets import MIDDLE, TEAMS, Belief

READ = ("offer", "accept", "refuse", "interrupt", "allow", "give", "shoot")
SMALL = SecretsPopulation([SecretsType("random"), SecretsType("team", 0.7, 0.2), SecretsType("bluff", 1.3, 0.1, 0.4)],
                          [[0.6, 0.3, 0.1], [0.1, 0.5, 0.4]], table_names=["casual", "serious"],
                          table_prior=[0.3, 0.7])


def by_hand(u_team: np.ndarray, u_bluff: np.ndarray, chosen: int, team=(0.7, 0.2),
            bluff=(1.3, 0.1, 0.6)) -> np.ndarray:
    """P(the choice) per type of SMALL (random; ``team``: β, ε; ``bluff``: β, ε, the share of honest choices),
    written out from the module doc (softmax, tremble, bluff share)."""
    n = u_team.size

    def soft(u, beta, eps):
        p = np.exp(beta * u - np.max(beta * u))
        return (1 - eps) * p[chosen] / p.sum() + eps / n
    honest = bluff[2]
    return np.array([1 / n, soft(u_team, *team),
                     honest * soft(u_team, *bluff[:2]) + (1 - honest) * soft(u_bluff, *bluff[:2])])


def per_player_types(deal: str, script: list[str], observer: str | None) -> dict[str, np.ndarray]:
    """Per decider other than the observer: P(their choices read | this deal and these sides) per type of
    SMALL, step by step on the real game."""
    g = run(deal, [])
    per_player: dict[str, np.ndarray] = {}
    for text in script:
        decider = g.current_player
        if decider is not None and decider != observer and text.split()[0] in READ:
            legal = list(g.legal_actions())
            row = np.array([[TEAMS.index(g.identities[s]) for s in g.slots]])
            kw = dict(rules=g.rules, tableaux=g.tableaux, candidates=g.candidates, offerer=g.active_player,
                      target=None if g.offer is None else g.offer[1])
            me = g.players.index(decider)
            u = decision_utilities(row, g.players, me, legal, **kw)[0]
            ub = decision_utilities(row, g.players, me, legal, pretend=True, **kw)[0]
            p = by_hand(u, ub, [str(a) for a in legal].index(text))
            per_player[decider] = per_player.get(decider, np.ones(3)) * p
        g.apply(text)
    return per_player


def world_weight(deal: str, script: list[str], observer: str | None) -> float:
    """P(every choice of the others read | this deal and these sides) under SMALL: per kind of table, per
    player, the sum over types of the product of their choices' probabilities."""
    per_player = per_player_types(deal, script, observer)
    total = 0.0
    for table_p, row in zip(SMALL.table_prior, SMALL.tables):
        total += table_p * np.prod([row @ lik for lik in per_player.values()])
    return total


def assert_brute_force(observer: str | None, model, weight) -> None:
    """The belief through ``model`` equals brute force over the worlds the observer cannot tell apart, each weighted
    by its prior and ``weight(deal, script, observer)``; and it differs from the seen-only belief."""
    weights: dict[tuple, float] = {}
    for deal, script, g, prior in consistent_worlds(observer):
        key = tuple(g.identities.items())
        weights[key] = weights.get(key, 0.0) + weight(deal, script, observer) * float(prior)
    z = sum(weights.values())
    got = Belief.for_game(run(DEAL, SCRIPT), observer, model=model).identities()
    for s in PLAYERS + [MIDDLE]:
        for t in TEAMS:
            want = sum(w for key, w in weights.items() if dict(key)[s] == t) / z
            assert got[s][t] == pytest.approx(want, abs=1e-10), (observer, s, t)
    seen_only = Belief.for_game(run(DEAL, SCRIPT), observer, model=None).identities()
    assert any(abs(got[s][t] - seen_only[s][t]) > 1e-3 for s in PLAYERS for t in TEAMS)   # the choices were read


@pytest.mark.parametrize("observer", ["Ann", "Bob", "Dee", None])
def test_the_typed_belief_equals_brute_force_over_worlds_tables_and_types(observer):
    assert_brute_force(observer, SMALL, world_weight)

def test_the_type_posterior_is_exact_too():
    # P(Cy's type) by brute force over worlds: per world, per table, Cy's types weighted by their likelihood
    observer = "Ann"
    num, z = np.zeros(3), 0.0
    for deal, script, _, prior in consistent_worlds(observer):
        per = per_player_types(deal, script, observer)
        for table_p, trow in zip(SMALL.table_prior, SMALL.tables):
            others = np.prod([trow @ lik for who, lik in per.items() if who != "Cy"])
            joint = float(prior) * table_p * others * trow * per["Cy"]
            num += joint
            z += joint.sum()
    b = Belief.for_game(run(DEAL, SCRIPT), observer, model=SMALL)
    got = b.type_probabilities("Cy")
    assert list(got) == list(SMALL.type_names)
    assert np.allclose(list(got.values()), num / z, atol=1e-10)


def test_types_and_populations_refuse_bad_input():
    with pytest.raises(ModelError, match="kind"):
        SecretsType("greedy")
    with pytest.raises(ModelError, match="epsilon"):
        SecretsType("team", 1.0, 1.5)
    with pytest.raises(ModelError, match="bluff"):
        SecretsType("bluff", 1.0, 0.1, float("nan"))
    with pytest.raises(ModelError, match="prior"):
        SecretsPopulation([SecretsType("random")], [[0.5, 0.5]])
    with pytest.raises(ModelError, match="same name"):
        SecretsPopulation([SecretsType("random"), SecretsType("random")])
    with pytest.raises(ModelError, match="table_prior"):
        SecretsPopulation([SecretsType("random")], [[1.0], [1.0]], table_prior=[1.0])
    with pytest.raises(ModelError, match="no player types"):
        Belief(PLAYERS, "Ann", model=None).type_probabilities("Bob")


def test_the_default_population_is_a_population():
    pop = default_population()
    assert pop.tables.shape == (len(pop.table_names), len(pop.types))
    assert np.allclose(pop.tables.sum(axis=1), 1) and pop.prior.sum() == pytest.approx(1)
    assert {t.kind for t in pop.types} == {"random", "team", "bluff"}


def test_the_default_belief_reads_choices_through_the_default_population():
    from heimlich_lab.secrets import TeamBot, play_game
    g = play_game([TeamBot(i) for i in range(5)], seed=4)
    default = Belief.for_game(g, "Dee")
    assert isinstance(default.model, SecretsPopulation) and default.model is default_population()
    typed = Belief.for_game(g, "Dee", model=default_population())
    seen_only = Belief.for_game(g, "Dee", model=None)
    assert np.array_equal(np.asarray(default.marginals()), np.asarray(typed.marginals()))
    assert not np.allclose(np.asarray(default.marginals()), np.asarray(seen_only.marginals()), atol=1e-3)
    assert Belief.from_record(g.record, "Dee").identities() == default.identities()
    with pytest.raises(ModelError, match="'types'"):
        Belief(PLAYERS, "Ann", model="typed")
    assert 0 <= default.team_player_probability("Ann") <= 1
    assert default.team_player_probability("Ann") == pytest.approx(1 - default.type_probabilities("Ann")["random"])



SEEN_TYPE = SecretsType("team", 3.0, 0.0, knows="seen")


def team_bot_game(seed: int, n: int):
    """A seeded game of TeamBots: every choice of theirs a spectator reads (up to the first hidden Diplomat side,
    Assassins apart: only they see their bullet) as (decider, action, the bot's own scores by option, the true
    arrangement then), and the choices the spectator's belief read, in order."""
    from heimlich_lab.engine.play import play_game
    from heimlich_lab.games.secrets.bots import TeamBot
    from heimlich_lab.games.secrets.game import Game
    from heimlich_lab.games.secrets.model import choices

    decided, read, hidden_side = [], [], []
    players = [f"P{i}" for i in range(n)]
    bots = {p: TeamBot(seed * 10 + i) for i, p in enumerate(players)}

    def watch(g, p, a):
        legal = list(g.legal_actions())
        if a.kind == "side":
            hidden_side.append(True)
        if hidden_side or len(legal) < 2 or a.kind not in ("offer", "accept", "refuse", "interrupt", "allow", "give"):
            return
        scores = dict(zip(map(str, legal), bots[p].scores(g.view(p), legal)))
        decided.append((p, str(a), scores, tuple(TEAMS.index(g.identities[s]) for s in g.slots)))

    class Recorder(SecretsPopulation):
        def type_readings(self, belief, e, ctx):
            out = []
            for c in choices(belief, e, ctx):
                read.append(c)
                out.append((c.decider, np.stack([SEEN_TYPE.log_likelihood(c, c.utilities(), None)]), c.label))
            return out

    g = play_game(Game, bots, seed=seed, watch=watch)
    Belief.for_game(g, None, model=Recorder([SEEN_TYPE]))
    return decided, read


def test_a_team_type_that_knows_what_it_has_seen_reads_a_team_bot_by_its_own_rule():
    """``knows="seen"`` is a TeamBot's own decision rule: at every choice a spectator reads of a TeamBot (offers,
    answers, the UN's, the Politician's receiver; seeded 4- to 8-player games, up to the first hidden Diplomat
    side, which the type only approximates), the type's utilities in the true arrangement are the bot's own
    scores (its expected utilities under its seen-only belief), and the type's probability of the choice is the
    softmax of those scores; a type that knows everything or only its own marker reads other utilities."""
    from heimlich_lab.games.secrets.population import known_utilities

    compared = differs_all = differs_own = 0
    for seed, n in ((11, 4), (12, 5), (13, 6), (14, 7), (15, 8)):
        decided, read = team_bot_game(seed, n)
        assert len(decided) > 5
        for p, action, scores, truth in decided:
            c = next(c for c in read if c.decider == p and str(c.options[c.chosen]) == action)
            read.remove(c)
            row = int(np.flatnonzero((c.table == truth).all(axis=1))[0])
            bot = np.array([scores[str(o)] for o in c.options])
            assert np.allclose(known_utilities(c, False, "seen")[row], bot, atol=1e-9)
            z = 3.0 * bot
            expect = z[c.chosen] - np.log(np.exp(z).sum())
            assert SEEN_TYPE.log_likelihood(c, c.utilities(), None)[row] == pytest.approx(expect, abs=1e-9)
            differs_all += not np.allclose(c.utilities()[row], bot)
            differs_own += not np.allclose(known_utilities(c, False, "own")[row], bot)
            compared += 1
    assert compared > 60 and differs_all > 10 and differs_own > 10


SEEN_SMALL = SecretsPopulation([SecretsType("random"), SecretsType("team", 1.5, 0.1, knows="seen"),
                                SecretsType("bluff", 2.0, 0.1, 0.4, knows="seen")],
                               [[0.7, 0.2, 0.1], [0.1, 0.5, 0.4]], table_names=["casual", "serious"],
                               table_prior=[0.4, 0.6])


def seen_world_weight(deal: str, script: list[str], observer: str | None) -> float:
    """P(every choice of the others read | this deal and these sides) under SEEN_SMALL, by hand: at each choice,
    the decider's utilities are averaged over every arrangement of the markers that agrees with this world's on
    the slots the decider has seen (which slots: public facts, the same in every world the observer cannot tell
    apart), then softmax, tremble and bluff share as in :func:`by_hand`."""
    from test_secrets_belief import arrangements
    g = run(deal, [])
    every = np.array(list(arrangements([2, 2, 1])))
    watcher = Belief(PLAYERS, observer, g.rules, model=None)
    per_player: dict[str, np.ndarray] = {}
    for text in script:
        decider = g.current_player
        watcher.sync(g.view(observer))
        if decider is not None and decider != observer and text.split()[0] in READ:
            legal = list(g.legal_actions())
            kw = dict(rules=g.rules, tableaux=g.tableaux, candidates=g.candidates, offerer=g.active_player,
                      target=None if g.offer is None else g.offer[1])
            me = g.players.index(decider)
            now = np.array([TEAMS.index(g.identities[s]) for s in g.slots])
            cols = [g.slots.index(s) for s in watcher.known_to(decider)]
            agree = every[(every[:, cols] == now[cols]).all(axis=1)]
            u = decision_utilities(agree, g.players, me, legal, **kw).mean(axis=0)
            ub = decision_utilities(agree, g.players, me, legal, pretend=True, **kw).mean(axis=0)
            p = by_hand(u, ub, [str(a) for a in legal].index(text), team=(1.5, 0.1), bluff=(2.0, 0.1, 0.6))
            per_player[decider] = per_player.get(decider, np.ones(3)) * p
        g.apply(text)
    return sum(table_p * np.prod([row @ lik for lik in per_player.values()])
               for table_p, row in zip(SEEN_SMALL.table_prior, SEEN_SMALL.tables))


@pytest.mark.parametrize("observer", ["Ann", None])
def test_a_belief_through_types_that_know_what_they_have_seen_equals_brute_force(observer):
    assert_brute_force(observer, SEEN_SMALL, seen_world_weight)
