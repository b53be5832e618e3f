"""Heimlich & Co. in a notebook (its spec's ``display``, :mod:`heimlich_lab.engine.display`): a game or a view
shows the board as the viewer may see it (a game: the spectator), drawn by
:func:`~heimlich_lab.games.heimlich.svg.board`; a full record adds the board at its end to the default table.

>>> from heimlich_lab import Game
>>> html = display(Game(["Ann", "Bob"], seed=2).view("Ann"))
>>> html.count("<svg"), "Ann's view" in html
(1, True)
"""
from __future__ import annotations

from html import escape


def display(obj) -> str | None:
    """HTML for a game, a view or a record of Heimlich & Co. (``None`` for anything else)."""
    from ...engine.display import default_html
    from .rules.game import Game
    from .rules.records import GameRecord
    from .rules.views import View
    from .spec import SPEC
    from .svg import board
    if isinstance(obj, GameRecord):
        if not obj.is_full:
            return None
        return default_html(obj, SPEC).replace("</div>", f"{board(obj.replay())}</div>", 1)
    if isinstance(obj, Game):
        obj = obj.spectator_view()
    if not isinstance(obj, View):
        return None
    state = ("over: " + (", ".join(obj.winners) or "nobody") + " won") if obj.is_over else \
        f"turn {obj.turn}, {obj.phase}" + (f" ({obj.current_player})" if obj.current_player else "")
    title = escape(f"{SPEC.title}: {obj.label}, {state}", quote=False)
    return f"<div class='heimlich-lab-object'><strong>{title}</strong><br>{board(obj)}</div>"
