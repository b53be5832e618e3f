"""Speed of Secrets (``heimlich-lab bench --only secrets``), in CPU time of this process.

* a whole 8-player game between random bots (the engine, views for every decision, the record);
* one belief update of all 8 observers: every event of recorded 8-player games fed to the eight exact beliefs
  (:meth:`heimlich_lab.games.secrets.Belief.add`), the time per event that changes a belief (a look, a show, a
  swap: a condition or a transition of 630 arrangements), for all eight observers together;
* the same with the player model reading choices (:class:`~heimlich_lab.games.secrets.SecretsModel`).
"""
from __future__ import annotations

import time

from ...bots.random_bot import RandomBot
from . import Belief, SecretsModel, play_game

N = 8


def _games(n: int, seed: int = 0):
    return [play_game([RandomBot(seed + 10 * k + i) for i in range(N)], seed=seed + k) for k in range(n)]


def _updates(games, model) -> tuple[float, int]:
    """CPU seconds and the number of events that changed at least one of the 8 beliefs."""
    spent, changed = 0.0, 0
    for g in games:
        logs = {p: g.view(p).log for p in g.players}
        beliefs = {p: Belief(g.players, p, g.rules, model=model) for p in g.players}
        for i in range(len(logs[g.players[0]]) - 1):        # the final reveal is not taken in
            t0 = time.process_time()
            any_update = False
            for p, b in beliefs.items():
                any_update |= b.add(logs[p][i]) is not None
            spent += time.process_time() - t0
            changed += any_update
    return spent, changed


def bench_secrets(quick: bool = False) -> list[tuple[str, float, str]]:
    n = 30 if quick else 300
    t0 = time.process_time()
    games = _games(n)
    per_game = (time.process_time() - t0) / n * 1000
    few = games[: 3 if quick else 20]
    exact_s, exact_n = _updates(few, None)
    model_s, model_n = _updates(few, SecretsModel())
    return [("8-player game, random bots", per_game, "ms/game"),
            ("belief update of all 8 observers (exact)", exact_s / exact_n * 1000, "ms/update"),
            ("belief update of all 8 observers (with the model)", model_s / model_n * 1000, "ms/update")]
