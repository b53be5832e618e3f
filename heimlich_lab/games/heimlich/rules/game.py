"""The game: explicit state, explicit chance, legal actions and apply.

A :class:`Game` always knows whose decision it is (``current_player``, or
``None`` when chance acts) and lists the legal actions of that decision. With
``chance="auto"`` (the default) chance events (the deal, die rolls, card
draws, taking a free agent) are drawn from the seeded generator as soon as
they come up; with ``chance="manual"`` they are actions too, so a teacher or
a test can set up any situation.

>>> g = Game(["Ann", "Bob", "Cy"], seed=2)
>>> g.current_player, g.phase, g.die
('Ann', 'move', '3')
>>> g.apply("move red+3")
>>> g.positions["red"]
3
>>> m = Game(["Ann", "Bob"], chance="manual")
>>> m.is_chance_node, m.phase
(True, 'deal')
>>> m.apply("deal Ann=red Bob=green"); m.apply("roll 6"); m.apply("move grey+6")
>>> m.positions["grey"], m.active_player, m.phase, m.current_player
(6, 'Bob', 'roll', None)
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from itertools import permutations
from math import perm
from typing import Iterable, Mapping, Sequence

from ....engine.contract import CHANCE
from ....engine.game import MAX_SEED, GameBase
from ....engine.words import count
from ....errors import IllegalAction, NotationError, PositionError, RecordError, WrongPlayer
from .actions import CHANCE_KINDS, FACES, HIDDEN, Action
from .allocations import allocation_table
from .board import (
    BUILDING_VALUES,
    CHURCH_INDEX,
    DOSSIER_MARK,
    FINISH,
    N_BUILDINGS,
    RING_STEPS,
    RUINS_INDEX,
    SAFE_START,
    index_of,
    safe_destinations,
    value_of,
)
from .cards import CARD_CODES, CARDS, HAND_LIMIT, PublicBoard
from .ruleset import Rules

__all__ = ["CHANCE", "MAX_SEED", "PHASES", "START_DECISIONS", "Game", "Position", "move_index"]

#: Decisions a start position may stand at.
START_DECISIONS = ("roll", "points", "move", "safe")
PHASES = ("deal", "roll", "points", "move", "announce", "round", "dossier", "safe", "draw", "take", "collect",
          "over")


@dataclass
class Position:
    """A complete game state to start from ("what if..."), validated by :class:`Game`.

    Buildings are values (church 0, 1..10, ruins -3); agents are colours.
    ``decision`` is the decision the game stands at: ``"roll"`` (the die is
    about to be rolled), ``"points"`` (a ``1-3`` was rolled), ``"move"``
    (``points`` to allocate) or ``"safe"`` (a scoring just happened).
    ``supply_ordered=True`` means the supply is stacked in the given order
    (first element on top) and draws take it from the top without chance.
    """

    positions: dict
    owners: dict
    scores: dict | None = None
    safe: int = SAFE_START
    active: str | None = None
    decision: str = "roll"
    die: str | None = None
    points: int | None = None
    hands: dict | None = None
    supply: list | None = None
    supply_ordered: bool = False
    discards: list | None = None
    dossier_sheets: dict | None = None
    turn: int = 1

    def to_dict(self) -> dict:
        """A JSON-ready dict."""
        return {k: (v if not isinstance(v, tuple) else list(v)) for k, v in self.__dict__.items()}

    @classmethod
    def from_dict(cls, d: Mapping) -> "Position":
        if not isinstance(d, Mapping):
            raise PositionError(f"a position is a mapping of fields, not {type(d).__name__}")
        known = set(cls.__dataclass_fields__)
        extra = set(d) - known
        if extra:
            raise PositionError(f"unknown position field(s): {sorted(extra)}")
        missing = {"positions", "owners"} - set(d)
        if missing:
            raise PositionError(f"missing position field(s): {sorted(missing)}")
        pos = cls(**d)
        pos.check_types()
        return pos

    def check_types(self) -> None:
        """Raise :class:`PositionError` if a field has the wrong type (JSON or hand-built input).

        Whole numbers must be ``int`` (``True`` is not a number here) and flags must be ``bool``.
        """
        def whole(v):
            return type(v) is int

        def strs(v):
            return isinstance(v, list | tuple) and all(isinstance(x, str) for x in v)

        def fail(field, want, v):
            raise PositionError(f"{field} must be {want}, not {v!r}")

        if not isinstance(self.positions, Mapping) or not all(
                isinstance(c, str) and whole(v) for c, v in self.positions.items()):
            fail("positions", "a mapping agent colour -> building value (a whole number)", self.positions)
        if not isinstance(self.owners, Mapping) or not all(
                isinstance(p, str) and (isinstance(c, str) or strs(c)) for p, c in self.owners.items()):
            fail("owners", "a mapping player -> agent colour (or a list of colours)", self.owners)
        if self.scores is not None and (not isinstance(self.scores, Mapping) or not all(
                isinstance(c, str) for c in self.scores)):
            fail("scores", "a mapping agent colour -> score, or None", self.scores)
        if not whole(self.safe):
            fail("safe", "a building value (a whole number)", self.safe)
        if self.active is not None and not isinstance(self.active, str):
            fail("active", "a player name or None", self.active)
        if not isinstance(self.decision, str):
            fail("decision", f"one of {START_DECISIONS}", self.decision)
        if self.die is not None and not isinstance(self.die, str):
            fail("die", f"a die face, one of {FACES}, or None", self.die)
        if self.points is not None and not whole(self.points):
            fail("points", "a whole number or None", self.points)
        if self.hands is not None and (not isinstance(self.hands, Mapping) or not all(
                isinstance(p, str) and strs(h) for p, h in self.hands.items())):
            fail("hands", "a mapping player -> list of card codes, or None", self.hands)
        for field_ in ("supply", "discards"):
            v = getattr(self, field_)
            if v is not None and not strs(v):
                fail(field_, "a list of card codes or None", v)
        if type(self.supply_ordered) is not bool:
            fail("supply_ordered", "true or false", self.supply_ordered)
        if self.dossier_sheets is not None and (not isinstance(self.dossier_sheets, Mapping) or not all(
                isinstance(p, str) and isinstance(sh, Mapping)
                and all(isinstance(c, str) and isinstance(n, str) for c, n in sh.items())
                for p, sh in self.dossier_sheets.items())):
            fail("dossier_sheets", "a mapping player -> {agent colour: player or 'free'}, or None",
                 self.dossier_sheets)
        if not whole(self.turn):
            fail("turn", "a whole number >= 1", self.turn)


class Game(GameBase):
    """One game of Heimlich & Co.

    Parameters: ``players`` (names in seat order; the first begins),
    ``rules`` (a :class:`Rules`), ``seed`` (for every random thing: a whole number
    0 <= seed < 2**128; by default one drawn from the OS, kept in :attr:`seed` so the record
    replays), ``chance`` (``"auto"`` or ``"manual"``), ``start`` (a :class:`Position`).
    A known, small seed lets anyone recompute the deal, every draw and every roll: leave it
    out when a bot must not guess the game (docs/rules.md#seeds).
    """

    TITLE = "Heimlich & Co."
    REPR_NAME = "Game"
    CHANCE_KINDS = CHANCE_KINDS     # Game.Action is set below the class (in it, the name is the action type's)

    def __init__(self, players: Sequence[str], rules: Rules | None = None, seed: int | None = None,
                 chance: str = "auto", start: Position | None = None):
        # players, rules, seed (0 <= seed < 2**128; by default one from the OS, docs/rules.md#seeds), chance
        self._set_up(players, rules, Rules, seed, chance, rules_name="heimlich_lab.Rules")
        players, rules = self.players, self.rules
        self.agents: tuple[str, ...] = rules.agents_for(len(players))
        self._aidx = {c: i for i, c in enumerate(self.agents)}
        self._deck = rules.deck_for(len(players)) if rules.top_secret else {}
        n, A = len(players), len(self.agents)
        # --- state ---
        self._pos = [CHURCH_INDEX] * A
        self._score = [0] * A
        self._safe = index_of(SAFE_START)
        self._owner = [-1] * A              # agent -> player index, -1 free
        self._own: list[list[int]] = [[] for _ in range(n)]   # player -> agents, in order acquired
        self._hands: list[list[str]] = [[] for _ in range(n)]
        self._supply: list[str] = []
        self._supply_ordered = False
        self._discards: list[str] = []
        self._removed: list[str] = []       # cards out of the game (a second-agent card that found no use)
        self._creator: int | None = None    # who moves the safe after this scoring (Rules.safe_mover="creator")
        self._creators: dict[int, tuple[int, int]] = {}    # agent with a trigger -> (when, who) created it
        self._creations = 0
        self._lone = False                  # a lone announcer's round: one card (Rules.lone_announcer)
        self._active = 0
        self._turn = 1
        self._phase = "deal"
        self._die: str | None = None
        self._points: int | None = None
        self._triggers: set[int] = set()
        self._draws: list[int] = []         # pending draws (player indices), handled before anything else
        self._take_for: int | None = None   # player taking a free agent (second-agent card)
        self._offers: list[int] = []        # players who may draw a card and have not said (Rules.draws="may")
        self._announce_order: list[int] = []
        self._wants: list[bool] = [False] * n
        self._round_player = 0
        self._passes = 0
        self._played_now = 0
        self._must_play = False
        self._dossier_done = False
        self._sheets: list[dict[int, int]] = [{} for _ in range(n)]
        self._dossier_queue: list[tuple[int, int]] = []
        self._resume: str | None = None
        self._scored = False
        self._winners: tuple[str, ...] | None = None
        self._final_owner: list[int] | None = None
        self._bonus: dict[str, int] = {}
        self.events: list[tuple] = []                  # (kind, private_to, data): what happened, for views
        # What views hold instead of ``events`` (so that no view holds another player's secret):
        # the events with private fields blanked, and each player's own private events by index.
        self._public_events: list[tuple] = []
        self._own_events: list[dict[int, tuple]] = [{} for _ in range(n)]
        self.recipients: dict[int, str] = {}           # history index -> who received a drawn card / taken agent
        self._seen_by: _Seen | None = None     # a game made up for one viewer (seen_by): what it knows
        # a private copy: changing the caller's Position afterwards must not change this game or its record
        self.start = start = copy.deepcopy(start)
        if start is not None:
            self._load_position(start)
        elif rules.top_secret:
            self._supply = [c for c in CARD_CODES for _ in range(self._deck[c])]
        self._advance()

    # ------------------------------------------------------------------ queries
    @property
    def phase(self) -> str:
        """The kind of decision now: deal, roll, draw, take (chance); points, move, announce, round,
        dossier, safe (players); over."""
        if self._phase == "over":
            return "over"
        if self._draws and self._phase != "deal":
            return "draw"
        if self._take_for is not None:
            return "take"
        if self._offers:
            return "collect"
        return self._phase

    @property
    def die(self) -> str | None:
        """The face rolled this turn (``'1-3'``, ``'2'``..``'6'``), or ``None`` before the roll."""
        return self._die

    @property
    def points(self) -> int | None:
        """Movement points this turn, once known."""
        return self._points

    @property
    def positions(self) -> dict[str, int]:
        """Agent colour -> building value."""
        return {c: value_of(self._pos[i]) for i, c in enumerate(self.agents)}

    @property
    def scores(self) -> dict[str, int]:
        """Agent colour -> scoring marker (after the game: with the dossier points)."""
        return {c: self._score[i] for i, c in enumerate(self.agents)}

    @property
    def top_score(self) -> int:
        """The farthest scoring marker (the dossier mark and the end of the game look at it).

        >>> Game(["Ann", "Bob"], seed=1).top_score
        0
        """
        return max(self._score)

    @property
    def safe(self) -> int:
        """The safe's building value."""
        return value_of(self._safe)

    @property
    def owners(self) -> dict[str, list[str]]:
        """OMNISCIENT: player -> the agent colours that player controls (in the order acquired)."""
        return {p: [self.agents[a] for a in self._own[i]] for i, p in enumerate(self.players)}

    @property
    def free_agents(self) -> list[str]:
        """OMNISCIENT: the agents nobody controls."""
        return [c for i, c in enumerate(self.agents) if self._owner[i] < 0]

    @property
    def final_owners(self) -> dict[str, str | None] | None:
        """After the game: agent -> owner (a two-agent player keeps the farther agent), else ``None``."""
        if self._final_owner is None:
            return None
        return {c: (self.players[o] if o >= 0 else None) for c, o in zip(self.agents, self._final_owner)}

    @property
    def triggers(self) -> list[str]:
        """Agents whose move currently creates a scoring situation (public)."""
        return [self.agents[a] for a in sorted(self._triggers)]

    @property
    def hands(self) -> dict[str, list[str]]:
        """OMNISCIENT: every player's hand."""
        return {p: list(self._hands[i]) for i, p in enumerate(self.players)}

    @property
    def supply_size(self) -> int:
        return len(self._supply)

    @property
    def discards(self) -> list[str]:
        return list(self._discards)

    @property
    def removed(self) -> list[str]:
        """Cards taken out of the game (public): a second-agent card that found no free agent, or whose
        player already held two agents."""
        return list(self._removed)

    @property
    def dossier_sheets(self) -> dict[str, dict[str, str]]:
        """OMNISCIENT: each player's dossier entries so far (agent -> player or 'free')."""
        return {p: {self.agents[a]: (self.players[o] if o >= 0 else "free") for a, o in sorted(self._sheets[i].items())}
                for i, p in enumerate(self.players)}

    @property
    def dossier_bonus(self) -> dict[str, int]:
        """After a Secret Dossier game: points each player's agent gained from the sheet."""
        return dict(self._bonus)

    def _to_act(self):
        ph = self._phase    # read once: this runs several times per action (the engine's hot path)
        if ph == "over":
            return None
        if ph == "roll" or ph == "deal" or self._draws or self._take_for is not None:
            return CHANCE
        if self._offers:
            return self._offers[0]
        if ph == "move" or ph == "points":
            return self._active
        if ph == "safe":
            return self._safe_mover
        if ph == "announce":
            return self._announce_order[0]
        if ph == "round":
            return self._round_player
        if ph == "dossier":
            return self._dossier_queue[0][0]
        raise AssertionError(ph)

    # ------------------------------------------------------------------ legal actions
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: each outcome with its probability.

        >>> g = Game(["Ann", "Bob"], chance="manual"); g.apply("deal Ann=red Bob=grey")
        >>> [(str(a), round(p, 3)) for a, p in g.chance_outcomes()][:2]
        [('roll 1-3', 0.167), ('roll 2', 0.167)]
        """
        if not self.is_chance_node:
            return []
        ph = self.phase
        if ph == "deal":
            n = perm(len(self.agents), len(self.players))
            return [(a, 1.0 / n) for a in self._deal_actions()]
        if ph == "roll":
            return [(Action("roll", (f,)), 1 / 6) for f in FACES]
        if ph == "draw":
            total = len(self._supply)
            counts = {}
            for c in self._supply:
                counts[c] = counts.get(c, 0) + 1
            return [(self._draw_action(c), counts[c] / total) for c in CARD_CODES if c in counts]
        if ph == "take":
            free = self._free_indices()
            return [(Action("take", (self.agents[a],)), 1 / len(free)) for a in free]
        raise AssertionError(ph)

    def _deal_actions(self):
        return tuple(Action("deal", tuple(zip(self.players, cols)))
                     for cols in permutations(self.agents, len(self.players)))

    def _compute_legal(self) -> tuple[Action, ...]:
        ph = self._phase
        if ph == "move" and not self._draws and self._take_for is None and not self._offers:
            return move_actions(self.agents, self._points)
        if ph == "over":
            return ()
        if self.is_chance_node:
            if self.phase == "deal":
                return self._deal_actions()
            return tuple(a for a, _ in self.chance_outcomes())
        if self._offers:
            return _COLLECT
        ph = self._phase
        if ph == "points":
            return _POINTS_TS if self.rules.top_secret else _POINTS_BASIC
        if ph == "move":
            return move_actions(self.agents, self._points)
        if ph == "safe":
            return self._safe_actions()
        if ph == "announce":
            p = self._announce_order[0]
            return (_ANNOUNCE_NO, _ANNOUNCE_YES) if self._playable_cards(p) else (_ANNOUNCE_NO,)
        if ph == "round":
            p = self._round_player
            acts = list(self._playable_cards(p))
            if self._played_now:
                acts.append(_DONE)
            elif not self._must_play:
                acts.append(_PASS)
            return tuple(acts)
        if ph == "dossier":
            p, a = self._dossier_queue[0]
            c = self.agents[a]
            return tuple(Action("dossier", (c, self.players[q])) for q in range(len(self.players)) if q != p) + (
                Action("dossier", (c, "free")),)
        raise AssertionError(ph)

    def _safe_actions(self) -> tuple[Action, ...]:
        return tuple(_SAFE_ACTIONS[b] for b in safe_destinations(self._safe, self._pos, self.rules.safe_destination))

    def _public_board(self) -> PublicBoard:
        """The public facts the cards look at (:mod:`~heimlich_lab.games.heimlich.rules.cards`)."""
        return PublicBoard(self.agents, tuple(self._pos), tuple(self._score), self._safe, tuple(sorted(self._triggers)))

    def _playable_cards(self, p: int) -> tuple[Action, ...]:
        """Every card play (with targets) player p could make now; a card with no legal target is not listed."""
        board = self._public_board()
        return tuple(Action("play", (code, *t)) for code in dict.fromkeys(self._hands[p])
                     for t in CARDS[code].legal_targets(board))

    # ------------------------------------------------------------------ apply (GameBase.apply)
    def _check_form(self, act: Action) -> None:
        _check_form(act)

    def _is_legal(self, act: Action) -> bool:
        ph = self._phase if not (self._draws or self._take_for is not None or self._offers) else self.phase
        if ph == "move":  # thousands of allocations: check the rule directly instead of searching the list
            if act.kind != "move" or not act.args or type(act.args) is not tuple:
                return False
            total = 0
            for pair in act.args:
                if type(pair) is not tuple or len(pair) != 2:
                    return False
                c, n = pair
                # a hand-built Action may carry anything: whole positive steps, agents in play, each once
                if c not in self._aidx or type(n) is not int or n <= 0:
                    return False
                total += n
            return total == self._points and len({c for c, _ in act.args}) == len(act.args)
        if ph == "deal":
            if act.kind != "deal" or len(act.args) != len(self.players) or act.args == (HIDDEN,):
                return False
            if type(act.args) is not tuple or not all(type(x) is tuple and len(x) == 2 for x in act.args):
                return False
            cols = [c for _, c in act.args]
            return ([p for p, _ in act.args] == list(self.players) and len(set(cols)) == len(cols)
                    and all(c in self._aidx for c in cols))
        legal = self.legal_actions()
        try:
            ref = legal[legal.index(act)]
        except ValueError:
            return False
        # == lets True stand for 1 and 0.0 for 0: a hand-built action must have the legal one's exact types
        return ref is act or all(type(x) is type(y) for x, y in zip(act.args, ref.args))

    def _explain_illegal(self, act: Action, actor) -> IllegalAction:
        ph = self.phase
        who = "chance" if actor == CHANCE else self.players[actor]
        expected_kind = {"deal": "deal", "roll": "roll", "draw": "draw", "take": "take", "points": "points",
                         "move": "move", "safe": "safe", "announce": "announce", "dossier": "dossier",
                         "collect": "collect"}.get(ph)
        if ph == "round" and act.kind not in ("play", "pass", "done"):
            return IllegalAction(f"{act}: in a Top Secret round {who} plays a card, passes or is done", rule="phase")
        if expected_kind and act.kind != expected_kind:
            return IllegalAction(f"{act}: the decision now is {ph} by {who}, not {act.kind}", rule="phase")
        if ph == "move":
            bad = [c for c, _ in act.args if c not in self._aidx]
            if bad:
                return IllegalAction(f"{act}: agent(s) {bad} are not in this game", rule="agents-in-play")
            if any(type(n) is not int or n <= 0 for _, n in act.args) or len({c for c, _ in act.args}) != len(act.args):
                return IllegalAction(f"{act.args!r}: an allocation names each agent once with a whole number of "
                                     "steps >= 1 (agents move clockwise only)", rule="turn-allocation")
            total = sum(n for _, n in act.args)
            return IllegalAction(f"{act}: the allocation must use exactly {count(self._points, 'point')}, not {total}",
                                 rule="turn-spend-all-points")
        if ph == "points":
            return IllegalAction(f"{act}: on 1-3 choose 1, 2 or 3 points" +
                                 (" (or 0 to draw a card)" if self.rules.top_secret else
                                  " (0 only in the Top Secret variant)"), rule="die-1-3")
        if ph == "safe":
            b = act.args[0] if act.args else None
            if b not in BUILDING_VALUES:    # only a hand-built Action can get here
                return IllegalAction(f"{act.args!r}: the safe goes to a building (church, 1..10, ruins)",
                                     rule="safe-moves")
            if index_of(b) == self._safe:
                return IllegalAction(f"{act}: the safe must move to a different building", rule="safe-moves")
            return IllegalAction(f"{act}: with safe_destination='unoccupied' the safe goes to a building with no agent",
                                 rule="option-safe-destination")
        if ph == "announce":
            return IllegalAction(f"{act}: {who} has no card that can be played now", rule="card-no-target")
        if ph == "round":
            p = self._round_player
            if act.kind == "pass":
                return IllegalAction(f"{who} said they want to play and acts first: play a card" if self._must_play
                                     else f"{who} has played a card: say 'done' to end the turn in the round",
                                     rule="top-secret-round")
            if act.kind == "done":
                return IllegalAction(f"{who} has not played a card: say 'pass'", rule="top-secret-round")
            if act.card not in self._hands[p]:
                return IllegalAction(f"{act}: {who} has no {act.card} card in hand", rule="card-in-hand")
            if any(isinstance(x, str) and x in ("grey", "yellow", "orange", "red", "green", "blue", "violet")
                   and x not in self._aidx for x in act.args[1:]):
                return IllegalAction(f"{act}: that agent is not in this game", rule="agents-in-play")
            return IllegalAction(f"{act}: this card cannot be carried out with these targets now",
                                 rule="card-no-target")
        if ph == "dossier":
            return IllegalAction(f"{act}: the entry due now is for {self.agents[self._dossier_queue[0][1]]}, "
                                 "naming an opponent or 'free'", rule="dossier-sheet")
        if ph == "deal":
            return IllegalAction(f"{act}: a deal gives every player ({', '.join(self.players)}) a different agent "
                                 f"of {', '.join(self.agents)}, in seat order", rule="setup-deal")
        if ph == "draw":
            return IllegalAction(f"{act}: that card is not in the supply", rule="card-supply")
        if ph == "take":
            return IllegalAction(f"{act}: that agent is not a free agent", rule="second-agent")
        return IllegalAction(f"{act} is not legal now ({ph} by {who})")

    # ------------------------------------------------------------------ transitions
    def _event(self, kind: str, private_to=None, **data):
        raw = (kind, private_to, data)
        if private_to is None:
            self._public_events.append(raw)
        else:
            self._own_events[private_to][len(self.events)] = raw
            self._public_events.append((kind, private_to, hide_private(kind, data)))
        self.events.append(raw)

    def _do(self, act: Action, actor) -> None:
        """Carry out ``act``, already logged (GameBase.apply, _log_chance)."""
        k = act.kind
        if k == "move":
            self._do_move(act)
        elif k == "roll":
            self._do_roll(act.args[0])
        elif k == "deal":
            self._do_deal({p: c for p, c in act.args})
        elif k == "draw":
            self.recipients[len(self.history) - 1] = self.players[self._draws[0]]
            self._do_draw(self._draws.pop(0), act.args[0])
        elif k == "reveal":
            self.recipients[len(self.history) - 1] = self.players[self._draws[0]]
            self._do_reveal(self._draws.pop(0))
        elif k == "take":
            self.recipients[len(self.history) - 1] = self.players[self._take_for]
            self._do_take(self._aidx[act.args[0]])
        elif k == "points":
            self._points = act.args[0]
            self._event("points", None, player=self.players[self._active], points=self._points)
            if self._points == 0:
                self._offer_draw(self._active)
                self._phase = "announce_start"
            else:
                self._phase = "move"
        elif k == "collect":
            p = self._offers.pop(0)
            self._event("collect", None, player=self.players[p], want=act.args[0])
            if act.args[0]:
                self._queue_draw(p)
        elif k == "announce":
            p = self._announce_order.pop(0)
            self._wants[p] = act.args[0]
            self._event("announce", None, player=self.players[p], want=act.args[0])
            if not self._announce_order:
                self._start_round()
        elif k == "play":
            self._do_play(self._round_player, act)
        elif k == "pass":
            self._event("pass", None, player=self.players[self._round_player])
            self._passes += 1
            self._next_in_round()
        elif k == "done":
            self._event("done", None, player=self.players[self._round_player])
            self._next_in_round()
        elif k == "dossier":
            p, a = self._dossier_queue.pop(0)
            name = act.args[1]
            self._sheets[p][a] = -1 if name == "free" else self._pidx[name]
            self._event("dossier", p, player=self.players[p], agent=act.args[0], entry=name)
            if not self._dossier_queue:
                self._event("dossier_done", None)
                self._phase = self._resume
                self._resume = None
        elif k == "safe":
            self._safe = index_of(act.args[0])
            self._triggers.clear()
            self._event("safe", None, player=self.players[self._safe_mover], building=act.args[0])
            self._end_turn()
        else:  # pragma: no cover - parse() admits no other kind
            raise AssertionError(k)

    def _do_deal(self, deal: dict[str, str]):
        for p, c in deal.items():
            i, a = self._pidx[p], self._aidx[c]
            self._owner[a] = i
            self._own[i] = [a]
            self._event("deal", i, player=p, agent=c)
        self._event("dealt", None, free=len(self.agents) - len(self.players))
        self._phase = "roll"
        if self.rules.top_secret:
            for i in range(len(self.players)):
                self._draws += [i, i]

    def _do_roll(self, face: str):
        self._die = face
        self._event("roll", None, player=self.players[self._active], face=face, turn=self._turn)
        if face == "1-3":
            self._phase = "points"
        else:
            self._points = int(face)
            self._phase = "move"

    def _queue_draw(self, p: int):
        self._draws.append(p)

    def _offer_draw(self, p: int):
        """A card ``p`` may draw (0 points, the Ruins): ``p`` decides (``collect``), or draws at once with
        ``Rules(draws="always")`` (docs/rules.md#drawing-cards)."""
        if self.rules.draws == "may":
            self._offers.append(p)
        else:
            self._queue_draw(p)

    def _do_draw(self, p: int, code: str):
        self._supply.remove(code)
        self._hands[p].append(code)
        self._event("draw", p, player=self.players[p], card=code)

    def _draw_action(self, code: str) -> Action:
        """The chance outcome of drawing ``code``: ``draw CODE``, or ``reveal second`` for the second-agent
        card when it acts as it is drawn (``Rules(second_agent="drawn")``)."""
        if code == "second" and self.rules.second_agent == "drawn":
            return _REVEAL_SECOND
        return Action("draw", (code,))

    def _do_reveal(self, p: int):
        """2018: the second-agent card, drawn, is shown and acts at once (docs/rules.md#editions)."""
        self._supply.remove("second")
        self._second_agent(p)
        self._event("reveal", None, player=self.players[p], card="second",
                    second="take" if self._take_for == p else "replace")

    def _second_agent(self, p: int) -> None:
        """The second-agent card's action for player p, the card already out of p's hand: take a free agent
        card (the card goes to the discards), or, with none left or two agents held, the card leaves the game
        and p draws a replacement at once (docs/rules.md#second-agent)."""
        if len(self._own[p]) == 1 and self._free_indices():
            self._discards.append("second")
            self._take_for = p
        else:
            self._removed.append("second")
            self._draws.insert(0, p)

    def _do_take(self, a: int):
        p = self._take_for
        self._take_for = None
        self._owner[a] = p
        self._own[p].append(a)
        self._event("take", p, player=self.players[p], agent=self.agents[a])

    def _do_move(self, act: Action):
        moves = {}
        pos, aidx, safe, trig, V = self._pos, self._aidx, self._safe, self._triggers, BUILDING_VALUES
        for c, n in act.args:
            a = aidx[c]
            frm = pos[a]
            pos[a] = to = RING_STEPS[frm][n]      # n is 1..6: a legal move spends the die's points
            moves[c] = (V[frm], V[to])
            if to == safe:
                trig.add(a)
                self._created(a, self._active)
            else:
                trig.discard(a)
                self._creators.pop(a, None)
        raw = ("move", None, {"player": self.players[self._active], "moves": moves,
                              "triggers": [self.agents[a] for a in sorted(trig)] if trig else []})
        self.events.append(raw)
        self._public_events.append(raw)
        if self.rules.top_secret:
            if any(self._pos[self._aidx[c]] == RUINS_INDEX for c, _ in act.args):
                self._offer_draw(self._active)
            self._phase = "announce_start"
        else:
            self._phase = "score"

    def _do_play(self, p: int, act: Action):
        code, t = act.args[0], act.args[1:]
        self._hands[p].remove(code)
        if code != "second":
            self._discards.append(code)     # the second-agent card: see _second_agent
        board = self._public_board()
        effect = CARDS[code].effect(board, t)
        for a, _, to in effect.moves:
            self._pos[a] = to
        for a, gain in effect.gains:
            self._score[a] += gain
        extra = {}
        if effect.safe is not None:
            self._safe = effect.safe
            extra["safe"] = t[0]
        if effect.gains:
            extra["gains"] = {self.agents[a]: gain for a, gain in effect.gains}
        moved = {a for a, _, _ in effect.moves}
        for a in effect.triggers:
            if a not in self._triggers or a in moved:
                self._created(a, p)     # this card put the agent on the safe: a trigger of p's
        self._creators = {a: c for a, c in self._creators.items() if a in effect.triggers}
        self._triggers.clear()
        self._triggers.update(effect.triggers)
        if effect.second_agent:
            self._second_agent(p)
            extra["second"] = "take" if self._take_for == p else "replace"
        self._event("play", None, player=self.players[p], card=code, targets=list(t),
                    moves=effect.moves_by_colour(board), triggers=[self.agents[a] for a in effect.triggers], **extra)
        self._played_now += 1
        self._must_play = False
        self._passes = 0
        if p == self._active and effect.ends_in_ruins:
            self._offer_draw(p)
        if self._lone:      # the lone announcer's one card ends the round
            self._lone = False
            self._event("round_end", None)
            self._phase = "score"
        if effect.gains:
            self._check_dossier_mark(resume=self._phase)

    def _free_indices(self) -> list[int]:
        return [a for a, o in enumerate(self._owner) if o < 0]

    def _start_round(self):
        n = len(self.players)
        order = [(self._active + k) % n for k in range(n)]
        first = next((p for p in order if self._wants[p]), None)
        if first is None:
            self._event("no_round", None)
            self._phase = "score"
            return
        self._event("round_start", None, player=self.players[first])
        # 2018: a lone announcer plays one card and play goes on (docs/rules.md#editions)
        self._lone = self.rules.lone_announcer == "one_card" and sum(self._wants) == 1
        self._phase = "round"
        self._round_player = first
        self._passes = 0
        self._played_now = 0
        self._must_play = True

    def _next_in_round(self):
        n = len(self.players)
        self._played_now = 0
        self._must_play = False
        p = self._round_player
        while True:
            if self._passes >= n:
                self._event("round_end", None)
                self._phase = "score"
                return
            p = (p + 1) % n
            if self._hands[p]:
                self._round_player = p
                return
            self._passes += 1  # no cards: this player passes without being asked

    def _check_dossier_mark(self, resume: str) -> bool:
        if self.rules.dossier and not self._dossier_done and max(self._score) >= DOSSIER_MARK:
            self._dossier_done = True
            n = len(self.players)
            order = [(self._active + k) % n for k in range(n)]
            self._dossier_queue = [(p, a) for p in order for a in range(len(self.agents)) if a not in self._own[p]]
            self._event("dossier_mark", None)
            self._resume = resume
            self._phase = "dossier"
            return True
        return False

    def _score_now(self):
        gains = {}
        for a, b in enumerate(self._pos):
            v = value_of(b)
            new = max(0, self._score[a] + v)
            gains[self.agents[a]] = new - self._score[a]
            self._score[a] = new
        self._event("score", None, player=self.players[self._active], gains=gains,
                    triggers=[self.agents[a] for a in sorted(self._triggers)])
        standing = [self._creators[a] for a in self._triggers if a in self._creators]
        self._creator = max(standing)[1] if standing else None
        self._creators.clear()
        self._triggers.clear()
        self._scored = True

    def _created(self, a: int, p: int) -> None:
        """Player ``p``'s die move or card put agent ``a`` on the safe: a trigger of theirs."""
        self._creations += 1
        self._creators[a] = (self._creations, p)

    @property
    def _safe_mover(self) -> int:
        """Who moves the safe after a scoring: the active player, or (``Rules.safe_mover="creator"``) the
        player whose move or card last created a trigger still standing when the scoring came (a trigger
        cancelled since, by a card that moved its agent away, counts for nothing)."""
        if self.rules.safe_mover == "creator" and self._creator is not None:
            return self._creator
        return self._active

    def _end_turn(self):
        self._creator = None
        self._creators.clear()
        self._active = (self._active + 1) % len(self.players)
        self._turn += 1
        self._die = None
        self._points = None
        self._scored = False
        self._triggers.clear()
        self._wants = [False] * len(self.players)
        self._phase = "roll"

    def _finish(self):
        n = len(self.players)
        final = list(self._owner)
        for p in range(n):
            if len(self._own[p]) > 1:
                keep = max(self._own[p], key=lambda a: (self._score[a], -self._own[p].index(a)))
                for a in self._own[p]:
                    if a != keep:
                        final[a] = -1
        self._final_owner = final
        if self.rules.dossier and self._dossier_done:
            for p in range(n):
                right = sum(1 for a, o in self._sheets[p].items() if final[a] == o)
                keep = [a for a in self._own[p] if final[a] == p][0]
                self._score[keep] += 5 * right
                self._bonus[self.players[p]] = 5 * right
        best = max(self._score)
        tied = [a for a in range(len(self.agents)) if self._score[a] == best]
        winners = sorted({final[a] for a in tied if final[a] >= 0})
        self._winners = tuple(self.players[p] for p in winners)
        self._phase = "over"
        self._event("over", None, winners=list(self._winners), scores=self.scores,
                    owners={c: (self.players[o] if o >= 0 else None) for c, o in zip(self.agents, final)},
                    farthest=[self.agents[a] for a in tied], bonus=dict(self._bonus),
                    sheets=self.dossier_sheets if self.rules.dossier else None)

    def _advance(self):
        """Run automatic steps (and, with chance='auto', chance events) until a decision is due."""
        self._legal_cache = None
        rng = self._rng
        while True:
            if self._phase == "over":
                return
            # pending card draws come first
            if self._draws and self._phase != "deal":
                p = self._draws[0]
                if len(self._hands[p]) >= HAND_LIMIT:
                    self._draws.pop(0)
                    self._event("no_draw", None, player=self.players[p], reason="hand-limit")
                    continue
                if not self._supply and self._discards:
                    self._supply, self._discards = self._discards, []
                    self._supply_ordered = False
                    self._event("reshuffle", None, cards=len(self._supply))
                if not self._supply:
                    self._draws.pop(0)
                    self._event("no_draw", None, player=self.players[p], reason="no-cards")
                    continue
                if self._supply_ordered:
                    # a stacked supply: the top card, no chance; logged like any draw (who drew is public)
                    self._log_chance(self._draw_action(self._supply[0]))
                    continue
                if self.chance == "manual":
                    return
                self._log_chance(self._draw_action(self._supply[rng.randrange(len(self._supply))]))
                continue
            if self._take_for is not None:
                if self.chance == "manual":
                    return
                free = self._free_indices()
                self._log_chance(Action("take", (self.agents[free[rng.randrange(len(free))]],)))
                continue
            if self._offers:
                p = self._offers[0]
                full = len(self._hands[p]) >= HAND_LIMIT
                if full or not (self._supply or self._discards):   # nothing to decide: as a draw would
                    self._offers.pop(0)
                    self._event("no_draw", None, player=self.players[p], reason="hand-limit" if full else "no-cards")
                    continue
                return
            ph = self._phase
            if ph == "deal":
                if self.chance == "manual":
                    return
                cols = rng.sample(self.agents, len(self.players))
                self._log_chance(Action("deal", tuple(zip(self.players, cols))))
                continue
            if ph == "roll":
                if self.chance == "manual":
                    return
                self._log_chance(_ROLLS[int(rng.random() * 6)])
                continue
            if ph == "announce_start":
                n = len(self.players)
                self._announce_order = [p for p in ((self._active + k) % n for k in range(n)) if self._hands[p]]
                if not self._announce_order:
                    self._event("no_round", None)
                    self._phase = "score"
                else:
                    self._phase = "announce"
                continue
            if ph == "score":
                if self._triggers:
                    self._score_now()
                    if self._check_dossier_mark(resume="after_score"):
                        continue
                    self._phase = "after_score"
                else:
                    self._end_turn()
                continue
            if ph == "after_score":
                if max(self._score) >= FINISH:
                    self._finish()
                    return
                self._phase = "safe"
                continue
            if ph == "round" and not self._hands[self._round_player] and not self._played_now:
                # a player whose hand is empty passes without being asked
                self._passes += 1
                self._next_in_round()
                continue
            return

    def _log_chance(self, act: Action):
        self._log(CHANCE, act)
        self._do(act, CHANCE)

    # ------------------------------------------------------------------ positions
    def position(self) -> Position:
        """OMNISCIENT: the state as a :class:`Position`, at a decision a game may start from.

        >>> g = Game(["Ann", "Bob"], seed=3)
        >>> Game(["Ann", "Bob"], start=g.position()).positions == g.positions
        True
        """
        decision = {"roll": "roll", "points": "points", "move": "move", "safe": "safe"}.get(self.phase)
        if decision is None:
            raise PositionError(f"a position can only be taken at a roll, points, move or safe decision, "
                                f"not at {self.phase}")
        return Position(
            positions=self.positions, owners=self.owners, scores=self.scores, safe=self.safe,
            active=self.active_player, decision=decision, die=self._die, points=self._points,
            hands=self.hands if self.rules.top_secret else None,
            supply=list(self._supply) if self.rules.top_secret else None,
            supply_ordered=self._supply_ordered,
            discards=list(self._discards) if self.rules.top_secret else None,
            dossier_sheets={p: s for p, s in self.dossier_sheets.items()} if self._dossier_done else None,
            turn=self._turn)

    def _load_position(self, s: Position):
        if not isinstance(s, Position):
            raise PositionError(f"start must be a Position, not {type(s).__name__}")
        s.check_types()     # before anything is set: a wrong type must not leave half a position loaded
        A = self.agents
        pos = dict(s.positions)
        if set(pos) != set(A):
            raise PositionError(f"positions must give every agent in play ({', '.join(A)}) and no other; "
                                f"got {sorted(pos)}")
        for c, v in pos.items():
            try:
                self._pos[self._aidx[c]] = index_of(v)
            except NotationError as e:
                raise PositionError(f"{c}: {e}") from None
        scores = dict(s.scores or {c: 0 for c in A})
        if set(scores) != set(A):
            raise PositionError(f"scores must give every agent in play; got {sorted(scores)}")
        for c, v in scores.items():
            if type(v) is not int or v < 0:     # bool is not a score
                raise PositionError(f"score of {c} must be a whole number >= 0, not {v!r}")
            if v >= FINISH:
                raise PositionError(f"score of {c} is {v}: a marker at {FINISH} or more has ended the game")
            self._score[self._aidx[c]] = v
        try:
            self._safe = index_of(s.safe)
        except NotationError as e:
            raise PositionError(f"safe: {e}") from None
        owners = dict(s.owners)
        if set(owners) != set(self.players):
            raise PositionError(f"owners must name every player ({', '.join(self.players)}); got {sorted(owners)}")
        seen = set()
        for p, cols in owners.items():
            cols = [cols] if isinstance(cols, str) else list(cols)
            if not 1 <= len(cols) <= 2:
                raise PositionError(f"{p} must control one agent (two after the second-agent card), not {cols}")
            if len(cols) == 2 and not self.rules.top_secret:
                raise PositionError(f"{p} controls two agents, which needs the Top Secret variant")
            for c in cols:
                if c not in self._aidx:
                    raise PositionError(f"{p}'s agent {c!r} is not in play ({', '.join(A)})")
                if c in seen:
                    raise PositionError(f"agent {c} is given to two players")
                seen.add(c)
            i = self._pidx[p]
            self._own[i] = [self._aidx[c] for c in cols]
            for a in self._own[i]:
                self._owner[a] = i
        if s.active not in (None, *self.players):
            raise PositionError(f"active player {s.active!r} is not a player")
        self._active = self._pidx[s.active] if s.active else 0
        if type(s.turn) is not int or s.turn < 1:
            raise PositionError("turn must be a whole number >= 1")
        self._turn = s.turn
        # cards
        if self.rules.top_secret:
            hands = dict(s.hands or {})
            if set(hands) - set(self.players):
                raise PositionError(f"hands name unknown players: {sorted(set(hands) - set(self.players))}")
            for p in self.players:
                h = list(hands.get(p, []))
                if len(h) > HAND_LIMIT:
                    raise PositionError(f"{p} holds {len(h)} cards; the hand limit is {HAND_LIMIT}")
                self._hands[self._pidx[p]] = h
            self._discards = list(s.discards or [])
            if s.supply is None:
                counts = dict(self._deck)
                for c in [c for h in self._hands for c in h] + self._discards:
                    counts[c] = counts.get(c, 0) - 1
                if any(v < 0 for v in counts.values()):
                    raise PositionError("hands and discards hold more copies of a card than the deck has")
                self._supply = [c for c in CARD_CODES for _ in range(counts[c])]
            else:
                self._supply = list(s.supply)
            self._supply_ordered = s.supply_ordered
            total = {c: 0 for c in CARD_CODES}
            for c in [c for h in self._hands for c in h] + self._discards + self._supply:
                if c not in total:
                    raise PositionError(f"unknown card code {c!r}")
                total[c] += 1
            diff = {c: total[c] - self._deck[c] for c in CARD_CODES if total[c] != self._deck[c]}
            if diff and diff != {"second": diff.get("second", 0)} or diff.get("second", 0) > 0:
                raise PositionError(f"cards are not conserved: hands + supply + discards differ from the deck by "
                                    f"{diff} (only a second-agent card may be missing: out of the game)")
            self._removed = ["second"] * -diff.get("second", 0)     # taken out of the game
        elif s.hands or s.supply or s.discards:
            raise PositionError("hands, supply and discards need the Top Secret variant")
        # dossier: the sheets are written once, when a marker first reaches 29; a marker may have fallen back
        # below 29 since (the Ruins), so sheets may be given at any score, and must be at 29 or more
        if s.dossier_sheets and not self.rules.dossier:
            raise PositionError("dossier sheets belong to the Secret Dossier variant (Rules(dossier=True))")
        if self.rules.dossier and (s.dossier_sheets or max(self._score) >= DOSSIER_MARK):
            if not s.dossier_sheets or set(s.dossier_sheets) != set(self.players):
                raise PositionError(f"a marker is at {DOSSIER_MARK} or more (or sheets are given): give every "
                                    "player's dossier sheet")
            for p, sheet in s.dossier_sheets.items():
                i = self._pidx[p]
                need = {A[a] for a in range(len(A)) if a not in self._own[i]}
                # a second agent taken after the sheet was written has an entry too
                later = {A[self._own[i][1]]} if len(self._own[i]) == 2 else set()
                if set(sheet) != need and set(sheet) != need | later:
                    raise PositionError(f"{p}'s dossier sheet must name exactly the agents {sorted(need)}"
                                        + (f" (and {sorted(later)[0]} if taken after writing)" if later else ""))
                for c, name in sheet.items():
                    if name != "free" and (name not in self._pidx or name == p):
                        raise PositionError(f"{p}'s dossier entry {c}={name}: name an opponent or 'free'")
                    self._sheets[i][self._aidx[c]] = -1 if name == "free" else self._pidx[name]
            self._dossier_done = True
        # decision
        d = s.decision
        if d not in START_DECISIONS:
            raise PositionError(f"decision must be one of {START_DECISIONS}, not {d!r}")
        self._phase = "deal"  # becomes the decision below
        if d == "roll":
            if s.die is not None or s.points is not None:
                raise PositionError("at a 'roll' decision there is no die or points yet")
            self._phase = "roll"
        elif d == "points":
            if s.die != "1-3":
                raise PositionError("a 'points' decision comes after a 1-3 roll: set die='1-3'")
            self._die, self._phase = "1-3", "points"
        elif d == "move":
            if s.die not in FACES:
                raise PositionError(f"a 'move' decision needs the die face rolled, one of {FACES}")
            if s.die == "1-3":
                if s.points not in range(1, 4):
                    raise PositionError("after a 1-3 roll, points must be 1, 2 or 3 at a 'move' decision")
            elif s.points not in (None, int(s.die)):
                raise PositionError(f"die {s.die} gives {s.die} points, not {s.points}")
            self._die = s.die
            self._points = int(s.die) if s.die != "1-3" else s.points
            self._phase = "move"
        elif d == "safe":
            # a scoring came after a roll (and, with a 1-3, chosen points; 0 draws a card in Top Secret)
            if s.die is None:
                if s.points is not None:
                    raise PositionError("at a 'safe' decision without a die face there are no points")
            elif s.die not in FACES:
                raise PositionError(f"die must be one of {FACES} (or None), not {s.die!r}")
            elif s.die == "1-3":
                ok = range(0 if self.rules.top_secret else 1, 4)
                if s.points not in (None, *ok):
                    raise PositionError(f"after a 1-3 roll, points must be one of {list(ok)}, not {s.points}")
            elif s.points not in (None, int(s.die)):
                raise PositionError(f"die {s.die} gives {s.die} points, not {s.points}")
            self._die, self._points = s.die, s.points
            self._phase = "safe"
            self._scored = True
        self.history.clear()
        self.events.clear()
        self._public_events.clear()
        for own in self._own_events:
            own.clear()
        self.recipients.clear()
        self._event("start", None, position=True)

    # ------------------------------------------------------------------ a viewer's game: secrets made up
    @classmethod
    def seen_by(cls, viewer: str | None, players: Sequence[str], rules: Rules | None = None,
                own_agents: Iterable[str] = (), start: Position | None = None, seed: int | None = None) -> "Game":
        """A manual-chance game that ``viewer`` (a player, or ``None`` for a spectator) cannot tell from the real
        one: only the viewer's own secrets are real (``own_agents``: their agent card(s), needed once the deal
        comes; ``start``: the position as the viewer may know it, ``record.as_player(viewer).start``), every
        other secret is made up: drawn from ``seed``, or with ``seed=None`` the first that fits (the agents in
        order, the first card of the supply, a dossier entry "free"; the cheapest, and always the same). Follow
        the history as the viewer saw it with
        :meth:`apply_seen`, which makes up what the viewer did not see (a hidden deal, draw, take or dossier
        entry) and, when a public action needs it, rearranges the made-up secrets among the places the viewer
        cannot see (a card another player plays comes from the cards the viewer has not seen). Every view of
        the viewer's then equals the real game's; :meth:`resample` builds one from a game at once.

        >>> g = Game.seen_by("Bob", ["Ann", "Bob", "Cy"], own_agents=["blue"], seed=1)
        >>> g.apply_seen("deal ?"); g.owners["Bob"], len(g.free_agents)
        (['blue'], 3)
        """
        rules = Rules() if rules is None else rules
        players = tuple(players)
        if viewer is not None and viewer not in players:
            raise WrongPlayer(f"{viewer!r} is not a player of this game ({', '.join(players)})", rule="players")
        own = (own_agents,) if isinstance(own_agents, str) else tuple(own_agents)
        if own and (viewer is None or len(own) > 2 or len(set(own)) != len(own)
                    or not set(own) <= set(rules.agents_for(len(players)))):
            raise PositionError(f"own_agents must be one or two agents in play of a player viewer, not {list(own)}")
        return cls._seen(players, rules, start, seed, _Seen(None if viewer is None else players.index(viewer), own))

    @classmethod
    def _seen(cls, players, rules, start, seed: int | None, seen: _Seen) -> "Game":
        rng = None if seed is None else random.Random(seed)
        viewer, own = (None if seen.viewer is None else players[seen.viewer]), seen.own
        made_up = None if start is None else _invent_start(start, players, rules, viewer, own, rng, seen)
        self = cls(players, rules, seed=0 if seed is None else seed, chance="manual", start=made_up)
        self._seen_by, seen.rng = seen, rng     # manual chance never draws from the game's generator
        return self

    def resample(self, viewer: str | None, seed: int | None = None) -> "Game":
        """A game that ``viewer`` cannot tell from this one, with every secret the viewer does not know drawn
        anew from ``seed`` (OpenSpiel's ``resample_from_infostate``): the other players' agent cards, hands and
        dossier entries, the supply's order, which agents are free. Its history is the one the viewer saw with
        those secrets filled in, made up knowing the whole public history (a card a player will play is one
        they drew), so its record replays to it, and ``resample(...).view(viewer)`` equals ``view(viewer)`` in
        every field and every event of the log. Its chance is manual (``chance_outcomes()`` lists what may come
        next). A finished game is refused (its last event shows every agent's owner).

        >>> g = Game(["Ann", "Bob", "Cy"], seed=4)
        >>> g.apply("move red+5")
        >>> r = g.resample("Bob", seed=7)
        >>> r.view("Bob").log[:] == g.view("Bob").log[:], r.owners["Bob"] == g.owners["Bob"]
        (True, True)
        >>> r.positions == g.positions, r.record.replay().positions == r.positions
        (True, True)
        """
        if viewer is not None and viewer not in self._pidx:
            raise WrongPlayer(f"{viewer!r} is not a player of this game ({', '.join(self.players)})", rule="players")
        if self.is_over:
            raise PositionError("a finished game shows every agent's owner: there is nothing left to resample")
        rec = self.record
        seen = rec.as_player(viewer) if viewer is not None else rec.public()
        own: tuple[str, ...] = ()
        if viewer is not None:
            if self.start is not None:
                c = self.start.owners[viewer]
                own = (c,) if isinstance(c, str) else tuple(c)
            elif self._own[self._pidx[viewer]]:
                own = (self.agents[self._own[self._pidx[viewer]][0]],)    # the dealt card; a take is in the log
        vi = None if viewer is None else self._pidx[viewer]
        plan = _Plan.of(seen.log, self._pidx, vi)
        rng = random.Random(seed)
        for _ in range(64):   # a made-up history that never needed a card moved is coherent: its record replays
            made_up = _Seen(vi, own, plan)
            g = self._seen(self.players, self.rules, seen.start, rng.getrandbits(64), made_up)
            for e in seen.log:
                g.apply_seen(e.action, player=e.actor, to=e.to)
            if not made_up.moved:
                return g
        raise RecordError("could not make up a history that agrees with the public one (the cards played, drawn "
                          "and taken) in 64 tries")

    def apply_seen(self, action: "Action | str", player: str | None = None, to: str | None = None) -> None:
        """Apply one logged action as the viewer of a game made by :meth:`seen_by` saw it (``player`` the actor,
        ``CHANCE`` for chance; ``to`` who received a draw or a take). What the viewer did not see is made up
        (at random from the seed of :meth:`seen_by`, or the first that fits without one): a hidden deal deals
        the other agent cards, ``draw ?`` a card of the supply, ``take ?`` a free agent, ``dossier ?`` an entry. A
        public action that needs a secret gets it: a card another player plays, or the card the viewer draws, is swapped
        in from a place the viewer cannot see; a player who announces a card play gets a card playable now; an agent the
        viewer takes is made free. An action that no rearrangement allows raises
        :class:`~heimlich_lab.errors.RecordError`.

        >>> real = Game(["Ann", "Bob", "Cy"], Rules(top_secret=True), seed=3)
        >>> g = Game.seen_by("Bob", real.players, real.rules, own_agents=real.owners["Bob"], seed=1)
        >>> for e in real.record.as_player("Bob").log:       # the history as Bob saw it
        ...     g.apply_seen(e.action, player=e.actor, to=e.to)
        >>> g.view("Bob").hand == real.view("Bob").hand, g.view("Bob").log[:] == real.view("Bob").log[:]
        (True, True)
        """
        seen = self._seen_by
        if seen is None:
            raise PositionError("apply_seen() follows a game made by Game.seen_by(); this game holds real secrets")
        act = action if type(action) is Action else Action.parse(action)
        k = act.kind
        if k not in CHANCE_KINDS and k != "dossier":    # a player's public decision: most entries
            if k == "play" or (k == "announce" and act.args[0]):
                p = self._pidx.get(player) if player is not None else None
                if p is not None and k == "play":
                    self._seen_give(p, act.args[0], seen.viewer)
                elif p is not None:
                    self._seen_playable(p, seen.viewer)
            self.apply(act, player=player)
            seen.entry += 1
            return
        vi, own = seen.viewer, seen.own
        rng = seen.rng
        if k == "deal":
            if vi is not None and not own:
                raise RecordError(f"the deal needs {self.players[vi]}'s own agent card (own_agents)")
            others = [c for c in self.agents if c not in own[:1]]
            if rng is not None:
                rng.shuffle(others)
            kept = seen.kept_free(self.agents)     # agents the viewer will take stay free (dealt last)
            others.sort(key=lambda c: c in kept)
            cols = [own[0] if p == vi else others.pop(0) for p in range(len(self.players))]
            self.apply(Action("deal", tuple(zip(self.players, cols))), player=CHANCE)
        elif k == "draw":
            if to is not None and self._draws and self.players[self._draws[0]] != to:
                raise RecordError(f"the draw goes to {self.players[self._draws[0]]}, not {to}")
            code = act.args[0]
            if code == HIDDEN:
                drawable = [c for c in self._supply if self._draw_action(c).kind == "draw"]   # never a shown card
                if drawable:
                    code = seen.choose(drawable, self._draws[0] if self._draws else None, self._hands, rng)
                else:
                    code = next((c for q in self._hidden_holders(vi) for c in self._hands[q] if c != "second"),
                                None)
                    if code is None:
                        raise RecordError("a hidden card is drawn, but no unseen card could be drawn now")
            self._seen_to_supply(code, vi)
            self.apply(Action("draw", (code,)), player=CHANCE)
        elif k == "reveal":     # Rules(second_agent="drawn"): the card is shown as it is drawn
            self._seen_to_supply(act.args[0], vi)
            self.apply(act, player=CHANCE)
        elif k == "take":
            colour = act.args[0]
            if colour == HIDDEN:
                kept = seen.kept_free(self.agents)
                free = [a for a in self._free_indices() if self.agents[a] not in kept] or self._free_indices()
                colour = self.agents[_pick(free, rng)] if free else colour
            else:
                self._seen_free(colour, vi)
            self.apply(Action("take", (colour,)), player=CHANCE)
        elif k == "roll":
            self.apply(act, player=CHANCE)
        else:   # a dossier entry: the viewer's own as it was, another's made up
            legal = self.legal_actions()
            if act.args[1] == HIDDEN or act not in legal:
                act = legal[-1] if rng is None else _pick(legal, rng)     # the last entry is "free"
            self.apply(act, player=player)
        seen.entry += 1

    def _hidden_holders(self, vi: int | None, exclude: int | None = None) -> list[int]:
        return [q for q in range(len(self.players)) if q != vi and q != exclude]

    def _seen_give(self, p: int, code: str, vi: int | None) -> None:
        """Make sure player p's (made-up) hand holds ``code``: swap it in from a place the viewer cannot see."""
        hand = self._hands[p]
        if code in hand:
            return
        if p == vi:
            raise RecordError(f"{self.players[p]} plays {code}, which is not in their hand")
        if not hand:
            raise RecordError(f"{self.players[p]} plays {code} with an empty hand")
        give = hand[-1]
        if code in self._supply:
            self._supply[self._supply.index(code)] = give
            hand[-1] = code
        else:
            for q in self._hidden_holders(vi, exclude=p):
                if code in self._hands[q]:
                    self._hands[q][self._hands[q].index(code)] = give
                    hand[-1] = code
                    break
            else:
                raise RecordError(f"{self.players[p]} plays {code}, but no copy of it is unseen")
        self._seen_by.moved += 1
        self._legal_cache = None

    def _seen_to_supply(self, code: str, vi: int | None) -> None:
        """Make sure the supply holds ``code`` (it is about to be drawn): swap it in from a hidden hand."""
        if code in self._supply:
            return
        for q in self._hidden_holders(vi):
            if code in self._hands[q]:
                i = self._hands[q].index(code)
                self._hands[q][i], self._supply[0] = self._supply[0], code
                self._seen_by.moved += 1
                self._legal_cache = None
                return
        raise RecordError(f"the record has {code} drawn, but no copy of it is unseen")

    def _seen_playable(self, p: int, vi: int | None) -> None:
        """Player p announces a card play: make sure their made-up hand holds a card playable now."""
        if self._playable_cards(p):
            return
        pool = list(self._supply) + [c for q in self._hidden_holders(vi, exclude=p) for c in self._hands[q]]
        hand = self._hands[p]
        for code in dict.fromkeys(pool):
            saved = list(hand)
            hand[:] = [code]
            ok = bool(self._playable_cards(p))
            hand[:] = saved
            if ok:
                self._seen_give(p, code, vi)
                return
        raise RecordError(f"{self.players[p]} wants to play a card, but no unseen card could be played now")

    def _seen_free(self, colour: str, vi: int | None) -> None:
        """The viewer takes ``colour``: make sure it is free, swapping it with a free agent of a hidden owner."""
        a = self._aidx[colour]
        q = self._owner[a]
        if q < 0:
            return
        if q == vi:
            raise RecordError(f"the viewer takes {colour}, which they already control")
        free = self._free_indices()
        if not free:
            raise RecordError(f"the viewer takes {colour}, but no agent is free")
        b = free[0]
        self._own[q][self._own[q].index(a)] = b
        self._owner[b], self._owner[a] = q, -1
        self._seen_by.moved += 1
        self._legal_cache = None

    # ------------------------------------------------------------------ views, records, copies (GameBase)
    def _view(self, player: str | None, omniscient: bool = False):
        """The view: the public state, the viewer's own secrets, the log as the viewer saw it (built on every
        bot decision: immutable snapshots only, dicts are made on demand)."""
        i = self._pidx[player] if player is not None else None
        actor = self._to_act()
        hands = self._hands
        over = self._phase == "over"
        n_events = len(self.events)
        if omniscient:   # every event as it happened: "own" is all of them
            log = (self.events, AllEvents(self.events), n_events)
        else:
            log = (self._public_events, self._own_events[i] if i is not None else _NO_EVENTS, n_events)
        return _View.from_fields((
            player, "omniscient" if omniscient else ("spectator" if i is None else "player"), self.players,
            self.agents, self.rules, tuple(self._pos), tuple(self._score), self._safe, self.phase,
            None if (actor is None or actor == CHANCE) else self.players[actor], self.players[self._active],
            self._turn, self._die, self._points, tuple(self._triggers),
            () if i is None else tuple([self.agents[a] for a in self._own[i]]), () if i is None else tuple(hands[i]),
            tuple(map(len, hands)), len(self._supply), tuple(self._discards), tuple(self._removed),
            dict(self._sheets[i]) if i is not None and self._sheets[i] else None, self._dossier_done, over,
            self._winners, self.owners if (omniscient or over) else None, log,
            self.final_owners if over else None))


    @classmethod
    def _record_class(cls) -> type:
        from .records import GameRecord
        return GameRecord


Game.Action = Action

from ....engine.views import AllEvents  # noqa: E402
from .views import View as _View, hide_private  # noqa: E402  (views imports nothing from here at import time)

_NO_EVENTS: dict = {}   # the spectator's own events

class _Plan:
    """What the public history of a game shows ahead of time (for :meth:`Game.resample`): the cards each player
    plays, the cards the viewer draws and the agents the viewer takes, by log entry."""

    __slots__ = ("plays", "draws", "takes")

    def __init__(self, plays: dict[int, list[tuple[int, str]]], draws: list[tuple[int, str]],
                 takes: list[tuple[int, str]]):
        self.plays, self.draws, self.takes = plays, draws, takes

    @classmethod
    def of(cls, log, pidx: Mapping[str, int], vi: int | None) -> "_Plan":
        plays: dict[int, list[tuple[int, str]]] = {}
        draws, takes = [], []
        for i, e in enumerate(log):
            k = e.action.kind
            if k == "play":
                plays.setdefault(pidx[e.actor], []).append((i, e.action.args[0]))
            elif k in ("draw", "reveal") and e.action.args[0] != HIDDEN:
                draws.append((i, e.action.args[0]))
            elif k == "take" and e.action.args[0] != HIDDEN and vi is not None:
                takes.append((i, e.action.args[0]))
        return cls(plays, draws, takes)


class _Seen:
    """What a game made by :meth:`Game.seen_by` knows: its viewer (index, own agent cards), the plan of what
    the public history will show (:meth:`Game.resample`), the log entries followed, the made-up cards moved."""

    __slots__ = ("viewer", "own", "plan", "entry", "moved", "rng")

    def __init__(self, viewer: int | None, own: tuple[str, ...], plan: _Plan | None = None):
        self.viewer, self.own, self.plan, self.entry, self.moved = viewer, own, plan, 0, 0
        self.rng: random.Random | None = None    # None: the first choice that fits, always

    def needs(self, q: int, held: Iterable[str]) -> list[str]:
        """The cards player ``q`` plays from now on that ``held`` (their hand) does not hold, the one played
        soonest first (a card held is taken for the soonest play of its kind)."""
        if self.plan is None:
            return []
        out = [code for i, code in self.plan.plays.get(q, ()) if i >= self.entry]
        for c in held:
            if c in out:
                out.remove(c)
        return out

    def kept_free(self, agents: Sequence[str]) -> set[str]:
        """The agents the viewer takes from now on (nobody else may hold them)."""
        return {c for i, c in self.plan.takes if i >= self.entry} if self.plan is not None else set()

    def choose(self, cards: list[str], q: int | None, hands: list[list[str]], rng: random.Random | None) -> str:
        """A card for player ``q`` to draw among ``cards``: the one they will play soonest, if one is there, else
        one nobody needs (another player's future play, the viewer's future draw), else any, at random."""
        if self.plan is None or q is None:
            return _pick(cards, rng)
        wanted = next((c for c in self.needs(q, hands[q]) if c in cards), None)   # the soonest need first
        if wanted is not None:
            return wanted
        others: set[str] = {c for i, c in self.plan.draws if i >= self.entry}
        for p in self.plan.plays:
            if p != q:
                others.update(self.needs(p, hands[p]))
        spare = [c for c in cards if c not in others]
        return _pick(spare or cards, rng)


def _pick(seq: Sequence, rng: random.Random | None):
    """An element of ``seq``: at random, or the first without a generator."""
    return seq[0] if rng is None else seq[rng.randrange(len(seq))]


def _invent_start(s: Position, players: tuple[str, ...], rules: Rules, viewer: str | None, own: tuple[str, ...],
                  rng: random.Random | None, seen: _Seen) -> Position:
    """A start position as ``viewer`` may know it (other players' agent cards and hands hidden), with what the
    viewer cannot know made up from ``rng`` (:meth:`Game.seen_by`): a player's hand first holds the cards they
    will play, when the plan says."""
    d = s.to_dict()
    agents = rules.agents_for(len(players))
    owners = {}
    kept = seen.kept_free(agents)
    free = [c for c in agents if c not in own]
    if rng is not None:
        rng.shuffle(free)
    free.sort(key=lambda c: c in kept)      # agents the viewer will take stay free: they come last
    for p in players:
        if p == viewer:
            owners[p] = list(own)
        else:
            cols = d["owners"][p]
            cols = [cols] if isinstance(cols, str) else list(cols)
            owners[p] = [free.pop(0) for _ in cols]
    d["owners"] = owners
    if rules.top_secret and d.get("hands") is not None:
        deck = rules.deck_for(len(players))
        pool = [c for c in CARD_CODES for _ in range(deck[c])]
        known = list(d.get("discards") or [])
        if viewer is not None:
            known += list(d["hands"].get(viewer, []))
        for c in known:
            if c != HIDDEN:
                pool.remove(c)
        if rng is not None:
            rng.shuffle(pool)
        hands = {}
        for q, p in enumerate(players):
            h = d["hands"].get(p, [])
            if p == viewer:
                hands[p] = list(h)
                continue
            mine = []
            for c in seen.needs(q, ()):
                if c in pool and len(mine) < len(h):
                    pool.remove(c)
                    mine.append(c)
            hands[p] = mine + [pool.pop(0) for _ in range(len(h) - len(mine))]
        d["hands"] = hands
        d["supply"], d["supply_ordered"] = None, False  # made-up games wait for the logged draws
    if d.get("dossier_sheets") is not None:
        sheets = {}
        for p in players:
            mine = set(owners[p])
            names = [q for q in players if q != p] + ["free"]
            sheets[p] = d["dossier_sheets"].get(p) or {c: ("free" if rng is None else _pick(names, rng))
                                                       for c in agents if c not in mine}
        d["dossier_sheets"] = sheets
    return Position.from_dict(d)


Game.View = _View

def _check_form(act: Action) -> None:
    """Raise :class:`IllegalAction` (rule ``notation``) unless ``act`` is a well-formed Action: its notation
    can be written and reads back to the same arguments (up to the order notation normalises)."""
    try:
        ok = type(act.args) is tuple and isinstance(act.kind, str)
        # right shape, wrong values: the rules explain these better (spend all points, steps >= 1, a building)
        if ok and act.kind == "move" and all(type(x) is tuple and len(x) == 2 and isinstance(x[0], str)
                                             and type(x[1]) is int for x in act.args):
            return
        if ok and act.kind == "safe" and len(act.args) == 1 and type(act.args[0]) is int:
            return
        if ok:
            canon = Action.parse(str(act))
            ok = canon.kind == act.kind and sorted(map(repr, canon.args)) == sorted(map(repr, act.args))
    except Exception:
        ok = False
    if not ok:
        try:
            shown = f"Action({act.kind!r}, {act.args!r})"
        except Exception:  # pragma: no cover - repr of junk failing as well
            shown = "this Action"
        raise IllegalAction(f"{shown} is malformed: its arguments do not fit a {act.kind!r} action "
                            "(see docs/notation.md; Action.parse builds well-formed actions)", rule="notation")


# cached action objects for the hot path
_ROLLS = tuple(Action("roll", (f,)) for f in FACES)
_POINTS_BASIC = tuple(Action("points", (n,)) for n in (1, 2, 3))
_POINTS_TS = (Action("points", (0,)),) + _POINTS_BASIC
_ANNOUNCE_YES = Action("announce", (True,))
_COLLECT = (Action("collect", (False,)), Action("collect", (True,)))
_REVEAL_SECOND = Action("reveal", ("second",))
_ANNOUNCE_NO = Action("announce", (False,))
_PASS = Action("pass")
_DONE = Action("done")
_SAFE_ACTIONS = tuple(Action("safe", (value_of(b),)) for b in range(N_BUILDINGS))
_MOVE_CACHE: dict = {}


def move_actions(agents: tuple[str, ...], points: int) -> tuple[Action, ...]:
    """Every allocation of ``points`` among ``agents`` (the legal moves of a die roll), in the order of the
    precomputed table (cached).

    >>> [str(a) for a in move_actions(("red", "blue"), 2)]
    ['move red+2', 'move red+1 blue+1', 'move blue+2']
    """
    key = (agents, points)
    acts = _MOVE_CACHE.get(key)
    if acts is None:
        table = allocation_table(len(agents), points)
        acts = tuple(Action("move", tuple((agents[a], int(row[a])) for a in range(len(agents)) if row[a]))
                     for row in table)
        _MOVE_CACHE[key] = acts
    return acts


def move_index(agents: tuple[str, ...], points: int) -> dict[Action, int]:
    """Action -> row of :func:`allocation_table` (for vectorized likelihoods)."""
    return {a: i for i, a in enumerate(move_actions(agents, points))}
