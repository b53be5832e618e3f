"""A Top Secret game in words, as one viewer saw it (a player, the spectator, or ``"omniscient"``).

>>> from heimlich_lab.games.topsecret1985 import Game
>>> g = Game(["Ann", "Bob"], chance="manual")
>>> for a in ["first Ann", "contents A=5 B=3 C=1 D=bomb", "contents A=bomb B=1 C=3 D=5", "place A rome"]:
...     g.apply(a)
>>> print("\\n".join(transcript(g, viewer="Bob")))
Top Secret: Bob's view
Ann starts (corners: Ann NW, Bob SE).
Ann hides her content cards.
Bob hides his content cards: A=bomb, B=1, C=3, D=5.
Ann puts suitcase Ann:A in Rome.

The words name places as the map does: a city by its name, a base as "the" and its name.

>>> from heimlich_lab.engine.views import Event
>>> describe(Event("step", {"player": "Bob", "agent": "Bob#1", "source": "start-SE", "city": "rio", "paid": "roll"}))
'Bob#1 moves from the start base SE to Rio de Janeiro.'
>>> place_words("arrival-NW"), place_words("somewhere-else")
('the arrival base of NW', 'somewhere-else')
"""
from __future__ import annotations

from typing import Any

from ...engine.views import Event
from ...engine.words import count
from .map import Map

__all__ = ["describe", "place_words", "transcript"]


def place_words(node: str, board: Map | None = None) -> str:
    """A place of ``board`` (default: the stand-in map) in words: a city's name ("Rio de Janeiro"), a base's
    name after "the" ("the start base SE"); a node the map does not know reads as its notation."""
    return (Map.default() if board is None else board).words.get(node, node)


def describe(e: Event, board: Map | None = None) -> str | None:
    """One event in words (``None``: an event the transcript leaves out); places read as ``board`` names them
    (default: the stand-in map), see :func:`place_words`."""
    k, d = e.kind, e.data
    d = {**d, **{f: place_words(d[f], board) for f in ("city", "source") if isinstance(d.get(f), str)}}
    p = d.get("player")
    their = ("her" if p in ("Ann", "Dee", "Eve", "Fay") else "his" if p in ("Bob", "Cy", "Gus", "Hal")
             else "your" if p == "You" else "their")     # "You hide your content cards" (for_any_name)
    if k == "first":
        corners = ", ".join(f"{q} {c}" for q, c in d["corners"].items())
        return f"{p} starts (corners: {corners})."
    if k == "contents":
        shown = "" if d["contents"] is None else ": " + ", ".join(f"{L}={c}" for L, c in d["contents"].items())
        return f"{p} hides {their} content cards{shown}."
    if k == "place":
        return f"{p} puts suitcase {d['suitcase']} in {d['city']}."
    if k == "turn":
        return f"Turn {d['turn']}: {p}."
    if k == "skip":
        return f"Turn {d['turn']}: {p} has no agent left and passes."
    if k == "roll":
        return f"{p} rolls {d['dice'][0]} and {d['dice'][1]}: {count(d['points'], 'step')}."
    if k == "step":
        return f"{d['agent']} moves from {d['source']} to {d['city']}" + (" (bonus move)." if d["paid"] == "bonus"
                                                                         else ".")
    if k == "pick":
        return f"{d['agent']} picks up {d['suitcase']} in {d['city']}."
    if k == "drop":
        why = {"duel": " (lost a duel)", "bomb": " (lost to a bomb)"}.get(d["cause"], "")
        return f"{d['agent']} drops {d['suitcase']} in {d['city']}{why}."
    if k == "duel":
        return f"Duel in {d['city']}: {d['attacker']} attacks {d['defender']}."
    if k == "card":
        return f"{p} lays a duel card face down" + ("." if d["card"] is None else f": {d['card']}.")
    if k == "fight":
        fate = "goes back to its start base" if d["loser_fate"] == "home" else "is eliminated"
        return (f"Cards shown: {d['attacker']} {d['attacker_card']}, {d['defender']} {d['defender_card']}; "
                f"{d['winner']} wins and {d['loser']} {fate}.")
    if k == "cards-back":
        return f"{p} has played all 7 duel cards: they come back."
    if k in ("take", "leave"):
        return f"{d['agent']} {'takes' if k == 'take' else 'leaves'} {d['suitcase']}."
    if k == "home":
        return None if d["cause"] == "duel" else f"{d['agent']} goes back to its start base."
    if k == "eliminated":
        return None if d["cause"] == "duel" else f"{d['agent']} is lost ({d['cause']})."
    if k == "deliver":
        what = "a BOMB" if d["content"] == "bomb" else count(int(d["content"]), "secret")
        return f"{d['agent']} brings {d['suitcase']} home: {what}. {p} has {count(d['secrets'], 'secret')}."
    if k == "bomb":
        return f"The bomb costs {p} {count(d['lost'], 'agent')}" + (f"; {p} chooses {d['choose']}." if d["choose"]
                                                                    else ".")
    if k == "end":
        return None
    if k == "over":
        won = ", ".join(d["winners"]) or "nobody"
        return f"Game over ({d['reason']}): {won} wins. Secrets: " + ", ".join(
            f"{q} {v}" for q, v in d["secrets"].items()) + "."
    return f"{k}: {d}"   # pragma: no cover


def transcript(source: Any, viewer: str | None = None) -> list[str]:
    """The game (or a full record) in words as ``viewer`` saw it: a player, ``None`` (the spectator) or
    ``"omniscient"``."""
    from .records import TopSecretRecord
    game = source.replay() if isinstance(source, TopSecretRecord) else source
    view = game.omniscient_view() if viewer == "omniscient" else game.view(viewer)
    lines = [f"Top Secret: {view.label}"]
    for e in view.log:
        line = describe(e, game.map)
        if line is not None:
            lines.append(line)
    return lines
