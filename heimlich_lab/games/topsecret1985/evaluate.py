"""How good is the belief about the suitcases? Log loss, Brier score and calibration over simulated games.

Each seat's bot is drawn from the belief's own population (a random player, careful players at three
rationalities, a bluffer; :mod:`~heimlich_lab.games.topsecret1985.model`), as the belief's prior says: that is
the table where a calibrated belief must be calibrated. At a few moments of each game (a quarter, half and
three quarters of its log) every suitcase not yet delivered is predicted, by

* ``belief``: the posterior over the owner's type and filling (what every non-owner holds);
* ``prior``: every filling alike that agrees with the deliveries so far;
* ``first-carried``: a heuristic, "the first of their own suitcases an owner picks up is the 5" (three times as
  likely as the rest), among the fillings that agree with the deliveries.

Calibration bins the predicted probabilities of "suitcase L holds content c" in tenths; a bin's z-score is its
gap (observed minus predicted) over its standard error *clustered by game* (the predictions of one game are not
independent).

>>> table = evaluate(games=2, n_players=2, seed=3, progress=False)
>>> list(table.columns)
['log loss', 'Brier', 'ECE', 'max |z|', 'predictions']
>>> list(table.index)
['belief', 'prior', 'first-carried']
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...engine.contract import CHANCE
from .actions import Action
from .belief import Belief, read_game
from .bots import TypeBot, make_bot
from .map import LETTERS
from .model import CONTENT_INDEX, FILLING_CONTENT, FILLINGS, Population
from .play import play
from .rules import CONTENTS

__all__ = ["MOMENTS", "calibration_bins", "evaluate", "predictions"]

#: Where in a game's log the suitcases are predicted.
MOMENTS = (0.25, 0.5, 0.75)
_HEURISTIC_WEIGHT = 3.0


def predictions(record: Any, game_id: int = 0, model: Population | None = None,
                moments: Sequence[float] = MOMENTS) -> pd.DataFrame:
    """One row per (moment, owner, undelivered suitcase, content): each predictor's probability and the truth."""
    belief = Belief(record.players, None, model)
    marks = {max(1, int(m * len(record.log))): m for m in moments}
    rows: list[dict[str, Any]] = []
    first_carried: dict[str, str] = {}

    def at(k: int, game: Any) -> None:
        entry = record.log[k]
        if entry[0] != CHANCE and entry[1].startswith("pick "):
            owner, _, letter = Action.parse(entry[1]).args[1].rpartition(":")
            if owner == entry[0]:
                first_carried.setdefault(owner, letter)
        if k + 1 in marks:
            rows.extend(_rows(record, game, belief, first_carried, game_id, marks[k + 1]))

    read_game(belief, record, after_entry=at)
    return pd.DataFrame(rows)


def _rows(record: Any, game: Any, belief: Belief, first: dict[str, str], game_id: int,
          moment: float) -> list[dict[str, Any]]:
    out = []
    shown = {s for p in record.players for s, _ in game.delivered[p]}
    for owner in record.players:
        truth = record.contents[owner]
        consistent = np.ones(len(FILLINGS), dtype=bool)
        for s, content in (x for p in record.players for x in game.delivered[p]):
            o, _, letter = s.rpartition(":")
            if o == owner:
                consistent &= FILLING_CONTENT[:, LETTERS.index(letter)] == CONTENT_INDEX[content]
        prior = consistent / consistent.sum()
        heuristic = consistent.astype(float)
        if owner in first:
            heuristic *= np.where(FILLING_CONTENT[:, LETTERS.index(first[owner])] == CONTENT_INDEX["5"],
                                  _HEURISTIC_WEIGHT, 1.0)
        heuristic /= heuristic.sum()
        post = belief.marginals(owner).to_numpy()
        for i, letter in enumerate(LETTERS):
            if f"{owner}:{letter}" in shown:
                continue
            for c in CONTENTS:
                hit = FILLING_CONTENT[:, i] == CONTENT_INDEX[c]
                out.append({"game": game_id, "moment": moment, "owner": owner, "suitcase": letter, "content": c,
                            "truth": float(truth[letter] == c), "belief": float(post[i, CONTENT_INDEX[c]]),
                            "prior": float(prior[hit].sum()), "first-carried": float(heuristic[hit].sum())})
    return out


def calibration_bins(frame: pd.DataFrame, column: str, bins: int = 10) -> pd.DataFrame:
    """Per bin of predicted probability: count, mean prediction, observed frequency, and the z-score of the gap
    with its standard error clustered by game."""
    p, y = frame[column].to_numpy(), frame["truth"].to_numpy()
    which = np.minimum((p * bins).astype(int), bins - 1)
    rows = []
    for b in range(bins):
        inside = which == b
        n = int(inside.sum())
        if not n:
            continue
        gap = y[inside] - p[inside]
        per_game = pd.Series(gap).groupby(frame["game"].to_numpy()[inside]).sum().to_numpy()
        se = float(np.sqrt((per_game ** 2).sum())) / n
        mean_gap = float(gap.mean())
        rows.append({"bin": f"{b / bins:.1f}-{(b + 1) / bins:.1f}", "n": n, "predicted": float(p[inside].mean()),
                     # a gap that cancels within every game (the prior's, by symmetry) has no error to speak of
                     "observed": float(y[inside].mean()), "z": mean_gap / se if se > 1e-9 else 0.0})
    return pd.DataFrame(rows).set_index("bin")


def _scores(frame: pd.DataFrame, column: str) -> dict[str, float]:
    truth = frame["truth"].to_numpy()
    p = frame[column].to_numpy()
    hit = p[truth == 1]
    bins = calibration_bins(frame, column)
    ece = float((bins["n"] * (bins["observed"] - bins["predicted"]).abs()).sum() / bins["n"].sum())
    return {"log loss": float(-np.log(np.clip(hit, 1e-12, None)).mean()),
            # the Brier score of a suitcase: the squared errors over its four contents, summed
            "Brier": float(((p - truth) ** 2).sum() / (truth == 1).sum()),
            "ECE": ece, "max |z|": float(bins["z"].abs().max()), "predictions": int((truth == 1).sum())}


def evaluate(games: int = 200, n_players: int = 4, seed: int = 0, model: Population | None = None,
             bots: Sequence[str] | None = None, progress: bool = True, frame: bool = False) -> Any:
    """Play ``games`` games of ``n_players`` (each seat's bot drawn from the population, or ``bots`` in turn)
    and score the belief against the prior and the first-carried heuristic: log loss per suitcase, Brier per
    suitcase, ECE, the largest calibration z-score (clustered by game) and the number of suitcases predicted.
    ``frame=True`` returns the predictions too."""
    from tqdm.auto import tqdm

    pop = Population.default() if model is None else model
    rng = random.Random(seed)
    parts = []
    for g in tqdm(range(games), desc="Top Secret games", disable=not progress):
        seats = []
        for i in range(n_players):
            s = rng.randrange(2**31)
            name = bots[i % len(bots)] if bots else pop.types[rng.randrange(len(pop.types))].name
            seats.append(make_bot(name, seed=s) if name in ("random", "runner") or bots
                         else TypeBot(name, seed=s, population=pop))
        rec = play(seats, seed=rng.randrange(2**31))
        parts.append(predictions(rec, g, pop))
    table = pd.concat(parts, ignore_index=True)
    scores = pd.DataFrame({c: _scores(table, c) for c in ("belief", "prior", "first-carried")}).T
    return (scores, table) if frame else scores
