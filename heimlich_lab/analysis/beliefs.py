"""A built-in per-game evaluator for tournaments: how well every player's exact belief guessed.

``tournament(..., evaluate="beliefs")`` (or ``evaluate=BeliefEvaluator(...)``) replays each
finished game once with a :class:`~heimlich_lab.games.heimlich.inference.belief.BeliefSet` (every player as an
observer, the model's likelihood computed once per decision) and adds, per game and player, the
scores of :func:`~heimlich_lab.inference.metrics.score_belief` for that player's exact posterior
at the dossier mark (the first scoring marker at 29; the end of the game if no marker got there):

* ``belief_log_loss``, ``belief_brier``, ``belief_accuracy``: over the agents other than the
  player's own (natural log; Brier 0 is perfect);
* ``belief_expected_correct`` and ``belief_actual_correct``: of the sheet naming the most
  probable owner (an opponent or "free") of each such agent;
* ``belief_at_mark``: whether the game reached the dossier mark.

The truth is who controlled which agent when the replay stopped. The model defaults to the kit's
default model (:func:`~heimlich_lab.games.heimlich.inference.likelihoods.default_model`, types learned per player);
``BoltzmannModel()`` has the parameters of the default ``boltzmann`` bot.

Speed: bots whose model has the same utility weights as the evaluator's model are given the
evaluator's :class:`~heimlich_lab.games.heimlich.inference.utility.Utility` (its cache) before the game, so the
utilities the bots computed while playing are looked up again, not recomputed, during the replay.
Utilities are a pure function of the public state, so the games and the scores are the same
either way (``share_utility=False`` turns this off).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ..errors import HeimlichError

#: The columns the belief evaluator adds (besides ``belief_at_mark``).
METRIC_COLUMNS = ("belief_log_loss", "belief_brier", "belief_accuracy", "belief_expected_correct",
                  "belief_actual_correct")


class BeliefEvaluator:
    """``evaluate(record) -> {column: {player: value}}`` with every player's exact belief scores.

    ``until="dossier"`` (default) scores the beliefs at the dossier mark; ``until=None`` after the
    whole game. ``model``: any player model (default: the kit's default model).
    """

    def __init__(self, model=None, until="dossier", share_utility: bool = True, prefix: str = "belief_"):
        if model is None:
            from ..games.heimlich.inference.likelihoods import default_model
            model = default_model()
        self.model = model
        self.until = until
        self.share_utility = share_utility
        self.prefix = prefix

    def __repr__(self):
        return f"BeliefEvaluator(model={self.model!r}, until={self.until!r})"

    def before_game(self, bots: Mapping[str, object]) -> None:
        """Let bots with the same utility as the model share its cache (see the module doc)."""
        mine = getattr(self.model, "utility", None)
        if not self.share_utility or mine is None:
            return
        for bot in bots.values():
            m = getattr(bot, "model", None)
            u = getattr(m, "utility", None)
            if u is not None and u is not mine and type(u) is type(mine) and u.weights == mine.weights:
                m.utility = mine

    def __call__(self, record) -> dict:
        from ..games.heimlich.inference.belief_set import BeliefSet
        from ..inference.metrics import truth_table
        bs = BeliefSet.from_record(record, model=self.model, until=self.until, keep_updates=False)
        owners = bs.truth
        agents = list(bs.agents)
        players = list(bs.players)
        t = truth_table(players, agents, owners)
        out: dict = {f"{self.prefix}{k}": {} for k in
                     ("log_loss", "brier", "accuracy", "expected_correct", "actual_correct")}
        for p in players:
            # mask what the observer holds at the stop (bs.truth is the final owners: a dropped second agent is free)
            s = _score(bs[p].marginals_array(), t, players, agents, p, bs[p].own_agents)
            for k, v in s.items():
                out[f"{self.prefix}{k}"][p] = v
        out[f"{self.prefix}at_mark"] = bool(bs.at_mark)
        return out


def _score(marginals, t, players, agents, observer, own) -> dict[str, float]:
    """:func:`~heimlich_lab.inference.metrics.score_belief` of one observer's exact marginals, the same
    arithmetic without its input checks (the BeliefSet's tables are valid by construction; the
    checks took about a tenth of a tournament game's time). Tested against score_belief."""
    m = np.asarray(marginals, dtype=float)
    m = m / m.sum(axis=0, keepdims=True)          # as score_belief
    mask = np.array([a not in own for a in agents])
    n_p = len(players)
    rows = [i for i, p in enumerate(players) if p != observer] + [n_p]
    best = np.asarray(rows)[np.argmax(m[rows], axis=0)]   # the sheet's entry per agent (row index)
    mp = (m / m.sum(axis=0, keepdims=True))[:, mask]      # as metrics._prepare, on the scored agents
    tp = t[:, mask]
    cols = np.flatnonzero(mask)
    return {
        "log_loss": float(-np.log(np.clip((mp * tp).sum(axis=0), 1e-15, 1.0)).mean()),
        "brier": float(((mp - tp) ** 2).sum(axis=0).mean()),
        "accuracy": float((tp[np.argmax(mp, axis=0), np.arange(mp.shape[1])] == 1).mean()),
        "expected_correct": float(sum(m[best[j], j] / m[:, j].sum() for j in cols)),
        "actual_correct": float(sum(t[best[j], j] == 1 for j in cols)),
    }


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
        from ..games.secrets.belief import Belief
        from ..games.secrets.rules import TEAMS
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


#: Names accepted by ``tournament(evaluate=...)``, per game.
EVALUATORS = {"beliefs": BeliefEvaluator, "belief": BeliefEvaluator}
SECRETS_EVALUATORS = {"beliefs": SecretsBeliefEvaluator, "belief": SecretsBeliefEvaluator}


def resolve_evaluator(evaluate, game: str = "heimlich"):
    """A named evaluator (``"beliefs"``) of ``game``, or the callable itself."""
    if isinstance(evaluate, str):
        try:
            return (SECRETS_EVALUATORS if game == "secrets" else EVALUATORS)[evaluate.strip().lower()]()
        except KeyError:
            raise HeimlichError(f"unknown evaluator {evaluate!r}; named evaluators are "
                                f"{', '.join(sorted(EVALUATORS))} (or give a function evaluate(record) -> dict)") from None
    return evaluate
