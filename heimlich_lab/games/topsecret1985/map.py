"""The board of Top Secret as data: a networkx graph of cities joined by lines, with the four corners' bases.

The rulebook describes the board only as "une carte du monde où un certain nombre de villes sont reliées entre
elles par des lignes", with, in every corner, a start base, the 4 suitcase spaces A-D of that base's player and
the arrival base of the player diagonally opposite ("Dans chaque coin du plateau se trouve une base de départ
et dans le coin diagonalement opposé une base d'arrivée de la même couleur"). The kit ships a documented
stand-in (``data/standin-map.json``, 30 real cities; docs/topsecret1985.md); a teacher with the physical board
types in its map in the same node-link JSON and loads it with :meth:`Map.load`, which checks it.

A map file is networkx node-link JSON (``networkx.node_link_data(G, edges="links")``):

* every node has ``id`` (one word: letters, digits, ``-``, ``_``; it is the notation's name of the place),
  ``kind`` (``city``, ``start`` or ``arrival``), ``name`` (in words) and ``pos`` (``[x, y]``, ``y`` downwards);
  a city may have ``label`` (where the picture writes its name: ``below``, the default, ``above``, ``left`` or
  ``right``), to keep the names of close cities apart;
* a base has ``corner`` (where it lies: ``NW``, ``NE``, ``SE``, ``SW``) and ``player_corner`` (whose base it
  is: the start base's own corner, the arrival base's the diagonally opposite one);
* the graph has ``width`` and ``height`` (the board's size) and ``corners``: corner -> ``start`` (its node),
  ``arrival`` (the node of the arrival base lying there) and ``spaces`` (``A``-``D`` -> ``[x, y]``, where the
  pictures of that corner's player's suitcases are drawn).

>>> m = Map.default()
>>> len(m.cities), m.start["NW"], m.arrival["NW"], m.corner_of_node("arrival-NW")
(30, 'start-NW', 'arrival-NW', 'NW')
>>> m.distance("start-NW", "arrival-NW"), m.distance("start-NE", "arrival-NE")
(7, 7)
>>> m.words["rio"], m.words["start-SE"], m.words["arrival-NW"]     # a place in a sentence
('Rio de Janeiro', 'the start base SE', 'the arrival base of NW')
>>> Map.from_data({"nodes": [], "links": []})
Traceback (most recent call last):
...
heimlich_lab.games.topsecret1985.map.MapError: map: the graph has no 'corners' (corner -> start, arrival, spaces)
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

import networkx as nx

from ...errors import HeimlichError

__all__ = ["CORNERS", "LABEL_SIDES", "LETTERS", "OPPOSITE", "Map", "MapError"]

#: The corners, clockwise from the top left (the order of the seats).
CORNERS = ("NW", "NE", "SE", "SW")
#: The corner diagonally opposite each corner.
OPPOSITE = {"NW": "SE", "NE": "SW", "SE": "NW", "SW": "NE"}
#: The suitcases' letters.
LETTERS = ("A", "B", "C", "D")
KINDS = ("city", "start", "arrival")
#: Where a city's name may be written, beside its dot (the first is the default).
LABEL_SIDES = ("below", "above", "left", "right")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
#: A base must lie in the outer part of the board towards its corner: this share of the width and of the height.
CORNER_SHARE = 0.25
DEFAULT_FILE = "standin-map.json"


class MapError(HeimlichError):
    """A map file that is not a Top Secret board; the message says what is wrong and where."""


def _num(v: object) -> bool:
    return type(v) in (int, float) and math.isfinite(float(v))  # type: ignore[arg-type]


class Map:
    """A checked board (read-only). Use :meth:`default`, :meth:`load` or :meth:`from_data`.

    Attributes: ``graph`` (a frozen networkx graph), ``cities`` (the city ids, in file order), ``neighbours``
    (node -> tuple of nodes, file order), ``kind`` (node -> kind), ``names``, ``words`` (node -> the place in a
    sentence: a city's name, a base's name after "the"), ``label`` (city -> where its name is drawn),
    ``pos``, ``start`` and ``arrival``
    (player corner -> node of that player's start / arrival base), ``spaces`` (corner -> letter -> position),
    ``width``, ``height``, ``data`` (the node-link data it was read from) and ``is_default``.
    """

    __slots__ = ("graph", "cities", "neighbours", "kind", "names", "words", "label", "pos", "start", "arrival",
                 "spaces", "width", "height", "_data", "is_default", "source", "_dist")

    graph: Any
    cities: tuple[str, ...]
    neighbours: Mapping[str, tuple[str, ...]]
    kind: Mapping[str, str]
    names: Mapping[str, str]
    words: Mapping[str, str]
    label: Mapping[str, str]
    pos: Mapping[str, tuple[float, float]]
    start: Mapping[str, str]
    arrival: Mapping[str, str]
    spaces: Mapping[str, Mapping[str, tuple[float, float]]]
    width: float
    height: float
    _data: str
    is_default: bool
    source: str
    _dist: dict[str, dict[str, int]]

    # ------------------------------------------------------------------ making one
    @classmethod
    def default(cls) -> Map:
        """The stand-in world map the kit ships (docs/topsecret1985.md#the-stand-in-map)."""
        global _DEFAULT
        if _DEFAULT is None:
            text = resources.files(__package__).joinpath("data", DEFAULT_FILE).read_text(encoding="utf-8")
            _DEFAULT = cls.from_data(json.loads(text), source=DEFAULT_FILE)
            _DEFAULT.is_default = True
        return _DEFAULT

    @classmethod
    def load(cls, path: str | Path) -> Map:
        """Read and check a map file (node-link JSON); raises :class:`MapError` saying what is wrong and where."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise MapError(f"cannot read map {path}: {getattr(e, 'strerror', None) or e}") from None
        try:
            data = json.loads(text)
        except ValueError as e:
            raise MapError(f"{path}: not valid JSON ({e})") from None
        return cls.from_data(data, source=str(path))

    @classmethod
    def from_data(cls, data: Any, source: str = "map") -> Map:
        """A map from node-link data (a dict), checked."""
        if not isinstance(data, Mapping):
            raise MapError(f"{source}: a map is a JSON object (networkx node-link data), not {type(data).__name__}")
        graph_attrs = data.get("graph") or {}
        if not isinstance(graph_attrs, Mapping) or "corners" not in graph_attrs:
            raise MapError(f"{source}: the graph has no 'corners' (corner -> start, arrival, spaces)")
        nodes, links = data.get("nodes"), data.get("links")
        if not isinstance(nodes, list) or not isinstance(links, list):
            raise MapError(f"{source}: 'nodes' and 'links' must be lists")
        if data.get("directed") or data.get("multigraph"):
            raise MapError(f"{source}: the lines join cities both ways: 'directed' and 'multigraph' must be false")
        self = object.__new__(cls)
        self.source, self.is_default = source, False
        w, h = graph_attrs.get("width"), graph_attrs.get("height")
        if not (isinstance(w, (int, float)) and isinstance(h, (int, float)) and _num(w) and _num(h)
                and w > 0 and h > 0):
            raise MapError(f"{source}: the graph's 'width' and 'height' must be positive numbers, not {w!r}, {h!r}")
        self.width, self.height = float(w), float(h)
        g = nx.Graph()
        kind: dict[str, str] = {}
        names: dict[str, str] = {}
        label: dict[str, str] = {}
        pos: dict[str, tuple[float, float]] = {}
        base_at: dict[str, tuple[str, str]] = {}
        for i, nd in enumerate(nodes):
            where = f"{source}: node {i}"
            if not isinstance(nd, Mapping):
                raise MapError(f"{where}: a node is an object with id, kind, name, pos")
            nid = nd.get("id")
            if not isinstance(nid, str) or not _ID.fullmatch(nid):
                raise MapError(f"{where}: 'id' {nid!r} must be one word of letters, digits, '-' and '_' "
                               "(at most 40 characters)")
            where = f"{source}: node {nid!r}"
            if nid in kind:
                raise MapError(f"{where} appears twice")
            k = nd.get("kind")
            if k not in KINDS:
                raise MapError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, not {k!r}")
            p = nd.get("pos")
            if not (isinstance(p, list) and len(p) == 2 and all(_num(x) for x in p)):
                raise MapError(f"{where}: 'pos' must be [x, y], not {p!r}")
            x, y = float(p[0]), float(p[1])
            if not (0 <= x <= self.width and 0 <= y <= self.height):
                raise MapError(f"{where}: 'pos' {p!r} lies off the board (0..{w} by 0..{h})")
            name = nd.get("name", nid)
            if not isinstance(name, str) or not name.strip():
                raise MapError(f"{where}: 'name' must be a text")
            side = nd.get("label", LABEL_SIDES[0])
            if k != "city" and "label" in nd:
                raise MapError(f"{where}: only a city has a 'label' (where its name is drawn), not a {k} base")
            if side not in LABEL_SIDES:
                raise MapError(f"{where}: 'label' (where the city's name is drawn) must be one of "
                               f"{', '.join(LABEL_SIDES)}, not {side!r}")
            if k == "city":
                label[nid] = side
            else:
                c, pc = nd.get("corner"), nd.get("player_corner")
                if c not in CORNERS or pc not in CORNERS:
                    raise MapError(f"{where}: a {k} base needs 'corner' and 'player_corner', each one of "
                                   f"{', '.join(CORNERS)}, not {c!r}, {pc!r}")
                want = c if k == "start" else OPPOSITE[c]
                if pc != want:
                    raise MapError(f"{where}: the {k} base lying in corner {c} must be the base of the player of "
                                   f"corner {want}, not {pc} (the book: 'dans chaque coin ... une base de départ "
                                   "et dans le coin diagonalement opposé une base d'arrivée de la même couleur')")
                self._check_in_corner(where, f"{k} base", c, x, y)
                base_at[nid] = (k, pc)
            kind[nid], names[nid], pos[nid] = k, name, (x, y)
            g.add_node(nid)
        for i, ln in enumerate(links):
            if not isinstance(ln, Mapping):
                raise MapError(f"{source}: link {i}: a link is an object with source and target")
            a, b = ln.get("source"), ln.get("target")
            if a not in kind or b not in kind:
                bad = a if a not in kind else b
                raise MapError(f"{source}: link {i} ({a!r} - {b!r}): {bad!r} is not a node of the map")
            if a == b:
                raise MapError(f"{source}: link {i} joins {a!r} to itself")
            if g.has_edge(a, b):
                raise MapError(f"{source}: link {i} ({a!r} - {b!r}) appears twice")
            if kind[a] != "city" and kind[b] != "city":
                raise MapError(f"{source}: link {i} joins two bases ({a!r} - {b!r}); a base is joined to cities")
            g.add_edge(a, b)
        starts = {pc: n for n, (k, pc) in base_at.items() if k == "start"}
        arrivals = {pc: n for n, (k, pc) in base_at.items() if k == "arrival"}
        for what, found in (("start", starts), ("arrival", arrivals)):
            n_found = sum(1 for k, _ in base_at.values() if k == what)
            missing = [c for c in CORNERS if c not in found]
            if missing or n_found != 4:
                raise MapError(f"{source}: the map needs exactly one {what} base for each of the four corners' "
                               f"players; {'missing: ' + ', '.join(missing) if missing else f'found {n_found}'}")
        for n in kind:
            if g.degree(n) == 0:
                raise MapError(f"{source}: node {n!r} is joined to nothing")
        if not nx.is_connected(g):
            parts = sorted((sorted(c) for c in nx.connected_components(g)), key=len)
            raise MapError(f"{source}: the map is not connected: {', '.join(parts[0][:6])} "
                           f"cannot be reached from {parts[-1][0]}")
        cities = tuple(n for n in kind if kind[n] == "city")
        if len(cities) < 5:
            raise MapError(f"{source}: a map needs at least 5 cities, not {len(cities)}")
        for c in CORNERS:     # every player can travel from their start base to their arrival base through cities
            sub = g.subgraph([*cities, starts[c], arrivals[c]])
            if not nx.has_path(sub, starts[c], arrivals[c]):
                raise MapError(f"{source}: no path through cities from {starts[c]!r} to {arrivals[c]!r} "
                               f"(the player of corner {c})")
        spaces: dict[str, dict[str, tuple[float, float]]] = {}
        corners = graph_attrs["corners"]
        if not isinstance(corners, Mapping) or set(corners) != set(CORNERS):
            raise MapError(f"{source}: the graph's 'corners' must name exactly {', '.join(CORNERS)}")
        for c in CORNERS:
            cd = corners[c]
            where = f"{source}: corner {c}"
            if not isinstance(cd, Mapping):
                raise MapError(f"{where}: an object with start, arrival and spaces")
            if cd.get("start") != starts[c]:
                raise MapError(f"{where}: 'start' must be its start base {starts[c]!r}, not {cd.get('start')!r}")
            lying = arrivals[OPPOSITE[c]]
            if cd.get("arrival") != lying:
                raise MapError(f"{where}: 'arrival' must be the arrival base lying there, {lying!r} (of the player "
                               f"of corner {OPPOSITE[c]}), not {cd.get('arrival')!r}")
            sp = cd.get("spaces")
            if not (isinstance(sp, Mapping) and set(sp) == set(LETTERS)):
                raise MapError(f"{where}: 'spaces' must give the positions of the suitcase spaces A, B, C, D")
            spaces[c] = {}
            for L in LETTERS:
                p = sp[L]
                if not (isinstance(p, list) and len(p) == 2 and all(_num(x) for x in p)):
                    raise MapError(f"{where}: space {L} must be [x, y], not {p!r}")
                self._check_in_corner(f"{where}: suitcase space {L}", "suitcase space", c, float(p[0]), float(p[1]))
                spaces[c][L] = (float(p[0]), float(p[1]))
        nx.freeze(g)
        # read-only: every view hands the map to the bots, and a bot must not change anyone's board
        self.graph, self.cities = g, cities
        self.kind, self.names, self.pos = MappingProxyType(kind), MappingProxyType(names), MappingProxyType(pos)
        self.label = MappingProxyType(label)
        self.words = MappingProxyType({n: name if kind[n] == "city" or name.lower().startswith("the ")
                                       else f"the {name}" for n, name in names.items()})
        self.neighbours = MappingProxyType({n: tuple(m for m in kind if g.has_edge(n, m)) for n in kind})
        self.start, self.arrival = MappingProxyType(starts), MappingProxyType(arrivals)
        self.spaces = MappingProxyType({c: MappingProxyType(s) for c, s in spaces.items()})
        self._data = json.dumps(data, ensure_ascii=False)     # a private copy
        self._dist = {}
        return self

    @property
    def data(self) -> dict[str, Any]:
        """The node-link data the map was read from (a new copy each time)."""
        out: dict[str, Any] = json.loads(self._data)
        return out

    def _check_in_corner(self, where: str, what: str, corner: str, x: float, y: float) -> None:
        left, top = corner[1] == "W", corner[0] == "N"
        xs, ys = self.width * CORNER_SHARE, self.height * CORNER_SHARE
        ok_x = x <= xs if left else x >= self.width - xs
        ok_y = y <= ys if top else y >= self.height - ys
        if not (ok_x and ok_y):
            rx = f"x <= {xs:g}" if left else f"x >= {self.width - xs:g}"
            ry = f"y <= {ys:g}" if top else f"y >= {self.height - ys:g}"
            raise MapError(f"{where}: the {what} lies at ({x:g}, {y:g}), not in corner {corner} ({rx}, {ry}); "
                           "the book puts bases and suitcase spaces in the corners ('Dans chaque coin du plateau')")

    # ------------------------------------------------------------------ reading it
    def corner_of_node(self, node: str) -> str | None:
        """The corner of the player whose base ``node`` is (``None`` for a city)."""
        for c in CORNERS:
            if self.start[c] == node or self.arrival[c] == node:
                return c
        return None

    def is_city(self, node: str) -> bool:
        return self.kind.get(node) == "city"

    def distance(self, a: str, b: str) -> int:
        """Lines between ``a`` and ``b`` along the shortest path through cities (bases are ends, never passed)."""
        if a not in self._dist:
            through = nx.Graph(self.graph.subgraph(self.cities))
            through.add_edges_from((a, m) for m in self.neighbours[a])
            self._dist[a] = dict(nx.single_source_shortest_path_length(through, a))
        d = self._dist[a].get(b)
        if d is None:     # b is a base: one more line from its nearest city
            d = 1 + min(self._dist[a].get(m, 10**6) for m in self.neighbours[b])
        return d

    def to_json(self) -> str:
        """The map as node-link JSON (what :meth:`load` reads)."""
        return json.dumps(self.data, indent=1, ensure_ascii=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Map) and (self is other or self.data == other.data)

    def __hash__(self) -> int:
        return hash(self.cities)

    def __deepcopy__(self, memo: dict[int, Any]) -> Map:
        return self      # read-only: a game's copy shares its map

    def __reduce__(self) -> tuple[Any, ...]:
        return (self._rebuild, (self.data, self.source, self.is_default))

    @staticmethod
    def _rebuild(data: dict[str, Any], source: str, is_default: bool) -> Map:
        if is_default:
            return Map.default()
        return Map.from_data(data, source)

    def __repr__(self) -> str:
        return f"<Top Secret map {self.source}: {len(self.cities)} cities, {self.graph.number_of_edges()} lines>"


_DEFAULT: Map | None = None
