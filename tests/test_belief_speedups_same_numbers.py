"""The belief speed-ups of issue 26 keep every number: marginals, histories, type readings, likelihood ratios
and the evaluator's scores agree within 1e-12 with what the tree before them computed.

``tests/data/belief_speedups.json`` was written by this file (``python tests/test_belief_speedups_same_numbers.py
--write``) with the tree before the first speed-up (commit 74f3b3c). Floats are stored with ``repr``'s 17 digits,
so the file holds the old values exactly. Fixed seeds, three tables: 5 players basic (Boltzmann bots), 7 players
with Top Secret cards (mixed bots) and 4 players with both variants; every observer's belief under the default
model (with update records: the notebooks' and the board's path), under ``BoltzmannModel``, the evaluator's
:class:`BeliefSet` (no update records) and :class:`BeliefEvaluator`'s scores.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

FIXTURE = Path(__file__).resolve().parent / "data" / "belief_speedups.json"
TOL = 1e-12


def _plain(x):
    """Arrays and numbers as JSON (NaN and infinities as strings, which json would otherwise mangle)."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else repr(x)
    return x


def _games():
    from heimlich_lab import Rules, play
    from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
    five = ["A", "B", "C", "D", "E"]
    seven = ["P1", "P2", "P3", "P4", "P5", "P6", "P7"]
    return {
        "basic-5-boltzmann": play(Rules(), {p: BoltzmannBot(seed=20 + i) for i, p in enumerate(five)}, seed=21),
        "ts-7-mixed": play(Rules(top_secret=True),
                           {p: [BoltzmannBot(seed=i), BluffBot(seed=i), GreedyBot(seed=i), RandomBot(i)][i % 4]
                            for i, p in enumerate(seven)}, seed=22),
        "both-4-mixed": play(Rules(top_secret=True, dossier=True),
                             {"Ann": BluffBot(seed=1), "Bob": BoltzmannBot(seed=2), "Cy": RandomBot(3),
                              "Dee": GreedyBot(seed=4)}, seed=23),
    }


def collect() -> dict:
    import heimlich_lab.analysis  # noqa: F401  (the game's analysis module is imported through it)
    from heimlich_lab import Belief
    from heimlich_lab.games.heimlich.analysis import BeliefEvaluator
    from heimlich_lab.games.heimlich.inference.belief_set import BeliefSet
    from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
    out = {}
    for name, rec in _games().items():
        case: dict = {"default": {}, "boltzmann": {}}
        for p in rec.players:
            b = Belief.from_record(rec, observer=p)
            steps = [s for s in b.history if s.update is not None]
            case["default"][p] = {
                "marginals": b.marginals_array(),
                "history": b.marginals_history()[::10],
                "entropy": b.entropy_history()[::5],
                "types": b.player_types(),
                "ratios": [s.update.log_likelihood_ratios() for s in steps[-3:]],
                "explanations": b.explanations(k=2)[-4:],
            }
            case["boltzmann"][p] = Belief.from_record(rec, observer=p, model=BoltzmannModel()).marginals_array()
        for until in ("dossier", None):
            bs = BeliefSet.from_record(rec, until=until, keep_updates=False)
            case[f"belief_set_{until}"] = {p: bs[p].marginals_array() for p in rec.players}
        case["spectator"] = Belief.from_record(rec.public(), observer=None).marginals_array()
        case["evaluator"] = BeliefEvaluator()(rec)
        out[name] = _plain(case)
    return out


def _close(got, want, where: str) -> None:
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), where
        for k in want:
            _close(got[k], want[k], f"{where}/{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{where}[{i}]")
    elif isinstance(want, float) and not isinstance(got, str):
        assert abs(got - want) <= TOL, f"{where}: {got!r} != {want!r}"
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


@pytest.fixture(scope="module")
def now():
    return json.loads(json.dumps(collect()))


@pytest.mark.parametrize("case", ["basic-5-boltzmann", "ts-7-mixed", "both-4-mixed"])
def test_beliefs_are_what_they_were_before_the_speedups(case, now):
    before = json.loads(FIXTURE.read_text())
    _close(now[case], before[case], case)


def test_the_comparison_can_fail(now):
    changed = json.loads(json.dumps(now["both-4-mixed"]))
    changed["default"]["Ann"]["marginals"][0][0] += 1e-9
    with pytest.raises(AssertionError):
        _close(changed, now["both-4-mixed"], "both-4-mixed")


if __name__ == "__main__":   # python tests/test_belief_speedups_same_numbers.py --write  (with the reference tree)
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_belief_speedups_same_numbers.py --write")
    FIXTURE.write_text(json.dumps(collect(), separators=(",", ":"), sort_keys=True) + "\n")
