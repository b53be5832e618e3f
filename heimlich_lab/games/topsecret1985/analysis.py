"""Top Secret in a tournament (:data:`TOURNAMENT`, read by :mod:`heimlich_lab.analysis`): the table's columns
and rows, and its variants (``basic``, a :class:`~heimlich_lab.games.topsecret1985.rules.TopSecretRules` or a
dict of its options). Its game ids are named apart: ``SEED/topsecret1985/NP/VARIANT/LINEUP/K``.

>>> parse_variant("basic")[0], parse_variant({"pickup": "stop"})[0]
('basic', 'pickup=stop')
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ...analysis.grid import labelled_rules
from ...engine.registry import TournamentSpec
from ...errors import HeimlichError
from .rules import TopSecretRules

__all__ = ["COLUMNS", "COLUMN_KINDS", "TOURNAMENT", "parse_variant", "rules_label", "table_rows"]


def rules_label(rules: TopSecretRules) -> str:
    """A short, unique name for the rule options (``basic`` for the defaults).

    >>> rules_label(TopSecretRules(bonus_may_duel=False, target=12))
    'bonus_may_duel=False+target=12'
    """
    base = TopSecretRules()
    parts = [f"{f.name}={getattr(rules, f.name)}" for f in fields(rules)
             if getattr(rules, f.name) != getattr(base, f.name)]
    return "+".join(parts) or "basic"


def parse_variant(spec: str | TopSecretRules | Mapping[str, Any]) -> tuple[str, object]:
    """``(label, TopSecretRules)`` from ``"basic"``, a rules object or a dict of its options."""
    if isinstance(spec, (TopSecretRules, Mapping)):
        return labelled_rules(TopSecretRules, rules_label, spec, "Top Secret variant")
    if isinstance(spec, str) and spec.strip().lower() == "basic":
        return "basic", TopSecretRules()
    raise HeimlichError(f"a Top Secret variant is 'basic', a TopSecretRules or a dict of its options, not {spec!r}")


COLUMN_KINDS = {
    "game_id": "str", "root_seed": "int", "game_index": "int", "seed": "int", "game": "str", "n_players": "int",
    "variant": "str", "lineup": "str", "seat": "int", "player": "str", "bot": "str", "bot_seed": "int",
    "corner": "str", "secrets": "int", "deliveries": "int", "agents_left": "int", "won": "bool",
    "shared_win": "bool", "nobody_won": "bool", "n_winners": "int", "end": "str", "n_turns": "int",
    "n_actions": "int",
}
COLUMNS = tuple(COLUMN_KINDS)


def table_rows(g: Any, rules: TopSecretRules, common: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game's rows (without the seat's columns)."""
    winners = set(g.winners or ())
    return [{**common, "game": "topsecret1985", "corner": g.corners[i], "secrets": g.secrets_home[p],
             "deliveries": len(g.delivered[p]), "agents_left": len(g.alive(p)), "won": p in winners,
             "shared_win": p in winners and len(winners) > 1, "nobody_won": not winners, "n_winners": len(winners),
             "end": g.end_reason, "n_turns": g.turn, "n_actions": len(g.history)}
            for i, p in enumerate(g.players)]


TOURNAMENT = TournamentSpec(
    columns=COLUMN_KINDS, rows=table_rows, parse_variant=parse_variant, id_prefix="topsecret1985/",
    fair_share=True, rules_label=rules_label)
