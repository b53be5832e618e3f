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
    for rules, chance in [(Rules(top_secret=True, dossier=True), "auto"), (Rules(top_secret=True), "manual"),
                          (Rules(top_secret=True, draws="may", lone_announcer="one_card", safe_mover="creator",
                                 second_agent="drawn"), "auto")]:
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
    assert {g.phase for g in GAMES} >= {"roll", "points", "move", "announce", "round", "safe", "draw", "over",
                                        "collect"}


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


# ----------------------------------------------------------------------------- issue 11: junk everywhere else
# Kinds and their args may be junk too (an unhashable kind was a TypeError).
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(i=st.integers(0, len(GAMES) - 1), kind=st.one_of(st.sampled_from(KINDS), junk), a=st.one_of(args, junk))
@example(i=0, kind=["move"], a=())
@example(i=0, kind="move", a=[("red", 1)])
@example(i=0, kind="points", a=(float("inf"),))
def test_junk_kinds_and_arg_containers_are_refused_cleanly(i, kind, a):
    g = GAMES[i].copy()
    before = snapshot(g)
    try:
        g.apply(Action(kind, a))
    except HeimlichError:
        assert snapshot(g) == before
        return
    assert type(kind) is str and type(a) is tuple


CONSTRUCTORS = {
    "roll": Action.roll, "points": Action.points, "move": Action.move, "safe": Action.safe,
    "announce": Action.announce, "play": Action.play, "dossier": Action.dossier, "deal": Action.deal,
    "draw": Action.draw, "take": Action.take,
}
step_maps = st.dictionaries(st.sampled_from(["red", "grey", "blue", "pink", 3, None]), atoms, max_size=3)


ARITY = {"dossier": (2, 2), "play": (1, 4)}     # the others take one argument


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(sorted(CONSTRUCTORS)), data=st.data())
def test_constructors_never_coerce(name, data):
    lo, hi = ARITY.get(name, (1, 1))
    check_constructor(name, data.draw(st.lists(st.one_of(junk, step_maps, st.sampled_from(["fwd123", "placesafe"])),
                                               min_size=lo, max_size=hi)))


@pytest.mark.parametrize("name, a", [("announce", ["no"]), ("points", [2.7]), ("points", [True]),
                                     ("play", ["placesafe", 4.5]), ("move", [[("red", 1)]]),
                                     ("points", [float("inf")]), ("points", [None])])
def test_constructors_never_coerce_examples(name, a):
    check_constructor(name, a)


def check_constructor(name, a):
    """A constructor either refuses with the library's error or builds exactly what its notation says:
    the action reads back from its own notation unchanged (nothing rounded, no truthiness)."""
    try:
        act = CONSTRUCTORS[name](*a)
    except HeimlichError:
        return
    assert Action.parse(str(act)) == act and str(act).isascii()
    if name in ("points", "announce"):
        assert type(act.args[0]) is type(a[0])      # 2.7 is not 2, "no" is not True


DIGITS = "0123456789٣੩𝟑७"       # ASCII and other scripts' digits
notation = st.text(alphabet=DIGITS + "+- =?abcdefghijklmnoprstuvwyz\n_", max_size=24)


@settings(max_examples=500, deadline=None)
@given(word=st.sampled_from(["roll", "points", "move", "safe", "announce", "play fwd123", "play placesafe",
                             "play back12", "dossier", "deal", "draw", "take", "pass"]), rest=notation)
@example(word="move", rest="red+٣")
@example(word="safe", rest="+7")
@example(word="safe", rest="07")
@example(word="play placesafe", rest="1_0")
def test_notation_is_strict_ascii(word, rest):
    """Text either parses to an action whose notation is ASCII and reads back the same, or is refused."""
    text = f"{word} {rest}"
    try:
        act = Action.parse(text)
    except HeimlichError:
        return
    assert str(act).isascii() and Action.parse(str(act)) == act
    assert not any(c in text for c in "٣੩𝟑७"), text
    assert all(t.isascii() for t in text.split()), text


@settings(max_examples=300, deadline=None)
@given(d=st.one_of(st.dictionaries(st.sampled_from(["top_secret", "dossier", "safe_destination", "agents", "deck",
                                                    "extra"]), st.one_of(junk, step_maps), max_size=4),
                   junk))
def test_rules_from_anything_is_rules_or_refused(d):
    try:
        r = Rules.from_dict(d)
    except HeimlichError:
        return
    assert Rules.from_dict(r.to_dict()) == r


def _record_dict():
    from heimlich_lab import play
    return play(Rules(top_secret=True, dossier=True), {p: RandomBot(i) for i, p in enumerate(P3)}, seed=3).to_dict()


RECORD = _record_dict()


def _paths(d, prefix=()):
    """Every place in a JSON value: (path, value)."""
    yield prefix, d
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _paths(v, prefix + (i,))


PLACES = [p for p, _ in _paths(RECORD) if p and p[0] != "log"] + [("log", i) for i in range(0, 60, 7)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=st.lists(st.tuples(st.sampled_from(PLACES), st.one_of(junk, step_maps,
                                                                     st.integers(-10**40, 10**40))),
                        min_size=1, max_size=3))
def test_mutated_records_load_truthfully_or_give_a_located_error(changes):
    """A record changed anywhere either loads, and then says what its replay says, or gives a RecordError
    that names the source (never another exception)."""
    import json

    from heimlich_lab import RecordError
    from heimlich_lab.rules.records import GameRecord
    d = copy.deepcopy(RECORD)
    for path, value in changes:
        node = d
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        text = json.dumps(d)
    except (TypeError, ValueError):
        return
    try:
        rec = GameRecord.from_json(text, source="fuzz.json")
    except RecordError as e:
        assert str(e).startswith("fuzz.json: ")
        return
    if rec.is_full:
        assert rec.result == GameRecord.from_game(rec.replay()).result
