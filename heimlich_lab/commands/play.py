"""``heimlich-lab play`` and ``heimlich-lab replay``, for every registered game.

``play`` seats one bot per player (by name, from the game's bots), plays with ``--seed`` (or a seed drawn from
the OS, printed), prints the transcript as ``--as`` sees it and saves the record with ``--out``. ``replay``
reads a saved record of any game (its ``game`` field says which) and prints its transcript.
"""
from __future__ import annotations

import json
import os

from ..bots.registry import make_bot
from ..engine.play import play_game
from ..engine.registry import GameSpec, game_spec, spec_of_record
from ..errors import HeimlichError
from .common import (
    add_game_argument,
    add_seed_argument,
    check_viewer,
    chosen_game,
    cli_seeds,
    out_file,
    read_input_file,
    report_seed_and_save,
    rules_from_args,
    seed_or_drawn,
    split_names,
)


def register(sub):
    p = sub.add_parser("play", help="play a bots-only game and print its transcript")
    p.add_argument("--players", required=True, help="player names in seat order, e.g. Ann,Bob,Cy")
    add_seed_argument(p, "the game and the bots (the same seed plays the same game)")
    p.add_argument("--bots", default="random",
                   help="bot names: one for all, or one per player, comma-separated (default: random)")
    add_game_argument(p, "play")
    p.add_argument("--out", type=out_file(), help="save the game record (JSON) here")
    p.add_argument("--as", dest="viewer", default=None,
                   help="print the transcript as this player sees it, or 'omniscient' (default: spectator)")
    p.set_defaults(func=run_play)

    r = sub.add_parser("replay", help="print the transcript of a saved game record (of any game)")
    r.add_argument("record", help="a game record (JSON)")
    r.add_argument("--as", dest="viewer", default=None,
                   help="the player whose view to show, or 'omniscient' (default: spectator)")
    r.set_defaults(func=run_replay)


def run_play(args) -> int:
    spec = chosen_game(args)
    players = split_names(args.players, "player")
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise HeimlichError(f"--players: each player needs a different name; repeated: {', '.join(repeated)}")
    bots = split_names(args.bots, "bot")
    if len(bots) == 1:
        bots = bots * len(players)
    if len(bots) != len(players):
        raise HeimlichError(f"{len(players)} players but {len(bots)} bots: give one bot for all, or one per player")
    check_viewer(args.viewer, players)
    seed = seed_or_drawn(args.seed)
    game_seed, seeds = cli_seeds(spec, seed, len(players))
    lineup = {p: make_bot(b, seed=s, game=spec.name) for p, b, s in zip(players, bots, seeds)}
    game = play_game(spec.load("game"), lineup, seed=game_seed, rules=rules_from_args(spec, args))
    print("\n".join(spec.load("transcript")(game, viewer=args.viewer)))
    report_seed_and_save(game, args, seed)
    return 0


def record_game(data: "bytes | str | os.PathLike[str]") -> GameSpec:
    """The game of a record file, given its bytes or its path (the default game's when it is not a record: its
    loader then says what is wrong)."""
    try:
        if not isinstance(data, (bytes, bytearray)):
            data = read_input_file(os.fspath(data))
        return spec_of_record(json.loads(data))
    except (ValueError, RecursionError, HeimlichError):    # unreadable, not JSON or UTF-8, too deep, a huge integer
        return game_spec(None)


def run_replay(args) -> int:
    data = read_input_file(args.record)     # a regular file of bounded size: not /dev/zero, not a FIFO
    spec = record_game(data)
    rec = spec.load("record").from_json(data, source=args.record)
    check_viewer(args.viewer, rec.players)
    if not rec.is_full:  # the command replays the game itself: it needs every secret
        raise HeimlichError(f"{args.record}: a {rec.view} record hides secrets and cannot be replayed as a game; "
                            "use the full record")
    print("\n".join(spec.load("transcript")(rec, viewer=args.viewer)))
    return 0


def game_and_bot_seeds(seed: int, n: int) -> tuple[int, list[int]]:
    """The default game's seed and one seed per bot for ``play --seed SEED`` (see
    :func:`~heimlich_lab.commands.common.cli_seeds`).

    >>> game_and_bot_seeds(7, 3) == game_and_bot_seeds(7, 3)
    True
    >>> g, bots = game_and_bot_seeds(7, 3); g in bots
    False
    """
    return cli_seeds(game_spec(None), seed, n)
