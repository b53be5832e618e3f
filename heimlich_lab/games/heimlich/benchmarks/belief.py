"""Speed of the Heimlich beliefs (``heimlich-lab bench --only belief``).

Figures for a 7-player Top Secret game between BoltzmannBots, in CPU time of
this process (``time.process_time``: programs running at the same time on a
shared machine inflate them little; numpy's small products run on one core):

* the update of all seven players' exact beliefs with one decision, the
  model's likelihood given (it is computed once per decision and shared);
* the model's likelihood of one decision (a fresh :class:`BoltzmannModel`,
  its cache empty at the start, the decisions in game order);
* a whole recorded game: replay, likelihoods and the seven beliefs
  (:meth:`BeliefSet.from_record`), per game and per decision.
"""
from __future__ import annotations

import time

import numpy as np

from ..bots.model_bots import BoltzmannBot
from ..inference.belief_set import BeliefSet
from ..inference.model import BoltzmannModel
from ..inference.utility import Utility
from ..play import play_game
from ..rules.actions import DECISION_KINDS
from ..rules.replay import public_decisions
from ..rules.ruleset import Rules

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def _record(seed: int):
    bots = {p: BoltzmannBot(seed=seed * 10 + i) for i, p in enumerate(PLAYERS)}
    return play_game(Rules(top_secret=True), bots, seed=seed).record


def bench_belief(quick: bool = False) -> list[tuple[str, float, str]]:
    """Per-decision update cost for all seven observers, model cost, and whole games."""
    model = BoltzmannModel()
    n_games = 2 if quick else 6
    records = [_record(s) for s in range(n_games)]
    # the decisions with their (shared) likelihoods, computed once
    work = []
    for rec in records:
        for item in public_decisions(rec, None):
            if item.action.kind in DECISION_KINDS:
                v = model.agent_log_likelihoods(item.view, item.actor, item.action)
                if v is not None:
                    work.append((item, np.asarray(v, dtype=float)))
    # 1. the update of seven exact beliefs, likelihood given
    bs = BeliefSet.from_record(records[0], model=model, until=0)
    beliefs = list(bs.beliefs.items())
    reps = 1 if quick else 3
    t0 = time.process_time()
    n = 0
    for _ in range(reps):
        fresh = BeliefSet(PLAYERS, bs.agents, {o: b.own_agents for o, b in beliefs}, model)
        fb = list(fresh.beliefs.items())
        for item, v in work:
            for o, b in fb:
                if o != item.actor:
                    b.update_with(item.actor, item.action, v, "", item.index, item.turn)
            n += 1
    dt = (time.process_time() - t0) / n
    # 2. the model's likelihood of one decision: a fresh model, whose per-instance cache (hands of the
    #    public history) starts empty, as in a replay; ``model`` above already answered every one of these
    Utility.clear_shared()              # a cold cache: models share one per weights
    fresh_model = BoltzmannModel()
    t0 = time.process_time()
    m = 0
    for item, _ in work[: 400 if quick else 2000]:
        fresh_model.agent_log_likelihoods(item.view, item.actor, item.action)
        m += 1
    dm = (time.process_time() - t0) / m
    # 3. whole games
    t0 = time.process_time()
    decisions = 0
    for rec in records:
        BeliefSet.from_record(rec, model=BoltzmannModel())
        decisions += sum(1 for e in rec.log if e.action.kind in DECISION_KINDS)
    dg = time.process_time() - t0
    return [
        ("7 exact beliefs updated with one decision (model excluded)", dt * 1e6, "us"),
        ("BoltzmannModel likelihood of one decision", dm * 1e6, "us"),
        ("7-player Top Secret game, 7 beliefs, replay + model", dg / len(records) * 1e3, "ms/game"),
        ("  the same per logged decision", dg / decisions * 1e6, "us"),
    ]
