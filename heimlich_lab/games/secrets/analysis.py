"""Secrets in a tournament (:data:`TOURNAMENT`, read by :mod:`heimlich_lab.analysis`): the table's columns and
rows (``team`` is the identity that counted at the end), its variants (``basic``, ``double_agent=N``, a
:class:`~heimlich_lab.games.secrets.rules.SecretsRules` or a dict of its options) and the per-game belief
evaluator (:class:`SecretsBeliefEvaluator`: every observer's exact filter at the end of the game).

Its game ids are named apart from the first game's: ``SEED/secrets/NP/VARIANT/LINEUP/K``.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ...analysis.grid import labelled_rules
from ...engine.registry import TournamentSpec
from ...errors import HeimlichError
from .rules import SecretsRules


class SecretsBeliefEvaluator:
    """``evaluate(record) -> {column: {player: value}}`` for Secrets: every observer's exact filter
    (:class:`~heimlich_lab.games.secrets.Belief`, ``model=None``: only what was seen and heard) at the end of the
    game, before the final reveal, scored against where the markers lay, over every seat and the middle:

    * ``belief_log_loss`` (natural log), ``belief_brier`` and ``belief_accuracy`` (the likeliest team right);
    * ``belief_own``: the probability the observer gave their own true identity (they can lose track of it).

    >>> from heimlich_lab import secrets
    >>> rec = secrets.play([secrets.RandomBot(i) for i in range(4)], seed=2)
    >>> scores = SecretsBeliefEvaluator()(rec)
    >>> sorted(scores), 0 <= scores["belief_accuracy"]["Ann"] <= 1
    (['belief_accuracy', 'belief_brier', 'belief_log_loss', 'belief_own'], True)
    """

    def __init__(self, model=None, prefix: str = "belief_"):
        self.model = model
        self.prefix = prefix

    def __repr__(self):
        return f"SecretsBeliefEvaluator(model={self.model!r})"

    def __call__(self, record) -> dict:
        from .belief import Belief
        from .rules import TEAMS
        truth = record.final_identities
        out: dict = {f"{self.prefix}{k}": {} for k in ("log_loss", "brier", "accuracy", "own")}
        for p in record.players:
            b = Belief.from_record(record, observer=p, model=self.model)
            m = np.asarray(b.marginals(), dtype=float)                   # (teams, slots)
            t = np.array([[float(truth[s] == team) for s in b.slots] for team in TEAMS])
            right = (m * t).sum(axis=0)
            out[f"{self.prefix}log_loss"][p] = float(-np.log(np.clip(right, 1e-15, 1.0)).mean())
            out[f"{self.prefix}brier"][p] = float(((m - t) ** 2).sum(axis=0).mean())
            out[f"{self.prefix}accuracy"][p] = float((t[np.argmax(m, axis=0), np.arange(m.shape[1])] == 1).mean())
            out[f"{self.prefix}own"][p] = float(right[b.slots.index(p)])
        return out


def secrets_rules_label(rules: SecretsRules) -> str:
    """A short, unique name for Secrets rule options (``basic`` for the defaults).

    >>> secrets_rules_label(SecretsRules()), secrets_rules_label(SecretsRules(double_agent_value=-1))
    ('basic', 'double_agent=-1')
    """
    parts = [f"double_agent={rules.double_agent_value}"] if rules.double_agent_value else []
    if rules.markers:
        parts.append("markers=" + ".".join(f"{n}:{'-'.join(map(str, c))}" for n, c in sorted(rules.markers.items())))
    return "+".join(parts) or "basic"


def parse_secrets_variant(spec: "str | SecretsRules | Mapping") -> tuple[str, SecretsRules]:
    """``(label, SecretsRules)`` from ``"basic"``, ``"double_agent=N"``, a :class:`SecretsRules` or a dict of its
    options.

    >>> parse_secrets_variant("double_agent=2")[1].double_agent_value, parse_secrets_variant({})[0]
    (2, 'basic')
    """
    if isinstance(spec, (SecretsRules, Mapping)):
        return labelled_rules(SecretsRules, secrets_rules_label, spec, "Secrets variant")
    text = spec.strip().lower() if isinstance(spec, str) else ""
    if text == "basic":
        return "basic", SecretsRules()
    name, _, value = text.partition("=")
    if name.replace("-", "_") == "double_agent":
        try:
            return parse_secrets_variant({"double_agent_value": int(value)})
        except ValueError:
            pass
    raise HeimlichError(f"a Secrets variant is 'basic', 'double_agent=N' (the Double Agent's points), a "
                        f"SecretsRules or a dict of its options, not {spec!r}")


#: The columns of a Secrets tournament table, with their kinds: the first game's where they apply (``game``
#: says which game it is; ``dealt_team`` the identity dealt, ``team`` the one that counted at the end,
#: ``winning_team`` empty on a tie).
COLUMN_KINDS = {
    "game_id": "str", "root_seed": "int", "game_index": "int", "seed": "int", "game": "str", "n_players": "int",
    "variant": "str", "lineup": "str", "seat": "int", "player": "str", "bot": "str", "bot_seed": "int",
    "dealt_team": "str", "team": "str", "score": "int", "won": "bool", "shared_win": "bool", "winning_team": "str",
    "nobody_won": "bool", "n_winners": "int", "n_turns": "int", "n_actions": "int",
}
COLUMNS = tuple(COLUMN_KINDS)


def table_rows(g, rules: SecretsRules, common: dict) -> list[dict]:
    """A finished Secrets game's rows (without the seat's columns): ``team`` is the identity that counted."""
    dealt = dict(g.history[0][1].args)
    final = g.identities
    winners = set(g.winners or ())
    winning = final[next(iter(winners))] if winners else ""
    return [{**common, "game": "secrets", "dealt_team": dealt[p], "team": final[p], "score": g.scores[p],
             "won": p in winners, "shared_win": p in winners and len(winners) > 1, "winning_team": winning,
             "nobody_won": not winners, "n_winners": len(winners), "n_turns": g.turn,
             # decisions and random chance events: the certain reveals from under the deck (logged since record
             # version 2) are not counted, so that a tournament's table is what it was
             "n_actions": len(g.history) - g.certain_events}
            for p in g.players]


def summary(df, by: list[str]) -> list[tuple[str, object]]:
    """What ``heimlich-lab tournament`` prints after the win rates: the win rates by team."""
    from ...analysis.statistics import win_rates
    return [("Win rates by team (the identity that counted at the end):",
             win_rates(df, by=by + ["team"])[by + ["team", "games", "wins", "win_rate", "ci_low", "ci_high"]])]


def class_identities(record) -> tuple[dict, dict, dict]:
    """For the class data (:mod:`heimlich_lab.analysis.class_games`), per player of a finished full record: the
    identity dealt, the identity that counted at the end, and the final score.

    >>> from heimlich_lab import secrets
    >>> dealt, final, score = class_identities(secrets.play([secrets.RandomBot(i) for i in range(4)], seed=2))
    >>> sorted(dealt) == sorted(final) == sorted(score) == ["Ann", "Bob", "Cy", "Dee"]
    True
    """
    r = record.result
    dealt = dict(record.actions[0].args)
    return ({p: dealt[p] for p in record.players}, {p: r["final_identities"][p] for p in record.players},
            {p: r["scores"][p] for p in record.players})


TOURNAMENT = TournamentSpec(
    columns=COLUMN_KINDS, rows=table_rows, parse_variant=parse_secrets_variant,
    evaluators={"beliefs": f"{__name__}:SecretsBeliefEvaluator", "belief": f"{__name__}:SecretsBeliefEvaluator"},
    id_prefix="secrets/", fair_share=False, summary=summary, belief_when="at the end of the game",
    rules_label=secrets_rules_label, identities=class_identities)
