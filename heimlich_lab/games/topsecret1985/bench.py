"""The length of Top Secret games on a map (turns per game, over seeds), and the engine's speed.

>>> table = game_lengths(games=2, n_players=2, seed=0)
>>> sorted(table)
['actions', 'end', 'rounds', 'turns']
"""
from __future__ import annotations

import time
from typing import Any

from .map import Map
from .rules import TopSecretRules

__all__ = ["bench_topsecret", "game_lengths", "summary"]


def game_lengths(games: int = 100, n_players: int = 4, seed: int = 0, bots: str = "random",
                 rules: TopSecretRules | None = None, map: Map | None = None) -> dict[str, list[Any]]:  # noqa: A002
    """Per game of ``games`` bots-only games (seeds ``seed``, ``seed + 1``, ...): its ``turns``, ``rounds``
    (turns / players), ``actions`` and how it ``end``-ed."""
    from .bots import make_bot
    from .play import NAMES, play_game
    out: dict[str, list[Any]] = {"turns": [], "rounds": [], "actions": [], "end": []}
    for k in range(games):
        lineup = {p: make_bot(bots, seed=seed * 1000 + 10 * k + i) for i, p in enumerate(NAMES[:n_players])}
        g = play_game(lineup, seed=seed + k, rules=rules, map=map)
        out["turns"].append(g.turn)
        out["rounds"].append(g.turn / n_players)
        out["actions"].append(len(g.history))
        out["end"].append(g.end_reason)
    return out


def summary(lengths: dict[str, list[Any]]) -> dict[str, Any]:
    """Mean, standard deviation, quartiles and extremes of the rounds per game, and how the games ended."""
    import numpy as np
    r = np.asarray(lengths["rounds"], dtype=float)
    ends = {e: lengths["end"].count(e) for e in sorted(set(lengths["end"]))}
    return {"games": len(r), "mean": float(r.mean()), "sd": float(r.std(ddof=1)) if len(r) > 1 else 0.0,
            "min": float(r.min()), "q1": float(np.percentile(r, 25)), "median": float(np.median(r)),
            "q3": float(np.percentile(r, 75)), "max": float(r.max()), "ends": ends}


def bench_topsecret(quick: bool = False) -> list[tuple[str, float, str]]:
    """``heimlich-lab bench``: 4-player games of the ``runner`` bot on the stand-in map: rounds per game and the
    engine's actions per second (the bots' time included)."""
    n = 5 if quick else 40
    t0 = time.perf_counter()
    lengths = game_lengths(games=n, n_players=4, seed=1, bots="runner")
    dt = time.perf_counter() - t0
    s = summary(lengths)
    return [("Top Secret, 4 runner bots: rounds per game (mean)", s["mean"], "rounds"),
            ("Top Secret, 4 runner bots: rounds per game (sd)", s["sd"], "rounds"),
            ("Top Secret, 4 runner bots: actions per second", sum(lengths["actions"]) / dt, "actions/s")]


def main(argv: list[str] | None = None) -> int:
    """``python -m heimlich_lab.games.topsecret1985.bench --games 100 --players 4 --bots runner``: the length of
    games on the stand-in map (or ``--map FILE``), in rounds (each seat one turn)."""
    import argparse
    p = argparse.ArgumentParser(prog="python -m heimlich_lab.games.topsecret1985.bench")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bots", default="runner")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--map", default=None, help="a map file (node-link JSON); default: the stand-in map")
    args = p.parse_args(argv)
    board = None if args.map is None else Map.load(args.map)
    s = summary(game_lengths(games=args.games, n_players=args.players, seed=args.seed, bots=args.bots, map=board))
    print(f"{s['games']} games of {args.players} ({args.bots} bots), seeds {args.seed}..{args.seed + args.games - 1}: "
          f"rounds per game mean {s['mean']:.1f} (sd {s['sd']:.1f}), min {s['min']:.1f}, quartiles {s['q1']:.1f} / "
          f"{s['median']:.1f} / {s['q3']:.1f}, max {s['max']:.1f}; ends {s['ends']}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
