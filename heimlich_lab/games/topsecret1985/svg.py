"""A static picture of a Top Secret position, for slides and the course: :func:`board` returns an
:class:`~heimlich_lab.engine.svg.Svg` (a string a notebook shows as a picture; ``.save(path)`` writes it).

It draws the map (cities and the lines between them), each corner's start base, the arrival base lying there and
the spaces of that corner's player's suitcases A-D, every agent (a disc in its player's colour with the
player's initial and how many stand there), every suitcase (its owner's colour and letter: in its city, or
beside the agent that carries it), the dice and the steps left, each player's remaining duel cards and the
secrets they brought home.

The information rule holds: a picture of a game is the spectator's unless a ``viewer`` is named; a player's
picture shows that player's own contents under their suitcase spaces, and nobody else's (the omniscient view,
``viewer="omniscient"``, shows every player's, for teaching only).

>>> from heimlich_lab.games.topsecret1985 import RandomBot, play
>>> g = play([RandomBot(1), RandomBot(2)], seed=4).replay(until=40)
>>> picture = board(g, viewer="Ann")
>>> picture.startswith("<svg") and picture.count("data-city=") == 30
True
>>> 'data-contents="Ann"' in picture, 'data-contents="Bob"' in picture, "data-contents" in board(g)
(True, False, False)

Every drawn thing has a ``data-`` attribute (a board widget's test hooks): ``data-city``, ``data-base``,
``data-space``, ``data-agents`` (with ``data-count``), ``data-suitcase``, ``data-contents``, ``data-hand``.
"""
from __future__ import annotations

from collections import Counter
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ...engine.svg import Svg
from ...engine.words import count
from ...errors import HeimlichError
from .actions import agent_owner, suitcase_owner
from .map import LETTERS

__all__ = ["PLAYER_COLOURS", "board"]

#: Fill and ink per seat, clockwise from the top left (Okabe-Ito colours, told apart by colour-blind readers;
#: the players' initials are drawn on every agent and suitcase besides).
PLAYER_COLOURS: tuple[tuple[str, str], ...] = (("#D55E00", "#ffffff"), ("#0072B2", "#ffffff"),
                                               ("#009E73", "#ffffff"), ("#E69F00", "#000000"))
_CORNER_SEAT = {"NW": 0, "NE": 1, "SE": 2, "SW": 3}
#: Where a city's name is written (the map's ``label``): offset from the dot and the text's anchor.
_LABEL_AT = {"below": (0, 20, "middle"), "above": (0, -11, "middle"), "left": (-11, 4, "end"),
             "right": (11, 4, "start")}
#: A name centred on a dot this close to the board's left or right edge would run off it.
_EDGE = 40
#: An agent's disc radius and a suitcase's side (sized to read at the notebook's width).
_AGENT_R, _CASE = 8.5, 11


def board(position: Any, viewer: str | None = None) -> Svg:
    """The picture of a game or a view (a game: the spectator's view unless ``viewer`` names a player, or is
    ``"omniscient"``)."""
    view = _view_of(position, viewer)
    m = view.map
    width, height = m.width, m.height
    colour = {p: PLAYER_COLOURS[_CORNER_SEAT[c]] for p, c in view.corners.items()}
    initial = _initials(view.players)
    out = [f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width:g} {height + 70:g}' "
           f"width='{width:g}' height='{height + 70:g}' font-family='sans-serif' role='img' "
           f"aria-label={quoteattr(_label(view))}>",
           f"<rect width='{width:g}' height='{height + 70:g}' fill='#f4f1e8'/>"]
    # the lines, then the places
    for a, b in m.graph.edges():
        (x1, y1), (x2, y2) = m.pos[a], m.pos[b]
        out.append(f"<line x1='{x1:g}' y1='{y1:g}' x2='{x2:g}' y2='{y2:g}' stroke='#9a9384' stroke-width='1.5'/>")
    for node in m.cities:
        x, y = m.pos[node]
        dx, dy, anchor = _LABEL_AT[m.label[node]]
        if anchor == "middle" and min(x, width - x) < _EDGE:    # by the board's edge: the name runs inwards
            dx, anchor = (-8, "start") if x < _EDGE else (8, "end")
        out.append(f"<g data-city={quoteattr(node)}><circle cx='{x:g}' cy='{y:g}' r='7' fill='#fffdf7' "
                   f"stroke='#5b564c' stroke-width='1.5'/><text x='{x + dx:g}' y='{y + dy:g}' font-size='11' "
                   f"text-anchor='{anchor}' fill='#3b372f'>{escape(m.names[node])}</text></g>")
    owner_of_corner = {c: p for p, c in view.corners.items()}
    for corner, start in m.start.items():
        x, y = m.pos[start]
        p = owner_of_corner.get(corner)
        fill = colour[p][0] if p else "#d8d3c6"
        out.append(f"<rect data-base={quoteattr(start)} x='{x - 14:g}' y='{y - 14:g}' width='28' height='28' "
                   f"rx='4' fill='{fill}' stroke='#3b372f'/>")
    for corner, arrival in m.arrival.items():
        x, y = m.pos[arrival]
        p = owner_of_corner.get(corner)
        ink = colour[p][0] if p else "#b7b0a0"
        out.append(f"<g data-base={quoteattr(arrival)}><rect x='{x - 14:g}' y='{y - 14:g}' width='28' "
                   f"height='28' rx='14' fill='#fffdf7' stroke='{ink}' stroke-width='4'/>"
                   + (f"<text x='{x:g}' y='{y + 4:g}' font-size='12' text-anchor='middle' fill='#3b372f'>"
                      f"{escape(initial[p])}</text>" if p else "") + "</g>")
    # the suitcase spaces, with the contents the view holds
    contents = _contents(view)
    for p, corner in view.corners.items():
        for letter in LETTERS:
            x, y = m.spaces[corner][letter]
            out.append(f"<rect data-space={quoteattr(f'{p}:{letter}')} x='{x - 5:g}' y='{y - 5:g}' width='10' "
                       f"height='10' fill='none' stroke='{colour[p][0]}'/>")
        if p in contents:
            x, y = m.spaces[corner]["A"]
            words = " ".join(f"{L}={contents[p][L]}" for L in LETTERS)
            out.append(f"<text data-contents={quoteattr(p)} x='{x - 5:g}' y='{y + 18:g}' font-size='10' "
                       f"fill='#3b372f'>{escape(words)}</text>")
    # agents: one disc per player and place, with the count
    groups = Counter((agent_owner(a), n) for a, n in view.agents.items() if n is not None)
    offsets: dict[str, int] = {}
    for (p, node), here in sorted(groups.items()):
        k = offsets.get(node, 0)
        offsets[node] = k + 1
        x, y = m.pos[node]
        x, y = x + 2 * _AGENT_R * (k % 2) - _AGENT_R, y - 7 - _AGENT_R - 2 * _AGENT_R * (k // 2)
        fill, ink = colour[p]
        out.append(f"<g data-agents={quoteattr(f'{p}@{node}')} data-count='{here}'><circle cx='{x:g}' "
                   f"cy='{y:g}' r='{_AGENT_R:g}' fill='{fill}' stroke='#3b372f'/><text x='{x:g}' y='{y + 4:g}' "
                   f"font-size='11' text-anchor='middle' fill='{ink}'>{escape(initial[p])}"
                   f"{here if here > 1 else ''}</text></g>")
    # suitcases: lying in a city, or carried (drawn by the carrier's place)
    lying: Counter[str] = Counter()
    for s, node in sorted(view.suitcases.items()):
        carrier = next((a for a, c in view.carrying.items() if c == s), None)
        where = node if node is not None else (view.agents.get(carrier) if carrier is not None else None)
        if where is None:
            continue
        k = lying[where]
        lying[where] = k + 1
        x, y = m.pos[where]
        x, y = x + 8 + _CASE / 2 + (_CASE + 1) * k, y + 3     # the box's centre, right of the dot
        owner, letter = suitcase_owner(s), s.rpartition(":")[2]
        fill, ink = colour[owner]
        held = f" data-carrier={quoteattr(carrier)}" if carrier else ""
        out.append(f"<g data-suitcase={quoteattr(s)}{held}><rect x='{x - _CASE / 2:g}' y='{y - _CASE / 2:g}' "
                   f"width='{_CASE}' height='{_CASE}' fill='{fill}' stroke='{'#000' if carrier else '#3b372f'}' "
                   f"stroke-width='{2 if carrier else 1}'/><text x='{x:g}' y='{y + 3.5:g}' font-size='10' "
                   f"text-anchor='middle' fill='{ink}'>{letter}</text></g>")
    # the strip below: dice, steps left, hands and secrets home
    y = height + 22
    dice = "" if view.dice is None else f"dice {view.dice[0]} + {view.dice[1]}, {count(view.points, 'step')} left"
    turn = f"{view.current_player} to play" if view.current_player else ("game over" if view.is_over else "")
    out.append(f"<text x='12' y='{y:g}' font-size='13' fill='#3b372f'>{escape(', '.join(filter(None, [turn, dice])))}"
               "</text>")
    for i, p in enumerate(view.players):
        x = 12 + i * (width - 24) / len(view.players)
        fill = colour[p][0]
        cards = " ".join(map(str, view.hands[p]))
        out.append(f"<text data-hand={quoteattr(p)} x='{x:g}' y='{y + 24:g}' font-size='12' fill='{fill}'>"
                   f"{escape(p)} ({escape(initial[p])}): {view.secrets[p]} secrets, cards {cards}</text>")
    out.append("</svg>")
    return Svg("".join(out))


def _view_of(position: Any, viewer: str | None) -> Any:
    if hasattr(position, "omniscient_view") and hasattr(position, "legal_actions"):
        if viewer == "omniscient":
            return position.omniscient_view()
        if viewer is not None and viewer not in position.players:
            raise HeimlichError(f"{viewer!r} does not play here; the players are {', '.join(position.players)}")
        return position.view(viewer)
    if hasattr(position, "corners") and hasattr(position, "map"):
        if viewer is not None and viewer != position.viewer:
            raise HeimlichError("a view is drawn as its own viewer sees it; draw the game to choose a viewer")
        return position
    raise HeimlichError(f"board() draws a Top Secret game or view, not {type(position).__name__}")


def _contents(view: Any) -> dict[str, dict[str, str]]:
    if view.contents is None:
        return {}
    if view.kind == "omniscient":
        return dict(view.contents)
    return {view.viewer: dict(view.contents)}


def _initials(players: tuple[str, ...]) -> dict[str, str]:
    """Each player's shortest distinct prefix (1 or 2 letters), to tell their pieces apart without colour."""
    out = {}
    for p in players:
        for n in range(1, len(p) + 1):
            if not any(q != p and q[:n] == p[:n] for q in players):
                out[p] = p[:n]
                break
        else:
            out[p] = p
    return out


def _label(view: Any) -> str:
    who = "the spectator" if view.viewer is None else ("everyone" if view.kind == "omniscient" else view.viewer)
    return f"Top Secret board as {who} sees it: {len(view.players)} players, turn {view.turn}"
