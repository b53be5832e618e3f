"""The cards' vocabulary (heimlich_lab/rules/cards.py): each card's legal targets and effect, worked out by
hand, and the agreement of everything that uses them: the engine (legal actions, what a play does, its event),
the player model (card_plays, Utility.cards, and the vectorized fast path behind Utility.card_values) and the
belief's wording (card_moves). docs/rules.md, "Top Secret variant"."""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heimlich_lab import Action, Game, Rules
from heimlich_lab.bots import RandomBot
from heimlich_lab.inference.utility import PublicState, Utility, _card_arrays, card_plays
from heimlich_lab.rules.board import BONUS_CAP, COLOURS, index_of, value_of
from heimlich_lab.rules.cards import CARD_CODES, CARDS, CardEffect, PublicBoard, card_effect

try:    # the wording may live in its own module
    from heimlich_lab.inference.wording import card_moves
except ImportError:
    from heimlich_lab.inference.belief import card_moves

FIVE = COLOURS[:5]                      # grey yellow orange red green
RUINS, CHURCH = index_of(-3), index_of(0)


def board(pos, safe=7, scores=None, triggers=()):
    """A five-agent board from building values (grey, yellow, orange, red, green)."""
    return PublicBoard(FIVE, tuple(index_of(v) for v in pos), tuple(scores or (0,) * 5), index_of(safe),
                       tuple(triggers))


def moves(b, code, *targets):
    return CARDS[code].effect(b, targets).moves_by_colour(b)


# ----------------------------------------------------------------------------- each card, worked by hand
def test_step_cards_list_every_agent_with_each_step_in_the_cards_order():
    b = board((0, 3, 5, 7, 10))
    assert CARDS["back12"].legal_targets(b)[:4] == (("grey", -1), ("grey", -2), ("yellow", -1), ("yellow", -2))
    assert CARDS["step1"].legal_targets(b)[:2] == (("grey", 1), ("grey", -1))
    assert CARDS["fwd123"].legal_targets(b)[-3:] == (("green", 1), ("green", 2), ("green", 3))
    assert len(CARDS["fwd123"].legal_targets(b)) == 15
    assert moves(b, "back12", "grey", -2) == {"grey": (0, 10)}         # back past the Ruins
    assert moves(b, "fwd123", "green", 3) == {"green": (10, 1)}       # forward past the Ruins and the Church
    assert moves(b, "step1", "green", 1) == {"green": (10, -3)}


def test_safestep_only_agents_in_the_safes_building():
    b = board((0, 7, 5, 7, 10))
    assert CARDS["safestep"].legal_targets(b) == (("yellow", 1), ("yellow", -1), ("red", 1), ("red", -1))
    assert CARDS["safestep"].legal_targets(board((0, 1, 2, 3, 4))) == ()


def test_two_agent_cards():
    b = board((0, 3, 3, -3, 10))
    assert len(CARDS["twoback"].legal_targets(b)) == 10                              # any two different agents
    assert moves(b, "twoback", "grey", "red") == {"grey": (0, -3), "red": (-3, 10)}
    assert moves(b, "twofwd", "red", "green") == {"red": (-3, 0), "green": (10, -3)}
    assert ("yellow", "orange") not in CARDS["swap"].legal_targets(b)                 # same building: no swap
    assert len(CARDS["swap"].legal_targets(b)) == 9
    assert moves(b, "swap", "grey", "green") == {"grey": (0, 10), "green": (10, 0)}


def test_join_takes_an_ordered_pair_in_different_buildings():
    b = board((0, 3, 3, -3, 10))
    legal = CARDS["join"].legal_targets(b)
    assert ("grey", "yellow") in legal and ("yellow", "grey") in legal and ("yellow", "orange") not in legal
    assert len(legal) == 5 * 4 - 2
    assert moves(b, "join", "green", "yellow") == {"green": (10, 3)}


def test_cards_sending_agents_to_one_building():
    b = board((0, -3, 7, -3, 10))
    assert CARDS["ruins"].legal_targets(b) == (("grey",), ("orange",), ("green",))
    assert moves(b, "ruins", "grey") == {"grey": (0, -3)}
    assert CARDS["tosafe"].legal_targets(b) == (("grey",), ("yellow",), ("red",), ("green",))
    assert moves(b, "tosafe", "yellow") == {"yellow": (-3, 7)}
    assert CARDS["rescue"].legal_targets(b) == (("yellow",), ("red",), ("yellow", "red"))
    assert moves(b, "rescue", "yellow", "red") == {"yellow": (-3, 0), "red": (-3, 0)}
    assert CARDS["church"].legal_targets(b) == ((),)
    assert moves(b, "church") == {"yellow": (-3, 0), "orange": (7, 0), "red": (-3, 0), "green": (10, 0)}
    assert CARDS["church"].legal_targets(board((0,) * 5)) == ()


def test_placesafe_any_other_building_and_it_cancels_every_trigger():
    b = board((0, 7, 5, 7, 10), triggers=(1, 3))
    assert [t[0] for t in CARDS["placesafe"].legal_targets(b)] == [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, -3]
    e = CARDS["placesafe"].effect(b, (-3,))
    assert e == CardEffect(safe=index_of(-3)) and e.triggers == () and e.moves == ()


def test_bonus_two_markers_below_the_cap_plus_three_not_past_it():
    b = board((0,) * 5, scores=(39, 40, 12, 41, 0), triggers=(2,))
    assert CARDS["bonus"].legal_targets(b) == (("grey", "orange"), ("grey", "green"), ("orange", "green"))
    e = CARDS["bonus"].effect(b, ("grey", "orange"))
    assert e.gains == ((0, 1), (2, 3)) and e.scores(b) == (40, 40, 15, 41, 0)
    assert e.triggers == (2,) and e.moves == ()                     # a bonus moves nobody: the trigger stays
    assert max(e.scores(b)) <= BONUS_CAP + 1


def test_second_agent_always_playable_and_moves_nothing():
    b = board((0,) * 5, triggers=(4,))
    assert CARDS["second"].legal_targets(b) == ((),)
    assert CARDS["second"].effect(b, ()) == CardEffect(second_agent=True, triggers=(4,))


def test_triggers_a_move_onto_the_safe_creates_one_a_move_away_cancels_it():
    b = board((7, 6, 5, -3, 10), triggers=(0,))
    assert CARDS["fwd123"].effect(b, ("yellow", 1)).triggers == (0, 1)        # yellow lands on the safe
    assert CARDS["fwd123"].effect(b, ("grey", 1)).triggers == ()              # grey leaves it
    assert CARDS["swap"].effect(b, ("grey", "yellow")).triggers == (1,)       # yellow there instead
    e = CARDS["ruins"].effect(b, ("grey",))
    assert e.ends_in_ruins and e.positions(b)[0] == RUINS
    assert not CARDS["rescue"].effect(b, ("red",)).ends_in_ruins


def test_an_agent_sent_where_it_stands_does_not_move():
    b = board((0, 0, 7, -3, 10))
    assert moves(b, "church") == {"orange": (7, 0), "red": (-3, 0), "green": (10, 0)}
    assert card_effect(b, Action.parse("play join grey yellow")).moves == ()


def test_every_card_has_its_text_targets_and_rules():
    assert set(CARDS) == set(CARD_CODES)
    for code in CARD_CODES:
        kind = CARDS[code]
        assert kind.text and kind.targets
        assert isinstance(kind.legal_targets(board((0, 1, 7, -3, 10), scores=(0, 5, 39, 40, 41))), tuple)
    assert {c for c in CARD_CODES if CARDS[c].steps} == {"back12", "step1", "safestep", "fwd123"}


# ----------------------------------------------------------------------------- the engine agrees
def round_positions(n_games=6, players=4):
    """(game, player) at every Top Secret round decision of a few seeded random games."""
    for seed in range(n_games):
        g = Game([f"P{i}" for i in range(players)], rules=Rules(top_secret=True), seed=seed)
        bots = {p: RandomBot(seed=100 * seed + i) for i, p in enumerate(g.players)}
        while not g.is_over:
            p = g.current_player
            if g.phase == "round":
                yield g, p
            g.apply(bots[p].choose(g.view(p), g.legal_actions()))


def test_the_engine_plays_each_card_as_the_vocabulary_says():
    rng = random.Random(5)
    seen = set()
    for g, p in round_positions():
        view = g.view(None)
        b = PublicBoard.from_view(view)
        for code in dict.fromkeys(g.hands[p]):          # one play of each card in the hand, targets at random
            plays = [a for a in g.legal_actions() if a.kind == "play" and a.args[0] == code]
            if not plays:
                continue
            act = rng.choice(plays)
            seen.add(code)
            e = card_effect(b, act)
            h = g.copy()
            h.apply(act)
            after = h.view(None)
            event = [data for kind, _, data in h.events if kind == "play"][-1]
            assert after.positions == {c: value_of(x) for c, x in zip(b.agents, e.positions(b))}, act
            assert after.scores == dict(zip(b.agents, e.scores(b))), act
            assert index_of(after.safe) == (b.safe if e.safe is None else e.safe), act
            assert event["moves"] == e.moves_by_colour(b) == card_moves(view, act), act
            assert event["triggers"] == [b.agents[a] for a in e.triggers] == list(after.triggers), act
            assert ("second" in event) == e.second_agent, act
    assert seen == set(CARD_CODES)


class _PublicFieldsOnly:
    """A view seen through its public properties only (no ``public_board``): PublicBoard.from_view's general path."""

    def __init__(self, view):
        self._view = view

    def __getattr__(self, name):
        if name == "public_board":
            raise AttributeError(name)
        return getattr(self._view, name)


def test_a_views_own_fields_give_the_board_its_public_properties_give():
    """The engines' views hand PublicBoard / PublicState their fields at once (``View.public_board``, read at every
    decision); the same board as from the public properties, triggers, markers and Top Secret hands included."""
    n = triggers = 0
    for seed, rules in enumerate([Rules(), Rules(top_secret=True), Rules(top_secret=True, dossier=True)] * 2):
        g = Game([f"P{i}" for i in range(5)], rules=rules, seed=seed)
        bots = {p: RandomBot(seed=10 * seed + i) for i, p in enumerate(g.players)}
        while not g.is_over:
            p = g.current_player
            for viewer in (None, p):
                v = g.view(viewer)
                for cls in (PublicBoard, PublicState):
                    fast, slow = cls.from_view(v), cls.from_view(_PublicFieldsOnly(v))
                    assert fast == slow and type(fast) is type(slow) is cls
                    assert hash(fast) == hash(slow)
                n += 1
                triggers += bool(v.triggers)
            g.apply(bots[p].choose(g.view(p), g.legal_actions()))
    assert n > 500 and triggers > 20


def test_the_engine_lists_the_vocabularys_targets():
    for g, p in round_positions(n_games=3, players=5):
        st = PublicState.from_view(g.view(None))
        hand = dict.fromkeys(g.hands[p])
        plays = tuple(a for a in g.legal_actions() if a.kind == "play")
        assert plays == tuple(a for c in hand for a in card_plays(st, c))


# ----------------------------------------------------------------------------- the model's fast path agrees
@st.composite
def public_states(draw):
    n = draw(st.sampled_from((5, 6, 7)))
    spots = st.one_of(st.sampled_from((CHURCH, RUINS, 7)), st.integers(0, 11))
    pos = tuple(draw(st.lists(spots, min_size=n, max_size=n)))
    scores = tuple(draw(st.lists(st.one_of(st.sampled_from((37, 38, 39, 40, 41)), st.integers(0, 41)),
                                 min_size=n, max_size=n)))
    safe = draw(st.one_of(st.just(pos[0]), st.integers(0, 11)))
    trig = tuple(a for a in range(n) if pos[a] == safe and draw(st.booleans()))
    return PublicState(COLOURS[:n], pos, scores, safe, trig, True, draw(st.integers(0, 4)))


@settings(max_examples=150, deadline=None)
@given(public_states())
def test_the_vectorized_fast_path_equals_the_cards_rules(state):
    counts, pos, scores, safe, pending, ruined, second = _card_arrays(state, CARD_CODES)
    row = 0
    for code, n in zip(CARD_CODES, counts):
        targets = CARDS[code].legal_targets(state)
        assert n == len(targets), code
        for t in targets:
            e = CARDS[code].effect(state, t)
            assert tuple(pos[row]) == e.positions(state), (code, t)
            assert tuple(scores[row]) == e.scores(state), (code, t)
            assert safe[row] == (state.safe if e.safe is None else e.safe), (code, t)
            assert pending[row] == bool(e.triggers), (code, t)
            assert ruined[row] == e.ends_in_ruins and second[row] == e.second_agent, (code, t)
            row += 1
    assert row == len(pos)


@settings(max_examples=60, deadline=None)
@given(public_states(), st.booleans())
def test_card_values_are_the_soft_maximum_of_each_cards_plays(state, active):
    u = Utility()
    values = u.card_values(state, CARD_CODES, active)
    for code in CARD_CODES:
        plays = card_plays(state, code)
        assert (code in values) == bool(plays)
        if plays:
            U = u.cards(state, plays, active)
            z = U - U.max(axis=0)
            expected = np.log(np.exp(z).mean(axis=0)) + U.max(axis=0)
            np.testing.assert_allclose(values[code], expected, rtol=1e-12, atol=1e-12)


def test_an_unknown_card_is_the_models_error():
    from heimlich_lab.errors import ModelError
    st_ = PublicState(FIVE, (0,) * 5, (0,) * 5, 7, (), True, 0)
    with pytest.raises(ModelError, match="unknown card code 'bogus'"):
        card_plays(st_, "bogus")


# ----------------------------------------------------------------------------- one home for the ring
def test_ring_arithmetic_lives_only_in_board_py():
    """Steps and distances around the ring are rules/board.py's (step, distance, building_after, RING_STEPS)."""
    import re
    from pathlib import Path

    import heimlich_lab
    root = Path(heimlich_lab.__file__).parent
    ring = re.compile(r"%\s*(N_BUILDINGS|12)\b|\{v: i for i, v in enumerate\(BUILDING_VALUES\)\}")
    offenders = [f"{path.relative_to(root)}:{n}" for path in sorted(root.rglob("*.py"))
                 if path != root / "games" / "heimlich" / "rules" / "board.py"
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if ring.search(line)]
    assert offenders == []
