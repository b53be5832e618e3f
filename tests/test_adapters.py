"""Tests for the OpenSpiel and PettingZoo adapters and the action/observation encoding they share."""
from __future__ import annotations

import copy
import random
import runpy
import subprocess
import sys
import warnings
from math import perm
from pathlib import Path

import numpy as np
import pytest

from heimlich_lab import Action, Game, Position, Rules
from heimlich_lab.adapters.encoding import (NUM_ACTIONS, OBS_HIGH, OBS_SIZE, OFFSETS, PLAYER_ACTIONS, action_id,
                                            card_plays, chance_table, copy_game, decode_action, encode_view,
                                            info_state_string)
from heimlich_lab.errors import IllegalAction

# The [openspiel] and [pettingzoo] extras are installed by `make test` ([all]): a missing one must
# fail this module, not skip it.
import pettingzoo.test as pettingzoo_test  # noqa: E402
import pyspiel  # noqa: E402

from heimlich_lab.adapters import openspiel as hos  # noqa: E402
from heimlich_lab.adapters import pettingzoo_env as hpz  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [(2, Rules()), (3, Rules(top_secret=True)), (5, Rules(top_secret=True, dossier=True)),
           (7, Rules(dossier=True, safe_destination="unoccupied")),
           (4, Rules(top_secret=True, draws="may", lone_announcer="one_card", safe_mover="creator",  # issue 11
                     second_agent="drawn"))]


def random_manual_games(n, rules, seed, games=1):
    """Yield every game state (manual chance) of a few random games, chance sampled by its probabilities."""
    rng = random.Random(seed)
    players = tuple(f"player_{i}" for i in range(n))
    for _ in range(games):
        g = Game(players, rules, chance="manual")
        while not g.is_over:
            yield g
            if g.is_chance_node:
                outcomes = g.chance_outcomes()
                g.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                acts = g.legal_actions()
                g.apply(acts[rng.randrange(len(acts))])
        yield g


# ------------------------------------------------------------------------------------------ imports stay lazy
def test_importing_heimlich_lab_does_not_import_the_extras():
    code = ("import sys, heimlich_lab, heimlich_lab.adapters, heimlich_lab.adapters.encoding, heimlich_lab.analysis, "
            "heimlich_lab.cli; heimlich_lab.cli.build_parser(); "
            "bad = [m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium', 'dask', 'distributed', 'nbgrader') "
            "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_lazy_names():
    import heimlich_lab.adapters as ad
    assert ad.HeimlichEnv is hpz.HeimlichEnv and ad.load_openspiel_game is hos.load_openspiel_game
    with pytest.raises(AttributeError):
        ad.nothing_here


# ------------------------------------------------------------------------------------------ action ids
def test_action_table_is_fixed_and_documented():
    assert NUM_ACTIONS == 2038 == len(PLAYER_ACTIONS)
    assert OFFSETS == {"points": 0, "move": 4, "safe": 1719, "announce": 1731, "pass": 1733, "done": 1734,
                       "play": 1735, "dossier": 1980, "collect": 2036}
    assert len(card_plays()) == 245 and len(set(card_plays())) == 245
    named = [a for a in PLAYER_ACTIONS if a is not None]
    assert len(set(named)) == len(named) == OFFSETS["dossier"] + 2     # all but the dossier entries
    players = ("player_0", "player_1", "player_2")
    assert action_id(Action.parse("dossier red=player_2"), players) == 1980 + 8 * 3 + 2
    assert action_id(Action.parse("dossier grey=free"), players) == 1980 + 7
    with pytest.raises(ValueError):
        decode_action(NUM_ACTIONS, players)
    with pytest.raises(ValueError, match="seat 5"):
        decode_action(1980 + 5, players)
    assert str(decode_action(2037, players)) == "collect yes" and action_id(Action.collect(False), players) == 2036


@pytest.mark.parametrize("n, rules", CONFIGS)
def test_every_legal_action_and_chance_outcome_has_an_id(n, rules):
    seen_kinds = set()
    for g in random_manual_games(n, rules, seed=n, games=2):
        if g.is_over:
            continue
        if g.is_chance_node:
            ct = chance_table(g.players, g.agents)
            outcomes = g.chance_outcomes()
            ids = [ct.id(a) for a, _ in outcomes]
            assert len(set(ids)) == len(ids) and all(0 <= i < ct.size for i in ids)
            assert [ct.decode(i) for i in ids] == [a for a, _ in outcomes]
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            continue
        legal = g.legal_actions()
        ids = [action_id(a, g.players) for a in legal]
        assert len(set(ids)) == len(ids)
        assert [decode_action(i, g.players) for i in ids] == list(legal)
        seen_kinds.add(g.phase)
    assert {"move", "safe"} <= seen_kinds
    if rules.top_secret:
        assert {"announce", "round"} <= seen_kinds


def test_chance_table_size():
    t = chance_table(tuple(f"player_{i}" for i in range(5)), Rules().agents_for(5))
    assert t.size == perm(7, 5) + 6 + 15 + 7 + 1          # + reveal second (issue 11)


# ------------------------------------------------------------------------------------------ observations
def test_observation_vector_bounds_and_layout():
    for g in random_manual_games(4, Rules(top_secret=True, dossier=True), seed=5):
        if g.turn % 7 or g.is_chance_node:
            continue
        for p in g.players:
            v = encode_view(g.view(p))
            assert v.shape == (OBS_SIZE,) and v.dtype == np.float32
            assert (v >= 0).all() and (v <= OBS_HIGH).all()


def test_observations_follow_the_information_rule():
    """Two positions that differ only in Bob's hand and agent look the same to Ann, not to Bob."""
    rules = Rules(top_secret=True)
    base = dict(positions={c: 0 for c in rules.agents_for(3)}, active="Ann", decision="roll")
    players = ["Ann", "Bob", "Cy"]
    a = Game(players, rules, chance="manual", start=Position(
        owners={"Ann": "red", "Bob": "blue", "Cy": "grey"}, hands={"Ann": ["swap"], "Bob": ["church"], "Cy": []},
        **base))
    b = Game(players, rules, chance="manual", start=Position(
        owners={"Ann": "red", "Bob": "green", "Cy": "grey"}, hands={"Ann": ["swap"], "Bob": ["ruins"], "Cy": []},
        **base))
    assert np.array_equal(encode_view(a.view("Ann")), encode_view(b.view("Ann")))
    assert info_state_string(a.view("Ann")) == info_state_string(b.view("Ann"))
    assert not np.array_equal(encode_view(a.view("Bob")), encode_view(b.view("Bob")))
    for g in (a, b):   # the same die for both: still the same for Ann
        g.apply("roll 5")
        g.apply("move red+5")
    assert np.array_equal(encode_view(a.view("Ann")), encode_view(b.view("Ann")))
    assert info_state_string(a.view("Ann")) == info_state_string(b.view("Ann"))
    assert info_state_string(a.view("Bob")) != info_state_string(b.view("Bob"))


# ------------------------------------------------------------------------------------------ fast copies
def snapshot(g):
    return (g.positions, g.scores, g.owners, g.hands, g.safe, g.phase, g.turn, list(g.history), len(g.events),
            g.discards, g.supply_size, g.dossier_sheets, g.legal_actions(), g._rng.getstate())


def test_copy_game_is_independent_and_equivalent():
    rules = Rules(top_secret=True, dossier=True)
    for n, stop in ((3, 60), (5, 150)):
        g = Game([f"P{i}" for i in range(n)], rules, seed=n)
        rng = random.Random(1)
        for _ in range(stop):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        before = snapshot(g)
        fast, deep = copy_game(g), copy.deepcopy(g)
        for h in (fast, deep):   # play both copies on with the same choices
            r = random.Random(2)
            while not h.is_over:
                h.apply(r.choice(h.legal_actions()))
        assert snapshot(g) == before                    # the original is untouched
        assert snapshot(fast) == snapshot(deep)         # the copy behaves like a deep copy


# ------------------------------------------------------------------------------------------ OpenSpiel
@pytest.mark.parametrize("n, rules", CONFIGS)
def test_openspiel_random_simulation(n, rules):
    game = hos.load_openspiel_game(players=n, top_secret=rules.top_secret, dossier=rules.dossier,
                                   safe_destination=rules.safe_destination)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_game_parameters():
    game = pyspiel.load_game("heimlich_lab(players=5,top_secret=True,dossier=True)")
    assert game.num_players() == 5 and game.max_chance_outcomes() == perm(7, 5) + 29
    assert game.num_distinct_actions() == NUM_ACTIONS and game.max_game_length() == 2000
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.observation_tensor_size() == OBS_SIZE
    with pytest.raises(Exception, match="2 to 7 players"):
        pyspiel.load_game("heimlich_lab", {"players": 8})


def play_os(state, rng, limit=10_000):
    while not state.is_terminal() and limit:
        if state.is_chance_node():
            ids, ps = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=ps)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        limit -= 1
    return state


def test_openspiel_returns_follow_the_winners():
    game = hos.load_openspiel_game(players=4, top_secret=True)
    for seed in range(3):
        s = play_os(game.new_initial_state(), np.random.RandomState(seed))
        winners = set(s.engine.winners)
        assert s.returns() == [1.0 if p in winners else -1.0 for p in ("player_0", "player_1", "player_2",
                                                                       "player_3")]
    short = hos.load_openspiel_game(players=3, max_decisions=5)
    s = play_os(short.new_initial_state(), np.random.RandomState(0))
    assert s.is_terminal() and not s.engine.is_over and s.returns() == [0.0, 0.0, 0.0]
    assert len([a for a in s.full_history() if a.player >= 0]) == 5


def test_openspiel_information_state_hides_the_other_cards():
    game = hos.load_openspiel_game(players=3, top_secret=True)
    cfg = hos._config(game.key)
    deals = {str(a): i for i, a in enumerate(cfg.chance.deals)}
    states = []
    for deal in ("deal player_0=red player_1=blue player_2=grey", "deal player_0=red player_1=green player_2=yellow"):
        s = game.new_initial_state()
        s.apply_action(deals[deal])
        for card in ("swap", "church", "ruins", "bonus", "step1", "fwd123"):   # two cards each, in seat order
            s.apply_action(cfg.chance.id(Action.parse(f"draw {card}")))
        s.apply_action(cfg.chance.id(Action.parse("roll 4")))
        s.apply_action(action_id(Action.parse("move red+4"), cfg.players))
        states.append(s)
    a, b = states
    assert a.current_player() == b.current_player() == 0             # announce
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert "blue" not in a.information_state_string(0) and "blue" in a.information_state_string(1)
    assert "bonus" not in a.information_state_string(0) and "bonus" in a.information_state_string(1)
    assert a.legal_actions() == b.legal_actions()


def test_openspiel_mcts_demo_runs():
    r = hos.mcts_demo(players=3, top_secret=True, max_simulations=3, max_decisions=40, seed=1)
    assert len(r) == 3 and set(r) <= {-1.0, 0.0, 1.0}


# ------------------------------------------------------------------------------------------ PettingZoo
@pytest.mark.parametrize("kw", [dict(n_players=3), dict(n_players=5, top_secret=True, dossier=True),
                                dict(n_players=2, max_steps=10), dict(n_players=7, top_secret=True)])
def test_pettingzoo_api(kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(hpz.env(**kw), num_cycles=1000)
    # Dict observations with action masks always draw these two notes from api_test (connect_four does too).
    benign = ("Observation space for each agent probably should be", "Observation is not a NumPy array")
    assert [str(w.message) for w in caught if not str(w.message).startswith(benign)] == []


def test_pettingzoo_seed_and_random_loop():
    pettingzoo_test.seed_test(lambda: hpz.env(n_players=3, top_secret=True), num_cycles=50)
    e = hpz.env(n_players=4, top_secret=True)
    r1, r2 = hpz.random_game(e, seed=3), hpz.random_game(e, seed=3)
    assert r1 == r2 and r1["steps"] > 10
    assert sorted(r1["rewards"].values()) in ([-1.0] * 4, [-1.0] * 3 + [1.0], [-1.0] * 2 + [1.0] * 2,
                                             [-1.0] + [1.0] * 3)
    winners = {f"player_{i}" for i, p in enumerate(e.possible_agents) if r1["rewards"][p] > 0}
    assert winners == set(e.game.winners)


def test_pettingzoo_reset_without_a_seed_draws_63_bits():
    """As documented (docs/rules.md#seeds): a 32-bit seed is found by brute force in a few core-hours."""
    e = hpz.env(n_players=3)
    seeds = []
    for _ in range(24):
        e.reset()
        seeds.append(e.game.seed)
    assert all(0 <= s < 2**63 for s in seeds)
    assert max(s.bit_length() for s in seeds) > 56      # all 24 below 2**56: chance 2**-168 with 63 bits
    assert len(set(seeds)) == len(seeds)


def test_pettingzoo_masks_are_the_legal_actions():
    e = hpz.env(n_players=3, top_secret=True, render_mode="ansi")
    e.reset(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(60):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        legal = {action_id(a, e._players) for a in e.game.legal_actions()}
        assert set(np.flatnonzero(mask)) == legal and e.game.current_player == agent
        for other in e.agents:
            if other != agent:
                assert e.observe(other)["action_mask"].sum() == 0
        illegal = int(np.flatnonzero(mask == 0)[0])
        with pytest.raises(IllegalAction):
            e.step(illegal)
        e.step(int(rng.choice(sorted(legal))))
    assert "positions=" in e.render()


def test_example_script_runs(capsys):
    runpy.run_path(str(ROOT / "examples" / "openspiel_mcts.py"), run_name="not_main")["main"](
        ["--players", "2", "--simulations", "2", "--max-decisions", "20"])
    out = capsys.readouterr().out
    assert "OpenSpiel: MCTS" in out and "PettingZoo: random game" in out
