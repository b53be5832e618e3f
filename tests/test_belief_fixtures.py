"""The same seeds give the same beliefs: belief tables of fixed games of both games against fixtures.

The fixtures (``tests/data/belief_fixtures.npz``) were written by this file (``python
tests/test_belief_fixtures.py --write``) at commit a71ef2b, before the inference vocabulary of issue 22 (one
marginals type, the typed mixture with transitions under Secrets' belief, the public Belief API, the shadow
game built by the engine) changed any code. Heimlich & Co.'s tables are compared bit for bit (the arithmetic is
the same; on x86-64 they are made in a process that loads the numpy and OpenBLAS kernels the fixtures were written
with, ``scripts/pinned_kernels.py``, as AVX-512 kernels round some results differently in the last bit), except those
read through the default population of types, within 1e-12 since issue 26 (its likelihoods as array code: the same
terms in another order); Secrets' within 1e-12, as its player-type mixture moved onto
:class:`~heimlich_lab.inference.mixture.TypedPosterior`, which sums the same terms in another order.
The tables read through the default population were rewritten by this file (``--write``, then only the 120 tables
that changed by more than 1e-9 kept; every other table as written at a71ef2b) when issue 26 item 4 gave that
population a hider who covers and a fifth kind of table (its careless type with a large tremble dropped).

Every way a belief is fed is covered: full records (one observer, and every observer at once with
:class:`~heimlich_lab.inference.belief_set.BeliefSet`, with and without update records and baselines), player and
public records and live views (re-enacted on the shadow game, Top Secret cards and second agents included), a
user model (``PushModel``) and the default population of types; Secrets without a model, with
``SecretsModel()`` and with its per-player rationality mixture (``p_team``).
"""
from __future__ import annotations

import importlib.util
import platform
import sys
from pathlib import Path

import numpy as np
import pytest

FIXTURES = Path(__file__).parent / "data" / "belief_fixtures.npz"

#: (players, rules options, seed): Heimlich & Co. games played by bots
HEIMLICH_GAMES = [
    (("Ann", "Bob", "Cy"), {}, 3),
    (("Ann", "Bob", "Cy", "Dee"), {"top_secret": True}, 11),
    (("Ann", "Bob", "Cy", "Dee", "Eve"), {"top_secret": True, "dossier": True}, 5),
    (("Ann", "Bob", "Cy", "Dee"), {"top_secret": True, "second_agent": "drawn"}, 11),
]
#: (number of players, seed, bots): Secrets games
SECRETS_GAMES = [(4, 7, "random"), (5, 3, "team"), (6, 12, "mixed")]


def _heimlich_tables() -> dict[str, np.ndarray]:
    from heimlich_lab import Belief, Rules, play
    from heimlich_lab.bots import RandomBot, make_bot
    from heimlich_lab.inference.belief_set import BeliefSet
    from heimlich_lab.inference.likelihoods import PushModel, default_model

    out: dict[str, np.ndarray] = {}
    for g_i, (players, options, seed) in enumerate(HEIMLICH_GAMES):
        rules = Rules(**options)
        names = ["random", "greedy", "bluff", "boltzmann", "random"]
        bots = {p: (make_bot(names[i], seed=seed + i) if i % 2 else RandomBot(seed + i)) for i, p in enumerate(players)}
        rec = play(rules, bots, seed=seed)
        pop = default_model()
        for obs in (*players, None):
            key = f"h{g_i}/{obs}"
            b = Belief.from_record(rec, obs, model=pop, until="dossier")
            out[f"{key}/full"] = np.asarray(b.marginals_array())
            out[f"{key}/full/entropy"] = np.array(b.marginals_history().shape + (b.entropy(),), dtype=float)
            out[f"{key}/full/history"] = np.asarray(b.marginals_history())
            types = b.player_types()
            out[f"{key}/full/types"] = np.array([[v for _, v in sorted(t.items())] for _, t in sorted(types.items())])
            lazy = Belief.from_record(rec, obs, model=pop, until="dossier", keep_updates=False)
            out[f"{key}/lazy"] = np.asarray(lazy.marginals_array())
            src = rec.public() if obs is None else rec.as_player(obs)
            out[f"{key}/redacted"] = np.asarray(Belief.from_record(src, obs, model=PushModel(0.4)).marginals_array())
        # a live game followed view by view (the shadow game), stopped half way
        half = len(rec.log) // 2
        game = rec.replay(until=half)
        for obs in (players[1], None):
            live = Belief.from_view(game.view(obs), model=PushModel(0.6))
            out[f"h{g_i}/{obs}/live"] = np.asarray(live.marginals_array())
        bs = BeliefSet.from_record(rec, model=pop, spectator=True, keep_updates=False)
        for obs, b in bs.beliefs.items():
            out[f"h{g_i}/{obs}/set-lazy"] = np.asarray(b.marginals_array())
        bs = BeliefSet.from_record(rec, model=PushModel(0.5), baselines=True, until="dossier")
        for obs, b in bs.beliefs.items():
            out[f"h{g_i}/{obs}/set"] = np.asarray(b.marginals_array())
            out[f"h{g_i}/{obs}/set-independent"] = np.asarray(bs.independent[obs].marginals_array())
            out[f"h{g_i}/{obs}/set-points"] = np.asarray(bs.points_share[obs].marginals_array())
    return out


def _secrets_tables() -> dict[str, np.ndarray]:
    from heimlich_lab import secrets
    from heimlich_lab.secrets import BluffBot, RandomBot, SecretsModel, TeamBot

    out: dict[str, np.ndarray] = {}
    for g_i, (n, seed, kind) in enumerate(SECRETS_GAMES):
        if kind == "random":
            bots = [RandomBot(seed + i) for i in range(n)]
        elif kind == "team":
            bots = [TeamBot(seed + i) for i in range(n)]
        else:
            bots = [(TeamBot, BluffBot, RandomBot)[i % 3](seed + i) for i in range(n)]
        rec = secrets.play(bots, seed=seed)
        for obs in (*rec.players, None):
            for m_i, model in enumerate((None, SecretsModel(), SecretsModel(beta=2.0, epsilon=0.05, p_team=0.7))):
                b = secrets.Belief.from_record(rec, obs, model=model)
                ids = b.identities()
                key = f"s{g_i}/{obs}/m{m_i}"
                out[key] = np.array([[ids[s][t] for t in secrets.TEAMS] for s in b.slots])
                out[f"{key}/entropy"] = np.array([b.posterior.entropy(), len(b.posterior.history)])
                if model is not None and model.p_team is not None:
                    out[f"{key}/team"] = np.array([b.team_player_probability(p) for p in rec.players if p != obs])
    return out


def tables() -> dict[str, np.ndarray]:
    return {**_heimlich_tables(), **_secrets_tables()}


@pytest.fixture(scope="module")
def want():
    with np.load(FIXTURES) as data:
        return {k: data[k] for k in data.files}


def _pinned_kernels():
    """scripts/pinned_kernels.py: runs a command with the numpy and OpenBLAS kernels the fixtures were written with."""
    path = Path(__file__).parent.parent / "scripts" / "pinned_kernels.py"
    spec = importlib.util.spec_from_file_location("pinned_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PINNED = _pinned_kernels()


@pytest.fixture(scope="module")
def got(tmp_path_factory):
    """The tables, made (on x86-64 with AVX2) in a process with the fixtures' kernels: their AVX-512 kernels round
    some ``exp``, ``log`` and dot products differently in the last bit (3e-16 apart on an AVX-512 machine)."""
    if PINNED.environment() is None:     # (the bit-for-bit test then says why it cannot hold)
        return tables()
    out = tmp_path_factory.mktemp("fixtures") / "tables.npz"
    done = PINNED.run([sys.executable, __file__, "--tables-to", str(out)], capture_output=True, text=True,
                      cwd=Path(__file__).parent.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def test_a_pinned_process_loads_the_fixtures_kernels(capsys):
    """numpy's targets up to x86-64-v3 only, and OpenBLAS's Haswell kernels (what --show prints); on a CPU where they
    cannot be loaded, the command still runs, and the script says it is not pinned."""
    done = PINNED.run([sys.executable, "-c", "print('ran')"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "ran\n", done.stderr[-2000:]
    warned = capsys.readouterr().err     # (the script's own warning, in this process)
    if PINNED.environment() is None:
        assert "running unpinned" in warned, warned
        return
    assert warned == ""
    done = PINNED.run([sys.executable, PINNED.__file__, "--show"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["X86_V3", "Haswell"], done.stdout


def test_the_fixtures_cover_both_games(want, got):
    assert sorted(want) == sorted(got)
    assert sum(k.startswith("h") for k in want) > 100 and sum(k.startswith("s") for k in want) > 40


#: Heimlich tables read through the default population of types: since issue 26 its likelihoods are array code
#: over a decision's (or a whole game's) tables and raise ``exp(U - top)`` to integer rationalities by squaring,
#: the same terms to a few ulp, so these are compared within 1e-12; every other Heimlich table bit for bit.
POPULATION_KEYS = ("/full", "/lazy", "/set-lazy")


def _by_population(key: str) -> bool:
    return key.startswith("h") and any(part in key for part in POPULATION_KEYS)


def test_heimlich_beliefs_are_bit_identical_to_the_fixtures(want, got):
    keys = [k for k in want if k.startswith("h") and not _by_population(k)]
    if PINNED.environment() is None:
        # where the fixtures' kernels cannot be loaded (not x86-64, or no AVX2) other kernels round the last bit
        # differently (AVX-512's: 3.3e-16 at most): the same code gives the same tables to within a few ulp
        far = [(k, float(np.abs(want[k] - got[k]).max())) for k in keys
               if want[k].shape != got[k].shape or not np.allclose(got[k], want[k], rtol=0, atol=1e-15)]
        assert not far, (platform.machine(), far[:10])
    else:
        differ = [k for k in keys if not np.array_equal(want[k], got[k])]
        assert not differ, differ[:10]
    assert sum(k.startswith("h") and not _by_population(k) for k in want) > 40


def test_heimlich_beliefs_of_the_default_population_equal_the_fixtures_within_1e_12(want, got):
    keys = [k for k in want if _by_population(k)]
    assert len(keys) > 60
    for k in keys:
        assert want[k].shape == got[k].shape, k
        assert np.allclose(got[k], want[k], rtol=0, atol=1e-12), (k, np.abs(got[k] - want[k]).max())


def test_secrets_beliefs_equal_the_fixtures_within_1e_12(want, got):
    for k in want:
        if k.startswith("s"):
            assert want[k].shape == got[k].shape, k
            assert np.allclose(got[k], want[k], rtol=0, atol=1e-12), (k, np.abs(got[k] - want[k]).max())


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--tables-to":      # (the pinned process of the `got` fixture)
        np.savez(sys.argv[2], **tables())
        sys.exit(0)
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_belief_fixtures.py --write   (writes tests/data/belief_fixtures.npz; "
                 "run it through scripts/pinned_kernels.py to keep the fixtures' kernels)")
    FIXTURES.parent.mkdir(exist_ok=True)
    t = tables()
    np.savez_compressed(FIXTURES, **t)
    print(f"wrote {len(t)} tables to {FIXTURES}")
