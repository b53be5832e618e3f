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
