"""The board widget's synced state, built from a :class:`~heimlich_lab.View` only.

Whatever this module returns is sent to the browser, so it is made from the
viewer's view (the information rule): another player's card, hand or dossier
entries can never reach the widget state or the DOM.

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)
>>> s = board_state(g, "Ann")
>>> s["viewer"], s["own_agents"] == list(g.owners["Ann"]), s["owners"] is None
('Ann', True, True)
>>> s["move_points"], "legal" in s
(3, True)
"""
from __future__ import annotations

from ..rules.board import AGENT_BY_COLOUR, DOSSIER_MARK, FINISH
from ..rules.cards import CARDS
from ..transcript import describe

#: Above this many legal actions the list is not sent (the board builds allocations itself).
MAX_LEGAL_SENT = 200
LOG_LINES = 60

_DECISION_TEXT = {
    "roll": "{p} rolls the die", "points": "{p}: choose 1, 2 or 3 points", "move": "{p}: allocate {n} point(s)",
    "safe": "{p}: move the safe to another building", "announce": "{p}: play a Top Secret card this turn?",
    "round": "{p}: play a Top Secret card, or pass", "dossier": "{p}: fill in the Secret Dossier",
    "draw": "A card is drawn", "take": "A free agent card is taken", "deal": "Agent cards are dealt",
}


def board_state(game, viewer: str | None, *, omniscient: bool = False, human_players=(), belief=None,
                curtain: str | None = None, autoplay: dict | None = None, replay: dict | None = None,
                last_move: dict | None = None, view=None) -> dict:
    """The JSON state the front end draws, seen as ``viewer`` (``None``: spectator).

    ``omniscient=True`` shows every secret and is labelled so (for replays and teachers).
    ``belief`` is an optional dict for the belief panel (see :func:`belief_panel`).
    ``view`` may be passed to draw a stored snapshot instead of the game's current state.
    """
    v = view if view is not None else (game.omniscient_view() if omniscient else game.view(viewer))
    current = v.current_player
    human_turn = current is not None and current in human_players and (current == viewer or omniscient) \
        and curtain is None and view is None
    state = {
        "viewer": viewer,
        "view_label": v.label,
        "players": list(v.players),
        "agents": [{"colour": c, "name": AGENT_BY_COLOUR[c].name, "letter": AGENT_BY_COLOUR[c].letter}
                   for c in v.agents],
        "positions": v.positions,
        "scores": v.scores,
        "safe": v.safe,
        "dossier_mark": DOSSIER_MARK,
        "finish": FINISH,
        "die": v.die,
        "points": v.points,
        "current_player": current,
        "active_player": v.active_player,
        "phase": v.phase,
        "decision_text": _decision_text(v),
        "is_human_turn": bool(human_turn),
        "move_points": v.points if v.phase == "move" else None,
        "own_agents": list(v.own_agents),
        "owners": ({c: o for c, o in (v.final_owners or {}).items()} if v.is_over
                   else ({c: p for p, cols in v.owners.items() for c in cols} if v.owners else None)),
        "hand": list(v.hand) if curtain is None else [],
        "card_names": {c: k.text for c, k in CARDS.items()},
        "hand_sizes": v.hand_sizes,
        "top_secret": v.rules.top_secret,
        "dossier": v.rules.dossier,
        "dossier_sheet": v.dossier_sheet if curtain is None else {},
        "triggers": list(v.triggers),
        "log": [describe(e) for e in list(v.log)[-LOG_LINES:]],
        "last_move": last_move or {},
        "curtain": curtain,
        "autoplay": autoplay,
        "replay": replay,
        "winners": list(v.winners) if v.winners is not None else None,
        "result_text": describe(v.log[-1]) if v.is_over and len(v.log) else "",
        "belief": belief if curtain is None else None,
    }
    if human_turn:
        legal = game.legal_actions()
        if v.phase != "move" or len(legal) <= MAX_LEGAL_SENT:
            state["legal"] = [str(a) for a in legal]
        else:
            state["legal"] = []
    else:
        state["legal"] = []
    if curtain is not None:
        state["own_agents"] = []
    return state


def _decision_text(v) -> str:
    if v.is_over:
        return "Game over"
    who = v.current_player or v.active_player
    return _DECISION_TEXT.get(v.phase, "{p}").format(p=who, n=v.points)


def last_move_of(view) -> dict:
    """Agent -> [from, to] of the newest move or card in the view's log (for the animation)."""
    for e in reversed(list(view.log)[-6:]):
        if e.kind in ("move", "play") and e.data.get("moves"):
            return {c: list(ft) for c, ft in e.data["moves"].items()}
    return {}


def belief_panel(belief, sheet: dict | None = None, notes: list[str] | None = None) -> dict:
    """The belief panel's JSON from a :class:`~heimlich_lab.inference.belief.Belief`-like object.

    Needs ``marginals()`` (player/free -> agent -> p) and optionally ``entropy_history()`` and
    ``last_explanation()``.
    """
    m = belief.marginals()
    rows = list(m)
    cols = list(next(iter(m.values())).keys()) if m else []
    ent = []
    if hasattr(belief, "entropy_history"):
        ent = [float(x) for x in belief.entropy_history()]
    expl = ""
    if hasattr(belief, "last_explanation"):
        expl = belief.last_explanation() or ""
    return {
        "observer": getattr(belief, "observer", None),
        "rows": rows, "cols": cols,
        "p": [[round(float(m[r][c]), 4) for c in cols] for r in rows],
        "entropy": ent[-200:],
        "explanation": expl,
        "notes": notes or [],
        "sheet": sheet,
    }
