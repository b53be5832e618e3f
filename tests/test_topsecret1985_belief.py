"""Top Secret's belief: exact against a plain enumeration, blind to what its observer may not know, and the bots
that play as its types."""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np
import pytest

from heimlich_lab.errors import ModelError
from heimlich_lab.games.topsecret1985 import Game, play
from heimlich_lab.games.topsecret1985.actions import Action
from heimlich_lab.games.topsecret1985.belief import Belief
from heimlich_lab.games.topsecret1985.bots import TypeBot, make_bot
from heimlich_lab.games.topsecret1985.model import (
    DEFAULT_TYPES,
    FILLINGS,
    INFORMATIVE,
    PlayerType,
    Population,
    decision_table,
    filling_index,
)
from heimlich_lab.games.topsecret1985.records import TopSecretRecord

CONTENTS = ("5", "3", "1", "bomb")


def _record(seed=3, n=2, types=("careful", "bluffer", "careful-sharp", "careful-loose")):
    return play([make_bot(t, seed=seed * 10 + i) for i, t in enumerate(types[:n])], seed=seed)


# ---------------------------------------------------------------- a plain reference, one option at a time
def _reference_utility(view, act, filling, kind):
    """What option ``act`` is worth to the deciding player with ``filling``, for type ``kind``, computed one
    suitcase at a time with plain dicts (the module's arrays must agree)."""
    board, me = view.map, view.current_player
    arrival = board.arrival[view.corners[me]]
    span = max(board.distance(board.start[view.corners[me]], arrival), 1)
    agents = {a: n for a, n in view.agents.items() if n is not None}
    mine = {a: n for a, n in agents.items() if a.rpartition("#")[0] == me}
    carrying = {a: s for a, s in view.carrying.items() if s is not None and a in agents}
    lying = {s: c for s, c in view.suitcases.items() if c is not None}
    home = set()
    k, args = act.kind, act.args
    if k == "step":
        mine[args[0]] = args[1]
        if args[0] in carrying and args[1] == arrival:
            home.add(carrying[args[0]])
    elif k == "pick":
        carrying[args[0]] = args[1]
        lying.pop(args[1])
    elif k == "drop":
        s = carrying.pop(args[0])
        lying[s] = view.agents[args[0]]
    elif k == "place":
        lying[f"{me}:{args[0]}"] = args[1]
    elif k == "take":
        winner, s = _take(view)
        if winner in mine:
            carrying[winner] = s
            lying.pop(s, None)
    delivered = {s for p in view.players for s, _ in view.delivered[p]}
    shown = {p: [c for q in view.players for s, c in view.delivered[q] if s.rpartition(":")[0] == p]
             for p in view.players}
    careful = dict(zip(CONTENTS, DEFAULT_TYPES[2].home))
    total = 0.0
    for p in view.players:
        for L in "ABCD":
            s = f"{p}:{L}"
            if s in delivered:
                continue
            carrier = next((a for a, t in carrying.items() if t == s), None)
            if s in home:
                value = 2.5
            elif carrier is not None and carrier in mine:
                value = 1 + max(0.0, 1 - board.distance(mine[carrier], arrival) / span)
            elif carrier is None and s in lying:
                value = 0.5 * max(0.0, 1 - min((board.distance(n, lying[s]) for n in mine.values()),
                                               default=math.inf) / span)
            else:
                value = 0.0
            if p == me:
                content = filling["ABCD".index(L)]
                if carrier is not None and carrier not in mine:
                    bait = 1.0
                elif carrier is None and s in lying:
                    enemies = [n for a, n in agents.items() if a.rpartition("#")[0] != me]
                    bait = max(0.0, 1 - min((board.distance(n, lying[s]) for n in enemies),
                                            default=math.inf) / span)
                else:
                    bait = 0.0
                i = CONTENTS.index(content)
                total += kind.home[i] * value + kind.bait[i] * bait
            else:
                out = [careful[c] for c in CONTENTS if c not in shown[p]]
                total += value * (sum(out) / len(out) if out else 0.0)
    return total


def _take(view):
    winner = suitcase = None
    for e in reversed(view.log):
        if e.kind == "drop" and e.data.get("cause") == "duel" and suitcase is None:
            suitcase = e.data["suitcase"]
        if e.kind == "fight":
            return e.data["winner"], suitcase
    return winner, suitcase


def _enumerated(record, observer, upto):
    """Bayes' rule over every (type, filling) of the opponent, one hypothesis at a time."""
    game = Game(record.players, seed=record.seed, chance="manual", rules=record.rules)
    (opponent,) = [p for p in record.players if p != observer]
    hyps = [(k, f) for k in DEFAULT_TYPES for f in FILLINGS]
    logw = {h: math.log(1 / 5) + math.log(1 / 24) for h in hyps}
    for actor, text in record.log[:upto]:
        act = Action.parse(text)
        legal = game.legal_actions()
        if actor == opponent and act.kind in INFORMATIVE and len(legal) > 1:
            view = game.view(observer)
            for kind, f in hyps:
                u = [kind.beta * _reference_utility(view, a, f, kind) for a in legal]
                top = max(u)
                logw[(kind, f)] += u[legal.index(act)] - top - math.log(sum(math.exp(x - top) for x in u))
        game.apply(act, player=None if actor == "chance" else actor)
        if act.kind == "step":
            for _, done in game.delivered.items():
                for s, content in done:
                    owner, _, letter = s.rpartition(":")
                    if owner == opponent:
                        for kind, f in hyps:
                            if f["ABCD".index(letter)] != content:
                                logw[(kind, f)] = -math.inf
    top = max(logw.values())
    z = sum(math.exp(w - top) for w in logw.values())
    table = {L: dict.fromkeys(CONTENTS, 0.0) for L in "ABCD"}
    for (_kind, f), w in logw.items():
        for L, c in zip("ABCD", f):
            table[L][c] += math.exp(w - top) / z
    return table


@pytest.mark.parametrize("seed, upto", [(3, 160), (8, 260)])
def test_the_belief_equals_bayes_rule_by_enumeration(seed, upto):
    rec = _record(seed)
    cut = TopSecretRecord(rec.players, rec.rules, rec.seed, rec.chance, rec.log[:upto], None)
    want = _enumerated(rec, "Ann", upto)
    got = Belief.from_record(cut, "Ann").contents()["Bob"]
    for L in "ABCD":
        for c in CONTENTS:
            assert got[L][c] == pytest.approx(want[L][c], abs=1e-9)
    # and it learned something: not the uniform prior any more
    assert max(max(row.values()) for row in got.values()) > 0.5


def test_every_observer_holds_the_public_belief_about_an_opponent():
    rec = _record(5, n=3)
    beliefs = Belief.for_all(rec)
    assert sorted(beliefs, key=str) == ["Ann", "Bob", "Cy", None]
    spectator = beliefs[None]
    for o in rec.players:
        b = Belief.from_record(rec, o)
        assert sorted(b.contents()) == sorted(p for p in rec.players if p != o)
        for p in b.contents():
            np.testing.assert_allclose(np.asarray(b.marginals(p)), np.asarray(spectator.marginals(p)), atol=1e-12)


def test_deliveries_are_certain_and_the_table_is_a_distribution():
    rec = _record(2, n=4)
    b = Belief.from_record(rec, "Ann")
    game = rec.replay()
    shown = [(s, c) for p in rec.players for s, c in game.delivered[p]]
    assert shown, "this seed's game delivers suitcases"
    for s, content in shown:
        owner, _, letter = s.rpartition(":")
        if owner != "Ann":
            assert b.contents()[owner][letter][content] == pytest.approx(1.0)
    for table in b.contents().values():
        m = np.array([[table[L][c] for c in CONTENTS] for L in "ABCD"])
        np.testing.assert_allclose(m.sum(axis=0), 1, atol=1e-9)     # each content is in one suitcase
        np.testing.assert_allclose(m.sum(axis=1), 1, atol=1e-9)     # each suitcase holds one content
    assert abs(sum(b.types("Bob").values()) - 1) < 1e-12


def _with_contents(rec, player, filling):
    log = [(a, f"contents {' '.join(f'{L}={c}' for L, c in zip('ABCD', filling))}"
            if a == player and t.startswith("contents") else t) for a, t in rec.log]
    return TopSecretRecord(rec.players, rec.rules, rec.seed, rec.chance, log, None)


def test_information_rule_changing_what_the_observer_may_not_know_changes_nothing():
    # Bob's hidden contents change (to any filling that agrees with what was delivered): the public play is the
    # same, so Ann's belief about every opponent, her evidence in words, and Bob's exported view for Ann agree.
    rec = _record(4, n=3)
    upto = 300
    cut = TopSecretRecord(rec.players, rec.rules, rec.seed, rec.chance, rec.log[:upto], None)
    game = rec.replay(until=upto)
    delivered = {s.rpartition(":")[2]: c for p in rec.players for s, c in game.delivered[p]
                 if s.startswith("Bob:")}
    true = tuple(rec.contents["Bob"][L] for L in "ABCD")
    others = [f for f in permutations(CONTENTS) if f != true
              and all(f["ABCD".index(L)] == c for L, c in delivered.items())]
    assert others
    changed = _with_contents(cut, "Bob", others[0])
    a, b = Belief.from_record(cut, "Ann"), Belief.from_record(changed, "Ann")
    assert a.contents() == b.contents()
    assert [str(e) for e in a.evidence] == [str(e) for e in b.evidence]
    assert cut.as_player("Ann").to_json() == changed.as_player("Ann").to_json()


def test_the_observers_own_decisions_and_contents_say_nothing_to_it():
    rec = _record(6, n=2)
    cut = TopSecretRecord(rec.players, rec.rules, rec.seed, rec.chance, rec.log[:250], None)
    game = rec.replay(until=250)
    shown = {s.rpartition(":")[2]: c for p in rec.players for s, c in game.delivered[p] if s.startswith("Ann:")}
    other = next(f for f in permutations(CONTENTS) if f != tuple(rec.contents["Ann"][L] for L in "ABCD")
                 and all(f["ABCD".index(L)] == c for L, c in shown.items()))
    assert Belief.from_record(cut, "Ann").contents() != {}
    # Ann's own contents change (not those already shown by a delivery, which everyone saw): her belief about
    # Bob is the same, since Bob never saw them
    assert Belief.from_record(_with_contents(cut, "Ann", other), "Ann").contents() == \
        Belief.from_record(cut, "Ann").contents()


def test_bad_input_is_refused():
    rec = _record(1)
    with pytest.raises(ModelError, match="does not play"):
        Belief.from_record(rec, "Zed")
    with pytest.raises(ModelError, match="Population"):
        Belief.from_record(rec, "Ann", model="careful")
    with pytest.raises(ModelError, match="full record"):
        Belief.from_record(rec.as_player("Ann"), "Ann")
    b = Belief.from_record(rec, "Ann")
    with pytest.raises(ModelError, match="not an opponent"):
        b.marginals("Ann")
    with pytest.raises(ModelError, match="beta"):
        PlayerType("odd", -1.0)
    with pytest.raises(ModelError, match="sums to"):
        Population(prior=(0.5, 0.5, 0.5, 0.5, 0.5))
    with pytest.raises(ModelError, match="not a filling"):
        filling_index({"A": "5", "B": "5", "C": "1", "D": "bomb"})


def test_a_type_bot_draws_from_its_type_in_the_model():
    g = Game(["Ann", "Bob"], seed=9)
    bots = {"Ann": TypeBot("careful", seed=1), "Bob": TypeBot("bluffer", seed=2)}
    checked = 0
    while not g.is_over and checked < 40:
        p = g.current_player
        if p is None:
            break
        view, legal = g.view(p), g.legal_actions()
        table = decision_table(view, legal)
        bot = bots[p]
        if table is not None:
            pop = Population.default()
            k = pop.index(bot.player_type.name)
            probs = np.exp(pop.log_probabilities(table)[k, filling_index(view.contents)])
            cum = np.cumsum(probs)
            u = float(np.random.default_rng(checked).random())
            bot._rng.random = lambda u=u: u     # the bot's next draw is u: it must take the option u falls in
            assert table.index(bot.choose(view, legal)) == min(int(np.searchsorted(cum, u, side="right")),
                                                                  len(legal) - 1)
            checked += 1
            del bot._rng.random
        g.apply(bots[p].choose(g.view(p), g.legal_actions()), player=p)
    assert checked >= 20


def test_the_kit_bots_are_registered_and_seeded():
    from heimlich_lab.games.topsecret1985.bots import available_bots
    assert {"careful", "bluffer", "random"} <= set(available_bots())
    a = play([make_bot("careful", seed=1), make_bot("bluffer", seed=2)], seed=4)
    b = play([make_bot("careful", seed=1), make_bot("bluffer", seed=2)], seed=4)
    assert a.to_json() == b.to_json()
    assert isinstance(TypeBot("careful").seed, int)        # a fresh seed from the OS, recorded


def test_a_decision_is_named_by_its_action_or_its_notation():
    g = Game(["Ann", "Bob"], chance="manual")
    for action, player in [("first Bob", None), ("contents A=bomb B=1 C=5 D=3", "Bob"),
                           ("contents A=5 B=1 C=bomb D=3", "Ann")]:
        g.apply(action, player=player)
    table = decision_table(g.view("Ann"), g.legal_actions())
    assert table.index("place A london") == table.index(Action.parse("place A london"))
    by_text, by_action = Belief(["Ann", "Bob"], "Ann"), Belief(["Ann", "Bob"], "Ann")
    by_text.observe(table, "place A london")
    by_action.observe(table, Action.parse("place A london"))
    assert np.array_equal(by_text.fillings("Bob").to_numpy(), by_action.fillings("Bob").to_numpy())
    with pytest.raises(ModelError, match="not one of Bob's options"):
        table.index("place A nowhere-city")
