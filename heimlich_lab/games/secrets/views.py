"""Views: what one player (or a spectator) may know in Secrets.

A :class:`View` is a snapshot. Its :attr:`View.log` lists every event as the viewer saw it: the secret fields
of others' looks, offers, bullets and Diplomat swaps are ``None``; a Journalist's marker is shown to everyone
but the Journalist. :attr:`View.known_markers` follows what the viewer has seen through the swaps they
watched, so it keeps what they *knew* before a swap moved markers away from them. Two views are equal when
they hold the same information.

>>> from heimlich_lab.games.secrets import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee", "Eve"], seed=1)
>>> v = g.view("Ann")
>>> sorted(v.known_markers) == ["Ann", "Eve"]       # her own and her right neighbour's
True
>>> all(e.team is None for e in v.log if e.kind == "look" and e.player != "Ann")
True
"""
from __future__ import annotations

from types import MappingProxyType

from ...engine.views import Event, ViewBase, copy_data  # one event type for every game
from .rules import MIDDLE

#: Event fields only the event's seers see (``None`` for everyone else).
SECRET_FIELDS = {"look": ("team",), "expose": ("team",), "offer": ("card",), "side": ("side", "slot"),
                 "bullet": ("value",), "shot": ("value",)}
#: A spectator's own events: none.
NO_EVENTS = MappingProxyType({})


def blanked(kind: str, data: dict) -> dict:
    """An event's data as everyone but its seers sees it: the secret fields are ``None``.

    >>> blanked("look", {"player": "Bob", "slot": "Cy", "team": "KGB", "cause": "detective"})
    {'player': 'Bob', 'slot': 'Cy', 'team': None, 'cause': 'detective'}
    """
    secret = SECRET_FIELDS.get(kind, ())
    return {k: (None if k in secret else v) for k, v in data.items()}


def seen(raw: tuple, viewer: int | None, omniscient: bool = False) -> Event:
    """The raw event ``(kind, data, seers)`` as the viewer sees it (a copy: changing it changes nothing else)."""
    kind, data, seers = raw
    if seers is None or omniscient or viewer in seers:
        return Event(kind, copy_data(data))
    return Event(kind, blanked(kind, data), hidden=True)


def split_log(events, viewer: int | None, omniscient: bool = False) -> tuple[list, dict]:
    """``(public, own)`` of raw events: the events with every secret blanked, and the viewer's own (index ->
    raw event) that show them what they saw; a view holds these two and nothing else."""
    public, own = [], {}
    for k, raw in enumerate(events):
        kind, data, seers = raw
        if seers is None:
            public.append(raw)
            continue
        public.append((kind, blanked(kind, data), seers))
        if omniscient or viewer in seers:
            own[k] = raw
    return public, own


def _seen(public: list, own, k: int) -> Event:
    """Event ``k`` from what a view holds: the viewer's own event, or the blanked public one."""
    raw = own.get(k)
    if raw is not None:
        return Event(raw[0], copy_data(raw[1]))
    kind, data, seers = public[k]
    return Event(kind, copy_data(data), hidden=seers is not None)


def track(events, slots) -> dict[str, str]:
    """Slot -> team for every marker the events show for certain, followed through the swaps they show.

    A Diplomat's swap the viewer did not see keeps only what both possible sides agree on.
    """
    known: dict[str, str] = {}

    def swapped(k, a, b):
        out = dict(k)
        out.pop(a, None)
        out.pop(b, None)
        if a in k:
            out[b] = k[a]
        if b in k:
            out[a] = k[b]
        return out

    order = list(slots[:-1])
    for e in events:
        k = e.kind
        if k in ("look", "show", "expose") and e.team is not None:
            known[e.slot if k != "expose" else e.player] = e.team
        elif k == "swap":
            known = swapped(known, e.a, e.b)
        elif k == "side":
            if e.slot is not None:
                known = swapped(known, e.slot, MIDDLE)
            else:
                i = order.index(e.player)
                left = swapped(known, order[(i + 1) % len(order)], MIDDLE)
                right = swapped(known, order[(i - 1) % len(order)], MIDDLE)
                known = {s: t for s, t in left.items() if right.get(s) == t}
        elif k == "over":
            known = dict(e.identities)
    return {s: known[s] for s in slots if s in known}


class View(ViewBase):
    """What the viewer may know (see the module doc). ``viewer`` is ``None`` for a spectator.

    Attributes: ``viewer``, ``kind`` ('player', 'spectator', 'omniscient'), ``players``, ``slots``, ``rules``,
    ``phase``, ``current_player``, ``active_player``, ``turn``, ``candidates``, ``offer`` ((card or None,
    chosen player) while an offer is open), ``tableaux`` (player -> (card, face up) pairs), ``bullet_counts``,
    ``un_player``, ``deck_size``, ``marker_counts``, ``end_size``, ``is_over``, ``winners``, ``scores`` (at
    the end), ``log``, ``known_markers``, ``visible_points``.
    """

    __slots__ = ("slots", "candidates", "offer", "tableaux", "bullet_counts", "un_player", "deck_size",
                 "marker_counts", "end_size", "scores", "_log")
    REPR_NAME = "Secrets view"

    @classmethod
    def from_fields(cls, fields: tuple) -> "View":
        """A view of the state it is given (what the viewer may see is decided by the caller: :meth:`Game.view
        <heimlich_lab.games.secrets.game.Game.view>`, or a bot's worker rebuilding its player's view): the values
        of the public slots in their order (``__slots__``), then the raw events ``(kind, data, seers)``, how many
        the view shows, the viewer's seat (``None``: a spectator) and whether every secret is shown. The view
        keeps only blanked copies of the events and the viewer's own (:func:`split_log`), never the raw list.

        >>> from heimlich_lab.games.secrets import Game
        >>> g = Game(["Ann", "Bob", "Cy", "Dee"], seed=1)
        >>> v = g.view("Ann")
        >>> View.from_fields((*[getattr(v, f) for f in View.FIELDS], g.events, len(g.events), 0, False)) == v
        True
        """
        *head, events, n, i, omni = fields
        public, own = split_log(events[:n], i, omni)
        return cls.of_log((*head, (public, own, n)))

    #: The public fields :meth:`from_fields` takes first, in order.
    FIELDS = ("viewer", "kind", "players", "slots", "rules", "phase", "current_player", "active_player", "turn",
              "candidates", "offer", "tableaux", "bullet_counts", "un_player", "deck_size", "marker_counts",
              "end_size", "is_over", "winners", "scores")

    @classmethod
    def of_log(cls, fields: tuple) -> "View":
        """The view of the public fields (:attr:`FIELDS`) and ``(public events, the viewer's own events,
        count)``: the engine's fast path (the game keeps its events already split)."""
        self = object.__new__(cls)
        (self.viewer, self.kind, self.players, self.slots, self.rules, self.phase, self.current_player,
         self.active_player, self.turn, self.candidates, self.offer, self.tableaux, self.bullet_counts,
         self.un_player, self.deck_size, self.marker_counts, self.end_size, self.is_over, self.winners, self.scores,
         self._log) = fields
        return self

    @property
    def log(self) -> list[Event]:
        """The events the viewer saw, oldest first, up to the moment of the view (copies: changing them changes
        no other view, belief or record)."""
        return self.log_since(0)

    def log_since(self, start: int) -> list[Event]:
        """``log[start:]``, without making the earlier events (a live belief takes in only the new ones)."""
        public, own, n = self._log
        return [_seen(public, own, k) for k in range(n)[start:]]

    def __len__(self) -> int:
        """The number of events in :attr:`log`."""
        return self._log[2]

    @property
    def known_markers(self) -> dict[str, str]:
        """Slot -> team of the markers the viewer knows for certain from what they saw (see :func:`track`).
        The exact belief (:class:`heimlich_lab.games.secrets.Belief`) also deduces from the marker counts."""
        return track(self.log, self.slots)

    @property
    def visible_points(self) -> dict[str, int]:
        """Player -> points of the face-up characters (bullets stay secret until the end)."""
        value = self.rules.value
        return {p: sum(value(c) for c, up in t if up) for p, t in self.tableaux.items()}

    def _key(self):
        return (self.viewer, self.kind, self.players, self.rules, self.phase, self.current_player,
                self.active_player, self.turn, self.candidates, self.offer, self.tableaux, self.bullet_counts,
                self.un_player, self.deck_size, self.is_over, self.winners, self.scores, self.log)

    def __eq__(self, other):
        return isinstance(other, View) and self._key() == other._key()

    __hash__ = None
