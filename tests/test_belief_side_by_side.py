"""The array code's layout for a game's tables side by side (issue 26 item 3, branch exp35): the option sums by
run of options (:func:`exp_option_sums` with ``starts``) give each table's own sums within 1e-14 relative, and the
hiders' cover step over the runs (:func:`_cover_shares_ragged`) gives, bit for bit, the plain :func:`_cover_shares`
read at the option taken, table by table, on real tables (ties of exposure included)."""
from __future__ import annotations

import numpy as np

from heimlich_lab import Rules, play
from heimlich_lab.bots import BoltzmannBot
from heimlich_lab.games.heimlich.inference import player_types as pt
from heimlich_lab.games.heimlich.rules.replay import public_decisions


def _tables():
    players = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    rec = play(Rules(), {p: BoltzmannBot(seed=i) for i, p in enumerate(players)}, seed=3)
    model = pt.default_population()._models[0]
    out = []
    for d in public_decisions(rec, None, None):
        if d.view is None or d.action.kind in pt.UNINFORMATIVE:
            continue
        t = model.decision_utilities(d.view, d.actor, d.action)
        if t is not None:
            out.append((np.ascontiguousarray(t[0].T), t[1]))       # (A, n), the option taken
    assert len({len(u[0]) for u, _ in out}) > 3
    return out


def _side_by_side(tables):
    sizes = np.array([u.shape[1] for u, _ in tables])
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.intp)
    return np.concatenate([u for u, _ in tables], axis=1), sizes, starts, starts + [p for _, p in tables]


def test_option_sums_by_run_are_each_tables_sums():
    tables = _tables()
    Ut, sizes, starts, _ = _side_by_side(tables)
    top = np.maximum.reduceat(Ut, starts, axis=1)
    betas = [0.3, 1.0, 3.0, 10.0]
    sums, e1 = pt.exp_option_sums(Ut - np.repeat(top, sizes, axis=1), betas, starts=starts)
    assert sums.shape == (len(betas), Ut.shape[0], len(tables))
    for t, (u, _) in enumerate(tables):
        c = u - u.max(axis=1, keepdims=True)
        want = np.array([np.exp(b * c).sum(axis=1) for b in betas])
        assert np.allclose(sums[:, :, t], want, rtol=1e-14, atol=0)
        assert np.array_equal(e1[:, starts[t]:starts[t] + sizes[t]], pt.exp_option_sums(c, betas)[1])


def test_cover_shares_over_runs_are_each_tables_shares():
    tables = _tables()
    Ut, sizes, starts, taken_at = _side_by_side(tables)
    top = np.maximum.reduceat(Ut, starts, axis=1)
    rng = np.random.default_rng(5)
    ex = np.round(rng.random(Ut.shape), 1)                  # coarse exposures: many ties
    for slack in (0.5, 1.5, 4.0):
        got = pt._cover_shares_ragged(Ut, top, ex, sizes, starts, taken_at, slack)
        want = np.stack([pt._cover_shares(u, ex[:, starts[t]:starts[t] + sizes[t]], slack)[:, p]
                         for t, (u, p) in enumerate(tables)], axis=1)
        np.testing.assert_array_equal(got, want)
        assert 0 < (got > 0).sum() and (got[got > 0] < 1).any()            # shares read, ties among them
