"""GreedyBot, BoltzmannBot and BluffBot: complete games everywhere, argmax, sampling, and the information rule."""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Action, Game, ModelError, Position, Rules, play
from heimlich_lab.bots import BOTS, BluffBot, BoltzmannBot, GreedyBot, make_bot
from heimlich_lab.bots.model_bots import kept_agent
from heimlich_lab.games.heimlich.bots import HiderBot
from heimlich_lab.inference.model import BoltzmannModel
from heimlich_lab.inference.utility import PublicState, Utility, card_plays

VARIANTS = {
    "basic": Rules(),
    "top-secret": Rules(top_secret=True),
    "dossier": Rules(dossier=True),
    "top-secret+dossier": Rules(top_secret=True, dossier=True),
    "unoccupied": Rules(safe_destination="unoccupied", top_secret=True),
}

#: what a bot may read on its view: public fields and its own agent(s) and hand (``public_board`` and its
#: copy-free ``board_key``: agents, positions, markers, the safe and triggers at once, public facts only)
PUBLIC_FIELDS = {"viewer", "kind", "label", "players", "agents", "rules", "positions", "scores", "safe", "phase",
                 "current_player", "active_player", "turn", "die", "points", "triggers", "own_agents", "hand",
                 "hand_sizes", "supply_size", "discards", "dossier_sheet", "dossier_done", "is_over", "log",
                 "public_board", "board_key"}


class GuardedView:
    """Wraps a View: reading anything but the documented public fields (and the viewer's own) fails."""

    def __init__(self, view, seen):
        object.__setattr__(self, "_GuardedView__view", view)
        object.__setattr__(self, "_GuardedView__seen", seen)

    def __getattribute__(self, name):
        if name == "__class__":    # isinstance(view, View) holds, as for the real view
            return type(object.__getattribute__(self, "_GuardedView__view"))
        if name not in PUBLIC_FIELDS:
            raise AssertionError(f"a bot read view.{name}")
        object.__getattribute__(self, "_GuardedView__seen").add(name)
        return getattr(object.__getattribute__(self, "_GuardedView__view"), name)

    def __setattr__(self, name, value):
        raise AssertionError(f"a bot wrote view.{name}")


def run(rules, bots, seed, guard=None):
    """Play to the end giving each bot only (view, legal); return the game and the chosen actions by kind."""
    g = Game(list(bots), rules=rules, seed=seed)
    chosen = []
    while not g.is_over:
        p = g.current_player
        v = g.view(p)
        if guard is not None:
            v = GuardedView(v, guard)
        legal = g.legal_actions()
        a = bots[p].choose(v, legal)
        assert a in legal, f"{bots[p]} chose {a}, not legal"
        chosen.append((p, a))
        g.apply(a)
    return g, chosen


# ---------------------------------------------------------------- complete games
@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("n_players", range(2, 8))
def test_bots_finish_complete_games(variant, n_players):
    rules = VARIANTS[variant]
    players = [f"P{i}" for i in range(n_players)]
    for mix in range(3):
        if mix == 2:     # BluffBots (their spectator belief follows every game) against BoltzmannBots
            bots = {p: (BluffBot(seed=i) if i % 2 == 0 else BoltzmannBot(seed=i)) for i, p in enumerate(players)}
        else:
            bots = {p: (GreedyBot(seed=i) if (i + mix) % 2 else BoltzmannBot(beta=1.5, seed=i))
                    for i, p in enumerate(players)}
        g, chosen = run(rules, bots, seed=100 * n_players + mix)
        if mix == 2:
            bluffers = [b for b in bots.values() if isinstance(b, BluffBot)]
            assert all(b.watch.games == 1 for b in bluffers)   # secrecy was in play: each followed the game
        assert g.is_over and g.winners is not None
        if rules.dossier and max(g.scores.values()) >= 29:
            assert any(a.kind == "dossier" for _, a in chosen)


def test_every_kind_of_decision_is_played():
    kinds, card_kinds, points = set(), set(), set()
    for seed in range(6):
        for make in (lambda s: GreedyBot(seed=s), lambda s: BoltzmannBot(seed=s)):
            bots = {p: make(seed * 10 + i) for i, p in enumerate(["A", "B", "C", "D"])}
            g, chosen = run(Rules(top_secret=True, dossier=True), bots, seed=seed)
            for _, a in chosen:
                kinds.add(a.kind)
                if a.kind == "play":
                    card_kinds.add(a.args[0])
                if a.kind == "points":
                    points.add(a.args[0])
    assert kinds == {"points", "move", "safe", "announce", "play", "pass", "done", "dossier", "collect"}
    assert points == {0, 1, 2, 3}
    assert len(card_kinds) >= 12, card_kinds


def test_bots_are_seeded_and_registered():
    for name, cls in (("greedy", GreedyBot), ("boltzmann", BoltzmannBot)):
        assert name in BOTS
        bot = make_bot(name, seed=3)
        assert isinstance(bot, cls) and bot.seed == 3
        players = {p: make_bot(name, seed=i) for i, p in enumerate(["A", "B", "C"])}
        r1 = play(Rules(top_secret=True), players, seed=9)
        r2 = play(Rules(top_secret=True), {p: make_bot(name, seed=i) for i, p in enumerate(["A", "B", "C"])}, seed=9)
        assert r1.to_json() == r2.to_json()
    assert repr(BoltzmannBot(beta=2, seed=1)) == "BoltzmannBot(beta=2, epsilon=0.05, seed=1)"


# ---------------------------------------------------------------- the information rule
def test_bots_read_only_the_public_fields_and_their_own():
    seen = set()
    makers = (lambda i: BoltzmannBot(seed=i), GreedyBot, lambda i: BluffBot(seed=i))
    for variant in ("top-secret+dossier", "basic"):
        for seed in range(3):
            bots = {p: makers[(i + seed) % 3](i) for i, p in enumerate(["A", "B", "C", "D"])}
            run(VARIANTS[variant], bots, seed, guard=seen)
    assert seen <= PUBLIC_FIELDS and {"own_agents", "hand", "phase"} <= seen
    assert seen & {"positions", "public_board", "board_key"}       # the board is read (the guard saw it)


@pytest.mark.parametrize("make", [lambda s: GreedyBot(seed=s), lambda s: BoltzmannBot(beta=0.5, seed=s),
                                  lambda s: BluffBot(beta=0.5, seed=s)])
def test_hidden_information_of_others_does_not_change_a_bots_choice(make):
    """Same public state, same own agent and hand; other players' agents and hands differ."""
    def game(bob_agent, bob_hand):
        return Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), chance="manual", start=Position(
            positions={"grey": 3, "yellow": 5, "orange": 0, "red": 8, "green": 9, "blue": -3},
            owners={"Ann": "grey", "Bob": bob_agent, "Cy": "yellow" if bob_agent != "yellow" else "orange"},
            hands={"Ann": ["swap", "tosafe"], "Bob": bob_hand, "Cy": []}, safe=10, decision="points", die="1-3"))
    g1, g2 = game("red", ["church"]), game("yellow", ["fwd123", "ruins"])
    for s in range(20):
        a1 = make(s).choose(g1.view("Ann"), g1.legal_actions())
        a2 = make(s).choose(g2.view("Ann"), g2.legal_actions())
        assert a1 == a2
    for k in (1, 2, 3):
        h1, h2 = g1.copy(), g2.copy()
        h1.apply(f"points {k}")
        h2.apply(f"points {k}")
        for s in range(10):
            assert make(s).choose(h1.view("Ann"), h1.legal_actions()) == make(s).choose(h2.view("Ann"), h2.legal_actions())


def _bluff_game(deal, draws, until_ann=True):
    """A manual-chance Top Secret game with a fixed public history: Ann, Bob and Cy move, then Ann decides."""
    g = Game(["Ann", "Bob", "Cy"], rules=Rules(top_secret=True), chance="manual")
    g.apply(deal)
    for c in draws:
        g.apply(f"draw {c}")
    for a in ["roll 2", "move red+2", "roll 3", "move grey+3", "roll 2", "move yellow+1 red+1", "roll 3"]:
        while g.phase == "announce":
            g.apply("announce no", player=g.current_player)
        g.apply(a, player=None if a.startswith("roll") else g.current_player)
    assert g.phase == "move" and g.current_player == "Ann"
    return g


def test_hidden_information_of_others_does_not_change_the_bluff_bots_choice():
    """Games from the deal (the BluffBot's spectator belief is in play, unlike games from a position): same
    public history, same own agent and hand for Ann; Bob's and Cy's agents and hands differ."""
    g1 = _bluff_game("deal Ann=grey Bob=red Cy=yellow", ["swap", "tosafe", "church", "ruins", "fwd123", "bonus"])
    g2 = _bluff_game("deal Ann=grey Bob=yellow Cy=red", ["swap", "tosafe", "rescue", "second", "fwd123", "church"])
    assert g1.hands["Bob"] != g2.hands["Bob"] and g1.owners != g2.owners
    for s in range(12):
        b1, b2 = BluffBot(seed=s), BluffBot(seed=s)
        assert b1.choose(g1.view("Ann"), g1.legal_actions()) == b2.choose(g2.view("Ann"), g2.legal_actions())
        np.testing.assert_array_equal(b1.last["exposure"], b2.last["exposure"])
        np.testing.assert_array_equal(b1.last["probability"], b2.last["probability"])
    # the secrecy term is really at work: the exposures differ between actions
    assert np.ptp(b1.last["exposure"]) > 0.05


def test_the_hider_covers_with_the_least_exposing_of_the_nearly_best_actions():
    """A HiderBot that always covers plays, of the actions within ``slack`` points of the best for its agent,
    the one the spectator's belief points at it least; one that never covers samples as a BluffBot would."""
    g = _bluff_game("deal Ann=grey Bob=red Cy=yellow", ["swap", "tosafe", "church", "ruins", "fwd123", "bonus"])
    legal = g.legal_actions()
    for s in range(6):
        bot = HiderBot(beta=3.0, secrecy=2.0, cover=1.0, slack=1.5, seed=s)
        a = bot.choose(g.view("Ann"), legal)
        u, exp = bot.last["utility"], bot.last["exposure"]
        near = np.flatnonzero(u >= u.max() - 1.5)
        assert legal.index(a) in near and exp[legal.index(a)] == exp[near].min()
        never = HiderBot(beta=3.0, secrecy=2.0, cover=0.0, seed=s)
        bluff = BluffBot(beta=3.0, epsilon=0.02, secrecy=2.0, seed=s)
        bluff._rng.random()   # the hider draws "cover or not" first
        assert never.choose(g.view("Ann"), legal) == bluff.choose(g.view("Ann"), legal)
        np.testing.assert_array_equal(never.last["probability"], bluff.last["probability"])
    assert np.ptp(exp[near]) > 0      # covering was a real choice here


def test_hiders_are_registered_seeded_and_drawn_from_their_seed():
    assert "hider" in BOTS
    a, b = make_bot("hider", seed=4), make_bot("hider", seed=4)
    assert isinstance(a, HiderBot) and repr(a) == repr(b) and repr(a) != repr(make_bot("hider", seed=5))
    bots = {p: make_bot("hider", seed=i) for i, p in enumerate(["A", "B", "C", "D"])}
    r1 = play(Rules(), bots, seed=3)
    r2 = play(Rules(), {p: make_bot("hider", seed=i) for i, p in enumerate(["A", "B", "C", "D"])}, seed=3)
    assert r1.to_json() == r2.to_json() and r1.result is not None
    for bad in ({"cover": -0.1}, {"cover": float("nan")}, {"slack": -1}, {"slack": True}):
        with pytest.raises(ModelError):
            HiderBot(**bad)


def test_a_bot_needs_its_players_view():
    g = Game(["Ann", "Bob"], seed=2)
    for bot in (GreedyBot(seed=1), BoltzmannBot(seed=1)):
        with pytest.raises(ModelError, match="no agent"):
            bot.choose(g.view(None), g.legal_actions())


# ---------------------------------------------------------------- GreedyBot
def test_greedy_bot_plays_the_argmax():
    checked = set()
    for seed in range(4):
        players = ["A", "B", "C"]
        bots = {p: GreedyBot(seed=seed * 3 + i) for i, p in enumerate(players)}
        g = Game(players, rules=Rules(top_secret=True), seed=seed)
        u = Utility()
        while not g.is_over:
            p = g.current_player
            v, legal = g.view(p), g.legal_actions()
            a = bots[p].choose(v, legal)
            if len(legal) > 1:
                st = PublicState.from_view(v)
                own = v.own_agents
                agent = own[0] if len(own) == 1 else max(own, key=lambda c: (v.scores[c], -own.index(c)))
                j = v.agents.index(agent)
                if v.phase == "points":
                    col = u.points(st, [x.args[0] for x in legal], softness=0)[:, j]
                    assert col[legal.index(a)] == pytest.approx(col.max())
                elif v.phase == "announce":
                    active = v.current_player == v.active_player
                    best = max(vals[j] for vals in u.card_values(st, v.hand, active, softness=0).values())
                    assert a.args[0] == (best > u.stay(st)[j] + 1e-9)
                else:
                    col = u.matrix(v, legal)[:, j]
                    assert col[legal.index(a)] == pytest.approx(col.max())
                checked.add(v.phase)
            g.apply(a)
    assert {"points", "move", "safe", "announce", "round"} <= checked


def test_greedy_bot_breaks_ties_at_random():
    g = Game(["Ann", "Bob"], chance="manual", start=Position(
        positions={c: 0 for c in ("grey", "yellow", "orange", "red", "green")}, owners={"Ann": "grey", "Bob": "red"},
        safe=9, decision="move", die="2"))
    # everyone in the Church, safe far away: moving two others one step each, say, ties with other such moves
    u = Utility().moves(PublicState.from_view(g.view("Ann")), 2)[:, 0]
    ties = np.flatnonzero(u >= u.max() - 1e-9)
    picks = {GreedyBot(seed=s).choose(g.view("Ann"), g.legal_actions()) for s in range(40)}
    if len(ties) > 1:
        assert len(picks) > 1
    assert all(g.legal_actions().index(a) in ties for a in picks)


# ---------------------------------------------------------------- BoltzmannBot
def test_boltzmann_bot_samples_the_models_distribution():
    g = Game(["Ann", "Bob"], rules=Rules(top_secret=True), chance="manual", start=Position(
        positions={"grey": 5, "yellow": 1, "orange": 0, "red": 8, "green": 0}, owners={"Ann": "grey", "Bob": "red"},
        safe=7, decision="points", die="1-3", hands={"Ann": ["swap"], "Bob": []}))
    v, legal = g.view("Ann"), g.legal_actions()
    bot = BoltzmannBot(beta=0.3, epsilon=0.1, seed=5)
    p = BoltzmannModel(beta=0.3, epsilon=0.1).action_probabilities(v, "grey", legal)
    assert np.allclose(bot.probabilities(v, legal), p)
    n = 4000
    counts = np.zeros(len(legal))
    for _ in range(n):
        counts[legal.index(bot.choose(v, legal))] += 1
    sd = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(counts / n - p) < 4.5 * sd + 1e-12), (counts / n, p)


def test_boltzmann_bot_with_two_agents_plays_for_either_at_random():
    g = Game(["Ann", "Bob"], rules=Rules(top_secret=True), chance="manual", start=Position(
        positions={"grey": 5, "yellow": 1, "orange": 0, "red": 8, "green": 0},
        owners={"Ann": ["grey", "yellow"], "Bob": "red"}, safe=7, decision="move", die="1-3", points=2,
        hands={"Ann": [], "Bob": []}))
    v, legal = g.view("Ann"), g.legal_actions()
    m = BoltzmannModel(beta=1.0, epsilon=0.05)
    mean = (m.action_probabilities(v, "grey", legal) + m.action_probabilities(v, "yellow", legal)) / 2
    bot = BoltzmannBot(beta=1.0, epsilon=0.05, seed=3)
    assert np.allclose(bot.probabilities(v, legal), mean)
    n = 3000
    counts = np.zeros(len(legal))
    for _ in range(n):
        counts[legal.index(bot.choose(v, legal))] += 1
    sd = np.sqrt(mean * (1 - mean) / n)
    assert np.all(np.abs(counts / n - mean) < 4.5 * sd + 1e-12)
    # the greedy and bluffing bots play for the agent farther along (the one kept at the end)
    assert kept_agent(v) == "grey"


def test_boltzmann_bot_round_is_card_then_targets():
    st = PublicState(agents=("grey", "yellow", "orange", "red", "green"), pos=(1, 2, 3, 4, 5), scores=(0,) * 5,
                     safe=7, top_secret=True)
    g = Game(["Ann", "Bob"], rules=Rules(top_secret=True), chance="manual", start=Position(
        positions={"grey": 1, "yellow": 2, "orange": 3, "red": 4, "green": 5}, owners={"Ann": "grey", "Bob": "red"},
        safe=7, decision="move", die="1-3", points=1, hands={"Ann": ["fwd123", "ruins"], "Bob": []},
        supply=None))
    g.apply("move green+1")     # green 6: no scoring, nobody in the ruins
    g.apply("announce yes")
    assert g.phase == "round" and g.current_player == "Ann"
    v, legal = g.view("Ann"), g.legal_actions()
    m = BoltzmannModel(beta=0.9, epsilon=0.2)
    p = m.action_probabilities(v, "grey", legal)
    assert p.sum() == pytest.approx(1.0)
    st = PublicState.from_view(v)
    fwd = [i for i, x in enumerate(legal) if x.args[0] == "fwd123"]
    # within a card, the targets follow the model's conditional exactly
    U = Utility().cards(st, card_plays(st, "fwd123"), True)[:, 0]
    soft = np.exp(0.9 * U) / np.exp(0.9 * U).sum()
    assert np.allclose(p[fwd] / p[fwd].sum(), 0.8 * soft + 0.2 / len(U))
    assert [legal[i] for i in fwd] == list(card_plays(st, "fwd123"))
    assert Action("pass") not in legal      # Ann announced and acts first: she must play
