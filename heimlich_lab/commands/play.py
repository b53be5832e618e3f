"""``heimlich-lab play`` and ``heimlich-lab replay``."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..bots.registry import make_bot
from ..errors import HeimlichError
from ..play import play_game
from ..rules.records import GameRecord
from ..transcript import transcript
from .common import add_rules_arguments, rules_from, split_names


def bot_seeds(seed: int | None, n: int) -> list[int]:
    """One seed per bot, derived from the game's seed (the same seed gives the same game)."""
    ss = np.random.SeedSequence(seed if seed is not None else None)
    return [int(s.generate_state(1)[0]) for s in ss.spawn(n)]


def register(sub):
    p = sub.add_parser("play", help="play a bots-only game and print its transcript")
    p.add_argument("--players", required=True, help="player names in seat order, e.g. Ann,Bob,Cy")
    p.add_argument("--seed", type=int, default=None, help="seed for the game and the bots")
    p.add_argument("--bots", default="random",
                   help="bot names: one for all, or one per player, comma-separated (default: random)")
    add_rules_arguments(p)
    p.add_argument("--out", help="save the game record (JSON) here")
    p.add_argument("--as", dest="viewer", default=None,
                   help="print the transcript as this player sees it, or 'omniscient' (default: spectator)")
    p.set_defaults(func=run_play)

    r = sub.add_parser("replay", help="print the transcript of a saved game record")
    r.add_argument("record", help="a game record (JSON)")
    r.add_argument("--as", dest="viewer", default=None,
                   help="the player whose view to show, or 'omniscient' (default: spectator)")
    r.set_defaults(func=run_replay)


def run_play(args) -> int:
    players = split_names(args.players, "player")
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise HeimlichError(f"--players: each player needs a different name; repeated: {', '.join(repeated)}")
    if args.out:
        # fail before playing, not after printing a whole game
        parent = Path(args.out).parent
        if not parent.is_dir():
            raise HeimlichError(f"--out {args.out}: the folder {parent} does not exist")
    bots = split_names(args.bots, "bot")
    if len(bots) == 1:
        bots = bots * len(players)
    if len(bots) != len(players):
        raise HeimlichError(f"{len(players)} players but {len(bots)} bots: give one bot for all, or one per player")
    seeds = bot_seeds(args.seed, len(players))
    lineup = {p: make_bot(b, seed=s) for p, b, s in zip(players, bots, seeds)}
    _check_viewer(args.viewer, players)
    game = play_game(rules_from(args), lineup, seed=args.seed)
    print("\n".join(transcript(game, viewer=args.viewer)))
    if args.out:
        try:
            game.record.save(args.out)
        except OSError as e:
            raise HeimlichError(f"--out {args.out}: cannot save the record: {e.strerror or e}") from None
        print(f"Record saved to {args.out}")
    return 0


def run_replay(args) -> int:
    rec = GameRecord.load(args.record)
    _check_viewer(args.viewer, rec.players)
    if not rec.is_full:  # the command replays the game itself: it needs every secret
        raise HeimlichError(f"{args.record}: a {rec.view} record hides secrets and cannot be replayed as a game; "
                            "use the full record")
    print("\n".join(transcript(rec, viewer=args.viewer)))
    return 0


def _check_viewer(viewer, players):
    if viewer not in (None, "omniscient") and viewer not in players:
        raise HeimlichError(f"--as {viewer}: not a player ({', '.join(players)}), 'omniscient' or left out")
