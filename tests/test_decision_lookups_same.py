"""The per-decision look-ups of the likelihood (:func:`move_row_of`, the memo of :func:`safe_options`, the
utility cache's hits) give what the plain look-ups give."""
import itertools

import pytest

from heimlich_lab import Game, Rules
from heimlich_lab.games.heimlich.inference.model import BoltzmannModel, safe_options
from heimlich_lab.games.heimlich.inference.utility import (
    PublicState,
    Utility,
    move_actions,
    move_row_index,
    move_row_of,
)
from heimlich_lab.games.heimlich.rules.actions import Action
from heimlich_lab.games.heimlich.rules.board import COLOURS, N_BUILDINGS, safe_destinations, value_of


@pytest.mark.parametrize("n_agents,points", [(3, 1), (3, 3), (6, 2), (7, 5), (len(COLOURS), 6)])
def test_move_row_of_is_the_row_index(n_agents, points):
    agents = tuple(COLOURS[:n_agents])
    index = move_row_index(agents, points)
    for a in move_actions(agents, points):
        again = Action.parse(str(a))                      # an equal action, another object
        assert move_row_of(agents, points, a) == move_row_of(agents, points, again) == index[a]
    # not allocations of these points: none (another number of points, an agent not in play, not a move)
    assert move_row_of(agents, points, Action.parse(f"move {agents[0]}+{points + 1}")) is None
    assert move_row_of(agents, points, Action("points", (points,))) is None
    assert move_row_of(agents, points, Action("move", ((agents[0], points), ("nobody", 0)))) is None


def test_safe_options_memo_is_the_plain_formula():
    g = Game(["Ann", "Bob", "Cy"], seed=3)
    view = g.view(None)
    st = PublicState.from_view(view)
    for rule in ("other", "unoccupied"):
        rules = Rules(safe_destination=rule)
        for safe, pos in itertools.product(range(N_BUILDINGS), [st.pos, (0,) * len(st.pos), tuple(range(len(st.pos)))]):
            s = PublicState(st.agents, pos, st.scores, safe, ())
            v = _RulesView(view, rules)
            want = tuple(value_of(b) for b in safe_destinations(safe, pos, rule))
            assert safe_options(v, s) == want
            assert safe_options(v, s) == want      # (the memo's hit)


class _RulesView:
    """A view with other rules (safe_options reads only ``rules`` from it when given the state)."""

    def __init__(self, view, rules):
        self._view, self.rules = view, rules

    def __getattr__(self, name):
        return getattr(self._view, name)


def test_the_utility_cache_hits_are_its_tables():
    g = Game(["Ann", "Bob", "Cy"], seed=2)
    st = PublicState.from_view(g.view(None))
    u = Utility()
    for first, again in [(lambda: u.moves(st, 3), lambda: u.moves(st, 3)),
                         (lambda: u.points(st, (1, 2, 3)), lambda: u.points(st, [1, 2, 3])),
                         (lambda: u.safe(st, (1, 2)), lambda: u.safe(st, [1, 2]))]:
        a = first()
        assert again() is a and not a.flags.writeable
    assert (Utility().moves(st, 3) == u.moves(st, 3)).all()
    m = BoltzmannModel()
    U, i = m.decision_utilities(g.view(None), "Ann", g.legal_actions()[4])
    assert U is m.utility.moves(st, 3) and i == 4


def _states_along(rules, seed):
    """Every view (each player's and the spectator's) before each decision of a bots' game."""
    from heimlich_lab.bots import BoltzmannBot
    from heimlich_lab.engine.play import play_game
    players = ["Ann", "Bob", "Cy", "Dee"]
    views = []
    play_game(Game, {p: BoltzmannBot(seed=i) for i, p in enumerate(players)}, seed=seed, rules=rules,
              watch=lambda g, p, a: views.extend([g.view(None), *[g.view(q) for q in players]]))
    return views


@pytest.mark.parametrize("rules,seed", [(Rules(), 3), (Rules(top_secret=True), 3), (Rules(dossier=True), 8)])
def test_the_states_found_under_the_views_own_fields_are_the_plain_states(rules, seed):
    """PublicState.from_view first looks under the view's own fields (View.board_key): what it finds is the state
    of the view's public board, for every view of a game (triggers pending, markers scored, Top Secret hands)."""
    views = _states_along(rules, seed)
    assert any(any(v.scores.values()) for v in views)
    assert any(len(v.triggers) > 1 for v in views) == rules.top_secret     # (triggers pend in Top Secret's rounds)
    Utility.clear_shared()
    for v in views:
        ts = bool(v.rules.top_secret)
        hand = v.hand_sizes[v.active_player] if ts else 0
        plain = PublicState(*v.public_board(), top_secret=ts, active_hand=hand)
        assert v.board_key() == v.public_board()
        got = PublicState.from_view(v)
        assert got == plain and hash(got) == hash(plain)
        assert PublicState.from_view(v) is got           # (the look-up under the view's own fields)


def test_a_view_whose_fields_are_not_in_board_form_gets_the_plain_state():
    """A view-like whose own fields differ from its public board (triggers unsorted) is read through public_board:
    the same state as the plain one."""
    v = next(v for v in _states_along(Rules(top_secret=True), 3) if len(v.triggers) > 1)

    class Unsorted(_RulesView):
        def board_key(self):
            agents, pos, score, safe, trig = self._view.board_key()
            return agents, pos, score, safe, tuple(reversed(sorted(trig))) + (99,)

    Utility.clear_shared()
    plain = PublicState(*v.public_board(), top_secret=True, active_hand=v.hand_sizes[v.active_player])
    got = PublicState.from_view(Unsorted(v, v.rules))
    assert got == plain and got.triggers == v.public_board()[4]
    assert PublicState.from_view(v) is got
