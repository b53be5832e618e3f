"""Games, views and records that show themselves in a notebook (``_repr_html_``, as ``chess.Board`` does), for
every game through the registry: the game's spec may name a ``display`` function (``display(obj) -> HTML``,
or ``None`` to leave it to the default) that draws its games, views and records; the default, for any game,
is a small table of what the object holds.

The information rule holds: a game shows the spectator's view (what the whole table may see), a view what
its viewer may know, a record its own fields (a public or a player's record holds no secret of others).

>>> from heimlich_lab.games.secrets.game import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], seed=3)
>>> html = g._repr_html_()
>>> html.startswith("<div") and "Secrets" in html and "Ann" in html
True
>>> "<table" in g.record._repr_html_()
True
"""
from __future__ import annotations

from html import escape
from typing import Any

from .registry import GameSpec, games


def spec_of(obj: Any) -> GameSpec | None:
    """The registered game whose game, view or record class ``obj`` is an instance of (``None``: none)."""
    for spec in games():
        game = spec.load("game")
        if isinstance(obj, (game, spec.load("record"))) or isinstance(obj, getattr(game, "View", ())):
            return spec
    return None


def html_of(obj: Any) -> str:
    """``obj`` (a game, a view or a record of a registered game) as HTML for a notebook."""
    spec = spec_of(obj)
    if spec is not None and spec.has("display"):
        html: str | None = spec.load("display")(obj)
        if html is not None:
            return html
    return default_html(obj, spec)


def _rows(rows: list[tuple[str, Any]]) -> str:
    return "".join(f"<tr><th style='text-align:left'>{escape(k, quote=False)}</th><td style='text-align:left'>"
                   f"{escape(str(v), quote=False)}</td></tr>" for k, v in rows if v is not None)


def _table(title: str, rows: list[tuple[str, Any]], extra: str = "") -> str:
    return (f"<div class='heimlich-lab-object'><strong>{escape(title, quote=False)}</strong>"
            f"<table>{_rows(rows)}</table>{extra}</div>")


def default_html(obj: Any, spec: GameSpec | None = None) -> str:
    """A table of what a game (as the spectator sees it), a view or a record holds; any game."""
    title = spec.title if spec is not None else type(obj).__name__
    if hasattr(obj, "spectator_view") and hasattr(obj, "apply"):       # a game: what the table may see
        return default_html(obj.spectator_view(), spec)
    if hasattr(obj, "replay") and hasattr(obj, "log"):                 # a record
        return _table(f"{title} record ({obj.view})", [
            ("players", ", ".join(obj.players)), ("seed", obj.seed), ("chance", obj.chance),
            ("log entries", len(obj.log)),
            ("winners", None if obj.winners is None else (", ".join(obj.winners) or "nobody"))])
    return _table(f"{title}: {obj.label}", [                           # a view
        ("players", ", ".join(obj.players)), ("turn", getattr(obj, "turn", None)), ("phase", obj.phase),
        ("to decide", obj.current_player),
        ("winners", None if not obj.is_over else (", ".join(obj.winners or ()) or "nobody"))])
