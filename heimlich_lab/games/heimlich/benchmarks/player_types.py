"""Speed of the robust beliefs, which learn each player's type (``heimlich-lab bench --only types``).

Figures in CPU time of this process, for 7-player games between BoltzmannBots
(basic and Top Secret), the beliefs reading every player through
:func:`~heimlich_lab.games.heimlich.inference.player_types.default_population`:

* the population's likelihood of one decision (every type, a fresh
  population whose caches start empty, the decisions in game order);
* the update of all seven players' exact beliefs with it (the likelihood is
  computed once per decision and shared; the actor's own belief learns the
  kind of table from it too), without update records as in evaluations: the
  weights follow when read, so the figure is given with a read of all seven
  beliefs after every decision, and with one read at the end of the game;
* their sum: the cost of one decision for the seven observers.
"""
from __future__ import annotations

import time

from ..bots.model_bots import BoltzmannBot
from ..inference.belief_set import BeliefSet
from ..inference.likelihoods import ask_model
from ..inference.player_types import default_population
from ..inference.utility import Utility
from ..play import play_game
from ..rules.actions import DECISION_KINDS
from ..rules.replay import public_decisions
from ..rules.ruleset import Rules

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def _decisions(rules: Rules, n_games: int) -> list:
    out = []
    for seed in range(n_games):
        bots = {p: BoltzmannBot(seed=seed * 10 + i) for i, p in enumerate(PLAYERS)}
        rec = play_game(rules, bots, seed=seed).record
        out.append((rec, [d for d in public_decisions(rec, None) if d.action.kind in DECISION_KINDS]))
    return out


def bench_player_types(quick: bool = False) -> list[tuple[str, float, str]]:
    rows = []
    for label, rules in (("basic", Rules()), ("Top Secret", Rules(top_secret=True))):
        games = _decisions(rules, 1 if quick else 3)
        Utility.clear_shared()          # a cold cache (the bots that played shared theirs)
        pop = default_population()
        t0 = time.process_time()
        work = []
        for rec, decisions in games:
            for d in decisions:
                v = ask_model(pop, d.view, d.actor, d.action, len(rec.rules.agents_for(len(PLAYERS))))
                if v is not None:
                    work.append((rec, d, v))
        dm = (time.process_time() - t0) / max(len(work), 1)
        du = {}
        for read in (True, False):
            n = 0
            t0 = time.process_time()
            for rec, _ in games:
                bs = BeliefSet.from_record(rec, model=pop, until=0, keep_updates=False)
                for r, d, v in work:
                    if r is rec:
                        for _o, b in bs.beliefs.items():
                            if b.reads_decisions_of(d.actor):   # what BeliefSet does
                                b.update_with(d.actor, d.action, v, "", d.index, d.turn)
                        if read:   # every belief up to date after every decision (what a board shows)
                            for b in bs.beliefs.values():
                                b.marginals_array()
                        n += 1
                if not read:
                    for b in bs.beliefs.values():
                        b.marginals_array()
            du[read] = (time.process_time() - t0) / max(n, 1)
        rows += [(f"{label}: population likelihood of one decision", dm * 1e6, "us"),
                 (f"{label}: 7 typed beliefs updated with it and read", du[True] * 1e6, "us"),
                 (f"{label}: one decision for all 7 observers, read after each", (dm + du[True]) * 1e6, "us"),
                 (f"{label}: the same, read once at the end (evaluations)", (dm + du[False]) * 1e6, "us")]
    return rows
