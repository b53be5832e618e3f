"""The batched likelihood's tables (issue 26 item 3): the array code reads a game's tables side by side (branch
exp35; before it, tables of nearby sizes padded to one group, branch evalgroups), with the numbers of reading each
decision alone within 1e-12 and the same impossible entries, for every kind of type (random, the Boltzmann grid, the
bluffer, the hider who covers)."""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BoltzmannBot, make_bot
from heimlich_lab.games.heimlich.inference import player_types
from heimlich_lab.games.heimlich.inference.player_types import (
    careful_hiders_population,
    default_population,
)
from heimlich_lab.games.heimlich.rules.replay import public_decisions

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")

#: (players, rules options, seed, bots)
GAMES = [(3, {}, 4, "boltzmann"), (5, {}, 1, "boltzmann"), (5, {"dossier": True}, 2, "mixed"),
         (7, {}, 3, "boltzmann"), (6, {"dossier": True}, 5, "mixed")]


def _items(n, options, seed, bots):
    players = PLAYERS[:n]
    kinds = ["boltzmann", "bluff", "greedy", "random", "boltzmann", "hider", "boltzmann"]
    if bots == "boltzmann":
        table = {p: BoltzmannBot(seed=seed * 10 + i) for i, p in enumerate(players)}
    else:
        table = {p: make_bot(kinds[i], seed=seed * 10 + i) for i, p in enumerate(players)}
    rec = play(Rules(**options), table, seed=seed)
    return [(d.view, d.actor, d.action) for d in public_decisions(rec, None, None) if d.view is not None]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}p-{g[2]}")
@pytest.mark.parametrize("population", [default_population, careful_hiders_population])
def test_the_tables_side_by_side_give_the_numbers_of_one_table_at_a_time(game, population):
    """The array code reads every table of a game side by side (no padding, sums and maxima by run of options):
    the numbers of reading each decision alone, within 1e-12, and the same impossible entries."""
    items = _items(*game)
    pop = population()
    sizes = [len(d[0]) for v, a, x in items if x.kind not in player_types.UNINFORMATIVE
             for d in [pop._models[0].decision_utilities(v, a, x)] if d is not None]
    assert len(set(sizes)) > 3                  # tables of many sizes side by side
    pop.compiled = False
    got = pop.batch_type_log_likelihoods(items)
    assert got is not None and len(got) == len(items)
    exact = [pop.type_log_likelihoods(*d) for d in items]
    for a, b in zip(exact, got):
        assert (a is None) == (b is None)
        if a is not None:
            assert np.array_equal(np.isneginf(a), np.isneginf(b))
            f = np.isfinite(a)
            assert np.allclose(a[f], b[f], rtol=0, atol=1e-12), np.abs(a[f] - b[f]).max()


@pytest.mark.parametrize("n_players", [3, 5, 7])
def test_the_spectator_by_subsets_of_agents_gives_the_step_by_step_rows(n_players, monkeypatch):
    from heimlich_lab import Game
    from heimlich_lab.games.heimlich.inference import exposure
    from heimlich_lab.games.heimlich.inference.exposure import PublicWatch
    from heimlich_lab.games.heimlich.inference.model import BoltzmannModel

    players = list(PLAYERS[:n_players])
    view = Game(players, Rules(), seed=1).view(None)
    rng = np.random.default_rng(n_players)
    steps = [(players[t % n_players], None if t % 7 == 3 else rng.normal(0, 3, len(view.agents)))
             for t in range(40)]
    steps[5][1][0] = -np.inf                    # an agent the step rules out
    used = []
    real = exposure._rows_by_subsets
    monkeypatch.setattr(exposure, "_rows_by_subsets", lambda *a: used.append(1) or real(*a))
    got = PublicWatch(BoltzmannModel()).rows_along(view, steps)
    never = np.full(len(view.agents), -np.inf)
    assert PublicWatch(BoltzmannModel()).rows_along(view, [*steps[:3], (players[0], never)]) is None
    monkeypatch.setattr(exposure, "_rows_by_subsets", lambda *a: NotImplemented)      # the step-by-step loop
    want = PublicWatch(BoltzmannModel()).rows_along(view, steps)
    assert len(used) == 2 and len(got) == len(want) == len(steps)
    for a, b in zip(want, got):
        assert np.allclose(a, b, rtol=0, atol=1e-13)
        assert np.array_equal(a == 0, b == 0)


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("types", [
    # a bluffer listed before the first type whose row the tremble step keeps: that row is the Boltzmann type's own
    [("bluff", 2.0, 0.1), ("boltzmann", 0.5, 0.0), ("boltzmann", 2.0, 0.05)],
    # a hider first, then two types of one rationality and two trembles
    [("bluff", 3.0, 0.2), ("boltzmann", 1.0, 0.05), ("boltzmann", 1.0, 0.2), ("random", 0.0, 0.0)],
    # every type a bluffer: no row is kept
    [("bluff", 1.0, 0.05), ("bluff", 3.0, 0.1)],
    # two hiders who cover (each its own slack), among a Boltzmann type: the exposures made once serve both
    [("cover", 1.0, 0.05), ("boltzmann", 1.0, 0.05), ("cover", 3.0, 0.1)],
], ids=["bluffer-first", "hider-first", "bluffers-only", "two-covers"])
def test_the_batch_reads_every_type_whatever_the_order_of_the_population(types, compiled):
    """The batch's tremble step takes each kept row's rationality and tremble from a type whose row it keeps,
    never from a bluffer's placeholder: each type's numbers are those of reading each decision alone."""
    items = _items(5, {}, 1, "mixed")
    pop = player_types.PlayerPopulation([player_types.PlayerType(k, beta=b, epsilon=e, secrecy=2.0 + i,
                                                                 cover=0.3 if k == "cover" else 0.0, slack=1.0 + i)
                                         for i, (k, b, e) in enumerate(types)])
    pop.compiled = compiled
    got = pop.batch_type_log_likelihoods(items)
    assert got is not None
    for item, b in zip(items, got):
        a = pop.type_log_likelihoods(*item)
        assert (a is None) == (b is None)
        if a is not None:
            assert np.array_equal(np.isneginf(a), np.isneginf(b))
            f = np.isfinite(a)
            assert np.allclose(a[f], b[f], rtol=0, atol=1e-12), np.abs(a[f] - b[f]).max()
