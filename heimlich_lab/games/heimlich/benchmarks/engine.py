"""Speed of the rules engine (``heimlich-lab bench --only engine``)."""
from __future__ import annotations

import time

from ....bots.random_bot import RandomBot
from ..play import play_game
from ..rules.ruleset import Rules


def bench_random_games(quick: bool = False) -> list[tuple[str, float, str]]:
    """Complete 5-player basic games between random bots, per second on one core."""
    n = 200 if quick else 2000
    players = ["P1", "P2", "P3", "P4", "P5"]
    t0 = time.perf_counter()
    for s in range(n):
        play_game(Rules(), {p: RandomBot(seed=s * 7 + i) for i, p in enumerate(players)}, seed=s)
    dt = time.perf_counter() - t0
    return [("5-player basic games, random bots", n / dt, "games/s")]
