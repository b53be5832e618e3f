"""What the Secrets table in the notebook draws: plain data made from one viewer's :class:`View` only.

:func:`table_setup` is fixed for a game; :func:`table_state` is the position now, the viewer's decisions and
their belief panel. Both are JSON-ready dicts synced to the front end (``widgets/secrets/table.js``). Nothing
here reads the game itself, so the synced state can hold only what the viewer may know (the information rule;
``tests/test_secrets_widget.py`` proves it by changing only what the viewer may not know).

>>> from heimlich_lab.secrets import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> g.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
>>> s = table_state(g.view("Ann"))
>>> [(seat["name"], seat["marker"]) for seat in s["seats"]], s["middle"]["marker"]
([('Ann', 'CIA'), ('Bob', None), ('Cy', None), ('Dee', None)], None)
>>> describe(g.view("Bob").log[1], "Bob")
'Ann looked at their own marker.'
"""
from __future__ import annotations

from .rules import MIDDLE, TEAMS

#: How many of the latest events the table's log shows.
LOG_LINES = 12

_CARD_NAMES = {"psychiatrist": "Psychiatrist", "double-agent": "Double Agent", "politician": "Politician",
               "journalist": "Journalist", "diplomat": "Diplomat", "detective": "Detective",
               "scientist": "Scientist", "assassin": "Assassin"}


def card_name(card: str | None) -> str:
    """``double-agent`` -> ``Double Agent``; an unseen card is ``a card``."""
    return "a card" if card is None else _CARD_NAMES[card]


def _a(card: str | None) -> str:
    name = card_name(card)
    return name if card is None else ("an " if name[0] in "AEIOU" else "a ") + name


def _slot(slot: str, looker: str | None = None) -> str:
    if slot == MIDDLE:
        return "the middle marker"
    return "their own marker" if slot == looker else f"{slot}'s marker"


def describe(e, viewer: str | None = None) -> str:
    """One event of a view's log in words, as the viewer saw it (hidden details stay hidden).

    >>> from heimlich_lab.rules.views import Event
    >>> describe(Event("side", {"player": "Bob", "side": None, "slot": None}), "Ann")
    "Bob's Diplomat swapped the middle marker with a neighbour's (left or right: unseen)."
    """
    k, p = e.kind, e.player
    you = (lambda name: "you" if name == viewer else name)
    if k == "deal":
        return "The identity markers are dealt: " + ", ".join(f"{n} {t}" for t, n in e.counts.items()) + "."
    if k == "look":
        what = f": {e.team}" if e.team is not None else ""
        return f"{you(p).capitalize()} looked at {_slot(e.slot, p)}{what}."
    if k == "show":
        return f"The middle marker is shown to everyone: {e.team}."
    if k == "expose":
        what = f": {e.team}" if e.team is not None else " to the others (not to themselves)"
        return f"{p}'s marker is shown{what}."
    if k == "turn":
        return f"Turn {e.turn}: {p} is active."
    if k == "reveal":
        return f"{p} turns up {_a(e.card)}."
    if k == "candidates":
        under = f" ({len(e.under)} duplicate(s) go under the deck)" if e.under else ""
        return f"{p} chooses between {' and '.join(map(card_name, e.cards))}{under}."
    if k == "offer":
        return f"{you(p).capitalize()} offered {card_name(e.card)} to {you(e.target)}."
    if k in ("accept", "refuse"):
        return f"{you(p).capitalize()} {k}{'ed' if k == 'accept' else 'd'}."
    if k == "interrupt":
        return f"{you(p).capitalize()} (UN) confiscated the card offered to {e.target}."
    if k == "allow":
        return f"{you(p).capitalize()} (UN) let the offer be answered."
    if k == "add":
        by = "" if e.by == p else f" (given by {e.by})"
        return f"{p} adds {_a(e.card)}{by}."
    if k == "swap":
        cause = {"psychiatrist": "Psychiatrist", "double-agent": "Double Agent"}.get(e.cause, e.cause)
        return f"{cause}: the {e.a} and {e.b} markers are swapped."
    if k == "side":
        if e.slot is None:
            return f"{p}'s Diplomat swapped the middle marker with a neighbour's (left or right: unseen)."
        return f"{you(p).capitalize()} swapped the middle marker with {e.slot}'s ({e.side})."
    if k == "bullet":
        what = f" worth {e.value}" if e.value is not None else ""
        return f"{you(p).capitalize()} drew a bullet{what}."
    if k == "shot":
        what = f" worth {e.value}" if e.value is not None else ""
        return f"{you(p).capitalize()} gave a bullet{what} to {e.target}."
    if k == "flip":
        why = "a second Scientist" if e.cause == "scientist" else "pairs"
        return f"{p}'s {', '.join(map(card_name, e.cards))} turned face down ({why})."
    if k == "un":
        return "Nobody holds the UN marker." if p is None else f"{p} takes the UN marker."
    if k == "over":
        won = ", ".join(e.winners) if e.winners else "nobody (a tie)"
        return f"The game is over. Winners: {won}."
    return f"{k}: {dict(e.data)}"


def _decision_label(action, view) -> str:
    """A button's words for one legal action."""
    k, a = action.kind, action.args
    if k == "offer":
        return f"Offer {card_name(a[0])} to {a[1]}"
    if k in ("swap", "give", "shoot", "look"):
        verb = {"swap": "Swap", "give": "Give it to", "shoot": "Shoot", "look": "Look at"}[k]
        return f"{verb} {' and '.join(a) if k == 'swap' else ('the middle' if a[0] == MIDDLE else a[0])}"
    if k == "side":
        i = view.players.index(view.current_player)
        n = len(view.players)
        who = view.players[(i + 1) % n] if a[0] == "left" else view.players[(i - 1) % n]
        return f"Swap with {a[0]} neighbour ({who})"
    return {"accept": "Accept", "refuse": "Refuse", "interrupt": "Confiscate (UN)", "allow": "Let it be answered"}[k]


def table_setup(view) -> dict:
    """What is fixed for a game: the seats, the slots, the marker counts and the tableau size that ends it."""
    return {"game": "secrets", "players": list(view.players), "slots": list(view.slots), "teams": list(TEAMS),
            "marker_counts": dict(view.marker_counts), "end_size": view.end_size}


def belief_panel(belief) -> dict:
    """The belief panel: per seat and the middle, P(CIA / KGB / Hippie), and the last update in words."""
    ids = belief.identities()
    return {"observer": belief.observer, "identities": {s: {t: round(p, 4) for t, p in d.items()}
                                                        for s, d in ids.items()},
            "explanation": belief.explain_last(), "version": len(belief.posterior.history)}


def table_state(view, belief=None, *, legal=(), human: bool = False, curtain: str | None = None,
                label: str | None = None, replay: dict | None = None, autoplay: dict | None = None,
                error: str = "", markers: dict | None = None) -> dict:
    """The synced state for ``view`` (a player's, a spectator's or the omniscient one).

    ``belief`` is the viewer's belief (its panel is shown), ``legal`` the actions offered as buttons when
    ``human`` (the viewer decides now). With a ``curtain``, pass the spectator's view: only public facts.
    ``markers`` (slot -> team) is for the omniscient view only, which shows where every marker lies.
    """
    known = view.known_markers if markers is None else dict(markers)
    over = next((e for e in reversed(view.log) if e.kind == "over"), None) if view.is_over else None
    bullets = (over.bullets if over is not None else {}) or {}
    seats = []
    for p in view.players:
        tab = view.tableaux[p]
        seats.append({"name": p, "cards": [{"card": c, "up": up} for c, up in tab],
                      "bullets": view.bullet_counts[p], "bullet_values": list(bullets.get(p, ())),
                      "size": len(tab) + view.bullet_counts[p], "points": (view.scores or view.visible_points)[p],
                      "marker": known.get(p), "active": p == view.active_player,
                      "deciding": p == view.current_player, "un": p == view.un_player,
                      "you": p == view.viewer})
    offer = None
    if view.offer is not None:
        offer = {"from": view.active_player, "to": view.offer[1], "card": view.offer[0]}
    log = view.log
    state = {
        "viewer": view.viewer, "kind": view.kind,
        "label": label or {"omniscient": "Omniscient: every secret shown", "spectator": "Spectator: public "
                           "information only"}.get(view.kind, f"{view.viewer}'s view"),
        "turn": view.turn, "phase": view.phase, "active": view.active_player, "current": view.current_player,
        "un_player": view.un_player, "deck_size": view.deck_size, "end_size": view.end_size,
        "candidates": list(view.candidates) if view.phase in ("offer",) else [],
        "offer": offer, "seats": seats, "middle": {"marker": known.get(MIDDLE)},
        "log": [describe(e, view.viewer) for e in log[-LOG_LINES:]], "log_length": len(log),
        "decisions": [{"notation": str(a), "label": _decision_label(a, view)} for a in legal] if human else [],
        "is_human_turn": bool(human), "is_over": view.is_over,
        "winners": list(view.winners) if view.is_over else None,
        "scores": dict(view.scores) if view.is_over else None,
        "belief": belief_panel(belief) if belief is not None else None,
        "curtain": curtain, "replay": replay, "autoplay": autoplay, "error": error,
    }
    return state
