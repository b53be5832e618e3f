"""``heimlich-lab tournament``: play a grid of bots-only games and print a summary.

Example (quote the ``|`` that separates line-ups)::

    heimlich-lab tournament --players 3,5 --variants basic,top_secret \\
        --bots "random,random,random|rotate:random,greedy" --games 200 --seed 0 --jobs 2 \\
        --out results.parquet

A fixed line-up names one bot per seat (or one bot for every seat) and is used
at the tables it fits; ``rotate:A,B`` fills any table with the mix and turns it
one seat per game. ``--bots`` may also be given several times.

Any registered game: ``heimlich-lab tournament --game secrets --players 4,6,8 --bots "rotate:team,bluff,random"``
(the game's spec gives its table, its summaries and its evaluators; Secrets' win rates also by team).

Students' bots: ``heimlich-lab tournament --bot-file student.py --bots "rotate:student,random"`` (the file's
contract: examples/student_bot.py). Each runs in its own process, sees only its player's record, and has a
time and memory limit; a fault costs it the turn (docs/rules.md#bots-out-of-process).
"""
from __future__ import annotations

from ..errors import HeimlichError
from .common import (
    add_game_argument,
    add_seed_argument,
    chosen_game,
    out_file,
    positive_number,
    split_names,
    whole_number,
)


def register(sub):
    p = sub.add_parser("tournament", help="play many bots-only games over a grid and summarise the results",
                       description="Play every combination of player counts, variants and bot line-ups "
                       "--games times, save one row per game and player, and print win rates with "
                       "95%% Wilson intervals.")
    add_game_argument(p)
    p.add_argument("--players", default=None,
                   help="player counts, comma-separated (default: the game's, 3 for Heimlich & Co., 5 for Secrets)")
    p.add_argument("--variants", default="basic",
                   help="variants, comma-separated: basic, top_secret, dossier, both; add +unoccupied for the "
                        "older safe rule; for secrets basic or double_agent=N (default: basic)")
    p.add_argument("--bots", action="append", default=None,
                   help="bot line-ups separated by '|': 'random' (every seat), 'random,greedy,random' "
                        "(per seat) or 'rotate:random,greedy' (a mix rotated over the seats); may be repeated "
                        "(default: random)")
    p.add_argument("--games", type=whole_number(0), default=100, help="games per cell of the grid (default: 100)")
    add_seed_argument(p, "the tournament (its root seed, kept in the root_seed column)")
    p.add_argument("--jobs", type=whole_number(-1), default=1,
                   help="local worker processes; -1 for one per core (default: 1)")
    p.add_argument("--scheduler", default=None,
                   help="Dask scheduler address, e.g. tcp://127.0.0.1:8786 (default: $HEIMLICH_DASK_SCHEDULER, "
                        "else local processes)")
    p.add_argument("--out", type=out_file(".parquet", ".csv"), default=None,
                   help="save to this .parquet or .csv file (in a folder that exists); rerunning resumes")
    p.add_argument("--save-every", type=positive_number, default=10.0, metavar="SECONDS",
                   help="with --out, save the games played so far every SECONDS (default: 10); always at the end "
                        "and on Ctrl-C")
    p.add_argument("--by", default="n_players,variant,lineup,bot",
                   help="columns to group the win rates by (default: n_players,variant,lineup,bot)")
    p.add_argument("--evaluate", default=None, choices=("beliefs",),
                   help="per game and player, score the exact belief at the dossier mark (adds columns "
                        "belief_log_loss, belief_brier, belief_accuracy, belief_expected_correct, "
                        "belief_actual_correct, belief_at_mark) and print their means; for secrets the exact "
                        "filter at the end (belief_log_loss, belief_brier, belief_accuracy, belief_own)")
    p.add_argument("--bot-file", action="append", default=None, metavar="[NAME=]PATH",
                   help="a bot in a Python file (a class Bot or a function choose(view, legal_actions); see "
                        "examples/student_bot.py), named in --bots by its file name (student.py: student) or NAME; "
                        "may be repeated. It runs in its own process with a time and memory limit "
                        "(docs/rules.md#bots-out-of-process). Without --bots: rotate:FILES...,random")
    p.add_argument("--decision-time", type=positive_number, default=5.0, metavar="SECONDS",
                   help="seconds a bot file has per decision (default: 5)")
    p.add_argument("--bot-memory", type=whole_number(16), default=512, metavar="MB",
                   help="memory a bot file may use beyond what it holds once loaded, in MB (default: 512)")
    p.add_argument("--max-faults", type=whole_number(1), default=3,
                   help="faults after which a bot file is not asked again in that game (default: 3)")
    p.add_argument("--trusted-bot-files", action="store_true",
                   help="run the bot files in this process, without limits: only for code you trust (it can "
                        "read every secret of the game)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def parse_counts(text: str) -> list[int]:
    out = []
    for x in split_names(text, "player count"):
        try:
            out.append(int(x))
        except ValueError:
            raise HeimlichError(f"--players: {x!r} is not a number of players") from None
    return out


def parse_lineups(values: list[str] | None) -> list[str]:
    texts = values or ["random"]
    out = [x.strip() for t in texts for x in t.split("|") if x.strip()]
    if not out:
        raise HeimlichError("--bots: give at least one line-up, like random or rotate:random,greedy")
    return out


def bot_files(args, game: str) -> dict:
    """``--bot-file [NAME=]PATH`` -> {name: BotFile} with the limits of the command line."""
    if not args.bot_file:
        return {}
    from ..sandbox import BotFile
    out = {}
    for text in args.bot_file:
        name, sep, path = text.partition("=")
        if not sep or name.endswith(".py") or "/" in name:
            name, path = "", text
        spec = BotFile(path, name=name, sandbox=not args.trusted_bot_files, time_limit=args.decision_time,
                       memory_mb=args.bot_memory, max_faults=args.max_faults, game=game)
        if spec.name in out:
            raise HeimlichError(f"--bot-file: two files are named {spec.name!r}; name one: NAME=PATH")
        out[spec.name] = spec
    return out


def run(args) -> int:
    import pandas as pd

    from ..analysis import tournament, win_rates
    from ..analysis.storage import columns_of

    spec = chosen_game(args)
    table = spec.load("tournament")
    columns = columns_of(spec.name)
    by = split_names(args.by, "column")
    unknown = [c for c in by if c not in columns and not (args.evaluate and c.startswith("belief_"))]
    if unknown:     # said now, not after every game has been played
        raise HeimlichError(f"--by: unknown column(s) {unknown}; columns are {', '.join(columns)}")
    players = args.players or str(spec.default_players)
    files = bot_files(args, spec.name)
    lineups = parse_lineups(args.bots or ([f"rotate:{','.join(files)},random"] if files else None))
    df = tournament(player_counts=parse_counts(players), variants=split_names(args.variants, "variant"),
                    bots=lineups, games=args.games, seed=args.seed, n_jobs=args.jobs,
                    scheduler=args.scheduler, out=args.out, flush_every=args.save_every, progress=not args.no_progress,
                    evaluate=args.evaluate, game=spec.name, bot_files=files)
    games = df["game_id"].nunique() if len(df) else 0
    # without --seed the root seed is drawn from the OS (or is the one of the run saved in --out, resumed)
    root = f", root seed {df['root_seed'].iloc[0]}" if len(df) else ""
    print(f"{games} games, {len(df)} player rows{root}" + (" (drawn)" if root and args.seed is None else "")
          + (f"; saved in {args.out}" if args.out else ""))
    if not len(df):
        return 0
    rates = win_rates(df, by=by)
    with pd.option_context("display.width", 160, "display.max_columns", 20, "display.max_rows", 500):
        print("\nWin rates (95% Wilson interval; a shared win counts as a win):")
        fair = ["fair_share"] if table.fair_share else []     # a game won by teams has no seat's share
        print(_fmt(rates[by + ["games", "wins", "win_rate", "ci_low", "ci_high", *fair]]))
        fa_by = [c for c in by if c in ("n_players", "variant", "lineup")] or ["n_players"]
        for title, extra in (table.summary(df, fa_by) if table.summary is not None else []):
            print(f"\n{title}")
            print(_fmt(extra))
        if "bot_faults" in df.columns:
            faulty = df[df["bot_faults"] > 0]
            print("\nBot files' faults (decisions taken by the fallback; docs/rules.md#bots-out-of-process):")
            print(_fmt(df[df["bot"].isin(files)].groupby("bot", observed=True).agg(     # a seat: one player's game
                games=("game_id", "nunique"), seats=("game_id", "size"), faults=("bot_faults", "sum"),
                seats_with_faults=("bot_faults", lambda x: int((x > 0).sum()))).reset_index()))
            if len(faulty):
                print(f"first: {faulty['bot'].iloc[0]}: {faulty['bot_fault'].iloc[0]}")
        metrics = [c for c in df.columns if c.startswith("belief_") and c != "belief_at_mark"]
        if args.evaluate and metrics:
            print(f"\nExact beliefs {table.belief_when} (mean per player-game):")
            print(_fmt(df.groupby(fa_by, observed=True)[metrics].mean().reset_index()))
    return 0


def _fmt(table) -> str:
    return table.to_string(index=False, float_format=lambda x: f"{x:.3f}")
