"""``heimlich-lab play`` and ``heimlich-lab replay``."""
from __future__ import annotations

from ..bots.registry import make_bot
from ..errors import HeimlichError
from ..games.heimlich.play import play_game
from ..games.heimlich.rules.records import GameRecord
from ..games.heimlich.transcript import transcript
from .common import (add_rules_arguments, add_seed_argument, out_file, report_seed_and_save, rules_from, seed_or_drawn,
                     split_names)


def game_and_bot_seeds(seed: int, n: int) -> tuple[int, list[int]]:
    """The game's seed and one seed per bot, both drawn from ``seed`` as a tournament's game 0 is.

    The bots' seeds are spawned apart from the game's, so a bot that knows its own seed learns nothing
    about the deal, the draws or the rolls (unless it can guess ``seed`` itself: a small one it can).

    >>> game_and_bot_seeds(7, 3) == game_and_bot_seeds(7, 3)
    True
    >>> g, bots = game_and_bot_seeds(7, 3); g in bots
    False
    """
    from ..analysis import game_seeds
    return game_seeds(seed, 0, n)


def register(sub):
    p = sub.add_parser("play", help="play a bots-only game and print its transcript")
    p.add_argument("--players", required=True, help="player names in seat order, e.g. Ann,Bob,Cy")
    add_seed_argument(p, "the game and the bots (the same seed plays the same game)")
    p.add_argument("--bots", default="random",
                   help="bot names: one for all, or one per player, comma-separated (default: random)")
    add_rules_arguments(p)
    p.add_argument("--game", choices=("heimlich", "secrets"), default="heimlich",
                   help="heimlich (default) or secrets, the second game (4 to 8 players; bots random, team, bluff)")
    p.add_argument("--out", type=out_file(), help="save the game record (JSON) here")
    p.add_argument("--as", dest="viewer", default=None,
                   help="print the transcript as this player sees it, or 'omniscient' (default: spectator)")
    p.set_defaults(func=run_play)

    r = sub.add_parser("replay", help="print the transcript of a saved game record")
    r.add_argument("record", help="a game record (JSON)")
    r.add_argument("--as", dest="viewer", default=None,
                   help="the player whose view to show, or 'omniscient' (default: spectator)")
    r.set_defaults(func=run_replay)


def run_play(args) -> int:
    if args.game == "secrets":
        from ..games.secrets.cli import run_play as play_secrets
        return play_secrets(args)
    players = split_names(args.players, "player")
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise HeimlichError(f"--players: each player needs a different name; repeated: {', '.join(repeated)}")
    bots = split_names(args.bots, "bot")
    if len(bots) == 1:
        bots = bots * len(players)
    if len(bots) != len(players):
        raise HeimlichError(f"{len(players)} players but {len(bots)} bots: give one bot for all, or one per player")
    _check_viewer(args.viewer, players)
    seed = seed_or_drawn(args.seed)
    game_seed, seeds = game_and_bot_seeds(seed, len(players))
    lineup = {p: make_bot(b, seed=s) for p, b, s in zip(players, bots, seeds)}
    game = play_game(rules_from(args), lineup, seed=game_seed)
    print("\n".join(transcript(game, viewer=args.viewer)))
    report_seed_and_save(game, args, seed)
    return 0


def run_replay(args) -> int:
    from ..games.secrets.cli import is_secrets_record, run_replay as replay_secrets
    if is_secrets_record(args.record):
        return replay_secrets(args)
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
