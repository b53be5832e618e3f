"""Decisions in Heimlich words: what a move or a card did, as the belief's explanations say it."""
from __future__ import annotations

from collections.abc import Mapping

from ....engine.words import count
from ..rules.actions import HIDDEN, Action
from ..rules.board import building_after, building_name
from ..rules.cards import PublicBoard, card_effect

__all__ = ["card_moves", "describe_action"]


def card_moves(view, action: Action) -> dict[str, tuple[int, int]]:
    """Agent colour -> (from, to) building values that a card play makes, from the view before it.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], seed=1)
    >>> card_moves(g.view(None), Action.parse("play ruins red"))
    {'red': (0, -3)}
    """
    if action.kind != "play":
        return {}
    board = PublicBoard.from_view(view)
    return card_effect(board, action).moves_by_colour(board)


def _moves_text(moves: Mapping[str, tuple[int, int]]) -> str:
    parts = [f"{c} from {building_name(a)} to {building_name(b)}" for c, (a, b) in moves.items()]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def describe_action(view, actor: str, action: Action) -> str:
    """A decision in Heimlich words, from the view just before it.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob"], chance="manual")
    >>> g.apply("deal Ann=red Bob=green"); g.apply("roll 6")
    >>> describe_action(g.view(None), "Ann", Action.parse("move red+3 green+3"))
    'Ann moved red from church to 3 and green from church to 3'
    >>> describe_action(g.view(None), "Ann", Action.parse("move green+5 grey+1"))
    'Ann moved grey from church to 1 and green from church to 5'
    >>> describe_action(g.view(None), "Ann", Action.parse("move yellow+7"))
    'Ann moved yellow from church to 7 and made a scoring (yellow at the safe)'
    """
    k = action.kind
    if k == "take":
        return f"{actor} took a free agent card" + (f" ({action.args[0]})" if action.args[0] != HIDDEN else "")
    ts = bool(getattr(view.rules, "top_secret", False))
    scoring_word = "a scoring situation" if ts else "a scoring"
    if k == "move":
        pos, safe = view.positions, view.safe
        moves = {c: (pos[c], building_after(pos[c], n)) for c, n in action.args}
        text = f"{actor} moved {_moves_text(moves)}"
        hit = [c for c, (_, to) in moves.items() if to == safe]
        if hit:
            text += f" and made {scoring_word} ({', '.join(hit)} at the safe)"
        return text
    if k == "safe":
        return f"{actor} moved the safe from {building_name(view.safe)} to {building_name(action.args[0])}"
    if k == "points":
        n = action.args[0]
        if n == 0:
            return f"{actor} chose 0 points (no move, a Top Secret card instead)"
        return f"{actor} chose {count(n, 'point')}"
    if k == "announce":
        return f"{actor} {'wants' if action.args[0] else 'does not want'} to play a Top Secret card"
    if k == "pass":
        return f"{actor} passed"
    if k == "done":
        return f"{actor} stopped playing cards"
    if k == "play":
        code, t = action.args[0], action.args[1:]
        text = f"{actor} played {code}"
        moves = card_moves(view, action)
        if code == "placesafe":
            text += f": the safe from {building_name(view.safe)} to {building_name(t[0])}"
        elif code == "bonus":
            text += f": {t[0]} and {t[1]} markers +3"
        elif code == "second":
            text += " (second agent)"
        elif code == "church":
            text += ": every agent to the church"
        elif moves:
            text += ": " + _moves_text(moves)
        else:
            text += " " + " ".join(map(str, t))
        hit = [c for c, (_, to) in moves.items() if to == view.safe]
        if hit:
            text += f" and made a scoring situation ({', '.join(hit)} at the safe)"
        return text
    return f"{actor}: {action}"
