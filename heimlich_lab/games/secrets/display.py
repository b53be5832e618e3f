"""Secrets in a notebook (its spec's ``display``, :mod:`heimlich_lab.engine.display`): a game or a view shows the
table as the viewer may see it (a game: the spectator): each seat's characters (face down in brackets), the
bullets they hold, the marker the viewer knows lies there, and the points that can be seen.

>>> from heimlich_lab.secrets import Game
>>> html = display(Game(["Ann", "Bob", "Cy", "Dee", "Eve"], seed=1).view("Ann"))
>>> "Ann's view" in html and html.count("<tr>") == 1 + 6       # a header, five seats and the middle
True
"""
from __future__ import annotations

from html import escape


def display(obj) -> str | None:
    """HTML for a game or a view of Secrets (``None`` for a record: the default table)."""
    from .game import Game
    from .transcript import card_name
    from .views import View
    if isinstance(obj, Game):
        obj = obj.spectator_view()
    if not isinstance(obj, View):
        return None
    known = obj.known_markers
    points = obj.visible_points
    rows = ["<tr><th>seat</th><th>characters</th><th>bullets</th><th>marker</th><th>points seen</th></tr>"]
    for seat in obj.slots:
        if seat in obj.tableaux:
            cards = ", ".join(card_name(c) if up else f"({card_name(c)})" for c, up in obj.tableaux[seat])
            cells = [seat + (" (UN)" if seat == obj.un_player else ""), cards or "-", obj.bullet_counts[seat],
                     known.get(seat, "?"), points[seat]]
        else:
            cells = [seat, "", "", known.get(seat, "?"), ""]
        rows.append("<tr>" + "".join(f"<td>{escape(str(c), quote=False)}</td>" for c in cells) + "</tr>")
    if obj.is_over:
        state = "over: " + (", ".join(obj.winners or ()) or "nobody") + " won"
    else:
        state = f"turn {obj.turn}, {obj.phase}" + (f" ({obj.current_player})" if obj.current_player else "")
    title = escape(f"Secrets: {obj.label}, {state}", quote=False)
    return f"<div class='heimlich-lab-object'><strong>{title}</strong><table>{''.join(rows)}</table></div>"
