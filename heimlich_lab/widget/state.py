"""The board widget's synced state, built from a :class:`~heimlich_lab.View` only.

Whatever this module returns is sent to the browser, so it is made from the
viewer's view (the information rule): another player's card, hand or dossier
entries can never reach the widget state or the DOM.

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)
>>> s = board_state(g, "Ann", human_players=["Ann"])
>>> s["viewer"], s["own_agents"] == list(g.owners["Ann"]), s["owners"] is None
('Ann', True, True)
>>> s["move_points"], s["legal"]          # a move: the board builds the allocation itself
(3, [])

With ``chance="manual"`` a human's roll is a decision of its own (the widget's "Roll the die" button):

>>> m = Game(["Ann", "Bob"], chance="manual"); m.apply("deal Ann=red Bob=green")
>>> s = board_state(m, "Ann", human_players=["Ann"])
>>> s["phase"], s["current_player"], s["legal"], s["decision_text"]
('roll', 'Ann', ['roll'], 'Ann: roll the die')
>>> c = board_state(m, None, human_players=["Ann"], curtain="Hand over to Ann")   # a curtain: the spectator's
>>> c["hand"], c["own_agents"], c["legal"], c["belief"]
(None, [], [], None)
"""
from __future__ import annotations

from collections.abc import Mapping

from ..rules.board import AGENT_BY_COLOUR, DOSSIER_MARK, FINISH
from ..rules.cards import CARDS
from ..transcript import describe

LOG_LINES = 60
#: The notation of a human's die roll (the controller samples the face).
ROLL = "roll"

_DECISION_TEXT = {
    "roll": "{p}: roll the die", "move": "{p}: allocate {n} point(s)",
    "safe": "{p}: a scoring! Move the safe to another building", "announce": "{p}: play a Top Secret card this turn?",
    "round": "{p}: play a Top Secret card, or pass", "dossier": "{p}: fill in the Secret Dossier ({a})",
    "draw": "A card is drawn", "take": "A free agent card is taken", "deal": "Agent cards are dealt",
}


def decider_of(view) -> str | None:
    """Whose decision it is in ``view``: the current player, or at a die roll the player whose turn it is."""
    if view.is_over:
        return None
    if view.current_player is not None:
        return view.current_player
    if view.phase == "roll":
        return view.active_player
    return None


def board_state(game, viewer: str | None, *, omniscient: bool = False, human_players=(), belief=None,
                curtain: str | None = None, autoplay: dict | None = None, replay: dict | None = None,
                last_move: dict | None = None, view=None, label: str | None = None) -> dict:
    """The JSON state the front end draws, seen as ``viewer`` (``None``: spectator).

    ``omniscient=True`` shows every secret and is labelled so (for replays and teachers).
    ``belief`` is an optional dict for the belief panel (see :func:`belief_panel`).
    ``view`` may be passed to draw a stored snapshot instead of the game's current state
    (then nothing is playable). Under a ``curtain`` no private field is filled in at all:
    pass a spectator (``viewer=None``) and the state is the spectator's plus the curtain text.
    """
    if curtain is not None and (viewer is not None or omniscient):
        raise ValueError("under a curtain the state is a spectator's: pass viewer=None")
    v = view if view is not None else (game.omniscient_view() if omniscient else game.view(viewer))
    current = decider_of(v)
    human_turn = (current is not None and current in human_players and (current == viewer or omniscient)
                  and curtain is None and view is None)
    private = viewer is not None and curtain is None
    log = v.log
    state = {
        "viewer": viewer,
        "view_label": label or v.label,
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
        "turn": v.turn,
        "phase": v.phase,
        "decision_text": _decision_text(v, current),
        "is_human_turn": bool(human_turn),
        "move_points": v.points if v.phase == "move" else None,
        "own_agents": list(v.own_agents) if private else [],
        "owners": ({c: o for c, o in (v.final_owners or {}).items()} if v.is_over
                   else ({c: p for p, cols in v.owners.items() for c in cols} if v.owners else None)),
        "hand": list(v.hand) if private else None,
        "card_names": {c: k.text for c, k in CARDS.items()},
        "hand_sizes": v.hand_sizes,
        "top_secret": v.rules.top_secret,
        "dossier": v.rules.dossier,
        "dossier_sheet": v.dossier_sheet if private else None,
        "triggers": list(v.triggers),
        "log": [describe(e) for e in log[max(0, len(log) - LOG_LINES):]],
        "last_move": last_move or {},
        "curtain": curtain,
        "autoplay": autoplay,
        "replay": replay,
        "winners": list(v.winners) if v.winners is not None else None,
        "result_text": describe(log[-1]) if v.is_over and len(log) else "",
        "belief": belief if curtain is None else None,
        "legal": [],
    }
    if human_turn:
        if v.phase == "roll":
            state["legal"] = [ROLL]
        elif v.phase != "move":   # a move: every allocation of exactly move_points is legal
            state["legal"] = [str(a) for a in game.legal_actions()]
    return state


def _decision_text(v, who) -> str:
    if v.is_over:
        return "Game over"
    who = who or v.current_player or v.active_player
    if v.phase == "points":
        return f"{who}: choose 1, 2 or 3 points" + (" (or 0 to draw a card)" if v.rules.top_secret else "")
    about = "for each agent but your own, an opponent or 'free'"
    return _DECISION_TEXT.get(v.phase, "{p}").format(p=who, n=v.points, a=about)


def last_move_of(view) -> dict:
    """Agent -> [from, to] of the newest move or card in the view's log (for the animation)."""
    log = view.log
    for i in range(len(log) - 1, max(-1, len(log) - 7), -1):
        e = log[i]
        if e.kind in ("move", "play") and e.data.get("moves"):
            return {c: list(ft) for c, ft in e.data["moves"].items()}
    return {}


def belief_panel(belief, sheet: dict | None = None, notes: list[str] | None = None,
                 marginals: Mapping | None = None, entropy=None, explanation: str | None = None,
                 version: int | None = None) -> dict:
    """The belief panel's JSON from a :class:`~heimlich_lab.inference.belief.Belief`-like object.

    Needs ``marginals()`` (player/free -> agent -> p) and optionally ``entropy_history()`` and
    ``last_explanation()``; ``marginals``, ``entropy`` and ``explanation`` override them (a replay
    shows a belief at an earlier step). ``version``: the log length of the position the panel was made for
    (the front end shows it as ``data-belief-version``, so a page can tell when the panel is updated).
    """
    m = marginals if marginals is not None else belief.marginals()
    rows = list(m)
    cols = list(next(iter(m.values())).keys()) if m else []
    if entropy is None:
        entropy = belief.entropy_history() if hasattr(belief, "entropy_history") else []
    ent = [round(float(x), 4) for x in entropy]
    if explanation is None and hasattr(belief, "last_explanation"):
        explanation = belief.last_explanation()
    return {
        "observer": getattr(belief, "observer", None),
        "rows": rows, "cols": cols,
        "p": [[round(float(m[r][c]), 4) for c in cols] for r in rows],
        "entropy": ent[-200:],
        "explanation": explanation or "",
        "notes": list(notes or []),
        "sheet": dict(sheet) if sheet else None,
        "version": int(version) if version is not None else len(ent),
    }
