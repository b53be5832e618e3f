"""The Secrets engine: explicit state, explicit chance, legal actions and apply (the contract every game
implements, :class:`~heimlich_lab.engine.contract.GameProtocol`; the shared parts are
:class:`~heimlich_lab.engine.game.GameBase`'s).

Seats are the players in the order given; the first begins and the deck passes to the left, which is the
next seat (docs/secrets.md). The markers lie on the seats and in the ``"middle"``.

>>> g = Game(["Ann", "Bob", "Cy", "Dee"], seed=3)
>>> g.current_player, g.phase, len(g.candidates)
('Ann', 'offer', 2)
>>> g.apply(g.legal_actions()[0]); g.phase
'answer'
>>> m = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> m.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
>>> m.apply("reveal journalist"); m.apply("reveal journalist"); m.apply("reveal detective")
>>> m.candidates, [str(a) for a in m.legal_actions()][:2]
(('journalist', 'detective'), ['offer journalist Bob', 'offer journalist Cy'])
>>> m.apply("offer journalist Bob"); m.apply("accept")
>>> m.tableaux["Bob"], m.view("Ann").known_markers
((('journalist', True),), {'Ann': 'CIA', 'Bob': 'KGB'})
"""
from __future__ import annotations

from collections import deque
from types import MappingProxyType
from typing import Sequence

from ...engine.contract import CHANCE
from ...engine.game import GameBase, new_seed
from ...engine.views import AllEvents
from ...errors import IllegalAction, PositionError
from .actions import CHANCE_KINDS, Action
from .rules import BULLETS, CARD_COUNTS, CARDS, MAX_PLAYERS, MIDDLE, MIN_PLAYERS, TEAMS, SecretsRules
from .views import NO_EVENTS, View, blanked

__all__ = ["CHANCE", "PHASES", "Game", "arrangements", "new_seed"]

#: Decision phases and who decides: the active player, the UN player, the chosen player, or the player who
#: added the card and carries out its effect.
PHASES = ("deal", "reveal", "offer", "un", "answer", "give", "swap", "side", "look", "bullet", "shoot", "over")
_EFFECT_PHASE = {"politician": "give", "psychiatrist": "swap", "diplomat": "side", "detective": "look",
                 "assassin": "bullet"}


def arrangements(counts: Sequence[int], n: int | None = None) -> list[tuple[int, ...]]:
    """Every distinct sequence holding ``counts[t]`` copies of team index ``t``, in lexicographic order.

    >>> arrangements([2, 1])
    [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    >>> len(arrangements([4, 4, 1]))
    630
    """
    counts = list(counts)
    n = sum(counts) if n is None else n
    out: list[tuple[int, ...]] = []
    row: list[int] = []

    def rec():
        if len(row) == n:
            out.append(tuple(row))
            return
        for t, c in enumerate(counts):
            if c:
                counts[t] -= 1
                row.append(t)
                rec()
                row.pop()
                counts[t] += 1

    rec()
    return out


class Game(GameBase):
    """One game of Secrets. ``players`` in seat order (4 to 8; the first begins), ``seed`` (drawn from the OS
    when left out, and recorded), ``chance`` (``"auto"`` or ``"manual"``), ``rules`` (:class:`SecretsRules`)."""

    TITLE = "Secrets"
    REPR_NAME = "Secrets game"
    CHANCE_KINDS = CHANCE_KINDS     # Game.Action and Game.View are set below the class (in it, they name types)

    def __init__(self, players: Sequence[str], seed: int | None = None, chance: str = "auto",
                 rules: SecretsRules | None = None):
        self._set_up(players, rules, SecretsRules, seed, chance)    # players, rules, seed, chance (GameBase)
        players, rules = self.players, self.rules
        n = len(players)
        self.slots: tuple[str, ...] = players + (MIDDLE,)
        self._sidx = {s: i for i, s in enumerate(self.slots)}
        self.marker_counts = rules.markers_for(n)
        self.end_size = rules.end_size(n)
        self._events: list[tuple] = []            # (kind, data, seers): seers None = public
        self._public_events: list[tuple] = []     # the same with every secret blanked: what views hold
        self._own_events: list[dict[int, tuple]] = [{} for _ in range(n)]   # index -> raw event a seat saw
        self._marker: list[str | None] = [None] * (n + 1)
        self._fresh: list[str] = [c for c in CARDS for _ in range(CARD_COUNTS[c])]   # never seen: random order
        self._queue: deque[str] = deque()          # put under the deck, in order (drawn after the fresh cards)
        self.certain_events = 0                    # history entries with one certain outcome (from under the deck)
        self._bullets: list[int] = list(BULLETS)
        self._chars: list[list[list]] = [[] for _ in range(n)]   # [card, face_up]
        self._shot: list[list[tuple[int, int]]] = [[] for _ in range(n)]   # (value, shooter)
        self._un: int | None = None
        self._active, self._turn = 0, 1
        self._phase = "deal"
        self._shown: list[str] = []
        self._to_draw = 0
        self._candidates: tuple[str, ...] = ()
        self._offer: tuple[str, int] | None = None
        self._adder: int | None = None
        self._card: str | None = None              # the card being added (Politician) or carried out
        self._bullet: int | None = None
        self._ending = False
        self._scores: dict[str, int] | None = None
        self._winners: tuple[str, ...] | None = None
        self._advance()

    def _check_player_name(self, name: str) -> None:
        if name == MIDDLE:
            raise PositionError(f"{MIDDLE!r} names the middle marker; choose another player name")

    def _check_player_count(self, n: int) -> None:
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise PositionError(f"Secrets is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")

    # ------------------------------------------------------------------ public state
    @property
    def phase(self) -> str:
        return self._phase

    @property
    def is_chance_node(self) -> bool:
        return self._phase in ("deal", "reveal", "bullet")

    def _to_act(self):
        ph = self._phase
        if ph == "over":
            return None
        if ph in ("deal", "reveal", "bullet"):
            return CHANCE
        if ph == "offer":
            return self._active
        if ph == "un":
            return self._un
        if ph == "answer":
            return self._offer[1]
        return self._adder

    @property
    def from_under_deck(self) -> bool:
        """Whether chance turns up next a card put under the deck (certain: they come back in order, once the
        never-seen cards are used up; records log it as ``chance: reveal CARD`` all the same)."""
        return self._phase == "reveal" and not self._fresh

    @property
    def candidates(self) -> tuple[str, ...]:
        """The two different characters turned up this turn (one when the deck holds only one kind)."""
        return self._candidates

    @property
    def offer(self) -> tuple[str, str] | None:
        """The offered card and the chosen player (the card is the active player's secret until answered)."""
        return None if self._offer is None else (self._offer[0], self.players[self._offer[1]])

    @property
    def identities(self) -> dict[str, str]:
        """Seat or ``"middle"`` -> team of the marker lying there now (SECRET: not for bots)."""
        return dict(zip(self.slots, self._marker))

    @property
    def tableaux(self) -> dict[str, tuple[tuple[str, bool], ...]]:
        """Player -> their characters as (card, face up), in the order added."""
        return {p: tuple((c, up) for c, up in self._chars[i]) for i, p in enumerate(self.players)}

    @property
    def bullets(self) -> dict[str, tuple[int, ...]]:
        """Player -> the values of the bullets in their tableau (SECRET until the end)."""
        return {p: tuple(v for v, _ in self._shot[i]) for i, p in enumerate(self.players)}

    @property
    def tableau_sizes(self) -> dict[str, int]:
        return {p: len(self._chars[i]) + len(self._shot[i]) for i, p in enumerate(self.players)}

    @property
    def un_player(self) -> str | None:
        return None if self._un is None else self.players[self._un]

    @property
    def deck_size(self) -> int:
        return len(self._fresh) + len(self._queue)

    @property
    def scores(self) -> dict[str, int]:
        """Player -> points: face-up characters and bullets (final at the end)."""
        if self._scores is not None:
            return dict(self._scores)
        return self._points()

    @property
    def events(self) -> list:
        return self._events

    # ------------------------------------------------------------------ legal actions
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: each outcome with its probability (deals: each arrangement equally likely)."""
        ph = self._phase
        if ph == "deal":
            acts = self.legal_actions()
            return [(a, 1 / len(acts)) for a in acts]
        if ph == "reveal":
            if not self._fresh:     # the cards put under the deck come back in order: one outcome, certain
                return [(Action("reveal", (self._queue[0],)), 1.0)]
            return [(Action("reveal", (c,)), self._fresh.count(c) / len(self._fresh)) for c in CARDS
                    if c in self._fresh]
        if ph == "bullet":
            return [(Action("bullet", (v,)), 1 / len(self._bullets)) for v in sorted(set(self._bullets))]
        return []

    def _others(self, i: int) -> list[int]:
        return [j for j in range(len(self.players)) if j != i]

    #: the legal actions of the last computation and each one's arguments by value, taken before any bot is handed
    #: the actions (see :meth:`_is_legal`)
    _legal_values: tuple[tuple[Action, ...], dict[tuple[str, tuple[object, ...]], tuple[object, ...]]] | None = None

    def _compute_legal(self) -> tuple[Action, ...]:
        legal = self._legal_now()
        self._legal_values = (legal, {(a.kind, a.args): a.args for a in legal})
        return legal

    def _legal_now(self) -> tuple[Action, ...]:
        ph, P = self._phase, self.players
        if ph == "over":
            return ()
        if ph == "deal":
            counts = [self.marker_counts[t] for t in TEAMS]
            return tuple(Action("deal", tuple(zip(self.slots, (TEAMS[t] for t in row))))
                         for row in arrangements(counts))
        if ph in ("reveal", "bullet"):
            return tuple(a for a, _ in self.chance_outcomes())
        if ph == "offer":
            return tuple(Action("offer", (c, P[j])) for c in self._candidates for j in self._others(self._active))
        if ph == "un":
            return _UN_ACTIONS
        if ph == "answer":
            return _ANSWERS
        me = self._adder
        if ph in ("give", "shoot"):
            return tuple(Action(ph, (P[j],)) for j in self._others(me))
        if ph == "swap":
            o = self._others(me)
            return tuple(Action("swap", tuple(sorted((P[a], P[b])))) for k, a in enumerate(o) for b in o[k + 1:])
        if ph == "side":
            return _SIDES
        if ph == "look":
            return tuple(Action("look", (s,)) for s in self.slots)
        raise AssertionError(ph)

    # ------------------------------------------------------------------ apply (GameBase.apply)
    def _is_legal(self, act: Action) -> bool:
        """Whether ``act`` is legal, checked by value: against the legal actions' arguments as they were computed,
        never against the action objects that :meth:`legal_actions` handed out (a bot may have changed one of them
        in place with ``object.__setattr__``), and with the exact types of the legal ones (``True`` does not stand
        for 1)."""
        snap = self._legal_values
        if snap is None or snap[0] is not self._legal_cache:    # nobody asked for the legal actions yet
            self._compute_legal()
            snap = self._legal_values
            assert snap is not None
        try:
            ref = snap[1].get((act.kind, act.args))
        except TypeError:   # unhashable arguments: no legal action has them
            return False
        return ref is not None and type(act.args) is tuple and len(act.args) == len(ref) and all(
            _same_type(x, y) for x, y in zip(act.args, ref))

    def _check_form(self, act: Action) -> None:
        """Raise :class:`IllegalAction` (rule ``notation``) unless ``act`` is well formed: its notation can be
        written and reads back to the same arguments (a hand-built ``Action("deal", (0,))`` is refused, not a
        ``TypeError``)."""
        try:
            canon = Action.parse(str(act))
            ok = (type(act.args) is tuple and canon.kind == act.kind
                  and sorted(map(repr, canon.args)) == sorted(map(repr, act.args)))
        except Exception:
            ok = False
        if not ok:
            try:
                shown = f"Action({act.kind!r}, {act.args!r})"[:200]
            except Exception:  # pragma: no cover - repr of junk failing as well
                shown = "this Action"
            raise IllegalAction(f"{shown} is malformed: its arguments do not fit a {str(act.kind)[:40]!r} action "
                                "(see docs/secrets.md; Action.parse builds well-formed actions)", rule="notation")

    def _explain_illegal(self, act: Action, actor) -> IllegalAction:
        ph, who = self._phase, (CHANCE if actor == CHANCE else self.players[actor])
        rule = {"deal": "deal", "reveal": "deck", "bullet": "bullets", "offer": "offer", "un": "un",
                "answer": "answer"}.get(ph, ph)
        legal = self._legal_now()       # not the cache a bot may have changed
        hint = ", ".join(map(str, legal[:8]))
        if act.kind not in {a.kind for a in legal}:
            return IllegalAction(f"{act}: it is {who}'s {ph} decision now; legal actions are like {hint}", rule=rule)
        return IllegalAction(f"{act} is not legal now ({ph} by {who}); legal: {hint}", rule=rule)

    def _advance(self) -> None:
        """Resolve chance (in auto mode) until a decision, the end, or (manual) a chance node."""
        while self.chance == "auto" and self.is_chance_node:
            act = self._draw_chance()
            self._log(CHANCE, act)
            self._do(act, CHANCE)

    def _draw_chance(self) -> Action:
        rng, ph = self._rng, self._phase
        if ph == "deal":
            markers = [t for t in TEAMS for _ in range(self.marker_counts[t])]
            rng.shuffle(markers)
            return Action("deal", tuple(zip(self.slots, markers)))
        if ph == "reveal":
            if not self._fresh:     # from under the deck: no chance drawn (the same seeds give the same games)
                return Action("reveal", (self._queue[0],))
            return Action("reveal", (self._fresh[rng.randrange(len(self._fresh))],))
        return Action("bullet", (self._bullets[rng.randrange(len(self._bullets))],))

    # ------------------------------------------------------------------ transitions
    def _event(self, kind: str, seers=None, **data) -> None:
        raw = (kind, data, seers)
        if seers is None:
            self._public_events.append(raw)
        else:
            k = len(self._events)
            for p in seers:
                self._own_events[p][k] = raw
            self._public_events.append((kind, blanked(kind, data), seers))
        self._events.append(raw)

    def _do(self, act: Action, actor) -> None:
        k, a = act.kind, act.args
        P, pidx = self.players, self._pidx
        if k == "deal":
            self._deal([t for _, t in a])
        elif k == "reveal":
            if self._fresh:
                self._fresh.remove(a[0])
            else:
                self._queue.popleft()           # legal only if it is the card on top of those put under
                self.certain_events += 1
            self._reveal(a[0])
        elif k == "offer":
            card, target = a[0], pidx[a[1]]
            self._queue.extend(c for c in self._candidates if c != card)   # the other card goes under the deck
            self._offer = (card, target)
            self._event("offer", frozenset((self._active,)), player=P[self._active], target=a[1], card=card)
            un = self._un
            self._phase = "un" if un is not None and un not in (self._active, target) else "answer"
        elif k in ("interrupt", "allow"):
            self._event(k, None, player=P[actor], target=P[self._offer[1]])
            if k == "interrupt":
                self._take(actor)
            else:
                self._phase = "answer"
        elif k in ("accept", "refuse"):
            self._event(k, None, player=P[actor])
            self._take(actor if k == "accept" else self._active)
        elif k == "give":
            q = pidx[a[0]]
            self._add(q, self._card, by=self._adder)
            self._look(self._adder, q, "politician")
            self._end_turn()
        elif k == "swap":
            self._swap(pidx[a[0]], pidx[a[1]], "psychiatrist")
            self._end_turn()
        elif k == "side":
            me, n = self._adder, len(P)
            q = (me + 1) % n if a[0] == "left" else (me - 1) % n
            self._swap_markers(q, n)
            self._event("side", frozenset((me,)), player=P[me], side=a[0], slot=P[q])
            self._end_turn()
        elif k == "look":
            self._look(self._adder, self._sidx[a[0]], "detective")
            self._end_turn()
        elif k == "bullet":
            self._bullets.remove(a[0])
            self._bullet = a[0]
            self._event("bullet", frozenset((self._adder,)), player=P[self._adder], value=a[0])
            self._phase = "shoot"
        elif k == "shoot":
            q = pidx[a[0]]
            self._shot[q].append((self._bullet, self._adder))
            self._event("shot", frozenset((self._adder,)), player=P[self._adder], target=a[0], value=self._bullet)
            self._bullet = None
            self._after_add(q)
            self._end_turn()
        else:  # pragma: no cover - legal actions admit no other kind
            raise AssertionError(k)

    def _deal(self, teams: list[str]) -> None:
        self._marker = list(teams)
        n = len(self.players)
        self._event("deal", None, counts=dict(self.marker_counts))
        for i in range(n):
            self._look(i, i, "start")
            if n >= 5:
                self._look(i, (i - 1) % n, "start")     # the right neighbour: the previous seat
        if n >= 7:
            self._event("show", None, slot=MIDDLE, team=self._marker[n], cause="start")
        self._start_turn()

    def _start_turn(self) -> None:
        self._event("turn", None, player=self.players[self._active], turn=self._turn)
        self._shown, self._candidates = [], ()
        self._to_draw = self.deck_size          # each card at most once a turn (a one-kind deck ends the drawing)
        self._phase = "reveal"
        self._continue_reveal()

    def _reveal(self, card: str) -> None:
        self._shown.append(card)
        self._to_draw -= 1
        self._event("reveal", None, player=self.players[self._active], card=card)
        self._continue_reveal()

    def _continue_reveal(self) -> None:
        if len(set(self._shown)) < 2 and self._to_draw > 0:
            return          # chance turns up the next card: a never-seen one, or the next put under the deck
        firsts = list(dict.fromkeys(self._shown))
        rest = list(self._shown)
        for c in firsts:
            rest.remove(c)
        self._queue.extend(rest)                 # the duplicates go under the deck, in the order drawn
        self._candidates = tuple(firsts)
        self._event("candidates", None, player=self.players[self._active], cards=self._candidates,
                    under=tuple(rest))
        self._phase = "offer"

    def _take(self, p: int) -> None:
        """Player ``p`` adds the offered card and carries out its effect."""
        card = self._offer[0]
        self._offer = None
        self._adder, self._card = p, card
        if card == "politician":
            self._phase = "give"
            return
        self._add(p, card, by=p)
        phase = _EFFECT_PHASE.get(card)
        if card == "double-agent":
            self._swap(p, len(self.players), "double-agent")
            self._look(p, p, "double-agent")
        elif card == "journalist":
            self._event("expose", frozenset(self._others(p)), player=self.players[p], team=self._marker[p])
        elif card == "diplomat":
            self._event("show", None, slot=MIDDLE, team=self._marker[-1], cause="diplomat")
        elif card == "scientist":
            chars = self._chars[p]
            if any(c == "scientist" and up for c, up in chars[:-1]):
                flipped = tuple(c for c, up in chars if up)
                for c in chars:
                    c[1] = False
                self._event("flip", None, player=self.players[p], cards=flipped, cause="scientist")
        elif card == "assassin" and not self._bullets:
            phase = None
        if phase is None:
            self._end_turn()
        else:
            self._phase = phase

    def _add(self, q: int, card: str, by: int) -> None:
        self._chars[q].append([card, True])
        self._event("add", None, player=self.players[q], card=card, by=self.players[by])
        self._after_add(q)

    def _after_add(self, q: int) -> None:
        if len(self._chars[q]) + len(self._shot[q]) >= self.end_size:
            self._ending = True
        if self._un is not None and self._single_fewest() != self._un:
            self._un = None                      # the UN marker goes back the moment its holder is not alone
            self._event("un", None, player=None)

    def _single_fewest(self) -> int | None:
        sizes = [len(c) + len(s) for c, s in zip(self._chars, self._shot)]
        m = min(sizes)
        return sizes.index(m) if sizes.count(m) == 1 else None

    def _look(self, p: int, s: int, cause: str) -> None:
        self._event("look", frozenset((p,)), player=self.players[p], slot=self.slots[s], team=self._marker[s],
                    cause=cause)

    def _swap_markers(self, a: int, b: int) -> None:
        m = self._marker
        m[a], m[b] = m[b], m[a]

    def _swap(self, a: int, b: int, cause: str) -> None:
        self._swap_markers(a, b)
        self._event("swap", None, a=self.slots[a], b=self.slots[b], cause=cause)

    def _end_turn(self) -> None:
        self._adder = self._card = None
        for i, chars in enumerate(self._chars):
            up: dict[str, list] = {}
            for c in chars:
                if c[1]:
                    up.setdefault(c[0], []).append(c)
            flipped = []
            for card, cs in up.items():
                for c in cs[: len(cs) // 2 * 2]:     # pairs of identical face-up characters
                    c[1] = False
                    flipped.append(card)
            if flipped:
                self._event("flip", None, player=self.players[i], cards=tuple(flipped), cause="pair")
        fewest = self._single_fewest()
        if fewest != self._un:
            self._un = fewest
            self._event("un", None, player=None if fewest is None else self.players[fewest])
        if self._ending:
            self._finish()
            return
        self._active = (self._active + 1) % len(self.players)
        self._turn += 1
        self._start_turn()

    def _points(self) -> dict[str, int]:
        value = self.rules.value
        return {p: sum(value(c) for c, up in self._chars[i] if up) + sum(v for v, _ in self._shot[i])
                for i, p in enumerate(self.players)}

    def _finish(self) -> None:
        self._phase = "over"
        pts = self._points()
        P, teams = self.players, self._marker
        low = min(pts.values())
        lowest = [p for p in P if pts[p] == low]
        if len(lowest) == 1 and teams[self._pidx[lowest[0]]] == "Hippie":
            winners: tuple[str, ...] = (lowest[0],)
        else:
            total = {t: sum(pts[p] for i, p in enumerate(P) if teams[i] == t) for t in ("CIA", "KGB")}
            if total["CIA"] == total["KGB"]:
                winners = ()
            else:
                best = max(total, key=total.get)
                winners = tuple(p for i, p in enumerate(P) if teams[i] == best)
        self._scores, self._winners = pts, winners
        self._event("over", None, identities=self.identities, bullets=self.bullets, scores=dict(pts),
                    winners=winners)

    # ------------------------------------------------------------------ views, records, copies (GameBase)
    def _view(self, player: str | None, omniscient: bool = False) -> View:
        """The view: the public state, and the events as the viewer saw them: the blanked public events and the
        viewer's own (read-only), never the raw list (the omniscient view excepted)."""
        i = None if player is None else self._pidx[player]
        P = self.players
        off = self._offer
        over = self._phase == "over"
        n = len(self._events)
        if omniscient:
            log = (self._events, AllEvents(self._events), n)
        else:
            log = (self._public_events, NO_EVENTS if i is None else MappingProxyType(self._own_events[i]), n)
        return View.of_log((
            player, "omniscient" if omniscient else ("spectator" if i is None else "player"), P, self.slots,
            self.rules, self._phase, self.current_player, P[self._active], self._turn, self._candidates,
            None if off is None else (off[0] if (omniscient or i == self._active) else None, P[off[1]]),
            {p: tuple((c, up) for c, up in self._chars[j]) for j, p in enumerate(P)},
            {p: len(self._shot[j]) for j, p in enumerate(P)}, self.un_player, self.deck_size,
            dict(self.marker_counts), self.end_size, over, self._winners,
            self.scores if (over or omniscient) else None, log))

    @classmethod
    def _record_class(cls) -> type:
        from .records import SecretsRecord
        return SecretsRecord


def _same_type(x, y) -> bool:
    """``x`` has ``y``'s exact type, all the way down (a deal's pairs too)."""
    if type(x) is not type(y):
        return False
    return type(x) is not tuple or (len(x) == len(y) and all(map(_same_type, x, y)))


_UN_ACTIONS = (Action("allow"), Action("interrupt"))
_ANSWERS = (Action("accept"), Action("refuse"))
_SIDES = (Action("side", ("left",)), Action("side", ("right",)))


Game.Action = Action
Game.View = View
