"""Issue 26's targets for the beliefs (``heimlich-lab bench --only limits``): ratios measured side by side.

Figures are printed, never asserted. Each ratio compares two workloads timed in the same run, in alternation
(``rounds`` times, the least CPU time of each kept), in CPU time of this process (``time.process_time``: a
shared machine inflates them little; numpy's small products run on one core):

* **beliefs vs bots only**: complete 5-player basic games between Boltzmann bots through :func:`tournament`
  (one process), with every player's exact belief under the default model scored over the whole game
  (:class:`BeliefEvaluator`, ``until=None``, as the 10,000-game target) against the same games without
  beliefs. The target: at most 1.5x.
* **default model vs BoltzmannModel**: :meth:`Belief.from_record` (update records kept: the notebooks', the
  board's and the command line's path) for every observer of a few recorded 5-player basic games, per
  decision read, with the default model and with ``BoltzmannModel()``. The target: at most 2x.
* **a board bot-step**: the median CPU time of a step of the board (a 7-player Top Secret + Secret Dossier
  game between random bots, a spectator's belief panel on), as ``heimlich-lab bench --only board``
  measures it. The target: half of what it was before issue 26 (see BENCHMARKS.md).
* **games with Top Secret cards** (``--only topsecret``, not in the default run): 7-player Top Secret + Secret
  Dossier games between Boltzmann bots, the evaluator's cost per decision (the tournament with every belief minus
  without) and :meth:`Belief.from_record` for every observer per decision read.

Only public entry points are used, so this file also times an older tree
(``PYTHONPATH=OLD python heimlich_lab/games/heimlich/benchmarks/limits.py``: scripts/speed_side_by_side.py's
way of comparing trees).
"""
from __future__ import annotations

import importlib
import statistics
import sys
import time
from typing import Any

PLAYERS_5 = ("A", "B", "C", "D", "E")
PLAYERS_7 = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def _first(*paths: str) -> Any:
    """The first of ``paths`` (``"module:name"``) that this tree has: the figures are also taken on a tree from
    before the games' layout (``scripts/belief_limits_side_by_side.py``), whose modules had other paths.

    >>> _first("no_such_module:x", "heimlich_lab.bots:RandomBot").__name__
    'RandomBot'
    """
    for path in paths:
        module, _, name = path.partition(":")
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    raise ImportError(f"none of {', '.join(paths)}")


_H = "heimlich_lab.games.heimlich"


def _cpu(work) -> float:
    """CPU seconds of ``work()``, started with cold utility caches (a tree with utilities shared by every model
    of the same weights would otherwise find the previous round's) and no game's answers remembered."""
    _cold()
    t0 = time.process_time()
    work()
    return time.process_time() - t0


def _cold() -> None:
    """Forget the shared utilities and the remembered answers of games (where this tree has them)."""
    try:
        from heimlich_lab.games.heimlich.inference.utility import Utility
        Utility.clear_shared()
    except (ImportError, AttributeError):    # an older tree: every model has its own cache
        pass
    _forget_answers()


def _forget_answers() -> None:
    """Forget the answers of a game's decisions remembered for its next observer (a tree from before: none)."""
    try:
        from heimlich_lab.games.heimlich.inference.likelihoods import clear_game_answers
        clear_game_answers()
    except (ImportError, AttributeError):
        pass


def beliefs_vs_bots(games: int, rounds: int) -> tuple[float, float]:
    """CPU seconds of ``games`` 5-player basic Boltzmann games with and without every player's belief
    (default model, whole game), the least of ``rounds`` alternated runs each."""
    tournament = _first("heimlich_lab.analysis:tournament")
    BeliefEvaluator = _first(f"{_H}.analysis:BeliefEvaluator", "heimlich_lab.analysis:BeliefEvaluator")
    grid: dict[str, Any] = dict(player_counts=5, variants="basic", bots="boltzmann", progress=False, n_jobs=1,
                                seed=1)
    tournament(**grid, games=2, evaluate=BeliefEvaluator(until=None))     # imports (not timed)
    with_b, without = [], []
    for _ in range(rounds):     # a new evaluator each time: its model's caches start cold, as the bots' do
        without.append(_cpu(lambda: tournament(**grid, games=games)))
        with_b.append(_cpu(lambda: tournament(**grid, games=games, evaluate=BeliefEvaluator(until=None))))
    return min(with_b), min(without)


def from_record_default_vs_boltzmann(n_records: int, rounds: int) -> tuple[float, float, int]:
    """CPU seconds of :meth:`Belief.from_record` for every observer of ``n_records`` 5-player basic games
    with the default model and with ``BoltzmannModel()``, and the number of decisions read."""
    Belief = _first(f"{_H}.inference.belief:Belief", "heimlich_lab.inference.belief:Belief")
    Rules = _first(f"{_H}.rules:Rules", "heimlich_lab.rules:Rules")
    play = _first(f"{_H}.play:play", "heimlich_lab.play:play")
    BoltzmannBot = _first(f"{_H}.bots.model_bots:BoltzmannBot", "heimlich_lab.bots.model_bots:BoltzmannBot")
    BoltzmannModel = _first(f"{_H}.inference.model:BoltzmannModel", "heimlich_lab.inference.model:BoltzmannModel")
    recs = [play(Rules(), {p: BoltzmannBot(seed=10 * k + i) for i, p in enumerate(PLAYERS_5)}, seed=100 + k)
            for k in range(n_records)]
    reads = [0]

    def run(model_of, alone=False):
        n = 0
        for rec in recs:
            for p in rec.players:
                if alone:   # each observer by itself: nothing remembered from the record's previous observer
                    _forget_answers()
                b = Belief.from_record(rec, observer=p, model=model_of())
                b.marginals_array()
                n += sum(1 for s in b.history if s.kind == "observation")
        reads[0] = n

    run(lambda: None)       # warm (not timed)
    default, boltz, alone = [], [], []
    for _ in range(rounds):
        default.append(_cpu(lambda: run(lambda: None)))
        boltz.append(_cpu(lambda: run(BoltzmannModel)))
        alone.append(_cpu(lambda: run(lambda: None, alone=True)))
    ALONE[0] = min(alone)
    return min(default), min(boltz), reads[0]


#: the last :func:`from_record_default_vs_boltzmann`'s default-model time with every observer read by itself
ALONE = [float("nan")]


def board_step(seeds: int) -> tuple[float, int]:
    """Median CPU seconds of a board bot-step (7 players, Top Secret + dossier, spectator panel) over whole
    games, and the number of steps."""
    Rules = _first(f"{_H}.rules:Rules", "heimlich_lab.rules:Rules")
    RandomBot = _first("heimlich_lab.bots:RandomBot")
    GameController = _first(f"{_H}.widget.game_controller:GameController",
                            "heimlich_lab.widget.game_controller:GameController")
    times = []
    for seed in range(seeds):
        bots = {p: RandomBot(seed=seed * 10 + i) for i, p in enumerate(PLAYERS_7)}
        ctl = GameController(PLAYERS_7, bots=bots, rules=Rules(top_secret=True, dossier=True), seed=seed,
                             autoplay=False)
        while True:
            t0 = time.process_time()
            if not ctl.step():
                break
            times.append(time.process_time() - t0)
    return statistics.median(times), len(times)


def board_step_figure(quick: bool = False) -> list[tuple[str, float, str]]:
    """The board bot-step's figure alone, as ``(label, value, unit)`` (``--only board``: the side-by-side script
    times only it, which saves the CPU of the other two).

    >>> FIGURES["board"] is board_step_figure
    True
    """
    step, steps = board_step(1 if quick else 2)
    return [(f"board bot-step, 7 players TS + dossier, spectator panel ({steps} steps)", step * 1e3, "CPU-ms median")]


def _likelihoods() -> str:
    """How the default model's likelihoods run here: the compiled kernels (numba, the ``fast`` extra) or the array
    code (numpy; ``HEIMLICH_NUMPY_ONLY=1``).

    >>> from heimlich_lab.games.heimlich.inference import kernels
    >>> _likelihoods() == ("compiled kernels" if kernels.COMPILED else "array code")
    True
    """
    from heimlich_lab.games.heimlich.inference import kernels
    return "compiled kernels" if kernels.in_use() else "array code"


def bench_limits(quick: bool = False) -> list[tuple[str, float, str]]:
    """The three figures of issue 26, as ``(label, value, unit)``."""
    # 100 games a call: a tournament() call costs about 40 CPU-ms besides its games, in both halves, which pulls
    # the ratio of a few games towards 1 (30 games: about 0.05 under the long run's)
    games, rounds = (6, 1) if quick else (100, 2)
    w, wo = beliefs_vs_bots(games, rounds)
    d, b, n = from_record_default_vs_boltzmann(1 if quick else 3, 1 if quick else 2)
    return [
        (f"{games} 5-player basic Boltzmann games, bots only", wo / games * 1e3, "CPU-ms/game"),
        (f"  the same games with every belief, default model, whole game ({_likelihoods()})", w / games * 1e3,
         "CPU-ms/game"),
        ("  beliefs vs bots only (target <= 1.5)", w / wo, "x"),
        ("Belief.from_record, 5 players basic, default model", d / n * 1e6, "CPU-us/decision"),
        ("  the same with BoltzmannModel()", b / n * 1e6, "CPU-us/decision"),
        ("  default vs BoltzmannModel (target <= 2)", d / b, "x"),
        ("  default model, each observer by itself (no answers from the record's previous observer)",
         ALONE[0] / n * 1e6, "CPU-us/decision"),
        ("  that vs BoltzmannModel", ALONE[0] / b, "x"),
        *board_step_figure(quick),
    ]


def topsecret_evaluator(games: int, rounds: int) -> tuple[float, float, int]:
    """CPU seconds of ``games`` 7-player Top Secret + Secret Dossier games between Boltzmann bots through
    :func:`tournament` (one process) with every player's belief (default model, whole game: the evaluator's path)
    and without, the least of ``rounds`` alternated runs each, and the number of player decisions in them."""
    tournament = _first("heimlich_lab.analysis:tournament")
    BeliefEvaluator = _first(f"{_H}.analysis:BeliefEvaluator", "heimlich_lab.analysis:BeliefEvaluator")
    kinds = _first(f"{_H}.rules.actions:DECISION_KINDS", "heimlich_lab.actions:DECISION_KINDS")
    grid: dict[str, Any] = dict(player_counts=7, variants="both", bots="boltzmann", progress=False, n_jobs=1, seed=1)

    def count(rec):
        return {"n_decisions": {p: sum(e.action.kind in kinds for e in rec.log) for p in rec.players}}

    df = tournament(**grid, games=games, evaluate=count)     # (not timed) the decisions
    tournament(**grid, games=1, evaluate=BeliefEvaluator(until=None))   # imports, compiled kernels (not timed)
    n = int(df.groupby("game_id")["n_decisions"].first().sum())
    with_b, without = [], []
    for _ in range(rounds):
        without.append(_cpu(lambda: tournament(**grid, games=games)))
        with_b.append(_cpu(lambda: tournament(**grid, games=games, evaluate=BeliefEvaluator(until=None))))
    return min(with_b), min(without), n


def topsecret_from_record(n_records: int, rounds: int) -> tuple[float, float, int]:
    """CPU seconds of :meth:`Belief.from_record` (default model) for every observer of ``n_records`` 7-player
    Top Secret + Secret Dossier games between Boltzmann bots, as it runs (answers shared from the record's
    previous observer where the tree does) and each observer by itself, the least of ``rounds``; and the number of
    decisions read (the observations of every observer's history)."""
    Belief = _first(f"{_H}.inference.belief:Belief", "heimlich_lab.inference.belief:Belief")
    Rules = _first(f"{_H}.rules:Rules", "heimlich_lab.rules:Rules")
    play = _first(f"{_H}.play:play", "heimlich_lab.play:play")
    BoltzmannBot = _first(f"{_H}.bots.model_bots:BoltzmannBot", "heimlich_lab.bots.model_bots:BoltzmannBot")
    recs = [play(Rules(top_secret=True, dossier=True), {p: BoltzmannBot(seed=10 * k + i)
                                                         for i, p in enumerate(PLAYERS_7)}, seed=200 + k)
            for k in range(n_records)]
    reads = [0]

    def run(alone=False):
        n = 0
        for rec in recs:
            for p in rec.players:
                if alone:
                    _forget_answers()
                b = Belief.from_record(rec, observer=p)
                b.marginals_array()
                n += sum(1 for s in b.history if s.kind == "observation")
        reads[0] = n

    run()       # warm (not timed)
    shared, alone = [], []
    for _ in range(rounds):
        shared.append(_cpu(run))
        alone.append(_cpu(lambda: run(alone=True)))
    return min(shared), min(alone), reads[0]


def topsecret_figures(quick: bool = False) -> list[tuple[str, float, str]]:
    """Games with Top Secret cards (``--only topsecret``): the evaluator's path and ``Belief.from_record`` at 7
    players, per decision."""
    games, rounds = (3, 1) if quick else (12, 2)
    w, wo, n = topsecret_evaluator(games, rounds)
    d, alone, reads = topsecret_from_record(1 if quick else 2, 1 if quick else 2)
    return [
        (f"{games} 7-player TS + dossier Boltzmann games ({n} decisions), bots only", wo / games * 1e3, "CPU-ms/game"),
        ("  the same games with every belief, default model, whole game", w / games * 1e3, "CPU-ms/game"),
        ("  beliefs vs bots only", w / wo, "x"),
        ("  the beliefs' cost per decision (with - without)", (w - wo) / n * 1e6, "CPU-us/decision"),
        (f"Belief.from_record, 7 players TS + dossier, every observer ({reads} reads)", d / reads * 1e6,
         "CPU-us/decision"),
        ("  each observer by itself (no answers from the record's previous observer)", alone / reads * 1e6,
         "CPU-us/decision"),
    ]


#: What ``--only`` may name: every figure (``limits``, the default), the board step alone (``board``) or the games
#: with Top Secret cards (``topsecret``).
FIGURES = {"limits": bench_limits, "board": board_step_figure, "topsecret": topsecret_figures}


def main(argv: list[str]) -> None:
    """``PYTHONPATH=TREE python .../limits.py [--quick] [--only board]``: this tree's figures, one per line
    (``label | value | unit``)."""
    only = argv[argv.index("--only") + 1] if "--only" in argv[:-1] else "limits"
    if only not in FIGURES:
        raise SystemExit(f"--only takes one of {', '.join(FIGURES)}, not {only!r}")
    for label, value, unit in FIGURES[only](quick="--quick" in argv):
        print(f"{label:<80} | {value:10.3f} | {unit}")


if __name__ == "__main__":      # PYTHONPATH=TREE python .../limits.py [--quick] [--only board]: this tree's figures
    main(sys.argv[1:])
