"""The bluffing bot: plays for its agent while keeping its identity hidden.

:class:`BluffBot` runs the same belief model as its opponents. From its own
view it follows the public history with a *spectator's* exact belief (what
someone who knows no card can infer; the opponents know a little more, their
own card, but not much). At each decision it scores every legal action by

    score(x) = U(x; own agent) - secrecy * exposure(x)

where ``U`` is the utility of :mod:`heimlich_lab.games.heimlich.inference.utility` (in
marker points) and ``exposure(x)`` is the probability the spectator's belief
would give to "this player controls my agent" right after seeing ``x``. The
actor's row of an exact posterior updates by itself when every hypothesis's
likelihood depends only on the actor's agent:
``P(me -> a | x) = m_a * L_a(x) / sum_b m_b * L_b(x)`` with ``m`` the row
before and ``L_b(x) = P(x | plays for b)`` from the
:class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel`. It then samples like a
Boltzmann player: ``(1 - epsilon) * softmax(beta * score) + epsilon / n``.

``secrecy`` is in marker points per unit of probability: with the default
``secrecy=8``, an action that would raise the spectator's belief in the bot's
true agent from 0.2 to 0.7 must be worth 4 more marker points than one that
leaves it unchanged to be as attractive. ``secrecy=0`` is a BoltzmannBot.

Card rounds: a card's targets are scored the same way (the model's likelihood
of the targets given the card); announcements, passes and "done" reveal
nothing in the model, so only their utility counts. With two agents the bot
plays for the one farther along and counts exposure of both (the row formula
is then an approximation). Games started from a position (not described by the
views) are played without the secrecy term. Dossier entries:
:func:`~heimlich_lab.games.heimlich.bots.dossier.choose_dossier_entry`.

What the secrecy costs and buys, measured in paired games: :func:`bluff_cost`.

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import BoltzmannBot
>>> rec = play(Rules(), {"Ann": BluffBot(seed=1), "Bob": BoltzmannBot(seed=2), "Cy": BoltzmannBot(seed=3)}, seed=4)
>>> rec.result is not None
True
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp

from ....errors import ModelError
from ..inference.exposure import PublicWatch
from ..inference.model import BoltzmannModel, log_mixture
from ..inference.utility import PublicState, UtilityWeights
from .model_bots import TemperedBot, kept_agent, own_agents, sample_index

__all__ = ["BluffBot", "DEFAULT_SECRECY", "HiderBot", "bluff_cost"]

#: Marker points a bluffing bot gives up per unit of probability the spectator puts on its agent.
DEFAULT_SECRECY = 8.0


class BluffBot(TemperedBot):
    """Plays for its agent, trading utility for secrecy (see the module doc). Seeded."""

    name = "bluff"

    def __init__(self, beta: float = 1.0, epsilon: float = 0.05, secrecy: float = DEFAULT_SECRECY,
                 seed: int | None = None, weights: UtilityWeights | None = None):
        if isinstance(secrecy, bool) or not isinstance(secrecy, (int, float)) or not math.isfinite(secrecy) \
                or secrecy < 0:
            raise ModelError(f"secrecy must be a number >= 0 (marker points per unit of probability), not {secrecy!r}")
        self.model = BoltzmannModel(beta=beta, epsilon=epsilon, weights=weights)
        self.secrecy = float(secrecy)
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        #: the spectator's belief the bot hides from
        #: (:class:`~heimlich_lab.games.heimlich.inference.exposure.PublicWatch`)
        self.watch = PublicWatch(self.model)
        #: Diagnostics of the last decision: utility, exposure and probability of each legal action.
        self.last: dict = {}

    def __repr__(self):
        return f"BluffBot(beta={self.beta:g}, epsilon={self.epsilon:g}, secrecy={self.secrecy:g}, seed={self.seed})"

    # ---------------------------------------------------------------- what the others can see
    def exposure_row(self, view) -> np.ndarray | None:
        """The spectator's belief that this player controls each agent (``None`` if it cannot be followed)."""
        return self.watch.row(view, view.viewer)

    def exposures(self, view, legal, U: np.ndarray, own_ix: list[int]) -> np.ndarray:
        """Probability the spectator would give to this player's agent(s) after each legal action."""
        row = self.exposure_row(view)
        n = len(legal)
        if row is None:
            return np.zeros(n)
        with np.errstate(divide="ignore"):
            logm = np.log(row)
        now = float(row[own_ix].sum())
        kind = legal[0].kind
        beta, eps = self.model.beta, self.model.epsilon
        if kind in ("move", "points", "safe") and beta > 0 and eps < 1:
            z = beta * U
            L = log_mixture(z - logsumexp(z, axis=0), eps, n)  # (n, agents): log P(x | plays for agent)
        elif kind in ("play", "pass", "done"):
            L = np.zeros_like(U)
            me = view.viewer
            for i, x in enumerate(legal):
                if x.kind == "play":
                    v = self.model.agent_log_likelihoods(view, me, x)
                    if v is not None:
                        L[i] = v
        else:
            return np.full(n, now)
        w = logm[None, :] + L
        scale = row.sum()
        return np.exp(logsumexp(w[:, own_ix], axis=1) - logsumexp(w, axis=1)) * scale

    # ---------------------------------------------------------------- choose
    def _decide(self, view, legal):
        legal = tuple(legal)
        own = own_agents(view)
        st = PublicState.from_view(view)
        agent = kept_agent(view)
        U = self.model.utility.matrix(view, legal, st)
        u = U[:, st.agents.index(agent)]
        exp = self.exposures(view, legal, U, [st.agents.index(c) for c in own]) if self.secrecy else np.zeros(len(u))
        score = u - self.secrecy * exp
        z = self.model.beta * score
        p = np.exp(z - z.max())
        p = (1 - self.model.epsilon) * p / p.sum() + self.model.epsilon / len(p)
        i = sample_index(p, self._rng)
        self.last = {"utility": u, "exposure": exp, "probability": p, "chosen": i}
        return legal[i]


class HiderBot(BluffBot):
    """A careful player who hides: plays for its agent, but prefers a slightly worse move that does not give
    it away, and often covers. Seeded.

    At each decision, with probability ``cover`` it *covers*: of the legal actions worth at most ``slack``
    marker points less to its agent than the best one, it plays the one that leaves the spectator's belief
    in its agent lowest (the exposure of :class:`BluffBot`). Otherwise it samples like a BluffBot with a
    small ``secrecy`` and a high ``beta`` (careful). Parameters left out are drawn from the seed, one
    player to the next differing: ``beta`` in [2, 4], ``secrecy`` in [1, 3], ``cover`` in [0.2, 0.5];
    ``slack`` is 1.5 points and ``epsilon`` 0.02. The spectator it hides from reads with the bot's own
    ``beta`` (as a BluffBot's does).

    This is the evaluation's table of careful hiders (``evaluate --populations hider``). The default population
    has a type with its cover step (a hider who covers of beta 1 and secrecy 0, spectator beta 1); none of this
    bot's own parameters (beta 2 to 4, secrecy 1 to 3, a spectator of its own beta) is a type of it.

    >>> bot = HiderBot(seed=3)
    >>> 2 <= bot.beta <= 4 and 1 <= bot.secrecy <= 3 and 0.2 <= bot.cover <= 0.5
    True
    >>> HiderBot(beta=3.0, secrecy=2.0, cover=0.3, seed=1)
    HiderBot(beta=3, epsilon=0.02, secrecy=2, cover=0.3, slack=1.5, seed=1)
    >>> HiderBot(cover=2.0)
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: cover must be a probability (a number from 0 to 1), not 2.0
    """

    name = "hider"

    def __init__(self, beta: float | None = None, epsilon: float = 0.02, secrecy: float | None = None,
                 cover: float | None = None, slack: float = 1.5, seed: int | None = None,
                 weights: UtilityWeights | None = None):
        for what, v, hi in (("cover", cover, 1.0), ("slack", slack, math.inf)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v)
                                  or not 0 <= v <= hi or math.isinf(v)):
                need = "a probability (a number from 0 to 1)" if hi == 1.0 else "a number >= 0 (marker points)"
                raise ModelError(f"{what} must be {need}, not {v!r}")
        draw = np.random.default_rng(None if seed is None else [int(seed), 26])
        b, s, c = draw.uniform(2.0, 4.0), draw.uniform(1.0, 3.0), draw.uniform(0.2, 0.5)
        super().__init__(beta=float(b) if beta is None else beta, epsilon=epsilon,
                         secrecy=float(s) if secrecy is None else secrecy, seed=seed, weights=weights)
        self.cover = float(c) if cover is None else float(cover)
        self.slack = float(slack)

    def __repr__(self):
        return (f"HiderBot(beta={self.beta:g}, epsilon={self.epsilon:g}, secrecy={self.secrecy:g}, "
                f"cover={self.cover:g}, slack={self.slack:g}, seed={self.seed})")

    def _decide(self, view, legal):
        legal = tuple(legal)
        if self._rng.random() >= self.cover:
            return super()._decide(view, legal)
        own = own_agents(view)
        st = PublicState.from_view(view)
        U = self.model.utility.matrix(view, legal, st)
        u = U[:, st.agents.index(kept_agent(view))]
        exp = self.exposures(view, legal, U, [st.agents.index(c) for c in own])
        near = np.flatnonzero(u >= u.max() - self.slack)
        i = int(near[np.argmin(exp[near])])
        self.last = {"utility": u, "exposure": exp, "probability": None, "chosen": i}
        return legal[i]


_BLUFF_PLAYERS = ("Ann", "Bob", "Cy", "Dee")


def _bluff_game(subject, g: int, seed: int, model) -> dict:
    """One 4-player basic game: ``subject`` (a bot) in seat ``g % 4``, BoltzmannBots elsewhere."""
    from ..inference.belief_set import BeliefSet
    from ..play import play_game
    from ..rules.ruleset import Rules
    from .model_bots import BoltzmannBot
    seat = g % 4
    gseed = seed + g
    me = _BLUFF_PLAYERS[seat]
    bots = {p: (subject if i == seat else BoltzmannBot(seed=gseed * 10 + i)) for i, p in enumerate(_BLUFF_PLAYERS)}
    game = play_game(Rules(), bots, seed=gseed)
    bs = BeliefSet.from_record(game.record, model=model, until="dossier", keep_updates=False)
    agent = game.record.deal[me]  # the dealt agent (basic rules: no second agent)
    sc = game.scores
    return {"game": g, "seed": gseed, "player": me, "agent": agent,
            "exposure": float(np.mean([bs[o].marginals()[me][agent] for o in _BLUFF_PLAYERS if o != me])),
            "margin": float(sc[agent] - np.mean([v for c, v in sc.items() if c != agent])),
            "win": float(me in game.winners)}


def bluff_cost(games: int = 24, seed: int = 0, secrecy: float = DEFAULT_SECRECY, beta: float = 1.0,
               epsilon: float = 0.05, model=None, per_game: bool = False):
    """What a BluffBot's secrecy costs and buys, in paired 4-player basic games (rerunnable, seeded).

    Game ``g`` (seed ``seed + g``) is played twice with the same seats, dice and
    BoltzmannBot opponents: once with a ``BoltzmannBot(beta, epsilon)`` in seat
    ``g % 4``, once with a ``BluffBot(beta, epsilon, secrecy)`` there (bot seed
    ``1000 + seed + g``). Per game: ``exposure``, the opponents' mean exact
    belief (``model``, default :class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel`)
    at the dossier mark that the subject controls its agent; ``margin``, the
    subject's agent's final marker minus the mean of the other agents'; ``win``.

    Returns a table with rows ``boltzmann``, ``bluff`` and ``bluff - boltzmann``
    (the paired difference) and columns ``exposure``, ``margin``, ``win`` (means)
    with their standard errors (``*_se``), and ``games``. The cost in points is
    ``-margin`` of the difference row. ``per_game=True`` returns the paired
    per-game table instead (columns suffixed ``_boltzmann`` and ``_bluff``).
    """
    import pandas as pd

    from ..inference.model import BoltzmannModel
    from .model_bots import BoltzmannBot
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise ModelError(f"games must be an integer >= 2 (paired standard errors), not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ModelError(f"seed must be an integer, not {seed!r}")
    BluffBot(beta=beta, epsilon=epsilon, secrecy=secrecy)  # bad parameters fail before any game is played
    model = BoltzmannModel() if model is None else model
    rows = []
    for g in range(games):
        bot_seed = 1000 + seed + g
        a = _bluff_game(BoltzmannBot(beta=beta, epsilon=epsilon, seed=bot_seed), g, seed, model)
        b = _bluff_game(BluffBot(beta=beta, epsilon=epsilon, secrecy=secrecy, seed=bot_seed), g, seed, model)
        rows.append({"game": g, "seed": a["seed"], "player": a["player"], "agent": a["agent"],
                     **{f"{k}_boltzmann": a[k] for k in ("exposure", "margin", "win")},
                     **{f"{k}_bluff": b[k] for k in ("exposure", "margin", "win")}})
    paired = pd.DataFrame(rows)
    if per_game:
        return paired
    out = {}
    for name, f in (("boltzmann", lambda k: paired[f"{k}_boltzmann"]), ("bluff", lambda k: paired[f"{k}_bluff"]),
                    ("bluff - boltzmann", lambda k: paired[f"{k}_bluff"] - paired[f"{k}_boltzmann"])):
        r = {}
        for k in ("exposure", "margin", "win"):
            x = f(k).to_numpy(dtype=float)
            r[k] = float(x.mean())
            r[f"{k}_se"] = float(x.std(ddof=1) / math.sqrt(len(x)))
        r["games"] = games
        out[name] = r
    return pd.DataFrame.from_dict(out, orient="index")[
        ["exposure", "exposure_se", "margin", "margin_se", "win", "win_se", "games"]]
