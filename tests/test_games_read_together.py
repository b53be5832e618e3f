"""Issue 26 item 3, tenth session: a tournament's unit of work plays a few games, then reads their beliefs together
(:data:`heimlich_lab.analysis.running.READ_AFTER`; the games' decisions' likelihoods in one array,
:meth:`PlayerPopulation.batch_games`). The same numbers as every game read by itself, game by game and in the
tournament's table."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from heimlich_lab import Game, Rules, play
from heimlich_lab.analysis import running, tournament
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.engine.play import play_game
from heimlich_lab.errors import HeimlichError, ModelError
from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
from heimlich_lab.games.heimlich.inference.likelihoods import batch_answers_stacked, default_model
from heimlich_lab.games.heimlich.inference.player_types import default_population
from heimlich_lab.games.heimlich.rules.replay import public_decisions

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
KINDS = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]


def _bots(seed, n):
    return {p: KINDS[i % 4](seed + i) for i, p in enumerate(NAMES[:n])}


def _decisions(rules, seed, n):
    rec = play(rules, _bots(seed, n), seed=seed)
    return [(d.view, d.actor, d.action) for d in public_decisions(rec, None) if d.view is not None]


# 3, 5 and 7 players (6, 7 and 8 agents: read in groups by their number), with and without the dossier
SETUPS = [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(), 11, 7), (Rules(), 4, 5), (Rules(dossier=True), 6, 6),
          (Rules(), 9, 3)]


def test_games_read_together_give_each_games_own_numbers():
    pop = default_population()
    games = [_decisions(*s) for s in SETUPS]
    together = pop.batch_games(games)
    assert len(together) == len(games)
    for game, got in zip(games, together):
        alone = pop.batch_type_log_likelihoods(game)
        assert got is not None and len(got) == len(alone) == len(game)
        assert all((a is None) == (b is None) for a, b in zip(got, alone))
        assert all(np.array_equal(a, b) for a, b in zip(got, alone) if a is not None)
    # not vacuous: two games of the same table size answer differently
    first, second = (next(r for r in together[i] if r is not None) for i in (0, 3))
    assert not np.array_equal(first, second)


def test_a_game_the_spectator_cannot_follow_is_none_and_the_others_are_read():
    """A game with a take (Top Secret's second agent): the spectator's watch cannot follow it, by itself or with
    others; the games read with it keep their numbers."""
    pop = default_population()
    rules = Rules(top_secret=True)
    for seed in range(40):
        rec = play(rules, _bots(seed, 4), seed=seed)
        kinds = rec.log.kinds() if hasattr(rec.log, "kinds") else [e.action.kind for e in rec.log]
        if "take" in kinds:
            break
    else:
        pytest.fail("no Top Secret game with a take in 40 seeds")
    # its decisions that need no hand, up to the end (after the take)
    taken = [(d.view, d.actor, d.action) for d in public_decisions(rec, None) if d.view is not None
             and d.action.kind not in ("announce", "pass", "done", "round")]
    assert "take" in taken[-1][0].log.kinds()
    assert pop.batch_type_log_likelihoods(taken) is None
    others = [_decisions(Rules(), 3, 4), _decisions(Rules(), 5, 4)]
    got = pop.batch_games([others[0], taken, others[1]])
    assert got[1] is None
    for game, read in zip(others, (got[0], got[2])):
        alone = pop.batch_type_log_likelihoods(game)
        assert all(np.array_equal(a, b) for a, b in zip(read, alone) if a is not None)


def test_the_evaluator_reads_games_together_with_the_scores_of_each_record():
    ev = BeliefEvaluator(until=None)
    games = [play_game(Game, _bots(s, n), seed=s, rules=r, watch=ev.watch_game()) for r, s, n in SETUPS[:4]]
    unwatched = play_game(Game, _bots(21, 4), seed=21, rules=Rules())      # read from its record
    got = ev.evaluate_games([games[2], unwatched, games[0], games[1], games[3]])
    expected = [BeliefEvaluator(until=None)(g.record) for g in (games[2], unwatched, games[0], games[1], games[3])]
    assert got == expected
    assert not ev._watches      # every watched game read: its watch let go


def test_answers_asked_elsewhere_must_be_one_per_decision():
    rec = play(Rules(), _bots(3, 4), seed=3)
    items = list(public_decisions(rec, None, None))
    with pytest.raises(ModelError, match="answers given for"):
        batch_answers_stacked(default_model(), items, 6, raw=[None])


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_tournament_reading_games_together_has_the_table_of_one_game_at_a_time(n_jobs, monkeypatch):
    grid = dict(player_counts=[3, 5], variants=["basic", "dossier"], bots="rotate:boltzmann,bluff", games=7, seed=5,
                progress=False, n_jobs=n_jobs, evaluate=BeliefEvaluator(until=None))
    together = tournament(**grid)
    calls = []
    original = BeliefEvaluator.evaluate_games
    monkeypatch.setattr(BeliefEvaluator, "evaluate_games",
                        lambda self, games: calls.append(len(games)) or original(self, games))
    if n_jobs == 1:     # (in this process: the games were read together, as many as READ_AFTER at a time)
        tournament(**grid)
        assert calls and max(calls) == running.READ_AFTER
    monkeypatch.setattr(running, "READ_AFTER", 1)
    one_by_one = tournament(**grid)
    pd.testing.assert_frame_equal(together, one_by_one)
    assert together["belief_log_loss"].notna().all() and together["belief_log_loss"].nunique() > 1


def test_a_game_the_watch_cannot_follow_lets_its_watch_go():
    """Top Secret's hands: the watch cannot follow the game, which is read from its record; its watch (and the game
    it holds) is not kept."""
    ev = BeliefEvaluator(until=None)
    games = [play_game(Game, _bots(s, 4), seed=s, rules=Rules(top_secret=True), watch=ev.watch_game()) for s in (1, 2)]
    assert len(ev._watches) == 2 and all(w.decisions_played(g) is None for w, g in zip(ev._watches, games))
    assert ev.evaluate_game(games[0]) == BeliefEvaluator(until=None)(games[0].record)
    assert len(ev._watches) == 1
    assert ev.evaluate_games(games[1:]) == [BeliefEvaluator(until=None)(games[1].record)]
    assert ev._watches == []


def test_an_evaluator_that_reads_games_together_must_answer_every_game():
    class Short(BeliefEvaluator):
        def evaluate_games(self, games):
            return super().evaluate_games(games)[:-1]
    with pytest.raises(HeimlichError, match=r"one dict of metrics per game: 2 for 3 games"):
        tournament(5, "basic", "boltzmann", games=3, seed=1, progress=False, evaluate=Short(until=None))
