"""The 26 Top Secret cards: each card kind's text, targets and effect, defined once.

Each card kind has a short *code* used by the notation (``play fwd123 red+2``),
its card text, the legal targets of a play in a public position
(:meth:`CardKind.legal_targets`) and what a play does (:meth:`CardKind.effect`,
a :class:`CardEffect`). The engine, the player model's utilities, the belief's
wording and the board widget all read the cards from here (docs/rules.md#top-secret-variant).

The deck is a mapping from code to number of copies; :data:`DEFAULT_DECK`
follows docs/rules.md, and a :class:`~heimlich_lab.Rules` may carry a different one.

>>> sum(DEFAULT_DECK.values())
26
>>> CARDS["swap"].text
'Two agents swap places.'
>>> board = PublicBoard(("grey", "red", "blue"), pos=(0, 5, 11), scores=(0, 0, 0), safe=7)
>>> CARDS["rescue"].legal_targets(board)                  # blue is the only agent in the Ruins
(('blue',),)
>>> CARDS["fwd123"].effect(board, ("red", 2))              # red 5 -> 7: onto the safe
CardEffect(moves=((1, 5, 7),), safe=None, gains=(), second_agent=False, triggers=(1,))
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType
from typing import Callable, NamedTuple

from .board import BONUS_CAP, CHURCH_INDEX, N_BUILDINGS, RUINS_INDEX, index_of, step, value_of

#: What a card adds to a marker (never past :data:`~heimlich_lab.games.heimlich.rules.board.BONUS_CAP`).
BONUS_POINTS = 3
#: A player holding this many cards draws no more (docs/rules.md, "hand-limit").
HAND_LIMIT = 4


@dataclass(frozen=True)
class PublicBoard:
    """The public facts a card looks at: the agents in play (colours), where each stands (ring
    indices, :func:`~heimlich_lab.games.heimlich.rules.board.index_of`), their markers, the safe's ring index, and
    the agents with a pending scoring trigger (sorted agent indices).

    >>> from heimlich_lab import Game
    >>> b = PublicBoard.from_view(Game(["Ann", "Bob"], seed=1).view(None))
    >>> b.agents, b.pos, b.safe, b.triggers
    (('grey', 'yellow', 'orange', 'red', 'green'), (0, 0, 0, 0, 0), 7, ())
    """

    agents: tuple
    pos: tuple
    scores: tuple
    safe: int
    triggers: tuple = ()

    @classmethod
    def from_view(cls, view, **more) -> "PublicBoard":
        """From any :class:`~heimlich_lab.View` (public fields only); ``more``: the fields a subclass adds."""
        board = getattr(view, "public_board", None)
        if board is not None:   # the engine's views: their own fields, as this reads them below
            return cls(*board(), **more)
        agents = tuple(view.agents)
        p, s = view.positions, view.scores
        trig = view.triggers
        if trig:
            aidx = {c: i for i, c in enumerate(agents)}
            trig = tuple(sorted(aidx[c] for c in trig))
        return cls(agents, tuple([index_of(p[c]) for c in agents]), tuple([int(s[c]) for c in agents]),
                   index_of(view.safe), tuple(trig), **more)


class CardEffect(NamedTuple):
    """What one card play does, from the board before it (agents as indices, buildings as ring indices).

    - ``moves``: ``(agent, from, to)`` for each agent that changes building, in the card's order
      (an agent a card sends where it already stands does not move);
    - ``safe``: the safe's new building, or ``None`` (placing the safe cancels every trigger);
    - ``gains``: ``(agent, points)`` added to markers (``bonus``: +3, not past 40);
    - ``second_agent``: the player takes a free agent card (or draws a replacement: the engine decides);
    - ``triggers``: the agents with a pending scoring trigger after the play (sorted): a move onto the
      safe's building creates one, any other move cancels the moved agent's.
    """

    moves: tuple = ()
    safe: int | None = None
    gains: tuple = ()
    second_agent: bool = False
    triggers: tuple = ()
    # a NamedTuple, not a frozen dataclass: the model builds one per play of every card it evaluates

    @property
    def ends_in_ruins(self) -> bool:
        """Does the play end an agent in the Ruins (the active player then draws a card)?"""
        for _, _, to in self.moves:
            if to == RUINS_INDEX:
                return True
        return False

    def positions(self, board: PublicBoard) -> tuple:
        """The agents' ring indices after the play."""
        if not self.moves:
            return board.pos
        pos = list(board.pos)
        for a, _, to in self.moves:
            pos[a] = to
        return tuple(pos)

    def scores(self, board: PublicBoard) -> tuple:
        """The markers after the play."""
        if not self.gains:
            return board.scores
        scores = list(board.scores)
        for a, g in self.gains:
            scores[a] += g
        return tuple(scores)

    def moves_by_colour(self, board: PublicBoard) -> dict[str, tuple[int, int]]:
        """Agent colour -> (from, to) building *values*, for the agents that move (the engine's event data)."""
        return {board.agents[a]: (value_of(frm), value_of(to)) for a, frm, to in self.moves}


_card_effect = CardEffect._make        # faster than CardEffect(...) with keywords and defaults


def _send(board: PublicBoard, destinations: dict[int, int]) -> CardEffect:
    """The effect of sending agents to buildings (agent index -> ring index, in the card's order)."""
    pos, safe, triggers = board.pos, board.safe, board.triggers
    moves = []
    retrigger = False
    for a, to in destinations.items():
        if pos[a] != to:
            moves.append((a, pos[a], to))
            retrigger = retrigger or (to == safe) != (a in triggers)
    if retrigger:
        trig = set(triggers)
        for a, _, to in moves:
            if to == safe:
                trig.add(a)
            else:
                trig.discard(a)
        triggers = tuple(sorted(trig))
    return _card_effect((tuple(moves), None, (), False, triggers))


def _agent(board: PublicBoard, colour: str) -> int:
    return board.agents.index(colour)


# --------------------------------------------------------------------------- targets and effects, by form
# Targets are tuples of what follows the code in the notation: ("red", -1), ("red", "blue"), (7,), ().

def _each_agent_steps(board: PublicBoard, steps: tuple) -> tuple:
    return tuple((c, d) for c in board.agents for d in steps)


def _agent_steps_effect(board: PublicBoard, t: tuple) -> CardEffect:
    a = _agent(board, t[0])
    return _send(board, {a: step(board.pos[a], t[1])})


def _agents_at_safe_steps(board: PublicBoard, steps: tuple) -> tuple:
    return tuple((board.agents[a], d) for a, x in enumerate(board.pos) if x == board.safe for d in steps)


def _any_pair(board: PublicBoard, steps: tuple = ()) -> tuple:
    return tuple(combinations(board.agents, 2))


def _pair_steps_effect(d: int) -> Callable:
    def effect(board: PublicBoard, t: tuple) -> CardEffect:
        return _send(board, {a: step(board.pos[a], d) for a in (_agent(board, c) for c in t)})
    return effect


def _pairs_apart(board: PublicBoard, steps: tuple = ()) -> tuple:
    ag, pos = board.agents, board.pos
    return tuple((ag[a], ag[b]) for a, b in combinations(range(len(ag)), 2) if pos[a] != pos[b])


def _swap_effect(board: PublicBoard, t: tuple) -> CardEffect:
    a, b = _agent(board, t[0]), _agent(board, t[1])
    return _send(board, {a: board.pos[b], b: board.pos[a]})


def _ordered_pairs_apart(board: PublicBoard, steps: tuple = ()) -> tuple:
    ag, pos = board.agents, board.pos
    return tuple((ag[a], ag[b]) for a in range(len(ag)) for b in range(len(ag)) if pos[a] != pos[b])


def _join_effect(board: PublicBoard, t: tuple) -> CardEffect:
    return _send(board, {_agent(board, t[0]): board.pos[_agent(board, t[1])]})


def _agents_not_in_ruins(board: PublicBoard, steps: tuple = ()) -> tuple:
    return tuple((c,) for c, x in zip(board.agents, board.pos) if x != RUINS_INDEX)


def _to_ruins_effect(board: PublicBoard, t: tuple) -> CardEffect:
    return _send(board, {_agent(board, t[0]): RUINS_INDEX})


def _agents_not_at_safe(board: PublicBoard, steps: tuple = ()) -> tuple:
    return tuple((c,) for c, x in zip(board.agents, board.pos) if x != board.safe)


def _to_safe_effect(board: PublicBoard, t: tuple) -> CardEffect:
    return _send(board, {_agent(board, t[0]): board.safe})


def _once_if_not_all_in_church(board: PublicBoard, steps: tuple = ()) -> tuple:
    return ((),) if any(x != CHURCH_INDEX for x in board.pos) else ()


def _all_to_church_effect(board: PublicBoard, t: tuple) -> CardEffect:
    return _send(board, {a: CHURCH_INDEX for a in range(len(board.agents))})


def _one_or_two_in_ruins(board: PublicBoard, steps: tuple = ()) -> tuple:
    r = [c for c, x in zip(board.agents, board.pos) if x == RUINS_INDEX]
    return tuple((c,) for c in r) + tuple(combinations(r, 2))


def _to_church_effect(board: PublicBoard, t: tuple) -> CardEffect:
    return _send(board, {_agent(board, c): CHURCH_INDEX for c in t})


def _other_buildings(board: PublicBoard, steps: tuple = ()) -> tuple:
    return tuple((value_of(b),) for b in range(N_BUILDINGS) if b != board.safe)


def _place_safe_effect(board: PublicBoard, t: tuple) -> CardEffect:
    return CardEffect(safe=index_of(t[0]))             # the safe moved: every trigger is cancelled


def _pairs_below_cap(board: PublicBoard, steps: tuple = ()) -> tuple:
    return tuple(combinations([c for c, s in zip(board.agents, board.scores) if s < BONUS_CAP], 2))


def _bonus_effect(board: PublicBoard, t: tuple) -> CardEffect:
    gains = []
    for c in t:
        a = _agent(board, c)
        gains.append((a, min(BONUS_CAP, board.scores[a] + BONUS_POINTS) - board.scores[a]))
    return CardEffect(gains=tuple(gains), triggers=board.triggers)


def _once(board: PublicBoard, steps: tuple = ()) -> tuple:
    return ((),)


def _second_agent_effect(board: PublicBoard, t: tuple) -> CardEffect:
    return CardEffect(second_agent=True, triggers=board.triggers)


# --------------------------------------------------------------------------- the card kinds
@dataclass(frozen=True)
class CardKind:
    """One kind of Top Secret card: its notation code, its card text, the form of its targets, the
    steps it moves an agent (step cards), and the rules of a play: which targets are legal and what
    a play does.

    >>> board = PublicBoard(("grey", "red"), pos=(0, 7), scores=(0, 0), safe=7)
    >>> CARDS["safestep"].legal_targets(board)
    (('red', 1), ('red', -1))
    >>> CARDS["safestep"].effect(board, ("red", -1)).moves_by_colour(board)
    {'red': (7, 6)}
    """

    code: str
    text: str
    targets: str  # notation of the targets, for the docs and the error messages
    _legal: Callable = field(repr=False, compare=False)
    _effect: Callable = field(repr=False, compare=False)
    steps: tuple[int, ...] = ()   # a step card moves one agent by one of these (in this order)

    def legal_targets(self, board: PublicBoard) -> tuple[tuple, ...]:
        """Every legal target tuple of a play in ``board``, in the order of ``Game.legal_actions()``
        (none: the card cannot be played, rule ``card-no-target``)."""
        return self._legal(board, self.steps)

    def effect(self, board: PublicBoard, targets: tuple) -> CardEffect:
        """What playing the card with ``targets`` (legal in ``board``) does."""
        return self._effect(board, tuple(targets))


_KINDS = (
    CardKind("back12", "One agent 1 or 2 buildings back.", "AGENT-1 | AGENT-2",
             _each_agent_steps, _agent_steps_effect, steps=(-1, -2)),
    CardKind("step1", "One agent 1 building forward or back.", "AGENT+1 | AGENT-1",
             _each_agent_steps, _agent_steps_effect, steps=(1, -1)),
    CardKind("twoback", "Two different agents 1 building back each.", "AGENT AGENT",
             _any_pair, _pair_steps_effect(-1)),
    CardKind("twofwd", "Two different agents 1 building forward each.", "AGENT AGENT",
             _any_pair, _pair_steps_effect(1)),
    CardKind("safestep", "One agent in the safe's building 1 forward or back.", "AGENT+1 | AGENT-1",
             _agents_at_safe_steps, _agent_steps_effect, steps=(1, -1)),
    CardKind("ruins", "One agent to the Ruins.", "AGENT",
             _agents_not_in_ruins, _to_ruins_effect),
    CardKind("church", "All agents to the Church.", "(none)",
             _once_if_not_all_in_church, _all_to_church_effect),
    CardKind("swap", "Two agents swap places.", "AGENT AGENT",
             _pairs_apart, _swap_effect),
    CardKind("join", "One agent to another agent's building.", "MOVED_AGENT TO_AGENT",
             _ordered_pairs_apart, _join_effect),
    CardKind("rescue", "One or two agents from the Ruins to the Church.", "AGENT [AGENT]",
             _one_or_two_in_ruins, _to_church_effect),
    CardKind("fwd123", "One agent 1, 2 or 3 buildings forward.", "AGENT+1 | AGENT+2 | AGENT+3",
             _each_agent_steps, _agent_steps_effect, steps=(1, 2, 3)),
    CardKind("tosafe", "One agent to the safe.", "AGENT",
             _agents_not_at_safe, _to_safe_effect),
    CardKind("placesafe", "Place the safe in any other building (no scoring by itself).", "BUILDING",
             _other_buildings, _place_safe_effect),
    CardKind("bonus", "Two different scoring markers +3 each, not past 40.", "AGENT AGENT",
             _pairs_below_cap, _bonus_effect),
    CardKind("second", "Second agent: take a free agent card at random.", "(none)",
             _once, _second_agent_effect),
)

#: Card kinds by code.
CARDS = MappingProxyType({k.code: k for k in _KINDS})
CARD_CODES: tuple[str, ...] = tuple(k.code for k in _KINDS)

#: Copies of each card in the 26-card deck (docs/rules.md#deck).
DEFAULT_DECK = MappingProxyType({
    "back12": 2, "step1": 2, "twoback": 2, "twofwd": 2, "safestep": 2, "ruins": 2,
    "church": 1, "swap": 1, "join": 1, "rescue": 2, "fwd123": 2, "tosafe": 2,
    "placesafe": 2, "bonus": 2, "second": 1,
})


def card_text(code: str) -> str:
    """The text of a card by code."""
    return CARDS[code].text


def card_effect(board: PublicBoard, play) -> CardEffect:
    """The effect of a ``play`` :class:`~heimlich_lab.Action` (code and targets) in ``board``.

    >>> from heimlich_lab import Action
    >>> board = PublicBoard(("grey", "red"), pos=(3, 9), scores=(38, 0), safe=7)
    >>> card_effect(board, Action.parse("play bonus grey red")).gains
    ((0, 2), (1, 3))
    """
    return CARDS[play.args[0]].effect(board, play.args[1:])
