"""Summaries of a tournament table: win rates and free-agent wins with Wilson confidence intervals."""
from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd

from ..engine.registry import game_spec, resolve
from ..errors import HeimlichError


def wilson_interval(successes, trials, confidence: float = 0.95):
    """Wilson score interval for a binomial proportion; arrays broadcast. ``trials == 0`` gives NaN.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if not 0 < confidence < 1:
        raise HeimlichError(f"confidence must be between 0 and 1, not {confidence}")
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise HeimlichError("successes must be between 0 and the number of trials")
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z / denom * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        low, high = np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def by_columns(by) -> list[str]:
    """The grouping columns as a list (``by`` is one column name or several)."""
    return [by] if isinstance(by, str) else list(by)


def win_rates(df: pd.DataFrame, by=("bot",), confidence: float = 0.95) -> pd.DataFrame:
    """Win rate per group of player-games, with a Wilson confidence interval.

    Columns: the ``by`` columns, ``games`` (player-games in the group), ``wins`` (shared wins
    count as wins), ``win_rate``, ``ci_low``, ``ci_high``, ``shared_wins`` and ``fair_share``
    (the win rate of a seat if every player were equally good and a free agent never won:
    the mean of 1 / number of players; NaN for a game won by teams, as its registry entry says). Rows of one
    game are not independent (at most a few players win each game), so read the interval as a guide when a bot
    fills several seats.

    >>> df = pd.DataFrame({"bot": ["a", "a", "b", "b"], "won": [True, False, False, False],
    ...                    "shared_win": [False] * 4, "n_players": [2] * 4})
    >>> win_rates(df)[["bot", "games", "wins", "win_rate"]].to_string(index=False)
    'bot  games  wins  win_rate\\n  a      2     1       0.5\\n  b      2     0       0.0'
    """
    cols = by_columns(by)
    missing = [c for c in cols + ["won"] if c not in df.columns]
    if missing:
        raise HeimlichError(f"the table has no column(s) {missing}")
    d = df.assign(_fair=_fair_shares(df), _shared=df["shared_win"] if "shared_win" in df else False)
    g = d.groupby(cols, sort=True, observed=True)
    out = pd.DataFrame({"games": g["won"].size(), "wins": g["won"].sum().astype("int64")})
    out["win_rate"] = out["wins"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["wins"].to_numpy(), out["games"].to_numpy(), confidence)
    out["shared_wins"] = g["_shared"].sum().astype("int64")
    out["fair_share"] = g["_fair"].mean()
    return out.reset_index()


def _fair_shares(df: pd.DataFrame) -> pd.Series | float:
    """Each row's fair share, 1 / number of players, except in a game its registry entry says is won by teams
    (``TournamentSpec.fair_share``), where a seat has no share (NaN). A table without a ``game`` column is the
    first game's."""
    if "n_players" not in df:
        return np.nan
    fair = 1.0 / df["n_players"]
    if "game" not in df:
        return fair
    by_teams = [name for name in pd.unique(df["game"]) if not _seat_has_a_share(str(name))]
    return fair.where(~df["game"].isin(by_teams))


def _seat_has_a_share(game: str) -> bool:
    table = game_spec(game).tournament
    return table is None or bool(resolve(table).fair_share)


def free_agent_win_rate(df: pd.DataFrame, by="n_players", confidence: float = 0.95) -> pd.DataFrame:
    """How often no player won (a free agent had the top score), per group of games.

    Columns: the ``by`` columns, ``games``, ``free_agent_wins``, ``rate``, ``ci_low``, ``ci_high``.

    >>> df = pd.DataFrame({"game_id": ["g1", "g1", "g2", "g2"], "n_players": [2] * 4,
    ...                    "free_agent_won": [True, True, False, False]})
    >>> free_agent_win_rate(df)[["games", "free_agent_wins", "rate"]].to_dict("records")
    [{'games': 2, 'free_agent_wins': 1, 'rate': 0.5}]
    """
    cols = by_columns(by)
    missing = [c for c in cols + ["game_id", "free_agent_won"] if c not in df.columns]
    if missing:
        raise HeimlichError(f"the table has no column(s) {missing}")
    per_game = df.drop_duplicates("game_id")
    g = per_game.groupby(cols, sort=True, observed=True)["free_agent_won"]
    out = pd.DataFrame({"games": g.size(), "free_agent_wins": g.sum().astype("int64")})
    out["rate"] = out["free_agent_wins"] / out["games"]
    out["ci_low"], out["ci_high"] = wilson_interval(out["free_agent_wins"].to_numpy(), out["games"].to_numpy(),
                                                    confidence)
    return out.reset_index()

