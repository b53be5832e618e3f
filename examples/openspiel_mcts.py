"""Heimlich & Co. in OpenSpiel and PettingZoo: one short game each.

    python examples/openspiel_mcts.py                 # MCTS (seat 0) against random bots, 3 players
    python examples/openspiel_mcts.py --players 4 --top-secret --simulations 16

Needs the extras: pip install 'heimlich-lab[openspiel,pettingzoo]'.

OpenSpiel's MCTSBot searches the true game state, so it sees every secret (the
other players' agents, their cards): read its results as an omniscient baseline,
not as a fair player. The PettingZoo part plays random legal actions from the
action masks.
"""
from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--top-secret", action="store_true")
    p.add_argument("--simulations", type=int, default=8, help="MCTS simulations per decision")
    p.add_argument("--max-decisions", type=int, default=2000, help="cut the OpenSpiel game after this many decisions")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)

    from heimlich_lab.adapters.openspiel import mcts_demo
    from heimlich_lab.adapters.pettingzoo_env import env, random_game

    returns = mcts_demo(players=args.players, top_secret=args.top_secret, max_simulations=args.simulations,
                        max_decisions=args.max_decisions, seed=args.seed)
    print("OpenSpiel: MCTS (seat 0) vs random bots, returns:", [f"{r:+.0f}" for r in returns])

    e = env(n_players=args.players, top_secret=args.top_secret)
    result = random_game(e, seed=args.seed)
    print(f"PettingZoo: random game of {result['steps']} decisions, rewards:",
          {a: f"{r:+.0f}" for a, r in result["rewards"].items()})
    e.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
