"""The board: a ring of 12 buildings, the agents, and the scoring track.

Buildings are named by their *value*: the Church is 0, the numbered buildings
1 to 10, the Ruins -3. Internally a building is an *index* 0..11 around the
ring, clockwise: Church, 1, ..., 10, Ruins.

>>> BUILDING_VALUES[11], index_of(-3), value_of(0)
(-3, 11, 0)
>>> building_name(-3), building_name(0), building_name(7)
('ruins', 'church', '7')
>>> parse_building("ruins"), parse_building("church"), parse_building("10")
(-3, 0, 10)
>>> step(value_of(10), 1) == index_of(-3)
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import networkx as nx

from ....errors import NotationError

#: Building values clockwise from the Church.
BUILDING_VALUES: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -3)
N_BUILDINGS = len(BUILDING_VALUES)
CHURCH = 0
RUINS = -3
FINISH = 42
DOSSIER_MARK = 29
SAFE_START = 7
BONUS_CAP = 40

_INDEX = {v: i for i, v in enumerate(BUILDING_VALUES)}
#: Ring indices of the Church and the Ruins.
CHURCH_INDEX = _INDEX[CHURCH]
RUINS_INDEX = _INDEX[RUINS]


@dataclass(frozen=True)
class Agent:
    """An agent: a name and the colour that the notation uses."""

    name: str
    colour: str

    @property
    def letter(self) -> str:
        """The first letter of the name, drawn on the piece for colour-blind players."""
        return self.name[0]


#: All seven agents, in the order the default set-up takes them.
AGENTS: tuple[Agent, ...] = (
    Agent("Schulz", "grey"),
    Agent("Perry", "yellow"),
    Agent("Bucci", "orange"),
    Agent("Jaques", "red"),
    Agent("Mirkov", "green"),
    Agent("Doyle", "blue"),
    Agent("Larsson", "violet"),
)
COLOURS: tuple[str, ...] = tuple(a.colour for a in AGENTS)
AGENT_BY_COLOUR = {a.colour: a for a in AGENTS}

#: Agents in play by number of players.
AGENTS_FOR_PLAYERS = {2: 5, 3: 6, 4: 7, 5: 7, 6: 7, 7: 7}


def index_of(value: int) -> int:
    """Ring index of a building value."""
    try:
        return _INDEX[value]
    except KeyError:
        raise NotationError(
            f"no building has value {value!r}; buildings are 0 (church), 1..10 and -3 (ruins)") from None


def value_of(index: int) -> int:
    """Building value of a ring index."""
    return BUILDING_VALUES[index]


def step(index, steps):
    """The ring index ``steps`` buildings clockwise (negative: backwards); numpy arrays work too.

    >>> step(11, 1), step(0, -1)
    (0, 11)
    """
    return (index + steps) % N_BUILDINGS


#: ``RING_STEPS[index][steps] == step(index, steps)`` for steps 0..11: a lookup for the engine's move loop.
RING_STEPS: tuple[tuple[int, ...], ...] = tuple(tuple(step(i, n) for n in range(N_BUILDINGS))
                                                for i in range(N_BUILDINGS))


def distance(from_index, to_index):
    """Steps clockwise from one ring index to another (0 if the same); numpy arrays work too.

    >>> distance(10, 0), distance(0, 10)
    (2, 10)
    """
    return (to_index - from_index) % N_BUILDINGS


def building_after(value: int, steps: int) -> int:
    """The building value ``steps`` buildings clockwise from building value ``value`` (negative: backwards).

    >>> building_after(10, 1), building_after(10, 2), building_after(1, -2)
    (-3, 0, -3)
    """
    return value_of(step(index_of(value), steps))


def building_name(value: int) -> str:
    """Notation for a building: ``church``, ``ruins`` or its number."""
    if value == CHURCH:
        return "church"
    if value == RUINS:
        return "ruins"
    return str(value)


def parse_building(text: str) -> int:
    """Parse a building name (``church``, ``ruins``, ``0``..``10``, ``-3``) to its value."""
    t = text.strip().lower()
    if t == "church":
        return CHURCH
    if t == "ruins":
        return RUINS
    if not re.fullmatch(r"-?(0|[1-9][0-9]?)", t):    # ASCII digits, written once: not '+7', '07' or '٣'
        raise NotationError(f"{text!r} is not a building; use church, ruins or 1..10")
    v = int(t)
    index_of(v)
    return v


def safe_destinations(safe: int, positions, rule: str = "other") -> tuple[int, ...]:
    """Building indices the safe may move to from index ``safe`` after a scoring (``Rules.safe_destination``).

    ``"other"``: any other building; ``"unoccupied"``: another building with no agent (``positions``: the
    agents' building indices), or any other if there is none.

    >>> safe_destinations(7, [0, 0, 1], "other") == tuple(b for b in range(12) if b != 7)
    True
    >>> 0 in safe_destinations(7, [0, 0, 1], "unoccupied"), 2 in safe_destinations(7, [0, 0, 1], "unoccupied")
    (False, True)
    """
    options = [b for b in range(N_BUILDINGS) if b != safe]
    if rule == "unoccupied":
        occupied = set(positions)
        empty = [b for b in options if b not in occupied]
        if empty:
            options = empty
    return tuple(options)


def board_graph() -> nx.DiGraph:
    """The ring as a networkx directed cycle; nodes are building values, edges clockwise.

    >>> g = board_graph()
    >>> g.number_of_nodes(), g.number_of_edges(), list(g.successors(10))
    (12, 12, [-3])
    """
    g = nx.DiGraph()
    for i, v in enumerate(BUILDING_VALUES):
        g.add_node(v, name=building_name(v), index=i)
    for i, v in enumerate(BUILDING_VALUES):
        g.add_edge(v, value_of(step(i, 1)))
    return g


def clockwise_distance(from_value: int, to_value: int) -> int:
    """Steps clockwise from one building to another (0 if the same).

    >>> clockwise_distance(10, 0)
    2
    """
    return distance(index_of(from_value), index_of(to_value))
