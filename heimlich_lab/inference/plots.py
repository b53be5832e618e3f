"""Pictures of beliefs: the marginal table as a heatmap, and a belief over time (matplotlib, imported when used)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ModelError
from .core import FREE_LABEL

__all__ = ["AGENT_COLOURS", "plot_belief_history", "plot_marginals"]


#: matplotlib colour of each agent (the board's colours)
AGENT_COLOURS = {"grey": "#808080", "yellow": "#d4b000", "orange": "#ff8c00", "red": "#d62728",
                 "green": "#2ca02c", "blue": "#1f77b4", "violet": "#8a2be2"}


def plot_marginals(marginals: np.ndarray, players: Sequence[str], agents: Sequence[str], ax: Any = None,
                   title: str | None = None) -> Any:
    """Heatmap of a (players + free) x agents table with the probabilities printed. Returns the Axes."""
    import matplotlib.pyplot as plt
    m = np.asarray(marginals, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(1 + 0.8 * len(agents), 0.9 + 0.5 * (len(players) + 1)))
    ax.imshow(m, vmin=0, vmax=1, cmap="Blues", aspect="auto")
    rows = [*players, FREE_LABEL]
    ax.set_xticks(range(len(agents)), list(agents))
    ax.set_yticks(range(len(rows)), rows)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            ax.text(j, i, f"{m[i, j]:.2f}", ha="center", va="center",
                    color="white" if m[i, j] > 0.6 else "black", fontsize="small")
    if title:
        ax.set_title(title)
    return ax


def plot_belief_history(belief: Any, player_or_agent: str, ax: Any = None) -> Any:
    """A :class:`~heimlich_lab.games.heimlich.inference.belief.Belief` over time: a player's row (one line per agent)
    or an agent's column (one line per player and free). A name that is both a player and an agent is
    read as the player. Returns the Axes."""
    import matplotlib.pyplot as plt
    hist = belief.marginals_history()
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 3.5))
    x = np.arange(hist.shape[0])
    rows = [*belief.players, FREE_LABEL]
    if player_or_agent in belief.players or player_or_agent == FREE_LABEL:
        r = rows.index(player_or_agent)
        for j, a in enumerate(belief.agents):
            ax.plot(x, hist[:, r, j], label=a, color=AGENT_COLOURS.get(a))
        ax.set_title(f"P({player_or_agent} controls ...), {belief.observer or 'spectator'}'s belief")
    elif player_or_agent in belief.agents:
        j = belief.agents.index(player_or_agent)
        for r, p in enumerate(rows):
            ax.plot(x, hist[:, r, j], label=p, linestyle="--" if p == FREE_LABEL else "-")
        ax.set_title(f"P(... controls {player_or_agent}), {belief.observer or 'spectator'}'s belief")
    else:
        raise ModelError(f"{player_or_agent!r} is neither a player ({', '.join(belief.players)}), 'free', "
                         f"nor an agent ({', '.join(belief.agents)})")
    ax.set_xlabel("update")
    ax.set_ylabel("probability")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize="small", ncol=2)
    return ax
