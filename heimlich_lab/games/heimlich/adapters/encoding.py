"""Integer action ids and observation vectors shared by the OpenSpiel and PettingZoo adapters.

Nothing here imports OpenSpiel or PettingZoo.

Player actions: one fixed table of :data:`NUM_ACTIONS` ids for every configuration
(2 to 7 players, any variant). Agents are named by colour over all seven colours,
so the ids never depend on which agents are in play:

=============  ===========  =====================================================================
ids            kind         meaning
=============  ===========  =====================================================================
0..3           points       ``points 0`` .. ``points 3`` (after rolling 1-3)
4..1718        move         allocations of k = 1..6 points to the 7 colours: for each k in turn,
                            the rows of ``allocation_table(7, k)`` (grey, yellow, orange, red,
                            green, blue, violet)
1719..1730     safe         move the safe to the building at ring index 0..11 (church, 1..10, ruins)
1731, 1732     announce     ``announce no``, ``announce yes``
1733, 1734     pass, done
1735..1979     play         every card play over the 7 colours, card by card in ``CARD_CODES``
                            order (see :func:`card_plays`)
1980..2035     dossier      entry for colour ``c`` (7) naming seat ``s`` (0..6) or ``free`` (7):
                            ``1980 + 8 * c + s``
2036, 2037     collect      ``collect no``, ``collect yes`` (a card one may draw; added last, so
                            the ids before it did not change)
=============  ===========  =====================================================================

>>> len(PLAYER_ACTIONS), OFFSETS["play"], OFFSETS["dossier"], OFFSETS["collect"]
(2038, 1735, 1980, 2036)
>>> from heimlich_lab import Action
>>> action_id(Action.parse("move red+2 blue+1"), ("player_0", "player_1"))
105
>>> str(decode_action(105, ("player_0", "player_1")))
'move red+2 blue+1'

Chance outcomes (ids per configuration, :class:`ChanceTable`): the deal (every
assignment of agents to the players in seat order, in ``itertools.permutations``
order), then the 6 die faces, the 15 card codes (a draw), the 7 colours
(a taken agent) and ``reveal second`` (the second-agent card drawn with
``Rules(second_agent="drawn")``).

Observations: :func:`encode_view` turns a :class:`~heimlich_lab.View` (what one
player may know) into a flat float32 vector, laid out by :data:`OBS_LAYOUT`.
"""
from __future__ import annotations

import copy
import random
from functools import lru_cache
from itertools import combinations, permutations

import numpy as np

from ..rules.actions import FACES, Action
from ..rules.allocations import allocation_table
from ..rules.board import BUILDING_VALUES, COLOURS, FINISH, N_BUILDINGS, index_of
from ..rules.cards import CARD_CODES, CARDS
from ..rules.game import PHASES, Game

MAX_PLAYERS = 7
N_COLOURS = len(COLOURS)


def card_plays() -> list[Action]:
    """Every card play over the 7 colours, in the id order of the table (245 plays)."""
    C = COLOURS
    out: list[Action] = []
    for code in CARD_CODES:
        if CARDS[code].steps:
            out += [Action("play", (code, c, d)) for c in C for d in CARDS[code].steps]
        elif code in ("twoback", "twofwd", "swap", "bonus"):
            out += [Action("play", (code, a, b)) for a, b in combinations(C, 2)]
        elif code == "join":
            out += [Action("play", (code, a, b)) for a, b in permutations(C, 2)]
        elif code in ("ruins", "tosafe"):
            out += [Action("play", (code, c)) for c in C]
        elif code == "rescue":
            out += [Action("play", (code, c)) for c in C]
            out += [Action("play", (code, a, b)) for a, b in combinations(C, 2)]
        elif code == "placesafe":
            out += [Action("play", (code, v)) for v in BUILDING_VALUES]
        elif code in ("church", "second"):
            out.append(Action("play", (code,)))
        else:  # pragma: no cover - a new card needs a place in the table
            raise AssertionError(f"card {code} has no action ids")
    return out


def _moves() -> list[Action]:
    out = []
    for k in range(1, 7):
        for row in allocation_table(N_COLOURS, k):
            out.append(Action("move", tuple((COLOURS[a], int(row[a])) for a in range(N_COLOURS) if row[a])))
    return out


_DOSSIER_SLOTS = MAX_PLAYERS + 1  # seats 0..6, then free

_PARTS = [
    ("points", [Action("points", (n,)) for n in range(4)]),
    ("move", _moves()),
    ("safe", [Action("safe", (v,)) for v in BUILDING_VALUES]),
    ("announce", [Action("announce", (False,)), Action("announce", (True,))]),
    ("pass", [Action("pass")]),
    ("done", [Action("done")]),
    ("play", card_plays()),
    ("dossier", [None] * (N_COLOURS * _DOSSIER_SLOTS)),  # needs the player names: see decode_action
    ("collect", [Action("collect", (False,)), Action("collect", (True,))]),
]
#: First id of each kind of decision.
OFFSETS: dict[str, int] = {}
#: id -> Action for every id but the dossier ones (``None`` there).
PLAYER_ACTIONS: list = []
for _kind, _acts in _PARTS:
    OFFSETS[_kind] = len(PLAYER_ACTIONS)
    PLAYER_ACTIONS.extend(_acts)
NUM_ACTIONS = len(PLAYER_ACTIONS)
_ID = {a: i for i, a in enumerate(PLAYER_ACTIONS) if a is not None}
_COLOUR_I = {c: i for i, c in enumerate(COLOURS)}


def action_id(action: Action, players: tuple[str, ...]) -> int:
    """The id of a player's action (``players`` in seat order, for dossier entries)."""
    if action.kind == "dossier":
        c, name = action.args
        s = MAX_PLAYERS if name == "free" else players.index(name)
        return OFFSETS["dossier"] + _DOSSIER_SLOTS * _COLOUR_I[c] + s
    try:
        return _ID[action]
    except KeyError:
        raise ValueError(f"{action} has no action id") from None


def decode_action(i: int, players: tuple[str, ...]) -> Action:
    """The player's action with id ``i``."""
    i = int(i)
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"action id {i} is out of range 0..{NUM_ACTIONS - 1}")
    if OFFSETS["dossier"] <= i < OFFSETS["collect"]:
        c, s = divmod(i - OFFSETS["dossier"], _DOSSIER_SLOTS)
        if s != MAX_PLAYERS and s >= len(players):
            raise ValueError(f"action id {i} names seat {s}, but there are {len(players)} players")
        return Action("dossier", (COLOURS[c], "free" if s == MAX_PLAYERS else players[s]))
    return PLAYER_ACTIONS[i]


class ChanceTable:
    """Ids of the chance outcomes for one configuration (players in seat order, agents in play).

    >>> t = ChanceTable(("player_0", "player_1"), ("grey", "yellow", "orange", "red", "green"))
    >>> t.size, str(t.decode(0)), str(t.decode(20)), t.id(Action.parse("draw swap"))
    (49, 'deal player_0=grey player_1=yellow', 'roll 1-3', 33)
    """

    def __init__(self, players: tuple[str, ...], agents: tuple[str, ...]):
        self.players, self.agents = tuple(players), tuple(agents)
        self.deals = [Action("deal", tuple(zip(self.players, cols)))
                      for cols in permutations(self.agents, len(self.players))]
        self.actions = (self.deals + [Action("roll", (f,)) for f in FACES] + [Action("draw", (c,)) for c in CARD_CODES]
                        + [Action("take", (c,)) for c in COLOURS] + [Action("reveal", ("second",))])
        self._id = {a: i for i, a in enumerate(self.actions)}
        self.size = len(self.actions)

    def id(self, action: Action) -> int:
        return self._id[action]

    def decode(self, i: int) -> Action:
        return self.actions[int(i)]


@lru_cache(maxsize=64)
def chance_table(players: tuple[str, ...], agents: tuple[str, ...]) -> ChanceTable:
    return ChanceTable(players, agents)


# ------------------------------------------------------------------------------------------ observations
_PHASES = tuple(p for p in PHASES if p != "over") + ("over",)
_MAX_SCORE = 3.0   # scores / 42, with room for dossier bonuses
_MAX_COUNT = 26.0

#: (name, size, upper bound) of each piece of the observation vector, in order.
OBS_LAYOUT: tuple[tuple[str, int, float], ...] = (
    ("viewer_seat", MAX_PLAYERS, 1), ("current_seat", MAX_PLAYERS + 1, 1), ("active_seat", MAX_PLAYERS, 1),
    ("phase", len(_PHASES), 1), ("die", len(FACES), 1), ("points", 7, 1), ("in_play", N_COLOURS, 1),
    ("positions", N_COLOURS * N_BUILDINGS, 1), ("scores", N_COLOURS, _MAX_SCORE), ("safe", N_BUILDINGS, 1),
    ("triggers", N_COLOURS, 1), ("own_agents", N_COLOURS, 1), ("hand", len(CARD_CODES), _MAX_COUNT),
    ("hand_sizes", MAX_PLAYERS, _MAX_COUNT), ("supply_size", 1, _MAX_COUNT), ("discards", len(CARD_CODES), _MAX_COUNT),
    ("dossier_sheet", N_COLOURS * _DOSSIER_SLOTS, 1), ("dossier_done", 1, 1), ("turn", 1, 1),
    ("winners", MAX_PLAYERS, 1),
)
OBS_SIZE = sum(n for _, n, _ in OBS_LAYOUT)
OBS_HIGH = np.concatenate([np.full(n, hi, dtype=np.float32) for _, n, hi in OBS_LAYOUT])
_CARD_I = {c: i for i, c in enumerate(CARD_CODES)}
_MAX_TURN = 500


def encode_view(view, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of a :class:`~heimlich_lab.View` (float32, :data:`OBS_SIZE` long).

    Only what the view holds goes in: a player's vector shows their own agents,
    hand and dossier sheet, never anyone else's.

    >>> g = Game(["Ann", "Bob"], seed=1)
    >>> v = encode_view(g.view("Ann"))
    >>> v.shape == (OBS_SIZE,), v.dtype.name, bool((v >= 0).all() and (v <= OBS_HIGH).all())
    (True, 'float32', True)
    """
    x = np.zeros(OBS_SIZE, dtype=np.float32) if out is None else out
    if out is not None:
        x.fill(0)
    seat = {p: i for i, p in enumerate(view.players)}
    parts = {}
    o = 0
    for name, n, _ in OBS_LAYOUT:
        parts[name] = x[o:o + n]
        o += n
    if view.viewer is not None:
        parts["viewer_seat"][seat[view.viewer]] = 1
    parts["current_seat"][seat[view.current_player] if view.current_player is not None else MAX_PLAYERS] = 1
    parts["active_seat"][seat[view.active_player]] = 1
    parts["phase"][_PHASES.index(view.phase)] = 1
    if view.die is not None:
        parts["die"][FACES.index(view.die)] = 1
    if view.points is not None:
        parts["points"][view.points] = 1
    pos = parts["positions"].reshape(N_COLOURS, N_BUILDINGS)
    for c, b in view.positions.items():
        i = _COLOUR_I[c]
        parts["in_play"][i] = 1
        pos[i, index_of(b)] = 1
    for c, s in view.scores.items():
        parts["scores"][_COLOUR_I[c]] = min(s / FINISH, _MAX_SCORE)
    parts["safe"][index_of(view.safe)] = 1
    for c in view.triggers:
        parts["triggers"][_COLOUR_I[c]] = 1
    for c in view.own_agents:
        parts["own_agents"][_COLOUR_I[c]] = 1
    for c in view.hand:
        parts["hand"][_CARD_I[c]] += 1
    for p, n in view.hand_sizes.items():
        parts["hand_sizes"][seat[p]] = n
    parts["supply_size"][0] = min(view.supply_size, _MAX_COUNT)
    for c in view.discards:
        parts["discards"][_CARD_I[c]] = min(parts["discards"][_CARD_I[c]] + 1, _MAX_COUNT)
    sheet = parts["dossier_sheet"].reshape(N_COLOURS, _DOSSIER_SLOTS)
    for c, name in view.dossier_sheet.items():
        sheet[_COLOUR_I[c], MAX_PLAYERS if name == "free" else seat[name]] = 1
    parts["dossier_done"][0] = float(view.dossier_done)
    parts["turn"][0] = min(view.turn, _MAX_TURN) / _MAX_TURN
    for p in view.winners or ():
        parts["winners"][seat[p]] = 1
    return x


def view_string(view) -> str:
    """A one-line description of what the view holds (an observation string)."""
    bits = [f"viewer={view.viewer or 'spectator'}", f"own={'+'.join(view.own_agents) or '-'}",
            f"hand={'+'.join(view.hand) or '-'}", f"turn={view.turn}", f"phase={view.phase}",
            f"current={view.current_player or '-'}", f"active={view.active_player}", f"die={view.die or '-'}",
            f"points={'-' if view.points is None else view.points}",
            "positions=" + ",".join(f"{c}:{b}" for c, b in view.positions.items()),
            "scores=" + ",".join(f"{c}:{s}" for c, s in view.scores.items()), f"safe={view.safe}",
            "triggers=" + ("+".join(view.triggers) or "-"),
            "hands=" + ",".join(f"{p}:{n}" for p, n in view.hand_sizes.items()),
            f"supply={view.supply_size}", "discards=" + ("+".join(view.discards) or "-"),
            "sheet=" + (",".join(f"{c}:{e}" for c, e in view.dossier_sheet.items()) or "-")]
    if view.is_over:
        bits.append("winners=" + ("+".join(view.winners) or "free-agent"))
    return " ".join(bits)


def _event_text(e) -> str:
    return e.kind + "(" + ", ".join(f"{k}={e.data[k]!r}" for k in sorted(e.data)) + ")"


def info_state_string(view) -> str:
    """Everything the viewer has seen, in order: their seat, then every event of their log
    (other players' secrets blanked), then the decision now and their own secrets now (agents,
    hand, dossier sheet: these also cover a game started from a position, whose log does not
    hold the deal). Equal strings mean the viewer cannot tell the two situations apart."""
    lines = [f"viewer={view.viewer or 'spectator'}"]
    lines += [_event_text(e) for e in view.log]
    lines.append(f"now: phase={view.phase} current={view.current_player or '-'} own={'+'.join(view.own_agents) or '-'} "
                 f"hand={'+'.join(view.hand) or '-'} "
                 f"sheet={','.join(f'{c}:{e}' for c, e in view.dossier_sheet.items()) or '-'}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ fast copies
def copy_game(game: Game) -> Game:
    """An independent copy of a :class:`~heimlich_lab.Game`, much faster than ``copy.deepcopy``.

    Containers held by the game are copied two levels deep (lists of lists, dicts, sets), the
    random generator is copied by state, and everything else (actions, events, rules) is
    immutable or never changed in place, so it is shared.

    >>> g = Game(["Ann", "Bob"], seed=4)
    >>> h = copy_game(g); h.apply(h.legal_actions()[0])
    >>> len(h.history) - len(g.history), h.phase != g.phase or h.positions != g.positions
    (1, True)
    """
    new = Game.__new__(Game)
    d = {}
    for k, v in game.__dict__.items():
        t = type(v)
        if t is list:
            d[k] = [x.copy() if type(x) in (list, dict, set) else x for x in v]
        elif t is dict or t is set:
            d[k] = v.copy()
        elif isinstance(v, random.Random):
            r = random.Random()
            r.setstate(v.getstate())
            d[k] = r
        elif t in (int, float, str, bool, tuple, type(None)) or k in ("rules", "start"):
            d[k] = v
        else:  # anything unexpected: be safe
            d[k] = copy.deepcopy(v)
    new.__dict__.update(d)
    return new
