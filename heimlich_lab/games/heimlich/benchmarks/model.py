"""Speed of the model-based bots and of the Boltzmann model's likelihood (``heimlich-lab bench --only model``)."""
from __future__ import annotations

import time

from ..bots.model_bots import BoltzmannBot, GreedyBot
from ..inference.model import BoltzmannModel
from ..inference.utility import Utility
from ..play import play_game
from ..rules.game import CHANCE
from ..rules.ruleset import Rules

PLAYERS = ("P1", "P2", "P3", "P4", "P5")


def _games_per_second(make, n: int) -> float:
    t0 = time.perf_counter()
    for s in range(n):
        play_game(Rules(), {p: make(s * 7 + i) for i, p in enumerate(PLAYERS)}, seed=s)
    return n / (time.perf_counter() - t0)


def bench_model(quick: bool = False) -> list[tuple[str, float, str]]:
    """Games/s with Greedy and Boltzmann bots (5 players, basic game), and the likelihood time per decision.

    The likelihood is timed on every player decision of recorded games, with a
    fresh model per game (each state's utilities computed once, as for one
    belief following one game), and for a second call on the same decision
    (utilities cached, as for the next belief asking the same question).
    """
    n = 20 if quick else 100
    out = [("5-player basic games, greedy bots", _games_per_second(lambda s: GreedyBot(seed=s), n), "games/s"),
           ("5-player basic games, Boltzmann bots", _games_per_second(lambda s: BoltzmannBot(seed=s), n), "games/s")]
    cases = []
    for s in range(5 if quick else 20):
        g = play_game(Rules(), {p: BoltzmannBot(seed=s * 7 + i) for i, p in enumerate(PLAYERS)}, seed=s)
        rec = g.record
        game_cases = []
        for k, game in rec.games():
            if k < len(rec.log) and rec.log[k].actor != CHANCE:
                game_cases.append((game.view(None), rec.log[k].actor, rec.log[k].action))
        cases.append(game_cases)
    n_dec = sum(map(len, cases))
    fresh = cached = 0.0
    clock = time.perf_counter
    for game_cases in cases:
        Utility.clear_shared()          # a cold cache: models share one per weights
        m = BoltzmannModel()
        for v, actor, act in game_cases:
            t0 = clock()
            m.agent_log_likelihoods(v, actor, act)
            t1 = clock()
            m.agent_log_likelihoods(v, actor, act)     # e.g. the next belief asking about the same decision
            t2 = clock()
            fresh += t1 - t0
            cached += t2 - t1
    fresh /= n_dec
    cached /= n_dec
    out.append(("Boltzmann likelihood per decision (utilities computed)", fresh * 1e6, "us"))
    out.append(("Boltzmann likelihood per decision (utilities cached)", cached * 1e6, "us"))
    return out
