"""A simple player model for Secrets: choices read as evidence through team-dependent utilities.

Each decision maker is modelled as choosing among their legal options by a softmax (``beta``) of utilities that
depend on the teams in the hypothesis; an ``epsilon`` share of choices is uniformly random. The utilities
(:func:`decision_utilities`, which the :class:`~heimlich_lab.games.secrets.bots.TeamBot` maximizes in expectation):
the points a card brings to a tableau (:func:`gain`: its value, or what a second Scientist or a pair turns face
down) count ``+1`` for a teammate of the decider, ``-1`` for a rival agent and 0 for or to a Hippie; the decider's
own points count ``+1`` for an agent and ``-1`` for a Hippie (who aims low). So:

* offer card ``c`` to ``x``: taken half the time by ``x``, else it comes back to the offerer;
* accept or interrupt: the card (averaged over the turn's two: the decider does not know which) comes to the
  decider; refuse: it goes to the offerer; let the UN offer go: to the chosen player or the offerer;
* the Politician's receiver and the Assassin's target (a bullet of unknown value, -1.5 on average): by relation.

The model is a simplification: a decider is read as if they knew the teams in the hypothesis (in the game they
only believe them). It keeps the belief exact *under the model*: every likelihood is computed for every
arrangement. Looks, the Psychiatrist's pair and the Diplomat's side tell nothing here (the side is not even seen).
With ``p_team``, each other player is a team player or a random one for the whole game, and the belief learns
which from all their choices together (a per-player rationality mixture, exact: the hypotheses keep their
histories apart through hidden swaps), so that random players soon stop misleading it.

>>> from heimlich_lab.games.secrets import Belief, Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> for a in ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal scientist", "reveal detective",
...           "offer scientist Dee", "accept"]:
...     g.apply(a)
>>> hard, soft = Belief.for_game(g, "Bob", model=None), Belief.for_game(g, "Bob", model=SecretsModel())
>>> round(hard.probability("Ann", "CIA") - hard.probability("Dee", "CIA"), 6)   # symmetric without a model
0.0
>>> soft.probability("Dee", "CIA") > hard.probability("Dee", "CIA")   # Ann gave Dee +5: likely teammates
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.special import logsumexp

from ...errors import ModelError
from .actions import Action
from .rules import BULLETS

HIPPIE = 2
_MEAN_BULLET = sum(BULLETS) / len(BULLETS)


def relations(table: np.ndarray, me: int) -> np.ndarray:
    """``out[h, x]``: +1 same agent team as slot ``me``, -1 opposite agent teams, 0 if either is a Hippie."""
    mine = table[:, me][:, None]
    rel = np.where(table == mine, 1, -1)
    rel[(table == HIPPIE) | (mine == HIPPIE)] = 0
    return rel


def is_agent(table: np.ndarray, me: int) -> np.ndarray:
    return table[:, me] != HIPPIE


def gain(tableau, card: str, value, given: bool = False) -> int:
    """The points ``card`` adds to a tableau of (card, face up) pairs: a second Scientist turns every character
    face down, and a second face-up copy turns the pair face down at the end of the turn; a Politician that is
    offered is given away (worth 0 to its taker), one that is ``given`` is kept.

    >>> from heimlich_lab.games.secrets import card_value
    >>> gain([("scientist", True), ("journalist", True)], "scientist", card_value)
    -8
    >>> gain([("journalist", True)], "journalist", card_value), gain([], "detective", card_value)
    (-3, -2)
    """
    up = [c for c, face_up in tableau if face_up]
    if card == "politician" and not given:
        return 0
    if card == "scientist" and "scientist" in up:
        return -sum(value(c) for c in up)
    if card in up:
        return -value(card)
    return value(card)


def decision_utilities(table: np.ndarray, players, me: int, options, *, rules, tableaux, candidates=(),
                       offerer: str | None = None, target: str | None = None, bullet: float | None = None,
                       pretend: bool = False) -> np.ndarray:
    """Utilities (hypotheses x options) of one decision of player ``me`` (see the module doc): points a card
    brings to a tableau (:func:`gain`) count ``+1`` for a teammate, ``-1`` for a rival, 0 for or to a Hippie,
    and one's own points count ``+1`` for an agent and ``-1`` for a Hippie. An offered card is taken half the
    time; a decider who does not know the offered card averages over the turn's two. ``pretend``: a bluff,
    the others' relations turned round (teammates treated as rivals)."""
    rel = relations(table, me).astype(float) * (-1.0 if pretend else 1.0)
    rel[:, me] = np.where(is_agent(table, me), 1.0, -1.0)
    idx = {p: i for i, p in enumerate(players)}
    value = rules.value

    def worth(player, card, given=False):
        return gain(tableaux[player], card, value, given) * rel[:, idx[player]]

    def mean(f):
        return sum(f(c) for c in candidates) / max(len(candidates), 1)

    cols = []
    for a in options:
        k = a.kind
        if k == "offer":
            cols.append(0.5 * worth(a.args[1], a.args[0]) + 0.5 * worth(players[me], a.args[0]))
        elif k in ("accept", "interrupt"):
            cols.append(mean(lambda c: worth(players[me], c)))
        elif k == "refuse":
            cols.append(mean(lambda c: worth(offerer, c)))
        elif k == "allow":
            cols.append(mean(lambda c: 0.5 * worth(target, c) + 0.5 * worth(offerer, c)))
        elif k == "give":
            cols.append(worth(a.args[0], "politician", given=True))
        elif k == "shoot":
            cols.append((_MEAN_BULLET if bullet is None else bullet) * rel[:, idx[a.args[0]]])
        else:
            cols.append(np.zeros(len(table)))
    return np.stack(cols, axis=1)


def is_real_number(x) -> bool:
    """A real number (an int or a float, numpy's too), not a bool or text."""
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


@dataclass(frozen=True)
class SecretsModel:
    """``beta``: how strongly choices follow the utilities; ``epsilon``: the share of uniformly random choices.

    ``p_team``: with a probability, a per-player rationality mixture: each other player is, for the whole game,
    a team player (choosing as above) with prior probability ``p_team``, or a random player (every option alike);
    the belief learns each player's type from all their choices together, exactly, so a random player's choices
    soon stop counting. ``None`` (the default): everyone is a team player.
    """

    beta: float = 1.0
    epsilon: float = 0.1
    p_team: float | None = None

    def __post_init__(self):
        """Checked when the model is made (not at the first choice it reads): ``beta`` a finite number >= 0,
        ``epsilon`` in [0, 1], ``p_team`` in (0, 1) or ``None``; no text, no ``True``, no NaN, no infinity."""
        if not is_real_number(self.beta) or not (math.isfinite(self.beta) and self.beta >= 0):
            raise ModelError(f"beta must be a finite number >= 0 (0 = every option alike), not {self.beta!r}")
        if not is_real_number(self.epsilon) or not 0 <= self.epsilon <= 1:
            raise ModelError(f"epsilon must be a probability in [0, 1], not {self.epsilon!r}")
        if self.p_team is not None and (not is_real_number(self.p_team) or not 0 < self.p_team < 1):
            raise ModelError(f"p_team is a probability strictly between 0 and 1 (or None), not {self.p_team!r}")

    def choice_loglik(self, utilities: np.ndarray, chosen: int) -> np.ndarray:
        """log P(option ``chosen`` | h) for a (hypotheses x options) utility table."""
        u = self.beta * np.asarray(utilities, dtype=float)
        n = u.shape[1]
        if self.epsilon == 1:       # every choice at random: the same for every hypothesis (one per row)
            return np.full(u.shape[0], -math.log(n))
        soft = u[:, chosen] - logsumexp(u, axis=1)
        return np.logaddexp(np.log1p(-self.epsilon) + soft,
                            np.log(self.epsilon / n) if self.epsilon > 0 else -np.inf)

    def evidence(self, belief, e, ctx) -> tuple[np.ndarray | None, str | None]:
        """The log-likelihood over the belief's arrangements of event ``e`` (or ``None``), and a label: the sum
        of :meth:`readings` (every decider a team player)."""
        reads = self.readings(belief, e, ctx)
        if not reads:
            return None, None
        return sum(r[1] for r in reads), "; ".join(r[3] for r in reads)

    def readings(self, belief, e, ctx) -> list[tuple[str, np.ndarray, int, str]]:
        """The choices event ``e`` shows, other than the observer's: ``(decider, log P(choice | arrangement) as
        a team player, number of options, label)``. ``ctx`` is the turn so far as the belief saw it (the two
        cards, the offer, the tableaux)."""
        return [(c.decider, self.choice_loglik(c.utilities(), c.chosen), len(c.options), c.label)
                for c in choices(belief, e, ctx)]


#: The kinds of decision :func:`choices` reads: an offer (its card and receiver), an answer (accept or refuse),
#: the UN's (interrupt or allow), the Politician's receiver, the Assassin's target.
DECISIONS = ("offer", "answer", "un", "give", "shoot")


@dataclass(frozen=True)
class Choice:
    """One decision of another player that an event shows: who chose, what kind of decision (one of
    :data:`DECISIONS`), among which options, which one (its index), in words, and what
    :func:`decision_utilities` needs (:meth:`utilities` computes them); ``known``: the slots whose marker the
    decider has seen, as far as the observer can tell (:meth:`~heimlich_lab.games.secrets.Belief.known_to`)."""

    decider: str
    kind: str
    options: tuple
    chosen: int
    label: str
    table: np.ndarray
    players: tuple
    rules: object
    context: dict
    known: tuple = ()
    #: utilities already computed for this choice (by the types of :mod:`~heimlich_lab.games.secrets.population`)
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    def utilities(self, pretend: bool = False, table: np.ndarray | None = None) -> np.ndarray:
        """(hypotheses x options) utilities of the decision (``pretend``: a bluff's, see
        :func:`decision_utilities`), in the belief's arrangements or those of ``table``."""
        return decision_utilities(self.table if table is None else table, self.players,
                                  self.players.index(self.decider), self.options, rules=self.rules, pretend=pretend,
                                  **self.context)


def choices(belief, e, ctx) -> list[Choice]:
    """The decisions of players other than the observer that event ``e`` shows (an offer, when its card is
    added; an answer; the UN's choice; the Politician's receiver; the Assassin's target), read from what the
    observer saw: ``ctx`` is the turn so far as the belief saw it (the two cards, the offer, the tableaux
    before each choice)."""
    k, me = e.kind, belief.observer
    players = belief.players
    cands = ctx.get("candidates", ())
    offer = ctx.get("offer")
    read = []                                  # (decider, kind, options, chosen, label)
    if k == "add" and offer is not None and not ctx.get("offer_read"):
        ctx["offer_read"] = True
        offerer, target = offer
        options = [Action("offer", (c, x)) for c in cands for x in players if x != offerer]
        read.append((offerer, "offer", options, Action("offer", (e.card, target)),
                     f"{offerer} offered the {e.card} to {target}"))
    if k == "add" and e.by != e.player:
        options = [Action("give", (x,)) for x in players if x != e.by]
        read.append((e.by, "give", options, Action("give", (e.player,)), f"{e.by} gave the Politician to {e.player}"))
    if k == "shot":
        options = [Action("shoot", (x,)) for x in players if x != e.player]
        read.append((e.player, "shoot", options, Action("shoot", (e.target,)), f"{e.player} shot {e.target}"))
    if k in ("accept", "refuse", "interrupt", "allow") and offer is not None:
        pair = ("accept", "refuse") if k in ("accept", "refuse") else ("interrupt", "allow")
        kind = "answer" if k in ("accept", "refuse") else "un"
        read.append((e.player, kind, [Action(x) for x in pair], Action(k), f"{e.player} chose to {k}"))
    table = belief.posterior.space.table
    context = {"tableaux": ctx.get("tableaux", {}), "candidates": cands,
               "offerer": None if offer is None else offer[0], "target": None if offer is None else offer[1]}
    known = getattr(belief, "known_to", None)
    return [Choice(decider, kind, tuple(options), options.index(chosen), label, table, players, belief.rules,
                   context, () if known is None else known(decider))
            for decider, kind, options, chosen, label in read if decider != me]   # one's own choices tell nothing
