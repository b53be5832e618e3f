"""Speed of the board widget's kernel side (``heimlich-lab bench --only board``).

A 7-player Top Secret + Secret Dossier game between bots, shown to a spectator
with the belief panel on (:class:`~heimlich_lab.widget.GameController`, as
``play_in_notebook`` opens a bots-only game). Each bot step is one decision:
the bot's choice, the engine, the belief update, the dossier notes and the
synced state. The figures are the median CPU time (``time.process_time``) of a
step early in the game (its first fifth) and late (its last fifth): the
panel and notes follow the game incrementally, so a late step should cost
about what an early one does.
"""
from __future__ import annotations

import statistics
import time

from ..bots import RandomBot
from ..rules.ruleset import Rules
from ..widget.game_controller import GameController

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def step_times(seed: int) -> list[float]:
    """CPU seconds of every bot step of one whole game, in order."""
    bots = {p: RandomBot(seed=seed * 10 + i) for i, p in enumerate(PLAYERS)}
    ctl = GameController(PLAYERS, bots=bots, rules=Rules(top_secret=True, dossier=True), seed=seed, autoplay=False)
    times = []
    while True:
        t0 = time.process_time()
        if not ctl.step():
            return times
        times.append(time.process_time() - t0)


def bench_board(quick: bool = False) -> list[tuple[str, float, str]]:
    """Median kernel time of an early and of a late step, and their ratio."""
    early, late, steps = [], [], 0
    for seed in range(1 if quick else 3):
        t = step_times(seed)
        fifth = max(1, len(t) // 5)
        early += t[:fifth]
        late += t[-fifth:]
        steps += len(t)
    early_ms, late_ms = statistics.median(early) * 1000, statistics.median(late) * 1000
    return [
        ("7 players, TS + dossier, spectator panel: steps per game", steps / (1 if quick else 3), "steps"),
        ("  median kernel time of an early step (first fifth)", early_ms, "ms"),
        ("  median kernel time of a late step (last fifth)", late_ms, "ms"),
        ("  late / early", late_ms / early_ms, "x"),
    ]
