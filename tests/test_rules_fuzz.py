"""Hand-built Actions with junk arguments: each is either legal or refused with a ValueError subclass,
and a refused one changes nothing (the error message itself must not crash on the junk)."""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from heimlich_lab import Action, Game, HeimlichError, IllegalAction, Rules
from heimlich_lab.bots import RandomBot

P3 = ["Ann", "Bob", "Cy"]
KINDS = ["roll", "points", "move", "safe", "announce", "play", "pass", "done", "dossier", "deal", "draw", "take",
         "jump"]


def games():
    """Games standing at many kinds of decision: every phase of a Top Secret + Dossier game, and chance nodes."""
    out = {}
    for rules, chance in [(Rules(top_secret=True, dossier=True), "auto"), (Rules(top_secret=True), "manual")]:
        g = Game(P3, rules=rules, seed=5, chance=chance)
        bot = RandomBot(seed=1)
        while not g.is_over and len(out) < 40:
            out.setdefault((chance, g.phase), g.copy())
            if g.is_chance_node:
                g.apply(g.chance_outcomes()[0][0])
            else:
                g.apply(bot.choose(g.view(g.current_player), g.legal_actions()))
        out.setdefault((chance, g.phase), g.copy())
    return list(out.values())


GAMES = games()

atoms = st.one_of(st.integers(-5, 12), st.booleans(), st.none(), st.floats(allow_nan=False, width=16),
                  st.sampled_from(["red", "grey", "blue", "violet", "pink", "Ann", "Bob", "free", "?", "1-3", "4",
                                   "fwd123", "swap", "church", "placesafe", "yes", ""]))
junk = st.recursive(atoms, lambda inner: st.tuples(inner, inner) | st.lists(inner, max_size=2), max_leaves=4)
args = st.one_of(st.lists(junk, max_size=4).map(tuple), st.lists(junk, max_size=3))


def snapshot(g: Game):
    s = dict(phase=g.phase, current=g.current_player, positions=g.positions, scores=g.scores, safe=g.safe,
             hands=g.hands, supply=g.supply_size, owners=g.owners, sheets=g.dossier_sheets,
             history=list(g.history), events=len(g.events), recipients=dict(g.recipients))
    if g.phase in ("roll", "points", "move", "safe") and not g.is_chance_node:
        s["position"] = g.position().to_dict()
    return copy.deepcopy(s)


def test_there_are_games_at_many_decisions():
    assert {g.phase for g in GAMES} >= {"roll", "points", "move", "announce", "round", "safe", "draw", "over"}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(GAMES) - 1), kind=st.sampled_from(KINDS), a=args)
@example(i=10, kind="points", a=(False,))      # False == 0: once accepted as "points 0"
@example(i=0, kind="announce", a=(1,))
@example(i=0, kind="dossier", a=("red",))
def test_junk_actions_are_legal_or_refused_cleanly(i, kind, a):
    g = GAMES[i].copy()
    legal = g.legal_actions()
    before = snapshot(g)
    act = Action(kind, a)
    try:
        g.apply(act)
    except HeimlichError as e:
        assert isinstance(e, ValueError) and isinstance(e.rule, str)
        assert snapshot(g) == before
        return
    # accepted: then it really was one of the legal actions (up to the order the notation normalises)
    assert Action.parse(str(act)) in legal
    assert g.history[len(before["history"])][1] == act


def test_malformed_actions_say_so():
    g = next(x for x in GAMES if x.phase == "move")
    before = snapshot(g)
    for act in [Action("play", (0,)), Action("dossier", ("red",)), Action("move", (0,)),
                Action("announce", ("maybe",)), Action("points", (True,))]:
        with pytest.raises(IllegalAction, match=r"is malformed.*\[rule: notation\]"):
            g.apply(act)
        assert snapshot(g) == before
