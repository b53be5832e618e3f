"""Issue 26 item 3 (the evaluator at most 1.5x the bots-only games): what the play computed, the evaluator looks up.

A bot's model reads each position from its player's view; the tournament's evaluator reads the same position from
the spectator's view (the watch keeps it) and asks for the same utility tables. :meth:`PublicState.from_view`
gives both the one state object, and :meth:`BoltzmannModel.decision_utilities` finds the table the bot's model
computed. These tests hold the shortcut to the plain path: the same state (field by field) as one built from the
view's public dicts, the same tables (value by value) as a utility computed anew from such a state, and the same
errors for actions that do not fit the view.
"""
from __future__ import annotations

import numpy as np
import pytest

from heimlich_lab import Action, Game, ModelError, Position, Rules
from heimlich_lab.bots import BluffBot, BoltzmannBot, GreedyBot, RandomBot
from heimlich_lab.games.heimlich.inference import utility
from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
from heimlich_lab.games.heimlich.inference.utility import PublicState, Utility
from heimlich_lab.games.heimlich.rules.board import index_of

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def _plain_state(view) -> PublicState:
    """The state from the view's public dicts, built by hand (no shared object, no view.public_board)."""
    agents = tuple(view.agents)
    ts = bool(view.rules.top_secret)
    trig = tuple(sorted(agents.index(c) for c in view.triggers))
    return PublicState(agents, tuple(index_of(view.positions[c]) for c in agents),
                       tuple(int(view.scores[c]) for c in agents), index_of(view.safe), trig, top_secret=ts,
                       active_hand=int(view.hand_sizes.get(view.active_player, 0)) if ts else 0)


def _fields(st):
    return (st.agents, st.pos, st.scores, st.safe, st.triggers, st.top_secret, st.active_hand)


def _played(rules, seed, n, start=None):
    """Every decision of a bots' game as ``(the actor's view, the spectator's view, actor, action)``."""
    kinds = [lambda s: BoltzmannBot(seed=s), lambda s: BluffBot(seed=s), lambda s: GreedyBot(seed=s), RandomBot]
    g = Game(NAMES[:n], rules=rules, seed=seed, start=start)
    bots = {p: kinds[i % 4](seed + i) for i, p in enumerate(g.players)}
    out = []
    while not g.is_over:
        p = g.current_player
        v = g.view(p)
        a = bots[p].choose(v, g.legal_actions())
        out.append((v, g.view(None), p, a))
        g.apply(a)
    return out


CASES = [(Rules(), 3, 5), (Rules(dossier=True), 8, 3), (Rules(top_secret=True), 5, 4),
         (Rules(top_secret=True, dossier=True), 2, 7)]


@pytest.mark.parametrize("rules, seed, n", CASES)
def test_every_reader_of_a_position_gets_one_state_equal_to_the_plain_one(rules, seed, n):
    for v, sv, _p, _a in _played(rules, seed, n):
        st = PublicState.from_view(sv)
        assert _fields(st) == _fields(_plain_state(sv)) and st == _plain_state(sv)
        assert hash(st) == hash(_plain_state(sv))
        assert PublicState.from_view(v) is st          # the actor's view of the same moment: the same object


def test_a_game_from_a_position_reads_the_same_states():
    start = Position(positions={"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0},
                     owners={"Ann": "grey", "Bob": "red"}, safe=7)
    items = _played(Rules(), 4, 2, start=start)
    assert items
    for v, sv, _p, _a in items:
        assert PublicState.from_view(v) is PublicState.from_view(sv) == _plain_state(sv)


def test_states_of_different_positions_differ_and_a_full_table_is_started_again(monkeypatch):
    monkeypatch.setattr(utility, "_STATES", {})
    monkeypatch.setattr(utility, "_STATES_SIZE", 5)
    items = _played(Rules(top_secret=True), 6, 4)
    states = [PublicState.from_view(sv) for _, sv, _, _ in items]
    assert len(utility._STATES) <= 5                   # the table never grows past its bound
    for (_, sv, _, _), st in zip(items, states):       # and every state is still right, read again or not
        assert PublicState.from_view(sv) == st == _plain_state(sv)
    distinct = {_fields(s) for s in states}
    assert len(distinct) > 10 and len({id(s) for s in states}) >= len(distinct)


def test_a_view_without_public_board_is_read_from_its_dicts():
    class DictsOnly:                 # what another front end's view may offer: the public dicts only
        def __init__(self, view):
            for k in ("agents", "positions", "scores", "safe", "triggers", "rules", "hand_sizes", "active_player"):
                setattr(self, k, getattr(view, k))

    for _v, sv, _p, _a in _played(Rules(top_secret=True), 9, 3)[:40]:
        assert PublicState.from_view(DictsOnly(sv)) == PublicState.from_view(sv) == _plain_state(sv)


@pytest.mark.parametrize("rules, seed, n", CASES)
def test_the_tables_looked_up_are_the_tables_computed_anew(rules, seed, n):
    """decision_utilities finds the table the bots' model computed (the shared cache), equal to a table computed
    from the plain state by a utility of its own; every decision of the game, the same option index."""
    model = BoltzmannModel()                           # the bots' weights: the cache the bots filled
    fresh = BoltzmannModel()
    fresh.utility = Utility(model.weights)             # its own cache, empty: every table computed anew
    seen = 0
    for _v, sv, p, a in _played(rules, seed, n):
        if a.kind not in ("move", "points", "safe", "play"):
            continue
        got = model.decision_utilities(sv, p, a)
        if a.kind == "move":
            want = fresh.utility.moves(_plain_state(sv), sv.points), \
                utility.move_row_index(tuple(sv.agents), sv.points)[a]
        else:
            want = fresh.decision_utilities(sv, p, a)
        assert (got is None) == (want is None)
        if got is not None:
            assert got[1] == want[1] and got[0].shape == want[0].shape
            assert np.array_equal(got[0], want[0])
            seen += 1
    assert seen > 20


def test_the_evaluator_looks_up_the_bots_tables():
    """In a played game, the spectator's move tables are the very arrays the bots' model computed."""
    model = BoltzmannModel()
    bot_model = BoltzmannModel()
    assert bot_model.utility is model.utility          # models of the same weights share one cache
    for v, sv, p, a in _played(Rules(), 12, 5):
        if a.kind == "move":
            bot_table = bot_model.utility.moves(PublicState.from_view(v), v.points)
            assert model.decision_utilities(sv, p, a)[0] is bot_table


def test_moves_that_do_not_fit_the_view_are_refused_as_before():
    g = Game(["Ann", "Bob"], chance="manual", start=Position(
        positions={"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0},
        owners={"Ann": "grey", "Bob": "red"}, safe=7, decision="move", die="3", points=3))
    m = BoltzmannModel()
    v = g.view(None)
    with pytest.raises(ModelError, match="does not spend the 3 points of this move"):
        m.decision_utilities(v, "Ann", Action.parse("move grey+2"))
    with pytest.raises(ModelError, match="is not an allocation of 3 points among grey, yellow"):
        m.decision_utilities(v, "Ann", Action("move", (("purple", 3),)))
    with pytest.raises(ModelError, match="does not spend"):
        m.decision_utilities(v, "Ann", Action("move", ()))
    g2 = Game(["Ann", "Bob"], chance="manual", start=Position(
        positions={"grey": 6, "yellow": 9, "orange": -3, "red": 2, "green": 0},
        owners={"Ann": "grey", "Bob": "red"}, safe=7, decision="points", die="1-3"))
    with pytest.raises(ModelError, match="is a move decision, but the view stands at 'points'"):
        m.decision_utilities(g2.view(None), "Ann", Action.parse("move grey+3"))
    U, i = m.decision_utilities(v, "Ann", Action.parse("move grey+1 red+2"))
    assert U.shape[1] == 5 and 0 <= i < len(U)


def test_forgetting_the_shared_utilities_forgets_the_states_too():
    """Benchmarks start cold (:meth:`Utility.clear_shared`): a bots-only run must not leave its states to the next."""
    v = Game(["Ann", "Bob"], seed=1).view(None)
    st = PublicState.from_view(v)
    assert PublicState.from_view(v) is st
    Utility.clear_shared()
    again = PublicState.from_view(v)
    assert again is not st and again == st
