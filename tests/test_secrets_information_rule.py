"""The information rule for Secrets, proven by a differential test like the first game's: change only what a
player may not know (the markers they never saw in the deal, the bullets others drew, an open offer's card) and
everything that player is given must not change: their view, their record (``as_player``), their beliefs (exact
and with a player model) and the state their table in the notebook syncs (with the belief panel); nor may
anything reachable from the view's object graph (what a spy bot walking it with ``gc`` would find)."""
from __future__ import annotations

import gc
import json
import types

import pytest
from test_secrets_views import altered_history

from heimlich_lab.games.secrets import Belief, Game
from heimlich_lab.games.secrets.bots import RandomBot
from heimlich_lab.games.secrets.model import SecretsModel
from heimlich_lab.games.secrets.play import play_game
from heimlich_lab.games.secrets.population import default_population
from heimlich_lab.games.secrets.widget_state import table_state

_SKIP = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def graph(view) -> list:
    """The atoms reachable from the view, in the order a walk of its object graph meets them (what a spy bot
    could read through ``gc.get_referents``; classes, modules and functions excluded)."""
    out, todo, seen = [], [view], set()
    while todo:
        o = todo.pop()
        if isinstance(o, (str, int, float, bool, type(None))):
            out.append(o)
            continue
        if id(o) in seen or isinstance(o, _SKIP):
            continue
        seen.add(id(o))
        refs = gc.get_referents(o)
        if isinstance(o, (set, frozenset)):
            refs = sorted(refs, key=repr)
        todo.extend(reversed(refs))
    return out


def given_to(game: Game, observer: str, deep: bool) -> dict:
    """Everything ``observer`` is given, as comparable values."""
    view = game.view(observer)
    belief = Belief.from_view(view)
    human = game.current_player == observer
    state = table_state(view, belief, legal=game.legal_actions() if human else (), human=human)
    out = {"view": view, "log": [(e.kind, e.data, e.hidden) for e in view.log],
           "record": game.record.as_player(observer).to_json(),
           "belief": belief.identities(), "state": json.dumps(state, sort_keys=True),
           "graph": graph(view)}
    if deep:
        out["belief_model"] = Belief.from_view(view, model=SecretsModel()).identities()
        typed = Belief.from_view(view, model=default_population())     # players read through a population of types
        out["belief_types"] = typed.identities()
        out["types"] = {p: typed.type_probabilities(p) for p in view.players}
    return out


def same_for(a: Game, b: Game, observer: str, deep: bool, where) -> None:
    x, y = given_to(a, observer, deep), given_to(b, observer, deep)
    for k in x:
        assert x[k] == y[k], (k, where)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_changing_what_a_player_may_not_know_changes_nothing_they_are_given(n):
    checked = 0
    for seed in range(3):
        g = play_game([RandomBot(seed * 10 + i) for i in range(n)], seed=seed)
        for observer in g.players[:3]:
            hist = altered_history(g, observer)
            if hist is None:
                continue
            a = Game(g.players, chance="manual", seed=g.seed)
            b = Game(g.players, chance="manual", seed=g.seed)
            differs = False
            for k, ((who, act), (who_b, act_b)) in enumerate(zip(g.history, hist)):
                if a.is_over:
                    break
                if k % 9 == 0 or a.phase == "shoot":
                    same_for(a, b, observer, deep=k % 27 == 0, where=(n, seed, observer, k, str(act)))
                a.apply(act, player=who)
                b.apply(act_b, player=who_b)
                differs |= a.identities != b.identities or a.bullets != b.bullets
            assert differs           # the change was real: the truth differs
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("seed", range(4))
def test_an_open_offers_card_changes_nothing_the_others_are_given(seed):
    """At each offer with two candidates, offering the one or the other card to the same player: until the answer,
    nobody but the offerer is given anything different (the offerer and the spectator-omniscient truth are)."""
    g = play_game([RandomBot(seed * 7 + i) for i in range(5)], seed=seed)
    replay = Game(g.players, chance="manual", seed=g.seed)
    offers = 0
    for who, act in g.history:
        if act.kind == "offer" and len(replay.candidates) == 2 and offers < 3:
            other = next(c for c in replay.candidates if c != act.args[0])
            a, b = replay.copy(), replay.copy()
            a.apply(act)
            b.apply(f"offer {other} {act.args[1]}")
            for p in g.players:
                if p != who:
                    same_for(a, b, p, deep=offers == 0, where=(seed, str(act), p))
            assert given_to(a, who, False)["view"] != given_to(b, who, False)["view"]
            offers += 1
        replay.apply(act, player=who)
    assert offers >= 1


def test_the_differential_check_sees_a_real_difference():
    """Not vacuous: a marker the observer did see changes their view, belief, table and graph (a player's record
    holds their decisions and the public chance events: the deal stays ``deal ?`` in it)."""
    a, b = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual"), Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
    a.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
    b.apply("deal Ann=KGB Bob=CIA Cy=Hippie Dee=CIA middle=KGB")
    x, y = given_to(a, "Ann", True), given_to(b, "Ann", True)
    # the types are the prior's in both (nobody has chosen anything yet)
    assert [k for k in x if x[k] == y[k]] == ["record", "types"]
