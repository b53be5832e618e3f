"""What the Secrets table in the notebook draws: plain data made from one viewer's :class:`View` only.

:func:`table_setup` is fixed for a game; :func:`table_state` is the position now, the viewer's decisions and
their belief panel. Both are JSON-ready dicts synced to the front end (``widgets/secrets/table.js``). Nothing
here reads the game itself, so the synced state can hold only what the viewer may know (the information rule;
``tests/test_secrets_widget.py`` proves it by changing only what the viewer may not know).

>>> from heimlich_lab.games.secrets import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> g.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
>>> s = table_state(g.view("Ann"))
>>> [(seat["name"], seat["marker"]) for seat in s["seats"]], s["middle"]["marker"]
([('Ann', 'CIA'), ('Bob', None), ('Cy', None), ('Dee', None)], None)
>>> s["log"][-1]
'Turn 1: Ann is the active player.'
"""
from __future__ import annotations

from .rules import MIDDLE, TEAMS
from .transcript import card_name, describe

#: How many of the latest events the table's log shows.
LOG_LINES = 12


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
    log = view.log
    over = next((e for e in reversed(log) if e.kind == "over"), None) if view.is_over else None
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
    lines = [line for line in map(describe, log) if line is not None]
    state = {
        "viewer": view.viewer, "kind": view.kind,
        "label": label or {"omniscient": "Omniscient: every secret shown", "spectator": "Spectator: public "
                           "information only"}.get(view.kind, f"{view.viewer}'s view"),
        "turn": view.turn, "phase": view.phase, "active": view.active_player, "current": view.current_player,
        "un_player": view.un_player, "deck_size": view.deck_size, "end_size": view.end_size,
        "candidates": list(view.candidates) if view.phase in ("offer",) else [],
        "offer": offer, "seats": seats, "middle": {"marker": known.get(MIDDLE)},
        "log": lines[-LOG_LINES:], "log_length": len(lines),
        "decisions": [{"notation": str(a), "label": _decision_label(a, view)} for a in legal] if human else [],
        "is_human_turn": bool(human), "is_over": view.is_over,
        "winners": list(view.winners) if view.is_over else None,
        "scores": dict(view.scores) if view.is_over else None,
        "belief": belief_panel(belief) if belief is not None else None,
        "curtain": curtain, "replay": replay, "autoplay": autoplay, "error": error,
    }
    return state
