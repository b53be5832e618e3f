"""The hiders' cover step read for every group of tables at once (:func:`_cover_near` per group, then
:func:`_cover_shares_at_once` over all of them) gives, bit for bit, the plain formula read group by group
(:func:`_cover_shares` at the option taken), whatever the groups' numbers of options."""
import numpy as np
import pytest

from heimlich_lab.games.heimlich.inference import player_types as pt


def _group(rng, G, A, n):
    Ut = rng.integers(0, 6, (G, A, n)) * 0.5
    Ut[rng.random((G, A, n)) < 0.15] = -np.inf
    Ut[:, :, int(rng.integers(0, n))] = rng.integers(0, 6, (G, A)) * 0.5      # every agent has an option
    exposure = rng.choice([0.1, 0.2, 0.3], (G, A, n)) + rng.choice([0.0, 0.0, 0.4, 1.5, 2.5], (G, A, n)) * pt._COVER_TIE
    return Ut, exposure, rng.integers(0, n, G)


@pytest.mark.parametrize("slack", [0.0, 1.5])
def test_the_cover_shares_of_all_groups_at_once_are_the_plain_ones(slack):
    rng = np.random.default_rng(33)
    seen = set()
    for _ in range(60):
        A = int(rng.integers(1, 6))
        sizes = [(int(rng.integers(1, 5)), int(rng.integers(1, 15))) for _ in range(int(rng.integers(1, 5)))]
        groups = [_group(rng, G, A, n) for G, n in sizes]
        D = sum(len(Ut) for Ut, _, _ in groups)
        order = rng.permutation(D)                      # the groups' decisions, anywhere in the game
        want = np.zeros((D, A))
        parts, s = [], 0
        for Ut, exposure, pick in groups:
            G = len(Ut)
            ds = order[s:s + G]
            s += G
            at = np.arange(G)
            total = rng.choice([0.5, 1.0, 1.7], (G, 1, Ut.shape[2]))        # numerators over a total, as in the batch
            num = exposure * total
            want[ds] = pt._cover_shares(Ut, num / total, slack)[at, :, pick]
            near = pt._cover_near(Ut, Ut.max(axis=2), num, at, pick, slack, total)
            if near is not None:
                g, a, rows, taken = near
                parts.append((ds[g] * A + a, rows, taken))
                assert rows.shape == (len(g), Ut.shape[2])
        got = pt._cover_shares_at_once(parts, D * A).reshape(D, A)
        np.testing.assert_array_equal(got, want)
        seen |= {float(x) for x in want.ravel()}
        seen |= {"no rows"} if not parts else set()
    assert {0.0, 1.0, 0.5} <= seen


def test_no_rows_near_the_best_share_nothing():
    assert pt._cover_shares_at_once([], 6).tolist() == [0.0] * 6
    Ut = np.array([[[3.0, 0.0]]])
    assert pt._cover_near(Ut, Ut.max(axis=2), np.array([[[0.5, 0.5]]]), np.arange(1), np.array([1]), 1.0) is None
    share = pt._cover_share_taken(Ut, Ut.max(axis=2), np.array([[[0.5, 0.5]]]), np.arange(1), np.array([1]), 1.0)
    assert share.tolist() == [[0.0]]
