"""Tournaments: many bots-only games over a grid, in parallel, as a tidy table.

:func:`tournament` plays every combination of player counts, rule variants and
bot line-ups, ``games`` times each, and returns one row per game and player:

>>> df = tournament(player_counts=(3,), variants=("basic",), bots=("random",), games=4, progress=False)
>>> df.shape[0], df["game_id"].nunique()
(12, 4)
>>> list(df.columns[:8])
['game_id', 'root_seed', 'game_index', 'seed', 'n_players', 'variant', 'top_secret', 'dossier']
>>> df.loc[0, ["player", "bot", "lineup"]].tolist()
['P1', 'random', 'random']

Reproducibility. Game ``k`` of every cell of the grid gets the seed sequence
``numpy.random.SeedSequence(seed).spawn(games)[k]`` (so the cells share their
random numbers: a classic variance reduction when comparing bots). The game's
seed and each seat's bot seed are drawn from that sequence, so a result never
depends on how the work was split, on the order in which games finished, or on
how many games were asked for (game 7 is the same game whether you ask for 10
or 10 000):

>>> ss = _game_seed_sequence(0, 7)
>>> ss.spawn_key == np.random.SeedSequence(0).spawn(10)[7].spawn_key
True

Saving and resuming. With ``out="results.parquet"`` (or ``.csv``) finished
games are written as they come in (every ``flush_every`` seconds, and always
when the run stops, also on Ctrl-C). Running the same call again skips the
games already in the file, so an interrupted run resumes where it stopped;
:func:`load_results` reads the file back.

Interrupting a run (Ctrl-C) keeps the games already played, also without ``out``: the
``KeyboardInterrupt`` carries them as ``.partial`` (see :func:`interrupted_results`).

Parallel runs. ``n_jobs=1`` plays in this process; ``n_jobs > 1`` worker processes on this
machine (joblib's loky backend), or a Dask
cluster: give ``scheduler="tcp://host:8786"`` (or set the environment variable
``HEIMLICH_DASK_SCHEDULER``). Install Dask with ``pip install heimlich-lab[dask]``.

Summaries: :func:`win_rates` and :func:`free_agent_win_rate` (with Wilson
confidence intervals, :func:`wilson_interval`) and :func:`plot_win_rates`.
"""
from __future__ import annotations

import math
import os
import secrets
import signal
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ..bots.registry import make_bot
from ..errors import HeimlichError
from ..play import play_game
from ..rules.ruleset import Rules

#: Environment variable naming a Dask scheduler address (used when ``scheduler`` is not given).
SCHEDULER_ENV = "HEIMLICH_DASK_SCHEDULER"

#: The columns of a tournament table, in order (evaluation metrics follow, sorted by name).
COLUMNS = (
    "game_id", "root_seed", "game_index", "seed", "n_players", "variant", "top_secret", "dossier",
    "safe_destination", "lineup", "seat", "player", "bot", "bot_seed", "agent", "agents", "final_agent",
    "score", "dossier_bonus", "won", "shared_win", "free_agent_won", "n_winners", "n_turns", "n_actions",
)
_INT_COLUMNS = ("root_seed", "game_index", "seed", "n_players", "seat", "bot_seed", "score", "dossier_bonus",
                "n_winners", "n_turns", "n_actions")
_BOOL_COLUMNS = ("top_secret", "dossier", "won", "shared_win", "free_agent_won")
_STR_COLUMNS = ("game_id", "variant", "safe_destination", "lineup", "player", "bot", "agent", "agents",
                "final_agent")

#: Named variants: name -> Rules options.
VARIANTS = {
    "basic": {},
    "top_secret": {"top_secret": True},
    "dossier": {"dossier": True},
    "both": {"top_secret": True, "dossier": True},
}
_VARIANT_ALIASES = {"top-secret": "top_secret", "topsecret": "top_secret", "ts": "top_secret",
                    "top_secret+dossier": "both"}
#: Options that may follow a variant name after ``+``: option -> Rules options.
VARIANT_OPTIONS = {"unoccupied": {"safe_destination": "unoccupied"}, "other": {"safe_destination": "other"}}


# ----------------------------------------------------------------------------------------- the grid
def rules_label(rules: Rules) -> str:
    """A short, unique name for a rule set (used in the ``variant`` column).

    >>> rules_label(Rules()), rules_label(Rules(top_secret=True, dossier=True))
    ('basic', 'both')
    >>> rules_label(Rules(dossier=True, safe_destination="unoccupied"))
    'dossier+unoccupied'
    """
    name = {(False, False): "basic", (True, False): "top_secret", (False, True): "dossier",
            (True, True): "both"}[(rules.top_secret, rules.dossier)]
    if rules.safe_destination != "other":
        name += f"+{rules.safe_destination}"
    if rules.agents is not None:
        name += "+agents=" + ".".join(rules.agents)
    if rules.deck is not None:
        name += "+deck=" + ".".join(f"{c}{n}" for c, n in rules.deck)
    return name


def parse_variant(spec: "str | Rules | Mapping") -> tuple[str, Rules]:
    """``(label, Rules)`` from a variant name, a :class:`Rules`, or a dict of Rules options.

    Names are ``basic``, ``top_secret``, ``dossier`` (basic + Secret Dossier) and ``both``
    (Top Secret + Secret Dossier), optionally followed by ``+unoccupied`` (the safe moves to
    an empty building).

    >>> label, rules = parse_variant("top_secret+unoccupied")
    >>> label, rules.top_secret, rules.dossier, rules.safe_destination
    ('top_secret+unoccupied', True, False, 'unoccupied')
    >>> parse_variant({"dossier": True})[0]
    'dossier'
    """
    if isinstance(spec, Rules):
        return rules_label(spec), spec
    if isinstance(spec, Mapping):
        try:
            rules = Rules(**spec)
        except TypeError as e:
            raise HeimlichError(f"variant {dict(spec)!r}: {e}") from None
        return rules_label(rules), rules
    if not isinstance(spec, str) or not spec.strip():
        raise HeimlichError(f"a variant is a name ({', '.join(VARIANTS)}), a Rules or a dict, not {spec!r}")
    text = spec.strip().lower()
    text = _VARIANT_ALIASES.get(text, text)
    name, *options = text.split("+")
    name = _VARIANT_ALIASES.get(name, name)
    if name not in VARIANTS:
        raise HeimlichError(f"unknown variant {spec!r}; variants are {', '.join(VARIANTS)} "
                            f"(optionally +{', +'.join(VARIANT_OPTIONS)})")
    kw = dict(VARIANTS[name])
    for o in options:
        if o not in VARIANT_OPTIONS:
            raise HeimlichError(f"unknown variant option {o!r} in {spec!r}; options are {', '.join(VARIANT_OPTIONS)}")
        kw.update(VARIANT_OPTIONS[o])
    rules = Rules(**kw)
    return rules_label(rules), rules


@dataclass(frozen=True)
class Lineup:
    """Who sits where: bot names per seat, or (``rotate=True``) a bot mix rotated over the seats.

    A fixed line-up of one name seats that bot everywhere; otherwise it must name one bot
    per seat (cells of the grid with another player count are left out). A rotated mix is
    repeated to fill the table, and game ``k`` turns it by ``k`` seats, so that over ``n``
    games every bot has sat in every seat equally often.

    >>> Lineup.parse("rotate:random,greedy").seats(3, 0), Lineup.parse("rotate:random,greedy").seats(3, 1)
    (('random', 'greedy', 'random'), ('random', 'random', 'greedy'))
    >>> Lineup.parse("random").seats(3, 0), Lineup.parse(["random", "greedy"]).label
    (('random', 'random', 'random'), 'random,greedy')
    """

    names: tuple[str, ...]
    rotate: bool = False

    @classmethod
    def parse(cls, spec: "str | Sequence[str] | Lineup") -> "Lineup":
        if isinstance(spec, Lineup):
            return spec
        rotate = False
        if isinstance(spec, str):
            text = spec.strip()
            if text.lower().startswith("rotate:"):
                rotate, text = True, text[len("rotate:"):]
            names = tuple(x.strip() for x in text.split(",") if x.strip())
        else:
            names = tuple(spec)
            if names and names[0] == "rotate":
                rotate, names = True, names[1:]
        if not names or not all(isinstance(x, str) and x for x in names):
            raise HeimlichError(f"a line-up names at least one bot, like 'random,random,greedy' or "
                                f"'rotate:random,greedy'; got {spec!r}")
        return cls(names, rotate)

    @property
    def label(self) -> str:
        return ("rotate:" if self.rotate else "") + ",".join(self.names)

    def fits(self, n_players: int) -> bool:
        """Whether this line-up can seat ``n_players`` players."""
        return self.rotate or len(self.names) in (1, n_players)

    def seats(self, n_players: int, game_index: int) -> tuple[str, ...]:
        """The bot in each seat for game ``game_index``."""
        if not self.fits(n_players):
            raise HeimlichError(f"line-up {self.label} names {len(self.names)} bots for {n_players} seats")
        fill = [self.names[i % len(self.names)] for i in range(n_players)]
        if not self.rotate:
            return tuple(fill)
        r = game_index % n_players
        return tuple(fill[(s - r) % n_players] for s in range(n_players))


@dataclass(frozen=True)
class _Task:
    game_id: str
    root_seed: int
    game_index: int
    n_players: int
    variant: str
    rules: Rules
    lineup: str
    seat_bots: tuple[str, ...]


def _as_list(x, what: str) -> list:
    if isinstance(x, (str, Rules, Lineup)) or isinstance(x, Mapping):
        return [x]
    try:
        out = list(x)
    except TypeError:
        return [x]
    if not out:
        raise HeimlichError(f"give at least one {what}")
    return out


def _grid(player_counts, variants, bots, games: int, seed: int) -> list[_Task]:
    counts = [int(n) for n in _as_list(player_counts, "player count")]
    for n in counts:
        if not 2 <= n <= 7:
            raise HeimlichError(f"Heimlich & Co. is for 2 to 7 players, not {n}")
    if isinstance(variants, Mapping) and not set(variants) <= set(Rules.__dataclass_fields__):
        vlist = [(str(k), parse_variant(v)[1]) for k, v in variants.items()]  # {label: spec}
    else:
        vlist = [parse_variant(v) for v in _as_list(variants, "variant")]
    labels = [v for v, _ in vlist]
    if len(set(labels)) != len(labels):
        raise HeimlichError(f"variants repeat: {labels}")
    lineups = [Lineup.parse(b) for b in _as_list(bots, "bot line-up")]
    if len({lu.label for lu in lineups}) != len(lineups):
        raise HeimlichError(f"line-ups repeat: {[lu.label for lu in lineups]}")
    for n in counts:
        if not any(lu.fits(n) for lu in lineups):
            raise HeimlichError(f"no line-up seats {n} players: give one bot name per seat, one name for "
                                f"all seats, or a 'rotate:' mix")
    names = sorted({b for lu in lineups for b in lu.names})
    for b in names:  # fail now, in this process, on a misspelt bot
        make_bot(b, seed=0)
    tasks = []
    for n in counts:
        for vlabel, rules in vlist:
            rules.agents_for(n)  # a custom agent list that does not fit fails here
            for lu in lineups:
                if not lu.fits(n):
                    continue
                for k in range(games):
                    gid = f"{seed}/{n}p/{vlabel}/{lu.label}/{k}"
                    tasks.append(_Task(gid, seed, k, n, vlabel, rules, lu.label, lu.seats(n, k)))
    return tasks


# ----------------------------------------------------------------------------------------- one game
def _game_seed_sequence(root_seed: int, game_index: int) -> np.random.SeedSequence:
    """The seed sequence of game ``game_index``: the same as ``SeedSequence(root_seed).spawn(N)[game_index]``."""
    return np.random.SeedSequence(root_seed, spawn_key=(game_index,))


def _int63(ss: np.random.SeedSequence) -> int:
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def game_seeds(root_seed: int, game_index: int, n_players: int) -> tuple[int, list[int]]:
    """The game seed and the seats' bot seeds of game ``game_index`` of a tournament.

    >>> s, bots = game_seeds(0, 3, 4)
    >>> len(bots), game_seeds(0, 3, 4) == (s, bots), s != game_seeds(0, 4, 4)[0]
    (4, True, True)
    """
    ss = _game_seed_sequence(root_seed, game_index)
    return _int63(ss), [_int63(c) for c in ss.spawn(n_players)]


def _play_one(task: _Task, evaluate: Callable | None) -> list[dict]:
    n = task.n_players
    game_seed, bot_seeds = game_seeds(task.root_seed, task.game_index, n)
    players = [f"P{s + 1}" for s in range(n)]
    lineup = {p: make_bot(b, seed=bs) for p, b, bs in zip(players, task.seat_bots, bot_seeds)}
    before = getattr(evaluate, "before_game", None)
    if before is not None:  # e.g. BeliefEvaluator: bots share the model's utility cache (same games)
        before(lineup)
    g = play_game(task.rules, lineup, seed=game_seed)
    deal = next(dict(a.args) for actor, a in g.history if a.kind == "deal")
    winners = set(g.winners)
    final = g.final_owners
    scores = g.scores
    bonus = g.dossier_bonus
    owners = g.owners
    metrics: Mapping = {}
    if evaluate is not None:
        metrics = evaluate(g.record)
        if not isinstance(metrics, Mapping):
            raise HeimlichError(f"evaluate(record) must return a dict of metrics, not {type(metrics).__name__}")
        clash = set(metrics) & set(COLUMNS)
        if clash:
            raise HeimlichError(f"evaluate returned metric(s) named like table columns: {sorted(clash)}")
    rows = []
    for s, p in enumerate(players):
        final_agent = next(c for c, o in final.items() if o == p)
        row = {
            "game_id": task.game_id, "root_seed": task.root_seed, "game_index": task.game_index,
            "seed": game_seed, "n_players": n, "variant": task.variant, "top_secret": task.rules.top_secret,
            "dossier": task.rules.dossier, "safe_destination": task.rules.safe_destination,
            "lineup": task.lineup, "seat": s + 1, "player": p, "bot": task.seat_bots[s], "bot_seed": bot_seeds[s],
            "agent": deal[p], "agents": ",".join(owners[p]), "final_agent": final_agent,
            "score": scores[final_agent], "dossier_bonus": bonus.get(p, 0), "won": p in winners,
            "shared_win": p in winners and len(winners) > 1, "free_agent_won": not winners,
            "n_winners": len(winners), "n_turns": g.turn, "n_actions": len(g.history),
        }
        for k, v in metrics.items():
            row[str(k)] = v.get(p, np.nan) if isinstance(v, Mapping) else v
        rows.append(row)
    return rows


def _play_chunk(tasks: Sequence[_Task], evaluate: Callable | None) -> list[dict]:
    """Play a few games (one unit of work for a worker process or a Dask worker)."""
    rows = []
    for t in tasks:
        rows.extend(_play_one(t, evaluate))
    return rows


# ----------------------------------------------------------------------------------------- tables and files
def _normalize(df: pd.DataFrame) -> pd.DataFrame:
    """Column order and dtypes of a tournament table (the same whatever file it came from)."""
    df = df.copy()
    for c in _INT_COLUMNS:
        if c in df:
            df[c] = df[c].astype("int64")
    for c in _BOOL_COLUMNS:
        if c in df:
            df[c] = df[c].astype(bool)
    for c in _STR_COLUMNS:
        if c in df:
            df[c] = df[c].astype(str)
    extra = sorted(c for c in df.columns if c not in COLUMNS)
    return df[[c for c in COLUMNS if c in df.columns] + extra]


def _empty() -> pd.DataFrame:
    return _normalize(pd.DataFrame({c: pd.Series(dtype="int64" if c in _INT_COLUMNS else bool if c in _BOOL_COLUMNS
                                                 else object) for c in COLUMNS}))


def _format(path: Path) -> str:
    suffix = "".join(path.suffixes[-2:]).lower() if path.suffix.lower() == ".gz" else path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix in (".csv", ".csv.gz"):
        return "csv"
    raise HeimlichError(f"{path}: results are saved as .parquet or .csv (by the file name's extension)")


def load_results(path: "str | os.PathLike") -> pd.DataFrame:
    """Read a tournament table saved by :func:`tournament` (Parquet or CSV, by extension).

    A file that does not exist yet gives an empty table with the tournament columns.

    >>> load_results("no-such-file.parquet").shape[0]
    0
    """
    path = Path(path)
    fmt = _format(path)
    if not path.exists():
        return _empty()
    try:
        df = pd.read_parquet(path) if fmt == "parquet" else pd.read_csv(path)
    except Exception as e:  # noqa: BLE001 - a clear message instead of a pyarrow/pandas traceback
        raise HeimlichError(f"cannot read tournament results {path}: {e}") from None
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise HeimlichError(f"{path} is not a tournament table: missing column(s) {missing}")
    df = _normalize(df)
    return df.sort_values(["root_seed", "n_players", "variant", "lineup", "game_index", "seat"],
                          kind="stable").reset_index(drop=True)


def _atomic_write(df: pd.DataFrame, path: Path, fmt: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".tournament-", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        if fmt == "parquet":
            df.to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, path)
    except ImportError as e:
        os.unlink(tmp)
        raise HeimlichError(f"saving {path.name} needs a Parquet engine: pip install pyarrow "
                            f"(or save to a .csv file) [{e}]") from None
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@contextmanager
def _interrupts_deferred():
    """Hold a Ctrl-C (SIGINT) until the block is done, then raise KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt


class _Sink:
    """Collects finished games and writes them to ``out`` now and then (and at the end)."""

    def __init__(self, out: "str | os.PathLike | None", flush_every: float):
        self.path = Path(out) if out is not None else None
        self.fmt = _format(self.path) if self.path is not None else None
        self.flush_every = flush_every
        self.saved = load_results(self.path) if self.path is not None else _empty()
        self.pending: list[dict] = []
        self.rows: list[dict] = []
        self._last = time.monotonic()

    def add(self, rows: list[dict]) -> None:
        self.rows.extend(rows)
        self.pending.extend(rows)
        if self.path is not None and time.monotonic() - self._last >= self.flush_every:
            self.flush()

    def flush(self) -> None:
        self._last = time.monotonic()
        if self.path is None or not self.pending:
            return
        with _interrupts_deferred():  # Ctrl-C during a write would leave half a CSV line
            self._write()

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = _normalize(pd.DataFrame(self.pending))
        append = (self.fmt == "csv" and self.path.exists()
                  and list(pd.read_csv(self.path, nrows=0).columns) == list(new.columns))
        if append:  # a CSV file with these columns: add the new rows at its end
            new.to_csv(self.path, mode="a", header=False, index=False)
            self.saved = pd.concat([self.saved, new], ignore_index=True)
        else:
            both = _normalize(pd.concat([self.saved, new], ignore_index=True)) if len(self.saved) else new
            _atomic_write(both, self.path, self.fmt)
            self.saved = both
        self.pending = []


# ----------------------------------------------------------------------------------------- running
def _dask_client(scheduler):
    """(client, created_here) for a scheduler address or an existing ``distributed.Client``."""
    if not isinstance(scheduler, str):
        return scheduler, False
    try:
        from dask.distributed import Client
    except ImportError:
        raise HeimlichError("running on a Dask cluster needs Dask: pip install 'heimlich-lab[dask]' "
                            "(or leave out scheduler= and HEIMLICH_DASK_SCHEDULER to use local processes)") from None
    try:
        return Client(scheduler, timeout="20s"), True
    except OSError as e:
        raise HeimlichError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None


def _run_dask(chunks, evaluate, scheduler) -> Iterator[list[dict]]:
    client, created = _dask_client(scheduler)
    from dask.distributed import as_completed
    futures = [client.submit(_play_chunk, c, evaluate, pure=False) for c in chunks]
    try:
        for fut in as_completed(futures):
            yield fut.result()
    finally:
        client.cancel([f for f in futures if not f.done()])
        if created:
            client.close()


def _run_joblib(chunks, evaluate, n_jobs) -> Iterator[list[dict]]:
    from joblib import Parallel, delayed
    jobs = (delayed(_play_chunk)(c, evaluate) for c in chunks)
    try:
        gen = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(jobs)
    except ValueError:  # joblib < 1.4
        gen = Parallel(n_jobs=n_jobs, return_as="generator")(jobs)
    try:
        yield from gen
    finally:
        gen.close()


def _n_workers(n_jobs: int) -> int:
    if n_jobs is None:
        return 1
    if n_jobs < 0:
        return max(1, (os.cpu_count() or 1) + 1 + n_jobs)
    return max(1, n_jobs)


def tournament(player_counts: "int | Iterable[int]" = (3,), variants=("basic",), bots=("random",),
               games: int = 100, seed: int | None = 0, n_jobs: int = 1, scheduler=None,
               evaluate: Callable | None = None, out: "str | os.PathLike | None" = None,
               progress: bool = True, chunk_size: int | None = None, flush_every: float = 10.0) -> pd.DataFrame:
    """Play a grid of bots-only games and return one row per game and player.

    Parameters
    ----------
    player_counts:
        Table sizes, e.g. ``(3, 5, 7)``.
    variants:
        Variant names (``basic``, ``top_secret``, ``dossier``, ``both``; ``+unoccupied`` for the
        older safe rule), :class:`~heimlich_lab.Rules` objects, dicts of Rules options, or a dict
        ``{label: any of these}``.
    bots:
        Bot line-ups; each is a string (``"random"``, ``"random,greedy,random"``,
        ``"rotate:random,greedy"``), a list of bot names, or a :class:`Lineup`. A single string is one
        line-up. Bots are made by name from the registry (:func:`heimlich_lab.bots.make_bot`).
    games:
        Games per cell of the grid.
    seed:
        Root seed of the tournament (``None``: a fresh one, recorded in ``root_seed``). Game ``k`` of
        every cell of the grid uses ``numpy.random.SeedSequence(seed).spawn(games)[k]``: the cells share
        their seeds on purpose (common random numbers, so bots and variants are compared on the
        same deals and dice as far as the games agree).
    n_jobs:
        ``1`` (default) plays in this process, one game at a time; ``n_jobs > 1`` uses that many
        joblib worker processes (the loky backend), ``-1`` one per core. Results are the same
        either way. Ignored on a Dask cluster.
    scheduler:
        A Dask scheduler address (``"tcp://127.0.0.1:8786"``) or a ``distributed.Client``; by
        default the environment variable ``HEIMLICH_DASK_SCHEDULER``, if set. ``False`` forces
        local processes.
    evaluate:
        ``"beliefs"``: every player's exact belief scored at the dossier mark (log loss, Brier score,
        accuracy, expected and actual correct dossier entries; see
        :class:`~heimlich_lab.analysis.beliefs.BeliefEvaluator`). Or a hook ``evaluate(record) -> dict`` called with each finished game's full
        :class:`~heimlich_lab.GameRecord` (e.g. how well a belief guessed the identities). A scalar
        value is copied to every player's row; a dict ``{player: value}`` goes to that player's row.
        It runs in the worker processes, so it must be picklable (cloudpickle: lambdas are fine).
    out:
        ``.parquet`` or ``.csv`` file to save to. Games already in it are skipped (resume).
    progress:
        Show a progress bar (tqdm; a widget in Jupyter).
    chunk_size:
        Games per unit of work (default: chosen from the number of games and workers).
    flush_every:
        Seconds between writes to ``out``.

    Interrupting (Ctrl-C, or interrupting the Jupyter kernel) keeps the games already played: the
    ``KeyboardInterrupt`` carries them as a table in ``.partial`` (also returned by
    :func:`interrupted_results`), and with ``out=`` they are saved too.

    Returns the table of the requested grid (including games loaded from ``out``), in grid order.
    Columns: see :data:`COLUMNS`; ``seat`` counts from 1 (``P1`` begins); ``agent`` is the dealt
    agent, ``agents`` every agent controlled (a second agent from the Top Secret card),
    ``final_agent`` the one that counted at the end; ``won`` includes shared wins;
    ``free_agent_won`` means no player won.
    """
    if not isinstance(games, (int, np.integer)) or games < 0:
        raise HeimlichError(f"games must be a whole number >= 0, not {games!r}")
    if seed is None:
        seed = secrets.randbits(63)
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise HeimlichError(f"seed must be a whole number >= 0, not {seed!r}")
    seed = int(seed)
    from .beliefs import resolve_evaluator
    evaluate = resolve_evaluator(evaluate)
    if evaluate is not None and not callable(evaluate):
        raise HeimlichError("evaluate must be a function evaluate(record) -> dict of metrics, or \"beliefs\"")
    tasks = _grid(player_counts, variants, bots, int(games), seed)
    if scheduler is None:
        scheduler = os.environ.get(SCHEDULER_ENV) or None
    if scheduler is False or scheduler == "":
        scheduler = None

    sink = _Sink(out, flush_every)
    done_ids = set(sink.saved["game_id"]) if len(sink.saved) else set()
    todo = [t for t in tasks if t.game_id not in done_ids]
    workers = _n_workers(n_jobs) if scheduler is None else 8
    if chunk_size is None:
        chunk_size = max(1, min(50, math.ceil(len(todo) / (workers * 8)))) if workers > 1 else 10
    chunks = [todo[i:i + chunk_size] for i in range(0, len(todo), chunk_size)]

    bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), unit="game", desc="tournament",
               disable=not progress, file=sys.stderr, dynamic_ncols=True)
    results: Iterator[list[dict]]
    if not chunks:
        results = iter(())
    elif scheduler is not None:
        results = _run_dask(chunks, evaluate, scheduler)
    elif workers == 1:  # in this process, one game at a time (an interruption loses at most one game)
        results = (_play_one(t, evaluate) for t in todo)
    else:
        results = _run_joblib(chunks, evaluate, n_jobs)
    global _LAST_PARTIAL
    try:
        for rows in results:
            sink.add(rows)
            bar.update(len({r["game_id"] for r in rows}))
    except KeyboardInterrupt as exc:
        sink.flush()
        partial = _table(tasks, sink)
        exc.partial = _LAST_PARTIAL = partial
        where = f"; they are saved in {sink.path}: run the same call again to play the rest" if sink.path else ""
        print(f"\ninterrupted after {partial['game_id'].nunique() if len(partial) else 0} games{where}. "
              f"The games played are kept: `except KeyboardInterrupt as e: df = e.partial`, or "
              f"heimlich_lab.analysis.tournament.interrupted_results()", file=sys.stderr)
        raise
    finally:
        if hasattr(results, "close"):
            results.close()
        sink.flush()
        bar.close()
    return _table(tasks, sink)


#: The table of the last interrupted run in this process (see :func:`interrupted_results`).
_LAST_PARTIAL: pd.DataFrame | None = None


def interrupted_results() -> pd.DataFrame | None:
    """The games played by the last :func:`tournament` call of this process that was interrupted
    (Ctrl-C, or "interrupt the kernel" in Jupyter), as a table; ``None`` if none was interrupted.

    The same table is attached to the ``KeyboardInterrupt`` as ``.partial``.
    """
    return _LAST_PARTIAL


def _table(tasks: Sequence[_Task], sink: "_Sink") -> pd.DataFrame:
    """The rows of ``tasks`` that are in the sink (saved or played), in grid order."""
    order = {t.game_id: i for i, t in enumerate(tasks)}
    parts = [sink.saved[sink.saved["game_id"].isin(order)]] if len(sink.saved) else []
    if sink.path is None and sink.rows:
        parts.append(pd.DataFrame(sink.rows))
    if not parts or sum(len(p) for p in parts) == 0:
        return _empty()
    df = _normalize(pd.concat(parts, ignore_index=True)) if len(parts) > 1 else _normalize(parts[0])
    df = df.assign(_order=df["game_id"].map(order)).sort_values(["_order", "seat"], kind="stable")
    return df.drop(columns="_order").reset_index(drop=True)


# ----------------------------------------------------------------------------------------- summaries
def wilson_interval(successes, trials, confidence: float = 0.95):
    """Wilson score interval for a binomial proportion; arrays broadcast. ``trials == 0`` gives NaN.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if not 0 < confidence < 1:
        raise HeimlichError(f"confidence must be between 0 and 1, not {confidence}")
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise HeimlichError("successes must be between 0 and the number of trials")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z / denom * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low, high = np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def _by_list(by) -> list[str]:
    return [by] if isinstance(by, str) else list(by)


def win_rates(df: pd.DataFrame, by=("bot",), confidence: float = 0.95) -> pd.DataFrame:
    """Win rate per group of player-games, with a Wilson confidence interval.

    Columns: the ``by`` columns, ``games`` (player-games in the group), ``wins`` (shared wins
    count as wins), ``win_rate``, ``ci_low``, ``ci_high``, ``shared_wins`` and ``fair_share``
    (the win rate of a seat if every player were equally good and a free agent never won:
    the mean of 1 / number of players). Rows of one game are not independent (at most a few
    players win each game), so read the interval as a guide when a bot fills several seats.

    >>> df = pd.DataFrame({"bot": ["a", "a", "b", "b"], "won": [True, False, False, False],
    ...                    "shared_win": [False] * 4, "n_players": [2] * 4})
    >>> win_rates(df)[["bot", "games", "wins", "win_rate"]].to_string(index=False)
    'bot  games  wins  win_rate\\n  a      2     1       0.5\\n  b      2     0       0.0'
    """
    cols = _by_list(by)
    missing = [c for c in cols + ["won"] if c not in df.columns]
    if missing:
        raise HeimlichError(f"the table has no column(s) {missing}")
    d = df.assign(_fair=1.0 / df["n_players"] if "n_players" in df else np.nan,
                  _shared=df["shared_win"] if "shared_win" in df else False)
    g = d.groupby(cols, sort=True, observed=True)
    out = pd.DataFrame({"games": g["won"].size(), "wins": g["won"].sum().astype("int64")})
    out["win_rate"] = out["wins"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["wins"].to_numpy(), out["games"].to_numpy(), confidence)
    out["shared_wins"] = g["_shared"].sum().astype("int64")
    out["fair_share"] = g["_fair"].mean()
    return out.reset_index()


def free_agent_win_rate(df: pd.DataFrame, by="n_players", confidence: float = 0.95) -> pd.DataFrame:
    """How often no player won (a free agent had the top score), per group of games.

    Columns: the ``by`` columns, ``games``, ``free_agent_wins``, ``rate``, ``ci_low``, ``ci_high``.

    >>> df = pd.DataFrame({"game_id": ["g1", "g1", "g2", "g2"], "n_players": [2] * 4,
    ...                    "free_agent_won": [True, True, False, False]})
    >>> free_agent_win_rate(df)[["games", "free_agent_wins", "rate"]].to_dict("records")
    [{'games': 2, 'free_agent_wins': 1, 'rate': 0.5}]
    """
    cols = _by_list(by)
    missing = [c for c in cols + ["game_id", "free_agent_won"] if c not in df.columns]
    if missing:
        raise HeimlichError(f"the table has no column(s) {missing}")
    per_game = df.drop_duplicates("game_id")
    g = per_game.groupby(cols, sort=True, observed=True)["free_agent_won"]
    out = pd.DataFrame({"games": g.size(), "free_agent_wins": g.sum().astype("int64")})
    out["rate"] = out["free_agent_wins"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["free_agent_wins"].to_numpy(), out["games"].to_numpy(),
                                                    confidence)
    return out.reset_index()


def plot_win_rates(data: pd.DataFrame, by=("bot",), ax=None, confidence: float = 0.95, title: str | None = None):
    """Bar chart of win rates with confidence-interval error bars; returns the matplotlib Axes.

    ``data`` is a tournament table (win rates are computed with :func:`win_rates`) or a table
    :func:`win_rates` returned. A short grey tick on each bar marks its fair share.

    >>> from matplotlib.figure import Figure
    >>> df = tournament(3, "basic", "random", games=3, progress=False)
    >>> ax = plot_win_rates(df, by="seat", ax=Figure().subplots())
    >>> len(ax.patches), ax.get_ylabel()
    (3, 'win rate')
    """
    rates = data if "win_rate" in data.columns else win_rates(data, by=by, confidence=confidence)
    cols = [c for c in _by_list(by) if c in rates.columns]
    if not cols:
        raise HeimlichError(f"the win-rate table has none of the columns {list(_by_list(by))}")
    if ax is None:
        import matplotlib.pyplot as plt
        _, ax = plt.subplots(figsize=(max(4.0, 0.6 * len(rates) + 2), 3.5))
    labels = [" / ".join(str(v) for v in row) for row in rates[cols].itertuples(index=False)]
    x = np.arange(len(rates))
    r = rates["win_rate"].to_numpy(dtype=float)
    yerr = np.vstack([r - rates["ci_low"].to_numpy(dtype=float), rates["ci_high"].to_numpy(dtype=float) - r])
    ax.bar(x, r, yerr=yerr, capsize=4, color="#4c72b0", alpha=0.85)
    if "fair_share" in rates:
        ax.scatter(x, rates["fair_share"], marker="_", s=600, color="0.3", zorder=3, label="fair share")
    ax.set_xticks(x, labels, rotation=30 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center")
    ax.set_ylabel("win rate")
    ax.set_xlabel(" / ".join(cols))
    ax.set_ylim(0, max(1e-9, min(1.0, float(np.nanmax(rates["ci_high"])) * 1.15 if len(rates) else 1.0)))
    ax.set_title(title if title is not None else f"Win rates ({round(confidence * 100)}% Wilson intervals)")
    return ax
