"""Precompute the predictions that notebook 13 checks for calibration: Top Secret games, 2 players, each seat's
bot drawn from the belief's population (``topsecret1985.evaluate.evaluate(..., frame=True)``), one batch of games
per seed, written to ``heimlich_lab/games/topsecret1985/data/calibration.csv.gz``.

A game with its belief takes some seconds, too long for a notebook that the CI runs in full, so the notebook reads
this file (and replays one small batch live to show that the command gives the same rows).

    python scripts/topsecret_calibration_data.py --seeds 0 1 2 --games 20
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))                         # this checkout's heimlich_lab

import pandas as pd  # noqa: E402

from heimlich_lab.games.topsecret1985.evaluate import evaluate  # noqa: E402

TARGET = ROOT / "heimlich_lab" / "games" / "topsecret1985" / "data" / "calibration.csv.gz"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--games", type=int, default=20, help="games per seed")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--target", type=Path, default=TARGET)
    args = ap.parse_args(argv)
    parts = []
    for seed in args.seeds:
        _, frame = evaluate(games=args.games, n_players=args.players, seed=seed, progress=False, frame=True)
        frame.insert(0, "seed", seed)
        parts.append(frame)
        table = pd.concat(parts, ignore_index=True)         # written after every seed: a long run keeps its part
        table.to_csv(args.target, index=False, float_format="%.10g", compression={"method": "gzip", "mtime": 0})
        print(f"seed {seed}: {frame['game'].nunique()} games; wrote {len(table)} rows to {args.target}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
