"""What the Top Secret table in the notebook draws: plain data made from one viewer's :class:`View` only.

:func:`table_setup` is fixed for a game (the places of the map, where the front end lays its click targets over
the picture); :func:`table_state` is the position now: the map as :func:`~heimlich_lab.games.topsecret1985.svg.board`
draws it for the viewer (one home for the drawing: the static picture and the table show the same thing), each
seat's public facts and the viewer's own contents and duel card, the viewer's decisions and their belief panel.
Both are JSON-ready dicts synced to the front end (``widgets/topsecret1985/table.js``). Nothing here reads the
game itself, so the synced state holds only what the viewer may know (the information rule;
``tests/test_topsecret1985_widget.py`` proves it by changing only what the viewer may not know).

>>> from heimlich_lab.games.topsecret1985 import Game
>>> g = Game(["Ann", "Bob"], chance="manual")
>>> for a in ["first Ann", "contents A=5 B=3 C=1 D=bomb", "contents A=bomb B=1 C=3 D=5"]:
...     g.apply(a)
>>> s = table_state(g.view("Ann"), legal=g.legal_actions(), human=True)
>>> s["headline"], s["decisions"][0]["label"], s["decisions"][0]["city"]
('Set-up · Your decision: put your suitcase A in a city', 'Put suitcase A in Anchorage', 'anchorage')
>>> [seat["contents"] for seat in s["seats"]]
[{'A': '5', 'B': '3', 'C': '1', 'D': 'bomb'}, None]
>>> "data-contents" in table_state(g.view(None))["svg"]       # a spectator sees nobody's contents
False

Every sentence about a player reads right for a player called "You" (:func:`~heimlich_lab.engine.words.for_any_name`):

>>> g = Game(["You", "Bob"], chance="manual")
>>> for a in ["first You", "contents A=5 B=3 C=1 D=bomb"]:
...     g.apply(a)
>>> s = table_state(g.view("You"))
>>> s["label"], s["seats"][0]["title"], s["log"][-1]
('Your view', 'You', 'You hide your content cards: A=5, B=3, C=1, D=bomb.')
"""
from __future__ import annotations

from typing import Any, Sequence

from ...engine.words import count, for_any_name, possessive
from ...widget.story import lead_in, panel_frame
from .actions import agent_owner
from .map import LETTERS
from .rules import CONTENTS
from .svg import PLAYER_COLOURS, board
from .transcript import describe

__all__ = ["LOG_LINES", "LogWords", "belief_panel", "decision_entry", "headline", "table_setup", "table_state"]

#: How many of the latest events the table's log shows.
LOG_LINES = 12
#: The height of the picture's strip under the map (dice, hands, secrets): :func:`svg.board`'s.
STRIP = 70
_CORNER_SEAT = {"NW": 0, "NE": 1, "SE": 2, "SW": 3}

#: What the player who decides does in each phase, for the turn headline.
PHASE_WORDS = {
    "first": "the dice choose the start player",
    "contents": "hide {their} content cards under the suitcases A-D",
    "place": "put {their} suitcase {letter} in a city",
    "roll": "the dice are rolled",
    "move": "move {their} agents ({steps} left), pick up or drop suitcases, or end the move",
    "attack": "lay a duel card face down (the aggressor)",
    "defend": "lay a duel card face down (the defender)",
    "take": "take the loser's suitcase or leave it",
    "bomb": "choose the agent the bomb costs",
}


#: How a game ended, in words (docs/topsecret1985.md, "The end").
END_WORDS = {
    "target": "the target was reached",
    "out-of-reach": "nobody can reach the target",
    "no-agents": "no agent is left",
    "max-rounds": "the last round was played",
}


def table_setup(view: Any) -> dict[str, Any]:
    """What is fixed for a game: the title, the players with their corners and colours, and the places of the map
    as fractions of the picture's width and height (where the front end lays its click targets)."""
    m = view.map
    h = m.height + STRIP
    places = {n: {"name": m.names[n], "kind": m.kind[n], "x": round(m.pos[n][0] / m.width, 5),
                  "y": round(m.pos[n][1] / h, 5)} for n in m.kind}
    colour = {p: PLAYER_COLOURS[_CORNER_SEAT[c]][0] for p, c in view.corners.items()}
    return {"game": "topsecret1985", "title": "Top Secret", "players": list(view.players),
            "corners": dict(view.corners), "colours": colour, "places": places, "letters": list(LETTERS),
            "contents": list(CONTENTS), "aspect": round(m.width / h, 5), "target": view.rules.target}


def headline(view: Any) -> str:
    """The turn headline: the turn, then who decides what now, or the result.

    >>> from heimlich_lab.games.topsecret1985 import Game
    >>> headline(Game(["Ann", "Bob"], chance="manual").view(None))
    'Set-up · the dice choose the start player'
    """
    if view.is_over:
        won = ", ".join(view.winners) if view.winners else "nobody"
        why = END_WORDS.get(view.end_reason or "", "")
        return for_any_name(f"Game over{f' ({why})' if why else ''} · winners: {won}")
    who = view.current_player
    letter = ""
    if view.phase == "place" and who is not None:
        letter = next((L for L in LETTERS if view.suitcases.get(f"{who}:{L}") is None), "")
    words = PHASE_WORDS.get(view.phase, view.phase)
    when = f"Turn {view.turn}" if view.turn else "Set-up"
    if who is None:
        return f"{when} · {words}"
    mine = who == view.viewer
    said = words.format(their="your" if mine else "their", letter=letter, steps=count(view.points, "step"))
    if mine:
        return f"{when} · Your decision: {said}"
    return for_any_name(f"{when} · {who} decides: {said}")


def _place(view: Any, node: str | None) -> str:
    return "" if node is None else view.map.names[node]


def decision_entry(action: Any, view: Any) -> dict[str, Any]:
    """One legal action as the front end offers it: its notation, words, kind and what it names (the ``agent``
    and the place it stands at, ``at``; the ``city`` a step or a placement goes to; the ``suitcase``; the duel
    ``card``)."""
    k, a = action.kind, action.args
    entry: dict[str, Any] = {"notation": str(action), "kind": k}
    if k == "place":
        entry.update(city=a[1], label=f"Put suitcase {a[0]} in {_place(view, a[1])}")
    elif k == "step":
        at = view.agents.get(a[0])
        entry.update(agent=a[0], at=at, city=a[1],
                     label=f"Move {a[0]} from {_place(view, at)} to {_place(view, a[1])}")
    elif k == "pick":
        entry.update(agent=a[0], at=view.agents.get(a[0]), suitcase=a[1], label=f"{a[0]} picks up {a[1]}")
    elif k == "drop":
        entry.update(agent=a[0], at=view.agents.get(a[0]), suitcase=view.carrying.get(a[0]),
                     label=f"{a[0]} drops {view.carrying.get(a[0])}")
    elif k == "eliminate":
        entry.update(agent=a[0], at=view.agents.get(a[0]),
                     label=f"Lose {a[0]} (in {_place(view, view.agents.get(a[0]))})")
    elif k == "card":
        entry.update(card=a[0], label=f"Duel card {a[0]}")
    elif k == "contents":
        entry.update(contents=dict(a), label="Hide " + " ".join(f"{L}={c}" for L, c in a))
    else:
        entry["label"] = {"end": "End the move", "take": "Take the suitcase", "leave": "Leave it"}.get(k, k)
    entry["label"] = for_any_name(entry["label"])
    return entry


def _seats(view: Any, contents: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    out = []
    for p in view.players:
        alive = [a for a, n in view.agents.items() if agent_owner(a) == p and n is not None]
        out.append({"name": p, "corner": view.corners[p], "you": p == view.viewer,
                    "title": f"{p} (you)" if p == view.viewer and p != "You" else p,
                    "deciding": p == view.current_player, "active": p == view.active_player,
                    "agents": len(alive), "secrets": view.secrets[p], "hand": list(view.hands[p]),
                    "played": list(view.played[p]),
                    "delivered": [{"suitcase": s, "content": c} for s, c in view.delivered[p]],
                    "carrying": [{"agent": a, "suitcase": s} for a, s in view.carrying.items()
                                 if s is not None and agent_owner(a) == p],
                    "contents": contents.get(p)})
    return out


def _duel(view: Any) -> dict[str, Any] | None:
    d = view.duel
    if d is None:
        return None
    return {"attacker": d["attacker"], "defender": d["defender"], "city": d["city"],
            "city_name": _place(view, d["city"]), "waiting": list(d["waiting"]), "chosen": bool(d["chosen"]),
            "my_card": view.my_card}


def belief_panel(belief: Any, viewer: str | None) -> dict[str, Any]:
    """The belief panel of ``viewer`` (a player or ``None``, a spectator) from ``belief``: a spectator's belief,
    which every non-owner shares (:mod:`~heimlich_lab.games.topsecret1985.belief`), or the viewer's own. Per
    opponent a 4 x 4 table, ``contents[opponent][letter][content]`` = P, and the last evidence in words.

    >>> from heimlich_lab.games.topsecret1985 import Belief, play, RandomBot
    >>> rec = play([RandomBot(1), RandomBot(2)], seed=4)
    >>> panel = belief_panel(Belief.from_record(rec, None), "Ann")
    >>> list(panel["contents"]), list(panel["contents"]["Bob"]["A"])
    (['Bob'], ['5', '3', '1', 'bomb'])
    """
    opponents = [p for p in belief.tables if p != viewer]
    evidence = [e for e in belief.evidence if e.player != viewer]
    last = evidence[-1] if evidence else None
    title = f"{possessive(viewer)} belief" if viewer is not None else "A spectator's belief"
    head = None
    if last is not None:
        bits = f"{last.kl:.2f} bits" if last.kl >= 0.005 else "under 0.01 bits"
        head = {"text": for_any_name(f"{last.words.rstrip('.')}: {bits} about {last.player}'s suitcases.")
                } | lead_in(viewer)
        head["label"] = "Last evidence:"
    explanation = "Each row is a suitcase of that player; each cell, the chance it holds that content."
    frame = panel_frame(viewer, f"{title}: what is in each suitcase?", head, explanation, GLOSSARY, len(evidence))
    return frame | {
        "opponents": opponents,
        "contents": {p: {L: {c: round(v, 4) for c, v in row.items()}
                         for L, row in belief.marginals(p).to_dict().items()} for p in opponents},
        "last_evidence": None if last is None else {"player": last.player, "words": for_any_name(last.words),
                                                    "bits": round(last.kl, 4)}}


#: The words of the panel's details, each with a one-line gloss.
GLOSSARY = (
    {"term": "P(Bob's A holds the bomb)", "gloss": "the probability that Bob's suitcase A holds the bomb"},
    {"term": "filling", "gloss": "one of the 24 ways to put 5, 3, 1 and the bomb in the suitcases A-D"},
    {"term": "bits", "gloss": "how far the evidence moved the belief about that player (a KL divergence)"},
)


def _contents_of(view: Any) -> dict[str, dict[str, str]]:
    if view.contents is None:
        return {}
    if view.kind == "omniscient":
        return {p: dict(c) for p, c in view.contents.items()}
    return {view.viewer: dict(view.contents)}


class LogWords:
    """The log in words as each viewer saw it, kept between calls and extended by the events since the last one
    (a table asks at every step; describing the whole log each time would make a long game's replay quadratic).

    >>> from heimlich_lab.games.topsecret1985 import Game
    >>> g = Game(["Ann", "Bob"], chance="manual")
    >>> words = LogWords()
    >>> g.apply("first Ann"); words(g.view("Bob"))
    ['Ann starts (corners: Ann NW, Bob SE).']
    >>> g.apply("contents A=5 B=3 C=1 D=bomb"); words(g.view("Bob"))[-1], words(g.view("Ann"))[-1]
    ('Ann hides her content cards.', 'Ann hides her content cards: A=5, B=3, C=1, D=bomb.')
    """

    def __init__(self) -> None:
        self._seen: dict[tuple[str | None, str], tuple[int, list[str]]] = {}

    def __call__(self, view: Any) -> list[str]:
        """The lines of ``view``'s log (a list the caller must not change)."""
        key = (view.viewer, view.kind)
        n, lines = self._seen.get(key, (0, []))
        if len(view) < n:              # another game, or an earlier position: start again
            n, lines = 0, []
        new = [for_any_name(line) for line in (describe(e, view.map) for e in view.log_since(n)) if line is not None]
        lines = lines + new if new else lines
        self._seen[key] = (len(view), lines)
        return lines


def table_state(view: Any, belief: Any = None, *, legal: Sequence[Any] = (), human: bool = False,
                curtain: str | None = None, label: str | None = None, replay: dict[str, Any] | None = None,
                autoplay: dict[str, Any] | None = None, error: str = "", words: LogWords | None = None
                ) -> dict[str, Any]:
    """The synced state for ``view`` (a player's, a spectator's or the omniscient one).

    ``belief``: the belief whose panel is shown (a spectator's, or the viewer's; ``None``: no panel), ``legal``
    the actions offered when ``human`` (the viewer decides now). With a ``curtain``, pass the spectator's view: only
    public facts. ``words``: a :class:`LogWords` that keeps the log in words between calls (default: described anew).
    """
    lines = (words or LogWords())(view)
    viewer = view.viewer if view.kind == "player" else None
    return {
        "viewer": view.viewer, "kind": view.kind,
        "label": label or {"omniscient": "Omniscient: every secret shown", "spectator": "Spectator: public "
                           "information only"}.get(view.kind, f"{possessive(view.viewer)} view"),
        "headline": headline(view), "turn": view.turn, "phase": view.phase, "active": view.active_player,
        "current": view.current_player, "dice": list(view.dice) if view.dice is not None else None,
        "points": view.points, "bonus": dict(view.bonus), "duel": _duel(view),
        "agents": {a: n for a, n in view.agents.items() if n is not None},
        "carrying": {a: s for a, s in view.carrying.items() if s is not None},
        "seats": _seats(view, _contents_of(view)), "svg": str(board(view)),
        "log": lines[-LOG_LINES:], "log_length": len(lines),
        "decisions": [decision_entry(a, view) for a in legal] if human else [],
        "is_human_turn": bool(human), "is_over": view.is_over,
        "winners": list(view.winners) if view.is_over else None, "end_reason": view.end_reason,
        "belief": belief_panel(belief, viewer) if belief is not None and view.kind != "omniscient" else None,
        "curtain": curtain, "replay": replay, "autoplay": autoplay, "error": error,
    }
