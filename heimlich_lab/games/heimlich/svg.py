"""Static pictures of a position, like ``chess.svg`` for python-chess: SVG for slides, the course and the README.

:func:`board` draws any game, view or :class:`~heimlich_lab.games.heimlich.rules.game.Position`: the ring of buildings
with their values, the agents (letter and colour), the safe, the scoring track with the markers (the
dossier mark only in dossier games) and, optionally, a belief's heatmap beside it. :func:`heatmap` draws a
belief alone. Both return an :class:`Svg`, a string that a notebook displays (``_repr_svg_``) and that
``.save(path)`` writes to a file.

The information rule holds here too: a picture of a game is the spectator's unless a ``viewer`` is named
(then that player's view: their own agents are marked, nobody else's); owners are drawn only when the view
holds them (after the game, or the omniscient view).

>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)
>>> picture = board(g, viewer="Ann")
>>> picture.startswith("<svg") and 'data-agent="yellow"' in picture
True
>>> picture.count("class='hs-own'")     # Ann's agent, and nobody else's
1

Every drawn thing has a ``data-`` attribute, the board widget's test hooks: ``data-building``,
``data-agent``, ``data-safe``, ``data-track``, ``data-marker`` (with ``data-score``), ``data-cell``.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ...engine.svg import Svg
from ...engine.words import for_any_name, possessive
from ...errors import HeimlichError
from .rules.board import AGENT_BY_COLOUR, BUILDING_VALUES, CHURCH, DOSSIER_MARK, FINISH, RUINS
from .rules.game import Game, Position
from .rules.ruleset import Rules
from .rules.views import View, view_label

#: Fill and ink (letter) colours of the agents, the board widget's (widgets/logic.js AGENT_INFO).
AGENT_COLOURS: dict[str, tuple[str, str]] = {
    "grey": ("#9a9a9a", "#000000"), "yellow": ("#f5d328", "#000000"), "orange": ("#ef8a17", "#000000"),
    "red": ("#c62828", "#ffffff"), "green": ("#2e8b45", "#ffffff"), "blue": ("#1f5fbf", "#ffffff"),
    "violet": ("#7b3fa0", "#ffffff"),
}

#: The board's geometry in SVG units, the widget's (widgets/logic.js BOARD).
SIZE = 800
CENTRE = SIZE / 2
RING_RADIUS = 236
BUILDING_RADIUS = 54
AGENT_RADIUS = 13
AGENT_SPACING = 28
TRACK_INSET = 26
TRACK_RADIUS = 12
MARKER_RADIUS = 9

_INK, _MUTED, _GOLD, _LINE = "#1d1d1f", "#55555b", "#b8860b", "#8d877a"
_STYLE = (
    "text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;fill:#1d1d1f}"
    ".hs-value{font-size:19px;font-weight:700}.hs-name{font-size:14px;font-weight:600;fill:#55555b}"
    ".hs-track text{font-size:10px}.hs-agent text,.hs-col text{font-size:14px;font-weight:700}"
    ".hs-marker text{font-size:10px;font-weight:700}.hs-caption{font-size:15px}"
    ".hs-small{font-size:12px;fill:#55555b}.hs-cell{font-size:13px}.hs-head{font-size:13px;font-weight:600}"
)


def probability_label(p: float) -> str:
    """A probability as the heatmap prints it: two decimals, but never a false certainty.

    >>> [probability_label(p) for p in (0.0, 0.004, 0.5, 0.9993, 1.0)]
    ['0', '<0.01', '0.50', '>0.99', '1']
    """
    if p <= 1e-9:
        return "0"
    if p >= 1 - 1e-9:
        return "1"
    if p < 0.01:
        return "<0.01"
    if p > 0.99:
        return ">0.99"
    return f"{p:.2f}"


@dataclass(frozen=True)
class Scene:
    """What one picture shows, read from a game, a view or a position (all buildings as values).

    >>> from heimlich_lab import Game
    >>> s = Scene.of(Game(["Ann", "Bob"], seed=1), viewer="Bob")
    >>> s.viewer, len(s.own_agents), s.owners
    ('Bob', 1, None)
    """

    agents: tuple[str, ...]
    positions: Mapping[str, int]
    scores: Mapping[str, int]
    safe: int
    viewer: str | None = None
    own_agents: tuple[str, ...] = ()
    owners: Mapping[str, str | None] | None = None   # colour -> player (None: free), only when known
    dossier: bool = False
    die: str | None = None
    turn_text: str = ""

    @classmethod
    def of(cls, source, viewer: str | None = None, rules: Rules | None = None) -> "Scene":
        """The scene of a :class:`Game` (the spectator's, or ``viewer``'s view), a :class:`View`, or a
        :class:`Position` (``viewer``: whose agents to mark; ``rules``: for the dossier mark)."""
        if isinstance(source, Game):
            source = source.view(viewer) if viewer is not None else source.spectator_view()
        elif isinstance(source, View):
            if viewer is not None and viewer != source.viewer:
                raise HeimlichError(f"this is {source.label}; draw {view_label(viewer)} from the game instead")
        elif isinstance(source, Position):
            return cls._of_position(source, viewer, rules or Rules())
        else:
            raise HeimlichError(f"draw a Game, a View or a Position, not {type(source).__name__}")
        return cls._of_view(source)

    @classmethod
    def _of_view(cls, view: View) -> "Scene":
        owners = None
        if view.owners is not None:
            owners = {c: None for c in view.agents}
            for player, colours in view.owners.items():
                for c in colours:
                    owners[c] = player
        if view.is_over:
            turn = "Game over" + (f": {' and '.join(view.winners)} won" if view.winners else ": a free agent won")
        else:
            who = view.current_player or view.active_player
            turn = f"Turn {view.turn} · {who} to play" if who else f"Turn {view.turn}"
        return cls(tuple(view.agents), view.positions, view.scores, view.safe, view.viewer,
                   tuple(view.own_agents), owners, bool(view.rules.dossier), view.die, turn)

    @classmethod
    def _of_position(cls, position: Position, viewer: str | None, rules: Rules) -> "Scene":
        own: tuple[str, ...] = ()
        if viewer is not None:
            if viewer not in position.owners:
                raise HeimlichError(f"{viewer!r} is not a player of this position; players: "
                                    f"{', '.join(position.owners)}")
            mine = position.owners[viewer]
            own = (mine,) if isinstance(mine, str) else tuple(mine)
        agents = tuple(position.positions)
        for c in agents:
            if c not in AGENT_BY_COLOUR:
                raise HeimlichError(f"{c!r} is not an agent colour; agents are {', '.join(AGENT_BY_COLOUR)}")
        scores = {c: (position.scores or {}).get(c, 0) for c in agents}
        turn = f"{position.active} to {position.decision}" if position.active else ""
        return cls(agents, dict(position.positions), scores, position.safe, viewer, own, None,
                   bool(rules.dossier), position.die, turn)


# ---------------------------------------------------------------------------------------------------------------
# Geometry (the widget's: buildings clockwise from the Church at the top, the track clockwise from the top left)
# ---------------------------------------------------------------------------------------------------------------

def building_point(value: int, radius: float = RING_RADIUS) -> tuple[float, float]:
    """Centre of a building on the ring (or a point at ``radius`` in its direction).

    >>> building_point(0), building_point(3)
    ((400.0, 164.0), (636.0, 400.0))
    """
    angle = math.radians(-90 + 30 * BUILDING_VALUES.index(value))
    return round(CENTRE + radius * math.cos(angle), 2), round(CENTRE + radius * math.sin(angle), 2)


def track_point(score: int, finish: int = FINISH) -> tuple[float, float, int, int]:
    """``(x, y, nx, ny)`` of a space of the scoring track; ``(nx, ny)`` points into the board.

    >>> track_point(0), track_point(42)[:2]
    ((26.0, 26.0, 0, 1), (26.0, 95.58))
    """
    side = SIZE - 2 * TRACK_INSET
    d = score * 4 * side / (finish + 1)
    edge = min(3, int(d // side))
    t = d - edge * side
    lo, hi = TRACK_INSET, TRACK_INSET + side
    x, y, nx, ny = [(lo + t, lo, 0, 1), (hi, lo + t, -1, 0), (hi - t, hi, 0, -1), (lo, hi - t, 1, 0)][edge]
    return round(float(x), 2), round(float(y), 2), nx, ny


def _slots(n: int) -> list[tuple[float, float]]:
    """Offsets of ``n`` pieces in one building: rows of at most three, below the value."""
    rows = {4: [2, 2], 5: [3, 2], 6: [3, 3], 7: [2, 3, 2]}.get(n) or [min(3, n - k) for k in range(0, n, 3)]
    out = []
    for r, count in enumerate(rows):
        dy = 12 + (r - (len(rows) - 1) / 2) * (AGENT_SPACING - 2)
        out += [((k - (count - 1) / 2) * AGENT_SPACING, dy) for k in range(count)]
    return out


# ---------------------------------------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------------------------------------

def _attrs(**kw) -> str:
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in kw.items() if v is not None)


def _agent_name(colour: str) -> str:
    return AGENT_BY_COLOUR[colour].name


def _piece(colour: str, x: float, y: float, r: float, cls: str, title: str, extra: str = "", **data) -> str:
    """A round piece in the agent's colour with its letter (agents are told apart by letter as well)."""
    fill, ink = AGENT_COLOURS[colour]
    return (f"<g{_attrs(class_=cls, transform=f'translate({x:g},{y:g})', **data)}><title>{escape(title)}</title>"
            f"{extra}<circle r='{r}' fill='{fill}' stroke='{_INK}' stroke-width='1.5'/>"
            f"<text text-anchor='middle' dy='0.35em' style='fill:{ink}'>{AGENT_BY_COLOUR[colour].letter}</text></g>")


def _track(scene: Scene) -> str:
    out = ["<g class='hs-track'>"]
    for s in range(FINISH + 1):
        x, y, _, _ = track_point(s)
        mark, finish = scene.dossier and s == DOSSIER_MARK, s == FINISH
        fill, stroke, ink = ("#2f2f33", "#2f2f33", "#ffffff") if finish else (
            ("#fff1c9", _GOLD, _INK) if mark else ("#ffffff", _LINE, _INK))
        title = f"{s}: finish" if finish else f"{s}: dossier mark" if mark else str(s)
        out.append(f"<g{_attrs(data_track=s, transform=f'translate({x:g},{y:g})')}><title>{title}</title>"
                   f"<circle r='{TRACK_RADIUS + (2 if mark or finish else 0)}' fill='{fill}' stroke='{stroke}' "
                   f"stroke-width='{3 if mark else 1.2}'/>"
                   f"<text text-anchor='middle' dy='0.35em' style='fill:{ink}'>{s}</text></g>")
    out.append("</g>")
    return "".join(out)


def _buildings(scene: Scene) -> str:
    out = []
    for value in BUILDING_VALUES:
        x, y = building_point(value)
        name = {CHURCH: "Church", RUINS: "Ruins"}.get(value)
        fill = "#eef2f8" if value == CHURCH else "#efe6e0" if value == RUINS else "#ffffff"
        dash = " stroke-dasharray='6 3'" if value == RUINS else ""
        label = str(value).replace("-", "\u2212")
        if name:   # written just outside the building, away from its agents
            nx, ny = building_point(value, RING_RADIUS + BUILDING_RADIUS + 12)
            out.append(f"<text class='hs-name' text-anchor='middle' dy='0.35em' x='{nx:g}' y='{ny:g}'>{name}</text>")
        out.append(f"<g{_attrs(data_building=value, transform=f'translate({x:g},{y:g})')}>"
                   f"<title>{name or 'Building'} ({label})</title>"
                   f"<circle r='{BUILDING_RADIUS}' fill='{fill}' stroke='#6b6457' stroke-width='2'{dash}/>"
                   f"<text class='hs-value' text-anchor='middle' y='-18'>{label}</text></g>")
    return "".join(out)


def _safe(scene: Scene) -> str:
    """The safe: a large strongbox between its building and the centre, joined to the building by a gold ring."""
    x, y = building_point(scene.safe)
    sx, sy = building_point(scene.safe, RING_RADIUS - BUILDING_RADIUS - 30)
    return (f"<g data-safe='{scene.safe}'><title>The safe is in building {scene.safe}</title>"
            f"<circle cx='{x:g}' cy='{y:g}' r='{BUILDING_RADIUS + 4}' fill='none' stroke='{_GOLD}' stroke-width='5'/>"
            f"<g transform='translate({sx:g},{sy:g})'>"
            f"<rect x='-22' y='-18' width='44' height='36' rx='5' fill='#2f2f33' stroke='{_GOLD}' stroke-width='3'/>"
            f"<circle r='9' fill='none' stroke='{_GOLD}' stroke-width='2.5'/>"
            f"<line x1='0' y1='0' x2='6' y2='-6' stroke='{_GOLD}' stroke-width='2.5'/>"
            f"<rect x='13' y='-7' width='4' height='14' fill='{_GOLD}'/></g></g>")


def _agents(scene: Scene) -> str:
    here: dict[int, list[str]] = {}
    for c in scene.agents:
        here.setdefault(scene.positions[c], []).append(c)
    out = []
    for value, colours in here.items():
        bx, by = building_point(value)
        for c, (dx, dy) in zip(colours, _slots(len(colours))):
            own = c in scene.own_agents
            owner = scene.owners.get(c) if scene.owners else None
            title = f"{_agent_name(c)} ({c})" + (", your agent" if own else "") + (
                f", {possessive(owner)} agent" if owner else ", free" if scene.owners else "")
            ring = (f"<circle class='hs-own' r='{AGENT_RADIUS + 5}' fill='none' stroke='{_INK}' stroke-width='3'/>"
                    if own else "")
            out.append(_piece(c, bx + dx, by + dy, AGENT_RADIUS, "hs-agent", title, ring, data_agent=c))
    return "".join(out)


def _markers(scene: Scene) -> str:
    at: dict[int, list[str]] = {}
    for c in scene.agents:
        at.setdefault(max(0, min(FINISH, scene.scores[c])), []).append(c)
    out = []
    for space, colours in at.items():
        x, y, nx, ny = track_point(space)
        for k, c in enumerate(colours):   # inwards from the space, two abreast, off the finish disc
            along = 0 if len(colours) == 1 else (k % 2 - 0.5) * 20
            inward = 28 + (k // 2) * 19
            mx, my = x + nx * inward - ny * along, y + ny * inward + nx * along
            out.append(_piece(c, round(mx, 2), round(my, 2), MARKER_RADIUS, "hs-marker",
                              f"{_agent_name(c)}: {scene.scores[c]} points", data_marker=c, data_score=scene.scores[c]))
    return "".join(out)


def _centre(scene: Scene) -> str:
    lines = []
    if scene.turn_text:
        lines.append(f"<text class='hs-caption' text-anchor='middle' x='{CENTRE:g}' y='{CENTRE - 8:g}'>"
                     f"{escape(scene.turn_text)}</text>")
    if scene.die is not None:
        lines.append(f"<text class='hs-small' text-anchor='middle' x='{CENTRE:g}' y='{CENTRE + 14:g}' "
                     f"data-die={quoteattr(scene.die)}>die: {escape(scene.die)}</text>")
    if scene.viewer is not None and scene.own_agents:
        mine = " and ".join(f"{_agent_name(c)} ({c})" for c in scene.own_agents)
        lines.append(f"<text class='hs-small' text-anchor='middle' x='{CENTRE:g}' y='{CENTRE + 34:g}'>"
                     f"{escape(possessive(scene.viewer))} agent: {mine}</text>")
    if scene.owners:
        players: dict[str, list[str]] = {}
        for c, p in scene.owners.items():
            players.setdefault(p or "free", []).append(AGENT_BY_COLOUR[c].letter)
        for i, (p, letters) in enumerate(players.items()):
            lines.append(f"<text class='hs-small' text-anchor='middle' x='{CENTRE:g}' y='{CENTRE + 56 + 16 * i:g}' "
                         f"data-owner={quoteattr(p)}>{escape(p)}: {' '.join(letters)}</text>")
    return "".join(lines)


def _board_group(scene: Scene) -> str:
    return (f"<rect width='{SIZE}' height='{SIZE}' rx='18' fill='#f1ede2' stroke='#c9c5b8'/>"
            + _track(scene) + _buildings(scene) + _safe(scene) + _centre(scene) + _agents(scene)
            + _markers(scene))


# ---------------------------------------------------------------------------------------------------------------
# The belief's heatmap
# ---------------------------------------------------------------------------------------------------------------

CELL_W, CELL_H, HEAD_W = 62, 34, 96


def _marginals(belief) -> tuple[dict[str, dict[str, float]], str | None]:
    if isinstance(belief, Mapping):
        return {r: dict(v) for r, v in belief.items()}, None
    if hasattr(belief, "marginals"):
        return belief.marginals(), getattr(belief, "observer", None)
    raise HeimlichError(f"draw a belief (an object with marginals()) or a mapping player -> agent -> probability, "
                        f"not {type(belief).__name__}")


def _cell_fill(p: float) -> tuple[str, str]:
    """White to deep blue; the ink with the higher contrast (at least 4.5:1: dark up to 0.75, then white)."""
    lo, hi = (255, 255, 255), (21, 71, 150)
    rgb = "".join(f"{round(a + (b - a) * p):02x}" for a, b in zip(lo, hi))
    return "#" + rgb, "#ffffff" if p > 0.75 else _INK


def _heatmap_group(belief, observer: str | None = None) -> tuple[str, float, float]:
    """The heatmap's markup and its width and height."""
    table, belief_observer = _marginals(belief)
    observer = observer if observer is not None else belief_observer
    cols = list(next(iter(table.values()))) if table else []
    for c in cols:
        if c not in AGENT_BY_COLOUR:
            raise HeimlichError(f"{c!r} is not an agent colour; agents are {', '.join(AGENT_BY_COLOUR)}")
    own = [c for c in cols if observer in table and table[observer][c] > 0.5]
    rows = [r for r in table if r != observer]
    width = HEAD_W + CELL_W * len(cols) + 10
    seen = for_any_name(f"given what {observer} has seen") if observer else "given the public information"
    out = ["<text class='hs-caption' x='0' y='18'>Who controls which agent?</text>",
           "<text class='hs-small' x='0' y='38'>cell = probability that this player controls this agent,</text>",
           f"<text class='hs-small' x='0' y='54'>{escape(seen)}</text>"]
    top = 72
    for j, c in enumerate(cols):
        x = HEAD_W + CELL_W * j + CELL_W / 2
        out.append(_piece(c, x, top + 14, 12, "hs-col", f"{_agent_name(c)} ({c})", data_col=c))
        out.append(f"<text class='hs-small' text-anchor='middle' x='{x:g}' y='{top + 44}'>{_agent_name(c)}</text>")
    y0 = top + 54
    for i, r in enumerate(rows):
        y = y0 + CELL_H * i
        label = "nobody (free)" if r == "free" else r
        out.append(f"<text class='hs-head' x='{HEAD_W - 8}' y='{y + CELL_H / 2:g}' dy='0.35em' "
                   f"text-anchor='end'>{escape(label)}</text>")
        for j, c in enumerate(cols):
            p = float(table[r][c])
            fill, ink = _cell_fill(p)
            x = HEAD_W + CELL_W * j
            out.append(f"<g{_attrs(data_cell=f'{r}:{c}', data_p=round(p, 4))}>"
                       f"<title>{escape(f'P({label} controls {_agent_name(c)}) = {p:.4f}')}</title>"
                       f"<rect x='{x + 1}' y='{y + 1}' width='{CELL_W - 2}' height='{CELL_H - 2}' rx='3' "
                       f"fill='{fill}' stroke='#c9c5b8'/><text class='hs-cell' text-anchor='middle' "
                       f"x='{x + CELL_W / 2:g}' y='{y + CELL_H / 2:g}' dy='0.35em' style='fill:{ink}'>"
                       f"{escape(probability_label(p))}</text></g>")
    y = y0 + CELL_H * len(rows) + 22
    # the colour legend: 0 .. 1
    out.append("<defs><linearGradient id='hs-scale'><stop offset='0' stop-color='#ffffff'/>"
               "<stop offset='1' stop-color='#154796'/></linearGradient></defs>"
               f"<g data-legend='scale'><text class='hs-small' x='0' y='{y + 6}'>probability</text>"
               f"<text class='hs-small' x='{HEAD_W - 14}' y='{y + 6}' text-anchor='end'>0</text>"
               f"<rect x='{HEAD_W - 8}' y='{y - 6}' width='{CELL_W * 2}' height='16' fill='url(#hs-scale)' "
               f"stroke='#c9c5b8'/><text class='hs-small' x='{HEAD_W + CELL_W * 2}' y='{y + 6}'>1</text></g>")
    notes = []
    if own:
        notes.append(f"{possessive(observer)} own agent: " + " and ".join(f"{_agent_name(c)} ({c})" for c in own)
                     + " (no row: known for sure)")
    if any(sum(float(v) for v in table[r].values()) > 1.5 for r in rows if r != "free"):
        notes.append("A row sums to 2 when that player may hold a second agent (Top Secret card).")
    if hasattr(belief, "player_types"):       # a model with player types: how each player seems to play
        notes += [for_any_name(f"{p} plays like: " + ", ".join(f"{k} {v:.2f}" for k, v in list(t.items())[:3]))
                  for p, t in belief.player_types().items()]
    for k, text in enumerate(notes):
        out.append(f"<text class='hs-small' x='0' y='{y + 34 + 18 * k}' data-note='{k}'>{escape(text)}</text>")
    height = y + 34 + 18 * len(notes)
    return "".join(out), width, height


# ---------------------------------------------------------------------------------------------------------------
# Public drawing functions
# ---------------------------------------------------------------------------------------------------------------

def _document(body: str, width: float, height: float, size: int | None, label: str) -> Svg:
    scale = "" if size is None else _attrs(width=size, height=round(size * height / width))
    return Svg(f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width:g} {height:g}'{scale} role='img' "
               f"aria-label={quoteattr(label)}><style>{_STYLE}</style>{body}</svg>")


def board(source, viewer: str | None = None, *, belief=None, rules: Rules | None = None,
          size: int | None = 480) -> Svg:
    """An SVG picture of a position: the board, and beside it ``belief``'s heatmap if one is given.

    ``source``: a :class:`Game` (drawn as the spectator sees it, or as ``viewer`` sees it), a :class:`View`,
    or a :class:`Position` (``viewer`` marks that player's agents; ``rules`` says whether to draw the
    dossier mark). ``belief``: a :class:`~heimlich_lab.games.heimlich.inference.belief.Belief` (or any object with
    ``marginals()``), or a mapping player -> agent -> probability. ``size``: width in pixels (``None``: scale
    to the page).

    >>> from heimlich_lab import Position
    >>> p = Position(positions={"red": 4, "blue": 7, "green": 0}, owners={"Ann": "red", "Bob": "blue"},
    ...              scores={"red": 10, "blue": 3, "green": 0}, safe=4)
    >>> s = board(p, viewer="Ann")
    >>> "data-safe='4'" in s, 'data-marker="red" data-score="10"' in s, 'data-track="29"' in s
    (True, True, True)
    >>> "dossier mark" in s                # not a dossier game
    False
    """
    scene = Scene.of(source, viewer, rules)
    label = f"Heimlich board, {view_label(scene.viewer)}" if scene.viewer else "Heimlich board"
    if belief is None:
        return _document(_board_group(scene), SIZE, SIZE, size, label)
    observer = scene.viewer if scene.viewer is not None else None
    heat, w, h = _heatmap_group(belief, observer)
    width, height = SIZE + 40 + w, max(SIZE, h + 40)
    body = _board_group(scene) + f"<g transform='translate({SIZE + 40},40)' data-part='heatmap'>{heat}</g>"
    return _document(body, width, height, None if size is None else round(size * width / SIZE), label)


def heatmap(belief, observer: str | None = None, *, size: int | None = None) -> Svg:
    """The belief's heatmap alone: who controls which agent, as ``observer`` (default: the belief's) sees it.

    >>> s = heatmap({"Bob": {"red": 0.9993, "blue": 0.0007}, "free": {"red": 0.0007, "blue": 0.9993}})
    >>> "&gt;0.99" in s and "&lt;0.01" in s
    True
    """
    heat, w, h = _heatmap_group(belief, observer)
    body = f"<g transform='translate(10,10)'>{heat}</g>"
    return _document(body, w + 20, h + 20, size, "Belief heatmap")
