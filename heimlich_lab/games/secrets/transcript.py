"""A Secrets game in words, as one viewer saw it (a player, the spectator, or ``"omniscient"``).

>>> from heimlich_lab.games.secrets import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> for a in ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal detective", "reveal journalist",
...           "offer journalist Cy", "accept"]:
...     g.apply(a)
>>> print("\\n".join(transcript(g, viewer="Bob")[-7:-1]))
Turn 1: Ann is the active player.
Ann turns up the Detective and the Journalist.
Ann offers a card to Cy.
Cy accepts.
Cy adds the Journalist.
Cy shows their marker to everyone else: Hippie.
"""
from __future__ import annotations

from ...errors import HeimlichError
from .views import Event

NAMES = {"double-agent": "Double Agent"}


def card_name(card: str) -> str:
    return NAMES.get(card, card.capitalize())


def describe(e: Event) -> str | None:
    """One event in words (``None`` for events that need none)."""
    k, d = e.kind, e.data
    p = d.get("player")
    if k == "deal":
        counts = ", ".join(f"{n} {t}" for t, n in d["counts"].items())
        return f"The identity markers are dealt: {counts}, one of them in the middle."
    if k == "look":
        what = f": {d['team']}" if d["team"] is not None else ""
        whose = "their own" if d["slot"] == p else ("the middle" if d["slot"] == "middle" else f"{d['slot']}'s")
        return f"{p} looks at {whose} marker{what}."
    if k == "show":
        return f"The middle marker is shown to everyone: {d['team']}."
    if k == "expose":
        team = d["team"] if d["team"] is not None else "(they do not see it)"
        return f"{p} shows their marker to everyone else: {team}."
    if k == "turn":
        return f"Turn {d['turn']}: {p} is the active player."
    if k == "candidates":
        extra = f" ({len(d['under'])} more copies go under the deck)" if d["under"] else ""
        return f"{p} turns up " + " and ".join(f"the {card_name(c)}" for c in d["cards"]) + extra + "."
    if k == "offer":
        card = f"the {card_name(d['card'])}" if d["card"] is not None else "a card"
        return f"{p} offers {card} to {d['target']}."
    if k == "interrupt":
        return f"{p}, the UN, confiscates the card offered to {d['target']}."
    if k in ("accept", "refuse"):
        return f"{p} {k}s."
    if k == "add":
        by = f" (given by {d['by']})" if d["by"] != p else ""
        return f"{p} adds the {card_name(d['card'])}{by}."
    if k == "swap":
        return f"{d['cause'].replace('-', ' ').capitalize()}: the {d['a']} and {d['b']} markers are swapped."
    if k == "side":
        where = f"with {d['slot']}'s ({d['side']})" if d["slot"] is not None else "with a neighbour's (unseen)"
        return f"{p} swaps the middle marker {where}."
    if k == "bullet":
        return f"{p} draws a bullet" + (f": {d['value']}." if d["value"] is not None else ".")
    if k == "shot":
        return f"{p} gives {d['target']} a bullet" + (f" ({d['value']})." if d["value"] is not None else ".")
    if k == "flip":
        return f"{p} turns face down: " + ", ".join(card_name(c) for c in d["cards"]) + "."
    if k == "un":
        return "The UN marker goes back to the middle." if p is None else f"{p} takes the UN marker."
    if k == "over":
        ids = ", ".join(f"{s} {t}" for s, t in d["identities"].items())
        scores = ", ".join(f"{s} {v}" for s, v in d["scores"].items())
        won = ", ".join(d["winners"]) if d["winners"] else "nobody (a tie)"
        return f"The end. Markers: {ids}. Points: {scores}. Winners: {won}."
    return None


class TranscriptWriter:
    """A reader of the Secrets decision stream (:class:`~heimlich_lab.inference.reader.DecisionReader`): the
    events of ``observer``'s view, one at a time, in words (:attr:`lines`).

    >>> from heimlich_lab.secrets import Game
    >>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
    >>> g.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
    >>> writer = TranscriptWriter("Bob")
    >>> for e in g.view("Bob").log:
    ...     _ = writer.add(e)
    >>> writer.lines[0]
    'The identity markers are dealt: 2 CIA, 2 KGB, 1 Hippie, one of them in the middle.'
    """

    def __init__(self, observer: str | None = None):
        self.observer = observer
        self.lines: list[str] = []

    def add(self, event: Event) -> str | None:
        """The line of one event (``None`` for an event that needs none), also appended to :attr:`lines`."""
        line = describe(event)
        if line is not None:
            self.lines.append(line)
        return line


def transcript(source, viewer: str | None = None) -> list[str]:
    """The lines of a game or a full :class:`~heimlich_lab.games.secrets.SecretsRecord` as ``viewer`` saw it."""
    game = source.replay() if hasattr(source, "replay") else source
    if viewer not in (None, "omniscient") and viewer not in game.players:
        raise HeimlichError(f"{viewer!r} is not a player ({', '.join(game.players)}), 'omniscient' or None")
    view = game.omniscient_view() if viewer == "omniscient" else game.view(viewer)
    writer = TranscriptWriter(None if viewer == "omniscient" else viewer)
    for e in view.log:
        writer.add(e)
    return writer.lines
