"""The Top Secret engine: explicit state, explicit chance, legal actions and apply, on the contract every game
implements (:class:`~heimlich_lab.engine.game.GameBase`). docs/topsecret1985.md gives the rules as implemented.

Seats take the corners clockwise: 2 players NW and SE ("diagonalement opposées"), 3 players NW, NE, SE (the SW
corner is empty), 4 players NW, NE, SE, SW.

>>> g = Game(["Ann", "Bob"], chance="manual")
>>> for a in ["first Bob", "contents A=5 B=3 C=1 D=bomb", "contents A=bomb B=1 C=3 D=5"]:
...     g.apply(a)
>>> for p, cities in (("Bob", "tokyo lima paris cairo"), ("Ann", "rome berlin rio delhi")):
...     for letter, city in zip("ABCD", cities.split()):
...         g.apply(f"place {letter} {city}", player=p)
>>> g.apply("roll 2 1"); g.current_player, g.points
('Bob', 3)
>>> g.apply("step Bob#1 sydney"); g.apply("step Bob#1 singapore"); g.apply("step Bob#1 delhi")
>>> [str(a) for a in g.legal_actions()]
['pick Bob#1 Ann:D', 'end']
>>> g.apply("pick Bob#1 Ann:D"); g.phase, g.active_player      # nothing left to do: the move ends
('roll', 'Ann')
>>> g.carrying["Bob#1"], g.view("Bob").contents, g.view("Ann").contents
('Ann:D', {'A': '5', 'B': '3', 'C': '1', 'D': 'bomb'}, {'A': 'bomb', 'B': '1', 'C': '3', 'D': '5'})
"""
from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ...engine.contract import CHANCE
from ...engine.game import GameBase
from ...engine.views import AllEvents
from ...errors import IllegalAction, PositionError
from .actions import CHANCE_KINDS, Action, agent_id, suitcase_id, suitcase_owner
from .map import LETTERS, OPPOSITE, Map
from .rules import (
    AGENTS,
    CONTENTS,
    DIE_FACES,
    DUEL_CARDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    VALUES,
    TopSecretRules,
    bomb_losses,
)
from .views import NO_EVENTS, View, blanked

__all__ = ["CHANCE", "PHASES", "SEATING", "Game"]

#: The corners of the seats, by player count (clockwise from the top left).
SEATING = {2: ("NW", "SE"), 3: ("NW", "NE", "SE"), 4: ("NW", "NE", "SE", "SW")}
#: The phases and who acts: chance (first, roll), a player setting up (contents, place), the player whose turn it
#: is (move, bomb), the duel's aggressor then defender (attack, defend), the duel's winner (take).
PHASES = ("first", "contents", "place", "roll", "move", "attack", "defend", "take", "bomb", "over")
_PERMUTATIONS: tuple[tuple[str, ...], ...] = ()


def _permutations() -> tuple[tuple[str, ...], ...]:
    global _PERMUTATIONS
    if not _PERMUTATIONS:
        from itertools import permutations
        _PERMUTATIONS = tuple(permutations(CONTENTS))
    return _PERMUTATIONS


def _same_type(x: object, y: object) -> bool:
    if type(x) is not type(y):
        return False
    if isinstance(x, tuple) and isinstance(y, tuple):
        return len(x) == len(y) and all(map(_same_type, x, y))
    return True


class Game(GameBase):
    """One game of Top Secret. ``players`` in seat order (2 to 4), ``seed`` (drawn from the OS when left out, and
    recorded), ``chance`` (``"auto"`` or ``"manual"``), ``rules`` (:class:`TopSecretRules`), ``map`` (a
    :class:`~heimlich_lab.games.topsecret1985.map.Map`; the stand-in by default)."""

    TITLE = "Top Secret"
    REPR_NAME = "Top Secret game"
    CHANCE_KINDS = CHANCE_KINDS

    def __init__(self, players: Sequence[str], seed: int | None = None, chance: str = "auto",
                 rules: TopSecretRules | None = None, map: Map | None = None) -> None:   # noqa: A002 - the API's name
        if map is not None and not isinstance(map, Map):
            raise PositionError(f"map must be a Map (Map.default(), Map.load(path)), not {type(map).__name__}")
        self._set_up(players, rules, TopSecretRules, seed, chance)
        self.map: Map = Map.default() if map is None else map
        n = len(self.players)
        self.corners: tuple[str, ...] = SEATING[n]
        m, r = self.map, self.rules
        self._home: dict[str, str] = {}
        self._agents: list[str] = []
        self._owner: dict[str, int] = {}
        self._loc: dict[str, str | None] = {}
        self._carry: dict[str, str | None] = {}
        self._occ: dict[str, list[str]] = {node: [] for node in m.kind}
        extra_base = None
        if n == 3:
            empty = next(c for c in ("NW", "NE", "SE", "SW") if c not in self.corners)
            extra_base = m.start[empty]
            #: the seat with the edge: its arrival base lies in the empty corner
            self.edge_player: str | None = self.players[self.corners.index(OPPOSITE[empty])]
        else:
            self.edge_player = None
        for i, p in enumerate(self.players):
            home = m.start[self.corners[i]]
            extra = n == 3 and p != self.edge_player and r.three_player_agent != "none"
            count = AGENTS + (1 if extra and r.three_player_agent == "extra" else 0)
            for k in range(1, count + 1):
                a = agent_id(p, k)
                where = extra_base if extra and k == count and extra_base is not None else home
                self._agents.append(a)
                self._owner[a], self._home[a], self._loc[a], self._carry[a] = i, home, where, None
                self._occ[where].append(a)
        self.suitcases: tuple[str, ...] = tuple(suitcase_id(p, L) for p in self.players for L in LETTERS)
        self._suit_at: dict[str, str | None] = dict.fromkeys(self.suitcases)
        self._carrier: dict[str, str | None] = dict.fromkeys(self.suitcases)
        self._delivered_to: dict[str, str | None] = dict.fromkeys(self.suitcases)
        self._contents: list[dict[str, str] | None] = [None] * n
        self._hand: list[list[int]] = [list(DUEL_CARDS) for _ in range(n)]
        self._played: list[list[int]] = [[] for _ in range(n)]
        self._secrets: list[int] = [0] * n
        self._delivered: list[list[tuple[str, str]]] = [[] for _ in range(n)]
        self._events: list[tuple[str, dict[str, Any], frozenset[int] | None]] = []
        self._public_events: list[tuple[str, dict[str, Any], frozenset[int] | None]] = []
        self._own_events: list[dict[int, tuple[str, dict[str, Any], frozenset[int] | None]]] = [{} for _ in range(n)]
        self._setup: list[tuple[str, int]] = []
        self._start_player: int | None = None
        self._phase, self._active, self._turn = "first", 0, 0
        self._dice: tuple[int, int] | None = None
        self._points = 0
        self._bonus: dict[str, int] = {}
        self._moved: set[str] = set()
        self._stopped: set[str] = set()
        self._dropped_here: dict[str, str] = {}
        self._picked_here: set[str] = set()
        self._passing: str | None = None
        self._duel: dict[str, Any] | None = None
        self._take: tuple[str, str] | None = None
        self._to_choose = 0
        self._winners: tuple[str, ...] | None = None
        self._end_reason: str | None = None
        self._legal_values: tuple[tuple[Action, ...], dict[tuple[str, tuple[Any, ...]], Action]] | None = None
        self._advance()

    def _check_player_count(self, n: int) -> None:
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise PositionError(f"Top Secret is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")

    def _check_player_name(self, name: str) -> None:
        if "#" in name or ":" in name:     # check_player_name allows neither; said here for the notation's sake
            raise PositionError(f"{name!r}: a Top Secret player name holds no '#' or ':'")

    # ------------------------------------------------------------------ public state
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def points(self) -> int:
        """The steps of the roll still to move (bonus moves apart: :attr:`bonus`)."""
        return self._points

    @property
    def bonus(self) -> dict[str, int]:
        """Agent -> bonus moves it won this turn and has not used."""
        return {a: b for a, b in self._bonus.items() if b}

    @property
    def dice(self) -> tuple[int, int] | None:
        return self._dice

    @property
    def locations(self) -> dict[str, str | None]:
        """Agent -> its node (``None``: eliminated)."""
        return dict(self._loc)

    @property
    def carrying(self) -> dict[str, str | None]:
        """Agent -> the suitcase it carries."""
        return dict(self._carry)

    @property
    def suitcase_places(self) -> dict[str, str | None]:
        """Suitcase -> the city it lies in (``None``: carried, delivered, or not yet placed)."""
        return dict(self._suit_at)

    @property
    def carriers(self) -> dict[str, str | None]:
        return dict(self._carrier)

    @property
    def delivered(self) -> dict[str, tuple[tuple[str, str], ...]]:
        """Player -> the suitcases they delivered, in order, with their contents (public once delivered)."""
        return {p: tuple(self._delivered[i]) for i, p in enumerate(self.players)}

    @property
    def secrets_home(self) -> dict[str, int]:
        """Player -> the secrets they brought home."""
        return dict(zip(self.players, self._secrets))

    @property
    def scores(self) -> dict[str, int]:
        return self.secrets_home

    @property
    def contents(self) -> dict[str, dict[str, str]]:
        """SECRET: player -> letter -> content, for the players who have hidden their cards. Not for bots."""
        return {p: dict(c) for p, c in zip(self.players, self._contents) if c is not None}

    @property
    def hands(self) -> dict[str, tuple[int, ...]]:
        """Player -> the duel cards they still hold (public: every played card is shown)."""
        return {p: tuple(sorted(h)) for p, h in zip(self.players, self._hand)}

    @property
    def played_cards(self) -> dict[str, tuple[int, ...]]:
        """Player -> the duel cards they played since their cards last came back, in order."""
        return {p: tuple(h) for p, h in zip(self.players, self._played)}

    @property
    def end_reason(self) -> str | None:
        """How the game ended: ``target``, ``out-of-reach``, ``no-agents`` or ``max-rounds``."""
        return self._end_reason

    @property
    def start_player(self) -> str | None:
        return None if self._start_player is None else self.players[self._start_player]

    @property
    def duel(self) -> dict[str, Any] | None:
        """The duel being fought (public parts): ``attacker``, ``defender``, ``city``, ``waiting`` (defenders after
        this one), ``chosen`` (whether the aggressor's card lies face down)."""
        d = self._duel
        if d is None:
            return None
        return {"attacker": d["att"], "defender": d["def"], "city": d["city"], "waiting": tuple(d["queue"]),
                "chosen": d["card"] is not None}

    @property
    def events(self) -> list[tuple[str, dict[str, Any], frozenset[int] | None]]:
        """SECRET: the raw events (kind, data, seers). Not for bots."""
        return self._events

    def alive(self, player: str) -> tuple[str, ...]:
        """The agents of ``player`` still in play."""
        i = self._pidx[player]
        return tuple(a for a in self._agents if self._owner[a] == i and self._loc[a] is not None)

    # ------------------------------------------------------------------ who acts
    def _to_act(self) -> Any:
        ph = self._phase
        if ph == "over":
            return None
        if ph in ("first", "roll"):
            return CHANCE
        if ph in ("contents", "place"):
            return self._setup[0][1]
        if ph in ("move", "bomb"):
            return self._active
        d = self._duel
        if ph == "attack" and d is not None:
            return self._owner[d["att"]]
        if ph == "defend" and d is not None:
            return self._owner[d["def"]]
        if ph == "take" and self._take is not None:
            return self._owner[self._take[0]]
        raise AssertionError(ph)   # pragma: no cover

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, each outcome with its probability: the start player (each alike), the dice (each die
        blank 1/6, 1 2/6, 2 2/6, 3 1/6)."""
        if self._phase == "first":
            return [(Action("first", (p,)), 1 / len(self.players)) for p in self.players]
        if self._phase == "roll":
            faces = sorted(set(DIE_FACES))
            pr = {f: DIE_FACES.count(f) / len(DIE_FACES) for f in faces}
            return [(Action("roll", (a, b)), pr[a] * pr[b]) for a in faces for b in faces]
        return []

    def _draw_chance(self) -> Action:
        if self._phase == "first":
            return Action("first", (self.players[self._rng.randrange(len(self.players))],))
        return Action("roll", (DIE_FACES[self._rng.randrange(6)], DIE_FACES[self._rng.randrange(6)]))

    def _advance(self) -> None:
        """Chance (in auto mode) and the automatic end of a move that has nothing left to do."""
        while True:
            if self.chance == "auto" and self._phase in ("first", "roll"):
                act = self._draw_chance()
                self._log(CHANCE, act)
                self._do(act, CHANCE)
            elif self._phase == "move" and self._only_end():
                self._end_turn()
                self._legal_cache = None
            else:
                return

    def _only_end(self) -> bool:
        legal = self._legal_now()
        return len(legal) == 1 and legal[0].kind == "end"

    # ------------------------------------------------------------------ legal actions
    def _compute_legal(self) -> tuple[Action, ...]:
        legal = self._legal_now()
        self._legal_values = (legal, {(a.kind, a.args): a for a in legal})
        return legal

    def _is_legal(self, act: Action) -> bool:
        """Checked by value, against the legal actions' arguments as computed (a bot that changed a handed-out
        action in place changes nothing), with their exact types (``True`` is not the card 1)."""
        legal = self.legal_actions()
        snap = self._legal_values
        if snap is None or snap[0] is not legal:
            self._legal_cache = None
            self.legal_actions()
            snap = self._legal_values
        assert snap is not None
        try:
            ref = snap[1].get((act.kind, act.args))
        except TypeError:
            return False
        return ref is not None and type(act.args) is tuple and _same_type(act.args, ref.args)

    def _legal_now(self) -> tuple[Action, ...]:
        ph = self._phase
        if ph == "over":
            return ()
        if ph in ("first", "roll"):
            return tuple(a for a, _ in self.chance_outcomes())
        if ph == "contents":
            return tuple(Action("contents", tuple(zip(LETTERS, perm))) for perm in _permutations())
        if ph == "place":
            i = self._setup[0][1]
            p = self.players[i]
            letter = next(L for L in LETTERS if self._suit_at[suitcase_id(p, L)] is None)
            taken = {self._suit_at[suitcase_id(p, L)] for L in LETTERS}
            return tuple(Action("place", (letter, c)) for c in self.map.cities if c not in taken)
        if ph in ("attack", "defend"):
            return tuple(Action("card", (c,)) for c in sorted(set(self._hand[self._to_act()])))
        if ph == "take":
            return (Action("take"), Action("leave"))
        if ph == "bomb":
            return tuple(Action("eliminate", (a,)) for a in self._canonical(self.alive(self.players[self._active])))
        return self._move_actions()

    def _canonical(self, agents: Sequence[str]) -> list[str]:
        """The agents, with only the first of those waiting in one base (agents in a base are alike)."""
        seen: set[str] = set()
        out = []
        for a in agents:
            loc = self._loc[a]
            if loc is None:
                continue
            if self.map.kind[loc] != "city":
                if loc in seen:
                    continue
                seen.add(loc)
            out.append(a)
        return out

    def _move_actions(self) -> tuple[Action, ...]:
        p = self.players[self._active]
        agents = self._canonical(self.alive(p))
        acts: list[Action] = []
        steppers = [self._passing] if self._passing is not None else [a for a in agents if a not in self._stopped]
        for a in steppers:
            x = self._loc[a]
            assert x is not None
            for z in self.map.neighbours[x]:
                if self._step_problem(a, z) is None:
                    acts.append(Action("step", (a, z)))
        can_step = bool(acts)
        for a in agents:
            if a not in self._moved or (self._passing is not None and a != self._passing):
                continue
            if a == self._passing and self.rules.pickup == "stop":
                continue        # it must move on: picking up or dropping would end its move in a full city
            x = self._loc[a]
            if x is None or self.map.kind[x] != "city":
                continue
            if self._carry[a] is not None and a not in self._dropped_here and a not in self._picked_here:
                acts.append(Action("drop", (a,)))
            if self._carry[a] is None and a not in self._picked_here:
                for s in self.suitcases:
                    if self._suit_at[s] == x and self._dropped_here.get(a) != s:
                        acts.append(Action("pick", (a, s)))
        if self._passing is None and (not self.rules.must_use_roll or not can_step):
            acts.append(Action("end"))
        return tuple(acts)

    def _own_at(self, node: str, i: int, leaving: str | None = None) -> int:
        return sum(1 for b in self._occ[node] if self._owner[b] == i and b != leaving)

    def _enemies_at(self, node: str, i: int) -> list[str]:
        return [b for b in self._occ[node] if self._owner[b] != i]

    def _first_three_ok(self, i: int, suitcase: str) -> bool:
        if not self.rules.first_three or suitcase_owner(suitcase) != self.players[i]:
            return True
        done = self._delivered[i]
        return not (len(done) == 2 and all(suitcase_owner(s) == self.players[i] for s, _ in done))

    def _step_problem(self, a: str, z: str) -> tuple[str, str] | None:
        """Why agent ``a`` may not step to ``z`` now: ``(rule, words)``, or ``None`` when it may."""
        i, m = self._owner[a], self.map
        x, w = self._loc[a], m.words      # the places in prose: their names ("the start base SE", "Auckland")
        if x is None or z not in m.neighbours[x]:
            return "lines", f"{w[z]} is not joined to {w[x] if x is not None else 'nowhere'} by a line"
        if self._passing is not None and a != self._passing:
            return ("agents-per-city", f"{self._passing} must first leave {w[self._loc[self._passing] or '']}, "
                    "which holds three agents of its colour")
        if a in self._stopped:
            return "pickup", f"{a} picked up or dropped a suitcase, which ends its move (pickup='stop')"
        general, extra = self._points, self._bonus.get(a, 0)
        if general + extra < 1:
            return "move-points", f"no step is left to move {a}"
        kind = m.kind[z]
        if kind == "start":
            return "bases", f"{w[z]} is a start base: agents only leave start bases"
        if kind == "arrival":
            if z != m.arrival[self.corners[i]]:
                return "bases", f"{w[z]} is another player's arrival base"
            if self._carry[a] is None:
                return "bases", f"{a} carries no suitcase to bring home"
            if not self._first_three_ok(i, self._carry[a] or ""):
                return ("first-three", "one of the first three suitcases a player brings home must be an "
                        "opponent's")
            return None
        enemies = bool(self._enemies_at(z, i))
        if enemies and not self.rules.bonus_may_duel and general < 1:
            return "bonus-duel", "a bonus move may not enter a city holding enemies (bonus_may_duel=False)"
        if not enemies and self._own_at(z, i) >= 2:
            after_general = general if extra else general - 1
            after = after_general + max(extra - 1, 0)
            if after < 1 or not self._can_leave(a, z, after_general, after):
                return ("agents-per-city", f"{w[z]} holds two of {self.players[i]}'s agents already, and {a} "
                        "could not move on this turn (at the end of a turn no city holds more than 2 agents of a "
                        "colour)")
        return None

    def _can_leave(self, a: str, z: str, general: int, total: int) -> bool:
        """Whether ``a``, arriving in the full city ``z`` with ``total`` steps left (``general`` of them the
        roll's), could step on to a city where it breaks no limit."""
        i, m = self._owner[a], self.map
        for w in m.neighbours[z]:
            k = m.kind[w]
            if k == "arrival":
                if w == m.arrival[self.corners[i]] and self._carry[a] is not None \
                        and self._first_three_ok(i, self._carry[a] or ""):
                    return True
            elif k == "city":
                if self._enemies_at(w, i):
                    if self.rules.bonus_may_duel or general >= 1:
                        return True
                elif self._own_at(w, i, leaving=a) <= 1:
                    return True
        return False

    # ------------------------------------------------------------------ errors
    def _check_form(self, act: Action) -> None:
        try:
            canon = Action.parse(str(act))
            ok = type(act.args) is tuple and canon.kind == act.kind and canon.args == act.args and _same_type(
                canon.args, act.args)
        except Exception:
            ok = False
        if not ok:
            try:
                shown = f"Action({act.kind!r}, {act.args!r})"[:200]
            except Exception:  # pragma: no cover
                shown = "this Action"
            raise IllegalAction(f"{shown} is malformed: its arguments do not fit a {str(act.kind)[:40]!r} action "
                                "(see docs/topsecret1985.md; Action.parse builds well-formed actions)", rule="notation")

    def _explain_illegal(self, act: Action, actor: Any) -> IllegalAction:
        """The rule ``act`` breaks, in words that hold nothing the actor may not know (never the other duel card,
        never another player's contents)."""
        ph = self._phase
        who = CHANCE if actor == CHANCE else self.players[actor]
        legal = self._legal_now()
        hint = ", ".join(map(str, legal[:8])) + (", ..." if len(legal) > 8 else "")
        if act.kind not in {a.kind for a in legal}:
            return IllegalAction(f"{act}: it is {who}'s {ph} decision now; legal actions are like {hint}",
                                 rule=ph if ph in PHASES else "legal-actions")
        if act.kind == "step":
            a, z = act.args
            if a not in self._owner or self._owner[a] != actor or self._loc[a] is None:
                return IllegalAction(f"{act}: {a} is not an agent of {who} in play", rule="agents")
            if a not in self._canonical(self.alive(who)):
                return IllegalAction(f"{act}: agents leave a base in order; move {self._first_in(a)} instead",
                                     rule="bases")
            if z not in self.map.kind:
                return IllegalAction(f"{act}: {z!r} is no place of the map", rule="lines")
            why = self._step_problem(a, z)
            if why is not None:
                return IllegalAction(f"{act}: {why[1]}", rule=why[0])
        if act.kind == "card":
            return IllegalAction(f"{act}: {who} holds {', '.join(map(str, sorted(self._hand[actor])))}",
                                 rule="duel-cards")
        if act.kind == "place":
            return IllegalAction(f"{act}: suitcases go in cities, in the order A-D, never two of one colour in one "
                                 f"city at the start; legal: {hint}", rule="setup")
        if act.kind in ("pick", "drop"):
            return IllegalAction(f"{act}: an agent that entered a city this turn may drop the suitcase it carries "
                                 "and then pick up one lying there (at most one at a time); legal: " + hint,
                                 rule="pickup")
        if act.kind == "end":
            return IllegalAction(f"{act}: {who} must move the whole roll while a step is possible "
                                 "(must_use_roll), and no agent may stay a third of its colour in a city",
                                 rule="move-points")
        return IllegalAction(f"{act} is not legal now ({ph} by {who}); legal: {hint}",
                             rule={"bomb": "bomb"}.get(ph, "legal-actions"))

    def _first_in(self, a: str) -> str:
        loc = self._loc[a]
        return next(b for b in self._agents if self._loc[b] == loc and self._owner[b] == self._owner[a])

    # ------------------------------------------------------------------ events
    def _event(self, kind: str, seers: frozenset[int] | None = None, **data: Any) -> None:
        raw = (kind, data, seers)
        if seers is None:
            self._public_events.append(raw)
        else:
            k = len(self._events)
            for p in seers:
                self._own_events[p][k] = raw
            self._public_events.append((kind, blanked(kind, data), seers))
        self._events.append(raw)

    # ------------------------------------------------------------------ transitions
    def _do(self, act: Action, actor: Any) -> None:
        k, a = act.kind, act.args
        if k == "first":
            i = self._pidx[a[0]]
            self._start_player = self._active = i
            order = [(i + j) % len(self.players) for j in range(len(self.players))]
            self._setup = [("contents", j) for j in order] + [("place", j) for j in order for _ in LETTERS]
            self._event("first", player=a[0], corners=dict(zip(self.players, self.corners)))
            self._next_setup()
        elif k == "contents":
            i = actor
            self._contents[i] = dict(a)
            self._event("contents", frozenset((i,)), player=self.players[i], contents=dict(a))
            self._next_setup()
        elif k == "place":
            i = actor
            s = suitcase_id(self.players[i], a[0])
            self._suit_at[s] = a[1]
            self._event("place", player=self.players[i], suitcase=s, city=a[1])
            self._next_setup()
        elif k == "roll":
            self._dice = (a[0], a[1])
            self._points = a[0] + a[1]
            self._event("roll", player=self.players[self._active], dice=[a[0], a[1]], points=self._points)
            self._phase = "move"
        elif k == "step":
            self._step(a[0], a[1])
        elif k == "pick":
            ag, s = a
            x = self._loc[ag]
            self._suit_at[s], self._carrier[s], self._carry[ag] = None, ag, s
            self._picked_here.add(ag)
            if self.rules.pickup == "stop":
                self._stopped.add(ag)
            self._event("pick", player=self.players[actor], agent=ag, suitcase=s, city=x)
        elif k == "drop":
            ag = a[0]
            held = self._carry[ag]
            assert held is not None
            s, x = held, self._loc[ag]
            self._suit_at[s], self._carrier[s], self._carry[ag] = x, None, None
            self._dropped_here[ag] = s
            if self.rules.pickup == "stop":
                self._stopped.add(ag)
            self._event("drop", player=self.players[actor], agent=ag, suitcase=s, city=x, cause="move")
        elif k == "end":
            self._end_turn()
        elif k == "card":
            self._card(actor, a[0])
        elif k in ("take", "leave"):
            self._take_or_leave(k == "take")
        elif k == "eliminate":
            self._eliminate(a[0], "bomb")
            self._to_choose -= 1
            if self._to_choose <= 0:
                self._phase = "move"
                self._after_move_change()
        else:  # pragma: no cover
            raise AssertionError(k)

    def _next_setup(self) -> None:
        if self._setup and self._phase != "first":
            self._setup.pop(0)
        if self._setup:
            self._phase = self._setup[0][0]
            return
        self._active = self._start_player or 0
        self._start_turn()

    def _move_agent(self, a: str, to: str | None) -> None:
        loc = self._loc[a]
        if loc is not None:
            self._occ[loc].remove(a)
        self._loc[a] = to
        if to is not None:
            self._occ[to].append(a)

    def _step(self, a: str, z: str) -> None:
        i = self._owner[a]
        x = self._loc[a]
        enemies = self._enemies_at(z, i) if self.map.kind[z] == "city" else []
        extra = self._bonus.get(a, 0)
        if extra and not (enemies and not self.rules.bonus_may_duel):
            self._bonus[a] = extra - 1
            paid = "bonus"
        else:
            self._points -= 1
            paid = "roll"
        self._move_agent(a, z)
        self._dropped_here.pop(a, None)
        self._picked_here.discard(a)
        self._moved.add(a)
        self._event("step", player=self.players[i], agent=a, source=x, city=z, paid=paid)
        if self.map.kind[z] == "arrival":
            self._passing = None
            self._deliver(a)
            return
        self._passing = a if self._own_at(z, i) >= 3 else None
        if enemies:
            order = sorted(enemies, key=lambda b: (self._owner[b], int(b.rpartition("#")[2])))
            self._duel = {"att": a, "def": order[0], "queue": order[1:], "city": z, "card": None}
            self._event("duel", player=self.players[i], attacker=a, defender=order[0], city=z)
            self._phase = "attack"

    def _card(self, actor: int, card: int) -> None:
        d = self._duel
        assert d is not None
        if self._phase == "attack":
            d["card"] = card
            self._event("card", frozenset((actor,)), player=self.players[actor], agent=d["att"], card=card,
                        role="attacker")
            self._phase = "defend"
            return
        self._event("card", frozenset((actor,)), player=self.players[actor], agent=d["def"], card=card,
                    role="defender")
        att, dfn, ca, cd = d["att"], d["def"], d["card"], card
        ia, idf = self._owner[att], self._owner[dfn]
        for i, c in ((ia, ca), (idf, cd)):
            self._hand[i].remove(c)
            self._played[i].append(c)
        won = ca >= cd            # "si c'est le même sur les 2 cartes, gagne l'agresseur"
        winner, loser, lost_with = (att, dfn, cd) if won else (dfn, att, ca)
        self._event("fight", player=self.players[ia], attacker=att, defender=dfn, attacker_card=ca,
                    defender_card=cd, winner=winner, loser=loser, city=d["city"],
                    loser_fate="home" if lost_with == 0 else "eliminated")
        for i in (ia, idf):
            if not self._hand[i]:        # "jusqu'à ce que toutes 7 n'aient été jouées - après quoi elles sont reprises"
                self._hand[i], self._played[i] = list(DUEL_CARDS), []
                self._event("cards-back", player=self.players[i])
        dropped = self._carry[loser]
        if dropped is not None:
            self._carry[loser], self._carrier[dropped], self._suit_at[dropped] = None, None, d["city"]
            self._event("drop", player=self.players[self._owner[loser]], agent=loser, suitcase=dropped,
                        city=d["city"], cause="duel")
        if lost_with == 0:
            self._move_agent(loser, self._home[loser])
            self._event("home", player=self.players[self._owner[loser]], agent=loser, cause="duel")
        else:
            self._eliminate(loser, "duel")
        d["won"] = won
        d["card"] = None
        if dropped is not None and self._carry[winner] is None:
            self._take = (winner, dropped)
            self._phase = "take"
            return
        self._after_duel()

    def _take_or_leave(self, take: bool) -> None:
        assert self._take is not None
        winner, s = self._take
        self._take = None
        if take:
            self._suit_at[s], self._carrier[s], self._carry[winner] = None, winner, s
            if self._duel is not None and winner == self._duel["att"]:
                self._picked_here.add(winner)
        self._event("take" if take else "leave", player=self.players[self._owner[winner]], agent=winner,
                    suitcase=s)
        self._after_duel()

    def _after_duel(self) -> None:
        d = self._duel
        assert d is not None
        if not d["won"]:
            self._duel = None
            self._end_turn()       # "si vous perdez le combat, votre tour est terminé"
            return
        att = d["att"]
        self._bonus[att] = self._bonus.get(att, 0) + 1      # "il bénéficie d'un coup-bonus"
        if d["queue"]:
            nxt = d["queue"].pop(0)
            d["def"] = nxt
            self._event("duel", player=self.players[self._owner[att]], attacker=att, defender=nxt, city=d["city"])
            self._phase = "attack"
            return
        self._duel = None
        self._phase = "move"
        self._after_move_change()

    def _after_move_change(self) -> None:
        i = self._active
        if not self.alive(self.players[i]):
            self._end_turn()

    def _eliminate(self, a: str, cause: str) -> None:
        s = self._carry[a]
        x = self._loc[a]
        if s is not None:
            self._carry[a], self._carrier[s], self._suit_at[s] = None, None, x
            self._event("drop", player=self.players[self._owner[a]], agent=a, suitcase=s, city=x, cause=cause)
        self._move_agent(a, None)
        self._bonus.pop(a, None)
        if self._passing == a:
            self._passing = None
        self._event("eliminated", player=self.players[self._owner[a]], agent=a, cause=cause)

    def _deliver(self, a: str) -> None:
        i = self._owner[a]
        p = self.players[i]
        s = self._carry[a]
        assert s is not None
        owner = self._pidx[suitcase_owner(s)]
        contents = self._contents[owner]
        assert contents is not None
        content = contents[s.rpartition(":")[2]]
        self._carry[a], self._carrier[s], self._delivered_to[s] = None, None, p
        self._delivered[i].append((s, content))
        self._secrets[i] += VALUES[content]
        self._event("deliver", player=p, agent=a, suitcase=s, content=content, secrets=self._secrets[i])
        if content != "bomb":
            self._move_agent(a, self._home[a])       # "l'agent qui l'a portée est replacé dans votre base de départ"
            self._event("home", player=p, agent=a, cause="delivery")
            if self._secrets[i] >= self.rules.target:
                self._finish((p,), "target")
            return
        lost, choose = bomb_losses(len(self.alive(p)), self.rules.bomb_courier)
        if lost:
            self._eliminate(a, "bomb")
        else:
            self._move_agent(a, self._home[a])
            self._event("home", player=p, agent=a, cause="delivery")
        choose = min(choose, len(self.alive(p)))
        self._event("bomb", player=p, lost=lost + choose, choose=choose)
        if choose:
            self._to_choose = choose
            self._phase = "bomb"
        else:
            self._after_move_change()

    def _start_turn(self) -> None:
        n = len(self.players)
        for _ in range(n):
            if self._turn >= self.rules.max_rounds * n:
                self._finish(None, "max-rounds")
                return
            self._turn += 1
            if self.alive(self.players[self._active]):
                break
            self._event("skip", player=self.players[self._active], turn=self._turn)
            self._active = (self._active + 1) % n
        else:   # pragma: no cover - _end_turn ends the game first
            self._finish(None, "no-agents")
            return
        self._event("turn", player=self.players[self._active], turn=self._turn)
        self._phase = "roll"

    def _end_turn(self) -> None:
        if self._phase == "over":
            return
        self._event("end", player=self.players[self._active], points_left=self._points)
        self._points, self._dice, self._duel, self._take, self._passing = 0, None, None, None, None
        self._bonus, self._moved, self._stopped, self._dropped_here, self._picked_here = {}, set(), set(), {}, set()
        reason = self._out_of_reach()
        if reason is not None:
            self._finish(None, reason)
            return
        self._active = (self._active + 1) % len(self.players)
        self._start_turn()

    def _out_of_reach(self) -> str | None:
        """The bounded end, on public facts only: nobody has an agent, or no player with an agent could reach the
        target even with every secret still out (9 per player, less those delivered)."""
        alive = [i for i, p in enumerate(self.players) if self.alive(p)]
        if not alive:
            return "no-agents"
        out = 9 * len(self.players) - sum(self._secrets)
        if all(self._secrets[i] + out < self.rules.target for i in alive):
            return "out-of-reach"
        return None

    def _finish(self, winners: tuple[str, ...] | None, reason: str) -> None:
        if winners is None:
            best = max(self._secrets)
            winners = () if best == 0 else tuple(p for i, p in enumerate(self.players) if self._secrets[i] == best)
        self._winners, self._end_reason, self._phase = winners, reason, "over"
        self._duel = self._take = None
        self._event("over", winners=list(winners), reason=reason, secrets=self.secrets_home)

    # ------------------------------------------------------------------ views, records (GameBase)
    def _view(self, player: str | None, omniscient: bool = False) -> View:
        i = None if player is None else self._pidx[player]
        n = len(self._events)
        if omniscient:
            log: tuple[Any, ...] = (self._events, AllEvents(self._events), n)
        else:
            log = (self._public_events, NO_EVENTS if i is None else MappingProxyType(self._own_events[i]), n)
        d = self._duel
        first_card = None
        if d is not None and d["card"] is not None and (omniscient or self._owner[d["att"]] == i):
            first_card = d["card"]
        if omniscient:
            contents: Any = self.contents
        elif i is not None and self._contents[i] is not None:
            contents = dict(self._contents[i] or {})
        else:
            contents = None
        return View.build(self, player, "omniscient" if omniscient else ("spectator" if i is None else "player"),
                          contents, first_card, log)

    @classmethod
    def _record_class(cls) -> type:
        from .records import TopSecretRecord
        return TopSecretRecord


Game.Action = Action
Game.View = View
