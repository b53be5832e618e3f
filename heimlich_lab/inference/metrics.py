"""How good is a belief? Scores against the truth, and calibration.

A belief's marginal table ``m`` has one row per player and a last row
"free", one column per agent; ``m[r, a]`` is the probability that row ``r``
controls agent ``a``. The truth is a 0/1 table of the same shape with exactly
one 1 per column (:func:`truth_table`). Scores are averaged over the agents
that are scored (by default every agent; :func:`score_belief` leaves out the
observer's own agents, which the observer knows). Columns are rescaled to
sum to 1 first (the baselines' columns need not).

* :func:`log_loss`: mean of ``-ln m[true owner, a]`` (natural log; a
  probability 0 is clipped to ``eps``, so a confident mistake costs
  ``-ln(eps)`` instead of infinity);
* :func:`brier_score`: mean over agents of ``sum_r (m[r, a] - truth[r, a])**2``
  (0 is perfect, 2 the worst);
* :func:`accuracy`: share of agents whose most probable owner (first on ties) is right;
* :func:`correct_entries` / :func:`expected_correct_entries`: of a dossier sheet;
* :func:`calibration_curve`, :func:`expected_calibration_error`,
  :func:`plot_calibration`: predicted probability vs. observed frequency over
  binary events "player r controls agent a".

>>> m = np.array([[0.7, 0.2], [0.2, 0.5], [0.1, 0.3]])    # Ann, Bob, free x red, blue
>>> t = truth_table(["Ann", "Bob"], ["red", "blue"], {"Ann": "red", "Bob": "blue"})
>>> t
array([[1., 0.],
       [0., 1.],
       [0., 0.]])
>>> round(log_loss(m, t), 4), round(brier_score(m, t), 4), accuracy(m, t)
(0.5249, 0.26, 1.0)
>>> p, y = binary_events(m, t)
>>> round(expected_calibration_error(p, y, bins=2), 3)
0.267
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..errors import ModelError
from .core import FREE_LABEL

__all__ = ["truth_table", "log_loss", "brier_score", "accuracy", "correct_entries", "expected_correct_entries",
           "binary_events", "calibration_curve", "expected_calibration_error", "plot_calibration",
           "score_belief", "calibration_z_scores"]


def truth_table(players: Sequence[str], agents: Sequence[str], owners: Mapping[str, str | Iterable[str]]) -> np.ndarray:
    """0/1 table (players + free, agents) from ``owners``: player -> agent colour(s).

    Agents nobody controls are free.
    """
    players, agents = list(players), list(agents)
    t = np.zeros((len(players) + 1, len(agents)))
    held = set()
    for p, cols in owners.items():
        if p not in players:
            raise ModelError(f"unknown player {p!r} in owners (players: {', '.join(players)})")
        for c in ([cols] if isinstance(cols, str) else list(cols)):
            if c not in agents:
                raise ModelError(f"unknown agent {c!r} in owners (agents: {', '.join(agents)})")
            if c in held:
                raise ModelError(f"agent {c} is given to two players")
            held.add(c)
            t[players.index(p), agents.index(c)] = 1.0
    for j, c in enumerate(agents):
        if c not in held:
            t[len(players), j] = 1.0
    return t


def _prepare(marginals: ArrayLike, truth: ArrayLike, agents_mask: ArrayLike | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    m = np.asarray(marginals, dtype=float)
    t = np.asarray(truth, dtype=float)
    if m.ndim != 2 or m.shape != t.shape:
        raise ModelError(f"marginals {m.shape} and truth {t.shape} must be tables of the same shape")
    if np.isnan(m).any() or (m < 0).any():
        raise ModelError("marginals must be probabilities (no NaN, no negative values)")
    if not np.allclose(t.sum(axis=0), 1.0) or not np.isin(t, (0.0, 1.0)).all():
        raise ModelError("truth must have exactly one 1 per column (see truth_table)")
    col = m.sum(axis=0, keepdims=True)
    if (col <= 0).any():
        raise ModelError("every agent's column of the marginals needs some probability")
    m = m / col
    if agents_mask is not None:
        mask = np.asarray(agents_mask, dtype=bool)
        if mask.shape != (m.shape[1],):
            raise ModelError(f"agents_mask must have one entry per agent ({m.shape[1]})")
        m, t = m[:, mask], t[:, mask]
    if m.shape[1] == 0:
        raise ModelError("no agent left to score")
    return m, t


def log_loss(marginals: ArrayLike, truth: ArrayLike, agents_mask: ArrayLike | None = None, eps: float = 1e-15
             ) -> float:
    """Mean over the scored agents of ``-ln P(true owner)`` (natural log)."""
    m, t = _prepare(marginals, truth, agents_mask)
    p = (m * t).sum(axis=0)
    return float(-np.log(np.clip(p, eps, 1.0)).mean())


def brier_score(marginals: ArrayLike, truth: ArrayLike, agents_mask: ArrayLike | None = None) -> float:
    """Mean over the scored agents of the multi-class Brier score ``sum_rows (p - y)**2``."""
    m, t = _prepare(marginals, truth, agents_mask)
    return float(((m - t) ** 2).sum(axis=0).mean())


def accuracy(marginals: ArrayLike, truth: ArrayLike, agents_mask: ArrayLike | None = None) -> float:
    """Share of the scored agents whose most probable owner (the first row on ties) is the true one."""
    m, t = _prepare(marginals, truth, agents_mask)
    return float((t[np.argmax(m, axis=0), np.arange(m.shape[1])] == 1).mean())


def correct_entries(sheet: Mapping[str, str], owners: Mapping[str, str | Iterable[str]]) -> int:
    """How many entries of a dossier ``sheet`` (agent -> player or "free") are right, given ``owners``
    (player -> agent colour(s); agents not listed are free)."""
    owner_of = {}
    for p, cols in owners.items():
        for c in ([cols] if isinstance(cols, str) else list(cols)):
            owner_of[c] = p
    return sum(1 for a, who in sheet.items() if owner_of.get(a, FREE_LABEL) == who)


def expected_correct_entries(marginals: ArrayLike, players: Sequence[str], agents: Sequence[str],
                             sheet: Mapping[str, str]) -> float:
    """Expected number of correct entries of ``sheet`` under a marginal table (columns rescaled)."""
    m = np.asarray(marginals, dtype=float)
    m = m / m.sum(axis=0, keepdims=True)
    rows = [*players, FREE_LABEL]
    return float(sum(m[rows.index(w), list(agents).index(a)] for a, w in sheet.items()))


def binary_events(marginals: ArrayLike, truth: ArrayLike, rows: ArrayLike | None = None,
                  agents_mask: ArrayLike | None = None, *, normalize: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Flatten a table into binary events "row r controls agent a": ``(predicted, outcome)`` arrays.

    ``rows``: the row indices to use (default all, "free" included);
    ``agents_mask``: the agents to use. Columns are rescaled to sum to 1 unless ``normalize=False``.
    """
    m = np.asarray(marginals, dtype=float)
    t = np.asarray(truth, dtype=float)
    if m.shape != t.shape:
        raise ModelError(f"marginals {m.shape} and truth {t.shape} must have the same shape")
    if normalize:
        m = m / m.sum(axis=0, keepdims=True)
    r = np.arange(m.shape[0]) if rows is None else np.asarray(rows)
    c = np.arange(m.shape[1]) if agents_mask is None else np.flatnonzero(np.asarray(agents_mask, dtype=bool))
    return m[np.ix_(r, c)].ravel(), t[np.ix_(r, c)].ravel()


def _bin_index(p: np.ndarray, bins: int) -> np.ndarray:
    out: np.ndarray = np.minimum((p * bins).astype(int), bins - 1)
    return out


def _check_pairs(p: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p, dtype=float).ravel()
    y = np.asarray(y, dtype=float).ravel()
    if p.shape != y.shape:
        raise ModelError(f"{p.size} predictions but {y.size} outcomes")
    if p.size == 0:
        raise ModelError("no events")
    if np.isnan(p).any() or (p < 0).any() or (p > 1 + 1e-9).any():
        raise ModelError("predictions must be probabilities in [0, 1]")
    if not np.isin(y, (0.0, 1.0)).all():
        raise ModelError("outcomes must be 0 or 1")
    return np.clip(p, 0.0, 1.0), y


def calibration_curve(predicted: ArrayLike, outcomes: ArrayLike, bins: int = 10) -> pd.DataFrame:
    """Per equal-width bin of predicted probability: the number of events, the mean prediction
    and the observed frequency (NaN for an empty bin).

    >>> calibration_curve([0.1, 0.15, 0.9, 0.8], [0, 1, 1, 1], bins=2)
       bin   lo   hi  n  mean_predicted  frequency
    0    0  0.0  0.5  2           0.125        0.5
    1    1  0.5  1.0  2           0.850        1.0
    """
    p, y = _check_pairs(predicted, outcomes)
    b = _bin_index(p, bins)
    n = np.bincount(b, minlength=bins)
    sp = np.bincount(b, weights=p, minlength=bins)
    sy = np.bincount(b, weights=y, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        return pd.DataFrame({"bin": np.arange(bins), "lo": np.arange(bins) / bins,
                             "hi": np.arange(1, bins + 1) / bins, "n": n,
                             "mean_predicted": sp / n, "frequency": sy / n})


def expected_calibration_error(predicted: ArrayLike, outcomes: ArrayLike, bins: int = 10) -> float:
    """``sum_b (n_b / N) * |mean predicted_b - frequency_b|`` over equal-width bins."""
    p, y = _check_pairs(predicted, outcomes)
    b = _bin_index(p, bins)
    gap = np.abs(np.bincount(b, weights=p - y, minlength=bins))
    return float(gap.sum() / p.size)


def calibration_z_scores(predicted: ArrayLike, outcomes: ArrayLike, groups: ArrayLike, bins: int = 10
                         ) -> pd.DataFrame:
    """Per bin, a z-score of "predictions match frequencies" that allows dependence within groups.

    ``groups`` labels each event by its independent unit (e.g. the game).
    For bin ``b`` and group ``g``, ``D_gb = sum (y - p)`` over the group's
    events in the bin. If the predictions are the true conditional
    probabilities, every ``D_gb`` has mean 0 and the groups are independent,
    so ``z_b = sum_g D_gb / sqrt(sum_g D_gb**2)`` is approximately standard
    normal for many groups (a self-normalized sum; events within a game may be
    correlated in any way). A bin whose deviations are all at the level of rounding (say predictions of
    exactly 1/6 for events of which exactly one in six happens) has z 0: the self-normalized ratio would
    otherwise turn the rounding's constant sign into ``sqrt(groups)``. Columns: bin, n, groups,
    mean_predicted, frequency, z.
    """
    p, y = _check_pairs(predicted, outcomes)
    g = np.asarray(groups).ravel()
    if g.shape != p.shape:
        raise ModelError("one group label per event")
    _, gi = np.unique(g, return_inverse=True)
    b = _bin_index(p, bins)
    n_g = gi.max() + 1
    d = np.bincount(gi * bins + b, weights=y - p, minlength=n_g * bins).reshape(n_g, bins)
    cnt = np.bincount(gi * bins + b, minlength=n_g * bins).reshape(n_g, bins)
    s, ss = d.sum(axis=0), (d ** 2).sum(axis=0)
    n = np.bincount(b, minlength=bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        # a sum of n probabilities carries rounding of about n * 1e-16: below 1e-12 per event is no signal
        z = np.where(np.sqrt(ss) > 1e-12 * np.maximum(n, 1), s / np.sqrt(ss), 0.0)
        return pd.DataFrame({"bin": np.arange(bins), "n": n, "groups": (cnt > 0).sum(axis=0),
                             "mean_predicted": np.bincount(b, weights=p, minlength=bins) / n,
                             "frequency": np.bincount(b, weights=y, minlength=bins) / n, "z": z})


def plot_calibration(predicted: ArrayLike, outcomes: ArrayLike, bins: int = 10, ax: Any = None,
                     label: str | None = None) -> Any:
    """Reliability diagram: observed frequency vs. mean predicted probability per bin (marker area ~ count),
    with the diagonal of perfect calibration (drawn once when several beliefs share ``ax``). Returns the Axes."""
    import matplotlib.pyplot as plt
    cur = calibration_curve(predicted, outcomes, bins)
    if ax is None:
        _, ax = plt.subplots(figsize=(4.5, 4.5))
    if "perfect" not in [line.get_label() for line in ax.get_lines()]:   # one diagonal for several beliefs
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", label="perfect")
    c = cur[cur.n > 0]
    ece = expected_calibration_error(predicted, outcomes, bins)
    ax.plot(c.mean_predicted, c.frequency, marker="o", label=f"{label or 'belief'} (ECE {ece:.3f})")
    ax.scatter(c.mean_predicted, c.frequency, s=20 + 200 * c.n / c.n.max(), alpha=0.3)
    ax.set_xlabel("predicted probability")
    ax.set_ylabel("observed frequency")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    return ax


def score_belief(marginals: ArrayLike, players: Sequence[str], agents: Sequence[str],
                 owners: Mapping[str, str | Iterable[str]], observer: str | None = None,
                 own_agents: Sequence[str] = ()) -> dict[str, float]:
    """All scores of one belief against the truth, leaving out the observer's own agents.

    Returns log_loss, brier, accuracy, expected_correct and actual_correct
    (of the sheet with the most probable entry per agent, among the
    opponents and "free", like :func:`~heimlich_lab.games.heimlich.inference.dossier.secret_dossier`).
    """
    m = np.asarray(marginals, dtype=float)
    m = m / m.sum(axis=0, keepdims=True)
    players, agents = list(players), list(agents)
    t = truth_table(players, agents, owners)
    mask = np.array([a not in own_agents for a in agents])
    rows = [i for i, p in enumerate(players) if p != observer] + [len(players)]
    names = [*players, FREE_LABEL]
    sheet = {a: names[rows[int(np.argmax(m[rows, j]))]] for j, a in enumerate(agents) if mask[j]}
    return {
        "log_loss": log_loss(m, t, mask),
        "brier": brier_score(m, t, mask),
        "accuracy": accuracy(m, t, mask),
        "expected_correct": expected_correct_entries(m, players, agents, sheet),
        "actual_correct": float(correct_entries(sheet, owners)),
    }
