"""The public record of play: every decision of a game as one observer saw it.

One observer is a player name, or ``None`` for a spectator who knows no card.
:func:`public_decisions` gives the stream of a finished (or unfinished) game
from any source that observer may read; :class:`DecisionStream` follows a
live game, returning only the decisions made since the last call. Each item
is a :class:`Decision`: the log entry as the observer saw it (other players'
draws, takes and dossier entries hidden by
:func:`~heimlich_lab.games.heimlich.rules.views.visible_action`), the observer's view just
before a player decision, and the events the entry produced.

Sources:

* a full record is replayed with the engine;
* a ``public`` or ``player:NAME`` record, or a :class:`~heimlich_lab.View`,
  is re-enacted on a *shadow game* whose hidden parts (other players' agent
  cards and hands, the supply's order) are made up, so every view it gives has
  exactly the public fields of the real one, and the observer's own secrets;
* a live :class:`~heimlich_lab.Game` is read through ``game.view(observer)``.

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
>>> [(d.index, d.actor, str(d.action)) for d in public_decisions(rec.as_player("Bob"), "Bob", until=3)]
[(0, 'chance', 'deal ?'), (1, 'chance', 'roll 3'), (2, 'Ann', 'move grey+2 green+1')]
>>> full = [d.view.positions for d in public_decisions(rec, "Bob", until=40) if d.view]
>>> public = [d.view.positions for d in public_decisions(rec.public(), None, until=40) if d.view]
>>> full == public
True
"""
from __future__ import annotations

from collections.abc import Iterator

from ....errors import HeimlichError, InformationRuleError, ModelError, RecordError
from .actions import CHANCE_KINDS, DECISION_KINDS, HIDDEN, Action
from .board import DOSSIER_MARK, clockwise_distance
from .game import CHANCE, Game, Position
from .records import GameRecord
from .views import Event, View, visible_action, visible_event

__all__ = ["CHANCE_KINDS", "DECISION_KINDS", "Decision", "DecisionStream", "ShadowGame", "ViewReader",
           "check_reader", "entries_from_log", "public_decisions", "visible_action"]


class Decision:
    """One logged action as one observer saw it.

    Unpacks as ``(index, actor, action, to, view, events)``: the log entry's
    ``index``; the ``actor`` (a player, or ``"chance"``); the ``action`` with
    only the observer's secrets; ``to``, who received a draw or a take;
    ``view``, the observer's view just before a player decision (else
    ``None``); ``events``, what the entry produced, as the observer saw it.
    Also: ``turn`` (before the entry), ``at_mark`` (a marker had reached the
    dossier mark, 29, once the entry was played) and ``history_key`` (a hash of
    the public history up to this entry: equal for every observer of one game,
    for caching what depends on public information only).
    """

    __slots__ = ("index", "actor", "action", "to", "view", "turn", "at_mark", "history_key", "_raw",
                 "_viewer_index", "_events")

    def __init__(self, index: int, actor: str, action: Action, to, view: View | None, turn: int,
                 history_key: int, raw: tuple = (), viewer_index: int | None = None, at_mark: bool = False):
        self.index, self.actor, self.action, self.to, self.view = index, actor, action, to, view
        self.turn, self.history_key, self.at_mark = turn, history_key, at_mark
        self._raw, self._viewer_index, self._events = raw, viewer_index, None

    @property
    def events(self) -> list[Event]:
        """The events the entry produced, as the observer saw them (made when first asked for)."""
        if self._events is None:
            self._events = [visible_event(raw, self._viewer_index) for raw in self._raw]
        return self._events

    def __iter__(self):
        return iter((self.index, self.actor, self.action, self.to, self.view, self.events))

    def __repr__(self):
        to = f" -> {self.to}" if isinstance(self.to, str) else ""
        return f"<Decision {self.index}: {self.actor}: {self.action}{to}, turn {self.turn}>"


def _first_key(players, rules, start) -> int:
    return hash((tuple(players), rules, "start" if start else ""))


def _next_key(key: int, actor: str, action: Action, to) -> int:
    """The history key after one more entry: only its public part counts, so every observer's key is equal."""
    return hash((key, actor, str(visible_action(action, actor, to, None)), to))


def reached_mark(game: Game) -> bool:
    return game.top_score >= DOSSIER_MARK


def _is_count(until) -> bool:
    return isinstance(until, int) and not isinstance(until, bool) and until >= 0   # -1 is refused, not "none"


# =========================================================================== full records


def _real_decisions(record: GameRecord, viewer: str | None, until) -> Iterator[Decision]:
    """Replay a full record with the engine, one :class:`Decision` per log entry.

    The record's own replay checks each entry (against the rules and the seed) before it is read, unless
    :meth:`GameRecord.is_as_played`; the decisions come from a manual-chance twin that applies every entry itself, so
    each entry's events are exactly its own (an automatic-chance game rolls and draws inside the decision before).
    """
    log = record.log
    n_stop = min(until, len(log)) if _is_count(until) else len(log)
    key = _first_key(record.players, record.rules, record.start)
    vi = None if viewer is None else record.players.index(viewer)
    # the record's own replay checks each entry against the rules and the seed, unless the engine made the
    # record in this process and nobody edited it since (then a second replay would check nothing new)
    checked = None if record.is_as_played() else record.games()
    if checked is not None:
        next(checked)
    game = Game(record.players, record.rules, chance="manual", start=record.start)
    for k, e in enumerate(log):
        if k >= n_stop or (until == "dossier" and reached_mark(game)):
            return
        if checked is not None:
            next(checked)  # a RecordError if entry k does not fit the game
        key = _next_key(key, e.actor, e.action, e.to)
        view = game.view(viewer) if e.actor != CHANCE and e.action.kind in DECISION_KINDS else None
        turn, n0 = game.turn, len(game.events)
        game.apply(e.action, player=e.actor)
        yield Decision(k, e.actor, visible_action(e.action, e.actor, e.to, viewer), e.to, view, turn, key,
                       raw=tuple(game.events[n0:]), viewer_index=vi, at_mark=reached_mark(game))


# =========================================================================== the shadow game


class ShadowGame:
    """A game made by :meth:`Game.seen_by <heimlich_lab.rules.game.Game.seen_by>` that re-enacts the public
    history with made-up secrets (:meth:`~heimlich_lab.rules.game.Game.apply_seen`), one :class:`Decision` per
    entry. Every public field of its views equals the real game's; the viewer's own agent card(s) and hand are
    real.
    """

    def __init__(self, players, rules, viewer: str | None, own_agents=(), start: Position | None = None):
        self.viewer = viewer
        self.own = tuple(own_agents)
        self.players = tuple(players)
        self.rules = rules
        self.game = Game.seen_by(viewer, self.players, rules, self.own, start)   # the first secrets that fit
        self.viewer_index = None if viewer is None else self.players.index(viewer)
        self.history_key = _first_key(self.players, rules, start)
        #: the real game-over event (it shows the owners, which the shadow made up), once known
        self.real_over: tuple | None = None

    # ---------------------------------------------------------------- one entry
    def apply(self, index: int, actor: str, action: Action, to: str | None) -> Decision:
        """Re-enact one log entry (as the viewer saw it); the :class:`Decision` it was."""
        g = self.game
        k = action.kind
        self.history_key = key = _next_key(self.history_key, actor, action, to if isinstance(to, str) else None)
        turn, view = g.turn, None
        n0 = len(g.events)
        try:
            if k not in CHANCE_KINDS:
                if actor not in self.players:
                    raise RecordError(f"{actor!r} is not a player")
                if k in DECISION_KINDS:
                    view = g.view(self.viewer)    # made-up secrets change only what the viewer cannot see
            g.apply_seen(action, player=actor, to=to if k != "deal" else None)
        except HeimlichError as e:
            raise RecordError(f"cannot follow the public history at entry {index} ({actor}: {action}): {e}") from None
        raw = tuple(g.events[n0:])
        if raw and raw[-1][0] == "over" and self.real_over is not None:
            raw = raw[:-1] + (self.real_over,)
        return Decision(index, actor, action, to, view, turn, key, raw=raw, viewer_index=self.viewer_index,
                        at_mark=reached_mark(g))


def entries_from_log(events, start: int = 0):
    """(actor, action, to) entries from a view's event log (from event ``start`` on).

    Returns ``(entries, consumed)``: ``consumed`` events were turned into entries.
    A deal's ``to`` is the list of (player, agent or None) pairs the log shows.
    """
    out = []
    i = start
    n = len(events)
    while i < n:
        e = events[i]
        k, d = e.kind, e.data
        if k == "deal":
            j = i
            own = []
            while j < n and events[j].kind == "deal":
                own.append((events[j].data["player"], events[j].data.get("agent")))
                j += 1
            out.append((CHANCE, Action("deal", (HIDDEN,)), own))
            i = j
            continue
        if k == "roll":
            out.append((CHANCE, Action("roll", (d["face"],)), None))
        elif k == "points":
            out.append((d["player"], Action("points", (d["points"],)), None))
        elif k == "move":
            steps = tuple((c, clockwise_distance(a, b)) for c, (a, b) in d["moves"].items())
            out.append((d["player"], Action("move", steps), None))
        elif k == "draw":
            out.append((CHANCE, Action("draw", (d["card"] if d.get("card") else HIDDEN,)), d["player"]))
        elif k == "take":
            out.append((CHANCE, Action("take", (d["agent"] if d.get("agent") else HIDDEN,)), d["player"]))
        elif k == "reveal":
            out.append((CHANCE, Action("reveal", (d["card"],)), d["player"]))
        elif k == "announce":
            out.append((d["player"], Action("announce", (d["want"],)), None))
        elif k == "play":
            out.append((d["player"], Action("play", (d["card"], *d["targets"])), None))
        elif k in ("pass", "done"):
            out.append((d["player"], Action(k), None))
        elif k == "collect":
            out.append((d["player"], Action("collect", (d["want"],)), None))
        elif k == "dossier":
            agent, entry = d.get("agent"), d.get("entry")
            out.append((d["player"], Action("dossier", (agent, entry) if agent and entry else (HIDDEN, HIDDEN)), None))
        elif k == "safe":
            out.append((d["player"], Action("safe", (d["building"],)), None))
        i += 1
    return out, n - start


def _own_from_deal(pairs, viewer) -> tuple[str, ...]:
    for p, c in pairs:
        if p == viewer:
            if c is None:
                raise InformationRuleError(f"the log does not show {viewer}'s own agent card")
            return (c,)
    return ()


def _over_from_log(log) -> tuple | None:
    """The game-over event of a view's log, as a raw event (it is public)."""
    return ("over", None, log[-1].data) if len(log) and log[-1].kind == "over" else None


def _over_from_result(record: GameRecord) -> tuple | None:
    """The game-over event a finished record's result describes (as the engine logs it)."""
    r = record.result
    if r is None:
        return None
    best = max(r["scores"].values())
    return ("over", None, {"winners": list(r["winners"]), "scores": dict(r["scores"]),
                           "owners": dict(r["final_owners"]),
                           "farthest": [c for c, n in r["scores"].items() if n == best],
                           "bonus": dict(r["dossier_bonus"]),
                           "sheets": r["dossier_sheets"] if record.rules.dossier else None})


def _shadow_decisions(players, rules, viewer, entries, own=(), start=None, until=None,
                      real_over: tuple | None = None) -> Iterator[Decision]:
    """The entries re-enacted on a shadow game, one :class:`Decision` each."""
    shadow = None
    for index, (actor, action, to) in enumerate(entries):
        if _is_count(until) and index >= until:
            return
        if shadow is None:
            shadow = ShadowGame(players, rules, viewer, own, start)
            shadow.real_over = real_over
            if until == "dossier" and reached_mark(shadow.game):
                return
        d = shadow.apply(index, actor, action, to)
        yield d
        if until == "dossier" and d.at_mark:
            return


# =========================================================================== the one entry point


def check_reader(record: GameRecord, viewer: str | None) -> str | None:
    """Raise unless ``viewer`` may read ``record``; returns the player whose secrets a player record holds.

    >>> from heimlich_lab import Game
    >>> rec = Game(["Ann", "Bob"], seed=1).record
    >>> check_reader(rec.as_player("Ann"), "Ann"), check_reader(rec.public(), None)
    ('Ann', None)
    >>> check_reader(rec.as_player("Ann"), "Bob")   # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.InformationRuleError: this player:Ann record holds Ann's secrets; a belief for Bob needs the
    full record or record.as_player('Bob')
    """
    if record.is_full:
        return None
    holder = record.view.split(":", 1)[1] if record.view.startswith("player:") else None
    if viewer is not None and viewer != holder:
        raise InformationRuleError(
            f"this {record.view} record holds {'no secrets' if holder is None else holder + chr(39) + 's secrets'}; "
            f"a belief for {viewer} needs the full record or record.as_player({viewer!r})")
    return holder


def _check_view(view: View, viewer: str | None) -> None:
    if view.kind == "omniscient":
        raise InformationRuleError("an omniscient view holds every secret; use a player's or the spectator's view")
    if view.viewer != viewer:
        raise InformationRuleError(
            f"this is {view.label}; a belief for {viewer or 'a spectator'} may use only "
            f"{(viewer + chr(39) + 's') if viewer else 'the spectator'} view")


def _record_own_agents(record: GameRecord, viewer: str | None) -> tuple[str, ...]:
    """The viewer's own agent card(s) at the start of a record (() for a spectator or before the deal)."""
    if viewer is None:
        return ()
    if record.start is not None:
        c = record.start.owners[viewer]
        return (c,) if isinstance(c, str) else tuple(c)
    if record.deal and viewer in record.deal:
        return (record.deal[viewer],)
    return ()


def public_decisions(source, viewer: str | None = None, until=None) -> Iterator[Decision]:
    """Every logged action of a game or record as ``viewer`` saw it: one :class:`Decision` each.

    ``source`` is a full record (replayed with the engine), a ``public`` or
    ``player:NAME`` record (re-enacted on a shadow game; ``viewer`` must be
    ``None`` or NAME), a :class:`View` (its event log; the view's viewer must
    be ``viewer``) or a :class:`Game` (``game.view(viewer)``). ``until``:
    ``None`` (everything), ``"dossier"`` (stop once a marker reaches 29) or a
    number of log entries.

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import RandomBot
    >>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3)
    >>> items = list(public_decisions(rec.public(), None, until=10))
    >>> [(i, a, str(act)) for i, a, act, to, v, ev in items[:3]]
    [(0, 'chance', 'deal ?'), (1, 'chance', 'roll 3'), (2, 'Ann', 'move grey+2 green+1')]
    """
    if until not in (None, "dossier") and not _is_count(until):
        raise ModelError(f"until must be None, 'dossier' or a number of log entries, not {until!r}")
    if isinstance(source, Game):
        if source.start is not None:  # its views do not describe the start: read its record
            rec = source.record
            source = rec.as_player(viewer) if viewer is not None else rec.public()
        else:
            source = source.view(viewer)
    if isinstance(source, View):
        _check_view(source, viewer)
        log = source.log
        if len(log) and log[0].kind == "start":
            raise ModelError("this game started from a position, which its views do not describe; "
                             "use Belief.for_game(game, ...) or Belief.from_record(record, ...)")
        entries, _ = entries_from_log(log)
        own = ()
        flat = []
        for actor, action, to in entries:
            if action.kind == "deal":
                own = _own_from_deal(to, viewer) if viewer is not None else ()
                to = None
            flat.append((actor, action, to))
        return _shadow_decisions(source.players, source.rules, viewer, flat, own, None, until, _over_from_log(log))
    if not isinstance(source, GameRecord):
        raise ModelError(f"expected a Game, View or GameRecord, not {type(source).__name__}")
    rec = source
    if viewer is not None and viewer not in rec.players:
        raise ModelError(f"unknown observer {viewer!r}: players of this record are {', '.join(rec.players)}")
    if rec.is_full:
        return _real_decisions(rec, viewer, until)
    holder = check_reader(rec, viewer)
    if viewer is None and holder is not None:
        rec = rec.public()
    entries = [(e.actor, visible_action(e.action, e.actor, e.to, viewer), e.to) for e in rec.log]
    return _shadow_decisions(rec.players, rec.rules, viewer, entries, _record_own_agents(rec, viewer), rec.start,
                             until, _over_from_result(rec))


# =========================================================================== following a live game


class ViewReader:
    """Reads the decisions new in a viewer's event log, one view after another (for :class:`DecisionStream`
    and :meth:`Belief.sync <heimlich_lab.games.heimlich.inference.belief.Belief.sync>`).

    ``own_agents`` is the viewer's own agent card(s) at the start (checked
    against the deal in the log; ``()``: taken from the log). With ``public=True`` in :meth:`read`, a spectator's
    reader may read a player's view: it keeps only the public part. A failed
    :meth:`read` leaves the reader as it was; :meth:`mark` and :meth:`rewind`
    undo reads whose decisions a consumer could not use.
    """

    def __init__(self, players, viewer: str | None, own_agents=(), start: Position | None = None):
        self.players, self.viewer, self.own_agents = tuple(players), viewer, tuple(own_agents)
        self.start = start
        self.consumed = 0  # events of the log turned into decisions
        self.count = 0  # decisions read
        self._seen: dict[int, tuple] = {}  # a few events, to notice a view of another game
        self._shadow: ShadowGame | None = None
        self._entries: list[tuple] = []  # (index, actor, action, to) the shadow followed, to rebuild it
        self._shadow_args: tuple | None = None

    def read(self, view: View, public: bool = False) -> list[Decision]:
        """The decisions in ``view``'s log not read before (all of them, or none and an error)."""
        log = view.log
        n = len(log)
        if n < self.consumed:
            raise ModelError(f"this view's log has {n} events, but the belief already followed {self.consumed}: "
                             "a view of another (or an earlier) game")
        for i, ev in self._seen.items():
            if i < n:
                e = log[i]      # a view copies each event it hands out: read once
                if (e.kind, e.data) != ev:
                    raise ModelError("this view's log differs from the game this belief follows (another game?)")
        begin = self.consumed
        if begin == 0 and n and log[0].kind == "start":
            if self.start is None:
                raise ModelError("this game started from a position, which its views do not describe; "
                                 "use Belief.for_game(game, ...) or Belief.from_record(record, ...)")
            begin = 1
        entries, _ = entries_from_log(log, begin)
        mark = self.mark()
        out = []
        over = _over_from_log(log)
        try:
            for actor, action, to in entries:
                out.append(self._apply(actor, action, to, view.rules, public, over))
        except BaseException:
            self.rewind(mark)
            raise
        self.consumed = n
        self._seen = {i: (log[i].kind, log[i].data) for i in {0, 1, 2, n - 1} if 0 <= i < n}
        return out

    def _apply(self, actor, action, to, rules, public: bool, over: tuple | None) -> Decision:
        if public and action.kind != "deal":
            action = visible_action(action, actor, to, None)
        if self._shadow is None:
            if self.start is not None:
                self._shadow_args = (self.players, rules, self.viewer, self.own_agents, self.start)
            else:
                if action.kind != "deal":
                    raise ModelError("the view's log does not begin with the deal")
                own = _own_from_deal(to, self.viewer) if self.viewer is not None else ()
                if own and self.own_agents and own[:1] != self.own_agents[:1]:
                    raise ModelError(f"the log deals {self.viewer} {own[0]}, but this belief holds "
                                     f"{', '.join(self.own_agents)}")
                self.own_agents = self.own_agents or own
                self._shadow_args = (self.players, rules, self.viewer, self.own_agents[:1])
            self._shadow = ShadowGame(*self._shadow_args)
        if action.kind == "deal":
            to = None
        self._shadow.real_over = over
        d = self._shadow.apply(self.count, actor, action, to)
        self._entries.append((self.count, actor, action, to))
        self.count += 1
        return d

    def mark(self) -> tuple:
        """The reader's state now, for :meth:`rewind`."""
        return self.consumed, self.count, dict(self._seen), self.own_agents, self._shadow, len(self._entries)

    def rewind(self, mark: tuple) -> None:
        """Go back to the state of :meth:`mark` (the shadow game is rebuilt by re-enacting its entries)."""
        self.consumed, self.count, self._seen, self.own_agents, shadow, n_entries = mark
        if len(self._entries) != n_entries:
            del self._entries[n_entries:]
            if shadow is not None:  # it followed entries since: re-enact those it had followed before
                shadow = ShadowGame(*self._shadow_args)
                for entry in self._entries:
                    shadow.apply(*entry)
        self._shadow = shadow
        if shadow is None:
            self._shadow_args = None


class DecisionStream:
    """A live game's decisions as ``viewer`` sees them, read incrementally.

    Each call of :meth:`new` returns the decisions made since the last call,
    read from ``game.view(viewer)`` only (a game that started from a position
    takes its start from ``game.record.as_player(viewer)``, the engine's
    redaction). Nothing is replayed twice.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob", "Cy"], seed=5)
    >>> stream = DecisionStream(g, "Bob")
    >>> [str(d.action) for d in stream.new()]
    ['deal ?', 'roll 5']
    >>> g.apply("move grey+5")
    >>> [(d.actor, str(d.action)) for d in stream.new()], stream.new()
    ([('Ann', 'move grey+5'), ('chance', 'roll 6')], [])
    """

    def __init__(self, game: Game, viewer: str | None = None):
        if not isinstance(game, Game):
            raise ModelError(f"DecisionStream follows a Game, not {type(game).__name__}")
        if viewer is not None and viewer not in game.players:
            raise ModelError(f"unknown observer {viewer!r}: players are {', '.join(game.players)}")
        self.game, self.viewer = game, viewer
        start, own = None, ()
        if game.start is not None:
            rec = game.record
            rec = rec.as_player(viewer) if viewer is not None else rec.public()
            start, own = rec.start, _record_own_agents(rec, viewer)
        self._reader = ViewReader(game.players, viewer, own, start)

    def new(self) -> list[Decision]:
        """The decisions made since the last call (at first: since the start)."""
        return self._reader.read(self.game.view(self.viewer))
