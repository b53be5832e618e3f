"""Player models: how likely is an observed action if the actor plays for agent a?

A *player model* is anything with an ``agent_log_likelihoods`` method (the
:class:`PlayerModel` protocol). The Heimlich belief calls it for every public
decision and feeds the result to
:func:`~heimlich_lab.inference.core.likelihood_from_owner_values` (an actor with
two agents plays for one of them, chosen uniformly at random per decision, so
the likelihood is the mean over its agents).

Writing your own model, e.g. in a notebook:

>>> import numpy as np
>>> class LovesOwnAgent:
...     '''Moves its own agent with probability 0.8 (a toy: ignores everything else).'''
...     def agent_log_likelihoods(self, view, actor, action):
...         if action.kind != "move":
...             return None                      # no information about agents
...         moved = set(action.steps)
...         return np.log([0.8 if c in moved else 0.2 for c in view.agents])
>>> from heimlich_lab import Game
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)           # Ann has rolled a 3
>>> LovesOwnAgent().agent_log_likelihoods(g.view(None), "Ann", Action.parse("move red+3")).round(2)
array([-1.61, -1.61, -1.61, -0.22, -1.61, -1.61])

The built-in model is :class:`BoltzmannModel`: the actor picks among the
legal options with probability proportional to ``exp(beta * U)`` (the utility
of :mod:`heimlich_lab.games.heimlich.inference.utility`), and with probability ``epsilon``
uniformly at random instead.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from ....engine.words import count
from ....errors import ModelError
from ..rules.actions import CHANCE_KINDS, Action
from ..rules.board import safe_destinations, value_of
from ..rules.cards import CARD_CODES
from .utility import PublicState, Utility, UtilityWeights, card_plays, legal_kinds, move_row_of, soft_max

__all__ = ["PlayerModel", "BoltzmannModel", "log_mixture"]

#: Kinds the model gives no likelihood: chance outcomes, and dossier entries (private to their writer).
UNINFORMATIVE = CHANCE_KINDS | {"dossier", "collect"}     # whether to draw a card says nothing of one's agent
#: Decisions whose options depend on the actor's (possibly hidden) hand.
HAND_DECISIONS = frozenset(("announce", "play", "pass", "done"))


@runtime_checkable
class PlayerModel(Protocol):
    """The protocol every player model follows."""

    def agent_log_likelihoods(self, view, actor: str, action: Action) -> np.ndarray | None:
        """``log P(action | actor plays for agent a, what the actor could see)`` for each agent.

        ``view`` is the state just before the decision (any viewer's
        :class:`~heimlich_lab.View`; only public fields may be used, plus the
        actor's own hand when ``view`` is the actor's own view). Returns
        shape ``(len(view.agents),)`` in ``view.agents`` order, ``-inf``
        allowed; ``None`` when the decision carries no information about
        agents (the same probability whatever the actor's agent).
        """
        ...


def log_mixture(log_softmax: np.ndarray, epsilon: float, n: int) -> np.ndarray:
    """``log((1 - epsilon) * exp(log_softmax) + epsilon / n)``, elementwise and safe at epsilon 0 or 1."""
    if epsilon == 0:
        return log_softmax
    if epsilon == 1:
        return np.full(np.shape(log_softmax), -math.log(n))
    return np.logaddexp(math.log1p(-epsilon) + log_softmax, math.log(epsilon / n))


def _log_softmax(z: np.ndarray) -> np.ndarray:
    """Log-softmax along axis 0."""
    m = z.max(axis=0)
    return z - (np.log(np.exp(z - m).sum(axis=0)) + m)


#: A card-table softmax denominator below this is summed in log space instead (``exp`` would underflow): any
#: card whose weight underflows is then at most 1e-28 of its hand's total, so the two ways agree.
UNDERFLOW = 1e-280


def card_choice_probs_in_logs(M: np.ndarray, w: np.ndarray, L: np.ndarray, stay_legal: bool,
                              eps: np.ndarray) -> np.ndarray:
    """``P(option | type, a)`` (K, k + 1, A) of a Top Secret round's card choice, from log weights ``L`` (K, k + 1,
    A) = ``beta * (V - m)`` (the playable codes, then pass/done) per type, with ``eps`` (K,) the types' trembles;
    ``M`` (H, k) the hands' codes and ``w`` (H,) their probabilities. The same numbers as
    :meth:`BoltzmannModel._card_choice_probs`, with every softmax denominator taken by ``logsumexp``: no
    ``0 / 0`` for any finite ``beta``.

    >>> M, w = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([0.5, 0.5])
    >>> L = np.array([[[0.0], [-2000.0], [-2100.0]]])       # card 0 best; card 1 far below; pass further
    >>> np.round(card_choice_probs_in_logs(M, w, L, True, np.array([0.0]))[0, :, 0], 6).tolist()
    [0.5, 0.5, 0.0]
    """
    Lc, Ls = L[:, :-1], L[:, -1]
    with np.errstate(divide="ignore"):
        logM = np.log(M)                                                # -inf where a hand lacks the code
    n_opt = M.sum(axis=1)
    X = logM[None, :, :, None] + Lc[:, None, :, :]                      # (K, H, k, A)
    logD = _logsumexp(X, axis=2)                                         # (K, H, A)
    if stay_legal:
        logD = np.logaddexp(logD, Ls[:, None, :])
        n_opt = n_opt + 1
    ok = n_opt > 0
    if not ok.any():
        raise ModelError("no hand the actor could hold gives it a legal option here")
    X, logD, M, n_opt, w = X[:, ok], logD[:, ok], M[ok], n_opt[ok], w[ok] / w[ok].sum()
    keep = (1 - eps)[:, None, None]
    cards = keep * np.einsum("h,khca->kca", w, np.exp(X - logD[:, :, None, :]))
    tremble = eps[:, None] * (w / n_opt)[None]                          # (K, H)
    cards = cards + (tremble @ M)[:, :, None]
    if stay_legal:
        stay = keep[:, 0] * np.einsum("h,kha->ka", w, np.exp(Ls[:, None, :] - logD)) + tremble.sum(axis=1)[:, None]
    else:
        stay = np.zeros((L.shape[0], L.shape[2]))
    return np.concatenate([cards, stay[:, None, :]], axis=1)


def _logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    """``log(sum(exp(x)))`` along ``axis``, ``-inf`` where every term is."""
    m = x.max(axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.exp(x - m).sum(axis=axis)) + np.squeeze(m, axis=axis)


def _mix(p: np.ndarray, epsilon: float) -> np.ndarray:
    return (1.0 - epsilon) * p + epsilon / len(p)


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


class BoltzmannModel:
    """A noisy-rational player: ``P(x | a) = (1 - eps) * softmax_L(beta * U(.; a))[x] + eps / |L|``.

    ``L`` is the legal set of the decision computed from the public state:
    the allocations of the points (move), the buildings the safe may go to
    (respecting ``Rules.safe_destination``), the point choices 1/2/3 (+0 in
    Top Secret). ``U`` is :class:`~heimlich_lab.games.heimlich.inference.utility.Utility`
    with ``weights``. ``beta >= 0`` is the rationality (0: uniform), ``epsilon``
    in [0, 1] the chance of a uniformly random choice (a "tremble").

    Top Secret decisions (announce yes/no, the round: which card or pass/done,
    then the card's targets) are scored too. Their options depend on the
    actor's hand. A round is two-stage, exactly as the
    :class:`~heimlich_lab.bots.BoltzmannBot` samples it: first the *card*
    among the distinct playable codes in hand plus "pass"/"done" if legal (each
    card valued by the soft maximum of its targets' utilities, pass/done by the
    unchanged state), by the mixture above over those options; then the
    *targets* of that card by the mixture over its targets. "Announce yes" is
    valued by the soft maximum over the playable cards in hand; with no
    playable card the only option is "no" (probability 1).

    If ``view`` is the actor's own view, its hand is known and used as is.
    Otherwise the likelihood is the average over the hands the actor could
    hold: ``hand_sizes[actor]`` cards drawn without replacement from the cards
    not in public view (the deck minus the discards), each multiset of codes
    weighted by its hypergeometric probability, conditioned on the decision
    being possible (e.g. the first player of a round holds a playable card).
    The viewer's own hand is taken out of that pool too: each observer's
    likelihood uses exactly what that observer knows (a spectator, nothing).
    **Approximation**: this prior ignores that the actor's earlier choices
    (announcements, passes, the points 0 that draws a card) correlate with
    what it holds. The per-hand probabilities are exact.
    The pass/done legality is read from the view's public log.
    The dossier entries are secret and never observed.
    ``beta = 0`` or ``epsilon = 1`` make every decision uninformative (``None``).

    >>> from heimlich_lab import Game, Position
    >>> g = Game(["Ann", "Bob"], chance="manual", start=Position(
    ...     positions={"grey": 6, "yellow": 0, "orange": 0, "red": 0, "green": 0},
    ...     owners={"Ann": "grey", "Bob": "red"}, safe=7, decision="move", die="1-3", points=1))
    >>> m = BoltzmannModel(beta=1.0, epsilon=0.05)
    >>> ll = m.agent_log_likelihoods(g.view(None), "Ann", Action.parse("move grey+1"))
    >>> float(np.exp(ll[0]).round(3))          # P(grey+1 | Ann plays for grey): grey scores 7
    0.913
    >>> int(np.argmax(ll))                                      # most likely if Ann plays for grey
    0
    >>> BoltzmannModel(beta=-1)
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: beta must be a number >= 0 (0 = uniform choice), not -1
    """

    def __init__(self, beta: float = 1.0, epsilon: float = 0.05, weights: UtilityWeights | None = None):
        if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)) \
                or not math.isfinite(beta) or beta < 0:
            raise ModelError(f"beta must be a number >= 0 (0 = uniform choice), not {beta!r}")
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.integer, np.floating)) \
                or not (0 <= epsilon <= 1):
            raise ModelError(f"epsilon must be a probability in [0, 1], not {epsilon!r}")
        self.beta = float(beta)
        self.epsilon = float(epsilon)
        self.utility = Utility.shared(weights)   # one cache for every model of these weights
        self.weights = self.utility.weights
        self._lse: dict = {}
        self._hand_cache: dict = {}

    def __repr__(self):
        return f"BoltzmannModel(beta={self.beta:g}, epsilon={self.epsilon:g}, weights={self.weights})"

    # ---------------------------------------------------------------- the informative part of a decision
    def decision_utilities(self, view, actor: str, action: Action) -> tuple[np.ndarray, int] | None:
        """``(U, i)``: utilities ``(n_options, n_agents)`` of the options the model compares for this
        observed decision, and the index of ``action`` among them; ``None`` if there is no such table.

        Points, move, safe, and for a card play the **targets given the card**
        (``None`` for a card with one target). Announce, pass and done have no
        table here: their options depend on the hand (see
        :meth:`hand_decision_probabilities`). Used by :meth:`agent_log_likelihoods`
        and by the fitter. Raises :class:`ModelError` if the action does not fit
        the view's decision.
        """
        k = action.kind
        if k == "move":     # most decisions: the state, the allocation's row, one cache lookup
            if view.phase != "move":
                self._check_phase(view, action, "move")
            st = PublicState.from_view(view)
            pts = view.points
            i = move_row_of(st.agents, pts, action)
            if i is None:   # the rows hold every allocation of the points, and nothing else
                if sum(n for _, n in action.args) != pts or not action.args:
                    raise ModelError(f"{action} does not spend the {count(pts, 'point')} of this move")
                raise ModelError(f"{action} is not an allocation of {pts} points among {', '.join(st.agents)}")
            return self.utility.moves(st, pts), i
        if k in UNINFORMATIVE or k in ("announce", "pass", "done"):
            return None
        st = PublicState.from_view(view)
        if k == "points":
            self._check_phase(view, action, "points")
            options = (0, 1, 2, 3) if view.rules.top_secret else (1, 2, 3)
            if action.args[0] not in options:
                raise ModelError(f"{action}: the options are {options}")
            return self.utility.points(st, options), options.index(action.args[0])
        if k == "safe":
            self._check_phase(view, action, "safe")
            options = safe_options(view, st)
            if action.args[0] not in options:
                raise ModelError(f"{action}: the safe may go to {options}")
            return self.utility.safe(st, options), options.index(action.args[0])
        if k == "play":
            self._check_phase(view, action, "round")
            plays = card_plays(st, action.args[0])
            if action not in plays:
                raise ModelError(f"{action} cannot be carried out in this position")
            if len(plays) == 1:
                return None
            active = actor == view.active_player
            return self.utility.cards(st, plays, active), plays.index(action)
        raise ModelError(f"{action}: no model for decisions of kind {k!r}")

    @staticmethod
    def _check_phase(view, action, phase):
        if view.phase != phase:
            raise ModelError(f"{action} is a {phase} decision, but the view stands at {view.phase!r}: "
                             "pass the view from just before the decision")

    def agent_log_likelihoods(self, view, actor: str, action: Action) -> np.ndarray | None:
        """``log P(action | actor plays for agent a)`` for every agent, or ``None`` (see the class doc)."""
        if action.kind in HAND_DECISIONS:
            if self.beta == 0 or self.epsilon == 1:
                self._check_hand_decision(view, action)
                return None
            p = self.hand_decision_probabilities(view, actor, action)
            with np.errstate(divide="ignore"):
                return np.log(p)
        d = self.decision_utilities(view, actor, action)
        if d is None or self.beta == 0 or self.epsilon == 1:
            return None
        U, i = d
        key = (id(U), self.beta)
        hit = self._lse.get(key)
        if hit is not None and hit[0] is U:
            lse = hit[1]
        else:
            z = self.beta * U
            m = z.max(axis=0)
            lse = np.log(np.exp(z - m).sum(axis=0)) + m
            if len(self._lse) > 256:
                self._lse.clear()
            self._lse[key] = (U, lse)
        return log_mixture(self.beta * U[i] - lse, self.epsilon, len(U))

    # ---------------------------------------------------------------- decisions that depend on the hand
    def _check_hand_decision(self, view, action):
        k = action.kind
        if not view.rules.top_secret:
            raise ModelError(f"{action}: announcements and card plays exist only in the Top Secret variant")
        self._check_phase(view, action, "announce" if k == "announce" else "round")
        if k in ("pass", "done"):
            opt = round_stay_option(view)
            if opt != k:
                raise ModelError(f"{action} is not legal here (the round player may "
                                 f"{'not pass or stop: they must play' if opt is None else opt})")

    def hand_decision_probabilities(self, view, actor: str, action: Action) -> np.ndarray:
        """``P(action | actor plays for agent a)``, shape ``(n_agents,)``, for announce, play, pass, done.

        With the actor's own view the hand is known; otherwise the probability
        is averaged over the hands the actor could hold (see the class doc).
        """
        st, active, hands_key, stay = self.hand_situation(view, actor, action)
        codes, G, Es, m, logs = self._card_table(st, active)
        k = action.kind
        key = (st, active, k == "announce", stay is not None, *hands_key, self.beta, self.epsilon)
        hit = self._hand_cache.get(key)
        if hit is None:
            M, w = hands_of(codes, *hands_key)
            if k == "announce":
                hit = self._announce_probs(G, M, w, st)
            else:
                hit = self._card_choice_probs(M, w, Es, stay is not None, logs)
            if len(self._hand_cache) > 512:
                self._hand_cache.clear()
            self._hand_cache[key] = hit
        if k == "announce":
            return hit if action.args[0] else 1.0 - hit
        if k in ("pass", "done"):
            return hit[-1]
        p_card = hit[self.card_row(codes, action)]
        plays = card_plays(st, action.args[0])
        if action not in plays:
            raise ModelError(f"{action} cannot be carried out in this position")
        if len(plays) == 1:
            return p_card
        z = self.beta * self.utility.cards(st, plays, active)
        p_t = np.exp(log_mixture(_log_softmax(z)[plays.index(action)], self.epsilon, len(plays)))
        return p_card * p_t

    def hand_situation(self, view, actor: str, action: Action) -> tuple:
        """What a decision that depends on a hand is read from: ``(state, actor is active, hands, stay)``,
        ``hands`` = ``(hand, pool, n)`` for :func:`hands_of` (the actor's own view: its hand; else the
        pool of cards the viewer cannot see and the hand size), ``stay`` the pass/done option or ``None``.
        Raises :class:`~heimlich_lab.errors.ModelError` for a decision not legal here."""
        self._check_hand_decision(view, action)
        st = PublicState.from_view(view)
        if view.viewer == actor:
            hand = tuple(sorted(view.hand))
            hands = (hand, None, len(hand))
        else:
            # the pool the actor's hand comes from, as the viewer knows it: the deck minus the discards, the
            # card out of the game and the viewer's own hand (a belief caches this per public history and hand)
            deck = view.rules.deck_for(len(view.players))
            seen = view.discards + view.removed + tuple(view.hand)   # a spectator's view has no hand
            hands = (None, tuple(deck[c] - seen.count(c) for c in CARD_CODES), view.hand_sizes[actor])
        k = action.kind
        stay = None if k == "announce" else ("pass" if k == "pass" else round_stay_option(view))
        return st, actor == view.active_player, hands, stay

    @staticmethod
    def card_row(codes: tuple, action: Action) -> int:
        """The row of a card play's code among the playable ``codes``."""
        code = action.args[0]
        if code not in codes:
            raise ModelError(f"{action}: card {code!r} has no legal target in this position")
        return codes.index(code)

    def _card_table(self, st, active):
        """Playable codes in this state, their soft-max values ``G`` (k, A), and ``exp(beta * (V - m))``
        for the cards and the unchanged state stacked ``(k + 1, A)`` with the per-agent shift ``m``, and
        ``beta * (V - m)`` itself (the log weights, for hands whose weights underflow)."""
        key = ("cards", st, active, self.beta)
        hit = self._hand_cache.get(key)
        if hit is None:
            vals = self.utility.card_values(st, CARD_CODES, active)
            codes = tuple(vals)
            A = len(st.agents)
            G = np.array(list(vals.values())).reshape(len(codes), A)
            V = np.vstack([G, self.utility.stay(st)[None, :]])
            m = V.max(axis=0)
            logs = self.beta * (V - m)     # <= 0 and finite for any finite beta; exp of it may underflow
            hit = self._hand_cache[key] = (codes, G, np.exp(logs), m, logs)
        return hit

    def _announce_probs(self, G, M, w, st):
        """``P(yes | a)`` (A,): the mixture over yes/no per hand, "no" forced for hands without a playable card."""
        tau = self.weights.softness
        stay = self.utility.stay(st)
        S = M.sum(axis=1)
        can = S > 0
        if not can.any():
            return np.zeros(len(stay))
        gm = G.max(axis=0)
        # "yes" = soft maximum (log-mean-exp) over the playable codes in the hand, per hand and agent
        Y = tau * np.log((M[can] @ np.exp((G - gm) / tau)) / S[can, None]) + gm
        with np.errstate(over="ignore"):    # a sharp beta: exp(+large) is inf and the fraction 0, as it should be
            p_yes = (1 - self.epsilon) / (1 + np.exp(-self.beta * (Y - stay))) + self.epsilon / 2
        return w[can] @ p_yes / w.sum()

    def _card_choice_probs(self, M, w, Es, stay_legal, logs=None):
        """``P(option | a)`` (k + 1, A): each playable code, then pass/done (the last row), averaged over
        the hands with at least one option (the decision exists, so the hand is one of them).

        ``Es`` = ``exp(beta * (V - m))`` and ``logs`` = ``beta * (V - m)``; where a hand's softmax denominator
        would underflow (a sharp ``beta``: every card of the hand far below the best card of another), the
        sums are taken in log space instead (:func:`card_choice_probs_in_logs`), so that any finite ``beta``
        works."""
        E = Es[:-1]
        D = M @ E                                            # (H, A) softmax denominators
        n_opt = M.sum(axis=1)
        if stay_legal:
            D = D + Es[-1]
            n_opt = n_opt + 1
        ok = n_opt > 0
        if not ok.any():
            raise ModelError("no hand the actor could hold gives it a legal option here")
        if not (D[ok] > UNDERFLOW).all():
            if logs is None:
                with np.errstate(divide="ignore"):
                    logs = np.log(Es)
            return card_choice_probs_in_logs(M, w, logs[None], stay_legal, np.array([self.epsilon]))[0]
        M, D, n_opt, w = M[ok], D[ok], n_opt[ok], w[ok] / w[ok].sum()
        eps = self.epsilon
        inv = (1 - eps) * w[:, None] / D                     # (H, A)
        tremble = eps * w / n_opt                            # (H,)
        cards = E * (M.T @ inv) + (M.T @ tremble)[:, None]   # sum over hands holding the code
        stay = Es[-1] * inv.sum(axis=0) + tremble.sum() if stay_legal else np.zeros(E.shape[1])
        return np.vstack([cards, stay[None, :]])

    # ---------------------------------------------------------------- the generative process (bots)
    def action_probabilities(self, view, actor_agent: str, legal: Sequence[Action],
                             target_agent: str | None = None) -> np.ndarray:
        """The model's distribution over ``legal`` for someone playing for ``actor_agent``.

        Points, move, safe, announce: ``(1 - eps) * softmax(beta * U) + eps / |legal|``.
        A Top Secret round is two-stage: first the *card* (each playable card
        valued by the soft maximum of its targets' utilities, "pass"/"done" by the
        unchanged state) by the same mixture over the card options, then the
        *targets* of that card by the mixture over its targets, for
        ``target_agent`` (default ``actor_agent``; a bot with two agents draws
        each independently). Dossier entries: uniform.
        """
        legal = tuple(legal)
        n = len(legal)
        if n == 0:
            raise ModelError("no legal actions")
        kinds = legal_kinds(legal)
        if kinds == {"dossier"}:
            return np.full(n, 1.0 / n)
        st = PublicState.from_view(view)
        a = self._agent_index(st, actor_agent)
        if kinds <= {"play", "pass", "done"}:
            b = a if target_agent is None else self._agent_index(st, target_agent)
            return self._round_probabilities(view, st, a, b, legal)
        U = self.utility.matrix(view, legal, st)
        return _mix(_softmax(self.beta * U[:, a]), self.epsilon)

    @staticmethod
    def _agent_index(st, agent):
        try:
            return st.agents.index(agent)
        except ValueError:
            raise ModelError(f"{agent!r} is not an agent in play ({', '.join(st.agents)})") from None

    def _round_probabilities(self, view, st, a, b, legal):
        U = self.utility.matrix(view, legal, st)
        groups: dict = {}
        for i, x in enumerate(legal):
            groups.setdefault(x.args[0] if x.kind == "play" else x.kind, []).append(i)
        idx = list(groups.values())
        tau = self.weights.softness
        gval = np.array([soft_max(U[g, a][:, None], tau)[0] for g in idx])
        pg = _mix(_softmax(self.beta * gval), self.epsilon)
        p = np.empty(len(legal))
        for g, pgi in zip(idx, pg):
            p[g] = pgi * _mix(_softmax(self.beta * U[g, b]), self.epsilon)
        return p


def safe_options(view, st: PublicState | None = None) -> tuple[int, ...]:
    """Buildings (values) the safe may move to, from the public state (``Rules.safe_destination``).

    >>> from heimlich_lab import Game
    >>> safe_options(Game(["Ann", "Bob"], seed=1).view(None))      # the safe at 7: any other building
    (0, 1, 2, 3, 4, 5, 6, 8, 9, 10, -3)
    """
    st = PublicState.from_view(view) if st is None else st
    rule = view.rules.safe_destination
    key = (st.safe, rule) if rule == "other" else (st.safe, rule, st.pos)     # "other" reads the safe only
    out = _SAFE_OPTIONS.get(key)
    if out is None:
        out = tuple(value_of(b) for b in safe_destinations(st.safe, st.pos, rule))
        if len(_SAFE_OPTIONS) >= 4096:
            _SAFE_OPTIONS.clear()
        _SAFE_OPTIONS[key] = out
    return out


#: safe_options by (the safe's ring index, the rule[, the agents' ring indices]): a pure function of them
_SAFE_OPTIONS: dict = {}


def round_stay_option(view) -> str | None:
    """What ends the round player's opportunity without a card, from the public log: ``"done"`` after
    they played on it, ``None`` for the first player who has not played yet (they must play), else ``"pass"``."""
    log = view.log
    me = view.current_player
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e.kind == "play":
            return "done" if e.player == me else "pass"
        if e.kind == "round_start":
            return None if e.player == me else "pass"
        if e.kind in ("pass", "done"):
            return "pass"
    return "pass"


_COMPOSITIONS: dict = {}
_COMB = np.array([[math.comb(K, j) for j in range(9)] for K in range(128)], dtype=float)


def _compositions(parts: int, n: int) -> np.ndarray:
    """All ways to put ``n`` cards into ``parts`` categories, one row each (cached)."""
    key = (parts, n)
    t = _COMPOSITIONS.get(key)
    if t is None:
        from ..rules.allocations import allocation_table
        t = _COMPOSITIONS[key] = np.asarray(allocation_table(parts, n), dtype=np.intp)
    return t


def hands_of(codes: tuple, hand: tuple | None, pool: tuple | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The hands an actor may hold, as :func:`_hand_distribution`'s ``(M, w)``: its known ``hand``, or the
    hands of ``n`` cards drawn from ``pool`` (see :meth:`BoltzmannModel.hand_situation`)."""
    if hand is not None:
        return np.array([[c in hand for c in codes]], dtype=float), np.ones(1)
    return _hand_distribution(pool, n, codes)


@lru_cache(maxsize=1024)   # shared by every model (the types of a population ask for the same hands)
def _hand_distribution(pool: tuple, n: int, codes: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The hands of ``n`` cards drawn without replacement from ``pool`` (copies per ``CARD_CODES``), as
    rows ``M`` (H, len(codes)): 1 if the hand holds that playable code, and their hypergeometric
    probabilities ``w`` (H,). The codes that are not playable are one category: only the playable
    ones change the options, and lumping keeps the hypergeometric weights exact."""
    idx = [CARD_CODES.index(c) for c in codes]
    K = np.array([pool[i] for i in idx] + [sum(pool) - sum(pool[i] for i in idx)], dtype=np.intp)
    if n > _COMB.shape[1] - 1 or K.max(initial=0) >= _COMB.shape[0]:
        raise ModelError(f"hands of {n} cards from {sum(pool)} are beyond the enumeration")
    C = _compositions(len(K), n)                            # (H, k + 1) counts per category
    w = _COMB[K[None, :], C].prod(axis=1)                   # zero where a category has too few copies
    keep = w > 0
    M, w = (C[keep, :-1] > 0).astype(float), w[keep] / w[keep].sum()
    M.setflags(write=False)
    w.setflags(write=False)
    return M, w
