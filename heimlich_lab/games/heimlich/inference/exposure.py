"""What the table can see: a spectator's exact belief following the public history, for bluffing.

A bluffer plays for its agent while keeping low what the others can infer
about it: after an option ``x``, the spectator's belief that the actor plays
for agent ``a`` is ``m_a L_a(x) / sum_b m_b L_b(x)`` (``m`` the actor's row of
the spectator's belief before the decision, ``L_b(x)`` the likelihood of ``x``
for a player of agent ``b``). :class:`PublicWatch` keeps that spectator's
belief (any player model, by default a
:class:`~heimlich_lab.games.heimlich.inference.model.BoltzmannModel`) up to date with the
views it is shown, and :func:`exposure` turns a row and a table of option
likelihoods into the exposure of every option. :class:`~heimlich_lab.bots.BluffBot`
plays by them and the bluffer type of
:class:`~heimlich_lab.games.heimlich.inference.player_types.PlayerPopulation` reads players by them.

>>> from heimlich_lab import Game
>>> from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
>>> g = Game(["Ann", "Bob", "Cy"], seed=2)
>>> watch = PublicWatch(BoltzmannModel())
>>> watch.row(g.view("Ann"), "Ann").round(3)           # nothing seen yet: every agent alike
array([0.167, 0.167, 0.167, 0.167, 0.167, 0.167])
>>> g.apply("move red+3")
>>> row = watch.row(g.view("Bob"), "Ann")              # the public part of any player's view
>>> bool(row[g.agents.index("red")] > row[g.agents.index("grey")])
True
"""
from __future__ import annotations

import math

import numpy as np

from ....errors import HeimlichError, ModelError
from ..rules.actions import DECISION_KINDS
from ..rules.replay import entries_from_log

__all__ = ["PublicWatch", "exposure"]

#: How many games a watch follows at once (a notebook may interleave a few boards sharing one model).
_GAMES = 4


class PublicWatch:
    """A spectator's exact belief (``model``, no update records) that follows any view of a game it is shown;
    :meth:`row` gives a player's row before the view's next decision. A view of another game (its log does
    not extend the one followed) starts a new belief; the last few games are kept."""

    def __init__(self, model):
        self.model = model
        self._beliefs: list = []      # (the log of the game it follows, its belief), most recently used first
        self._fed: _FedSpectator | None = None      # the spectator fed_row reads (see there)
        self._starts: dict = {}     # (players, agents) -> _uniform_start's answer

    def __repr__(self):
        return f"PublicWatch({self.model!r}, following {self.games} game(s))"

    @property
    def games(self) -> int:
        """How many games the watch follows now (at most a few, the most recent)."""
        return len(self._beliefs)

    def belief(self, view):
        """The spectator's belief brought up to ``view`` (``None`` for a game that started from a position,
        which views do not describe)."""
        log = view.log
        if len(log) and log[0].kind == "start":
            return None
        from .belief import Belief
        for k, (followed, b) in enumerate(self._beliefs):
            if not _same_game(followed, log):
                continue
            try:
                b.sync(view)
            except HeimlichError:   # an earlier view of that game (a replay from the start, say)
                break
            self._beliefs.pop(k)
            self._beliefs.insert(0, (log, b))
            return b
        b = Belief(view.players, view.agents, None, self.model, keep_updates=False)
        b.sync(view)
        self._beliefs = [(log, b), *[e for e in self._beliefs if not _same_game(e[0], log)][:_GAMES - 1]]
        return b

    # ------------------------------------------------------------ fed by the likelihoods a model already has
    def feed(self, view, actor: str, action, values) -> None:
        """Remember that ``actor`` may take ``action`` at ``view``, with the watch's model's log-likelihoods
        ``values`` (one per agent) for it: computed by a caller that reads the same decision anyway (a population
        of types). :meth:`fed_row` applies it once a later view shows that decision was taken, instead of
        re-reading the view and asking the model again."""
        fed = self._at(view)
        if fed is not None:
            fed.candidates[(actor, _canonical(action))] = np.asarray(values, dtype=float)

    def fed_row(self, view, player: str) -> np.ndarray | None:
        """:meth:`row`, the same numbers (to rounding), cheaper when the decisions since the last call were
        :meth:`feed` ones: the spectator's belief then takes their likelihoods directly. Anything else (another
        game, a take, a decision nobody fed) is read from the view by :meth:`row`'s way."""
        fed = self._at(view)
        if fed is None:
            return None
        _check_player(view, player)
        return fed.row(player)

    def rows_along(self, view, steps) -> list | None:
        """The rows :meth:`fed_row` would give along a run of decisions, without their views: ``view`` is the
        view before the first of them, ``steps`` ``(actor, values)`` per decision in order, ``values`` the
        watch's model's log-likelihoods of the option taken (one per agent). Returns the actor's row before
        each step (all ``None`` for a game that started from a position), or ``None`` if a step is impossible
        for the spectator (then ask :meth:`fed_row` view by view). The watch forgets the run afterwards.

        >>> from heimlich_lab import Game
        >>> from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
        >>> watch = PublicWatch(BoltzmannModel())
        >>> g = Game(["Ann", "Bob", "Cy"], seed=2)
        >>> rows = watch.rows_along(g.view(None), [("Ann", np.log([0.5, 0.1, 0.1, 0.1, 0.1, 0.1])), ("Ann", None)])
        >>> rows[0].round(3).tolist(), rows[1].round(3).tolist()
        ([0.167, 0.167, 0.167, 0.167, 0.167, 0.167], [0.5, 0.1, 0.1, 0.1, 0.1, 0.1])
        """
        fed = self._at(view)
        self._fed = None
        if fed is None:
            return [None] * len(steps)
        return _rows_of(fed, steps)

    def rows_stacked(self, view, actors: list[str], values: np.ndarray):
        """:meth:`rows_along` with a value for every step, given stacked: ``values`` (steps, agents), ``actors`` the
        steps' actors. Returns the rows stacked (steps, agents), ``None`` for a game that started from a position,
        ``False`` if a step is impossible for the spectator. The same numbers as :meth:`rows_along`.

        >>> from heimlich_lab import Game
        >>> from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
        >>> g = Game(["Ann", "Bob", "Cy"], seed=2)
        >>> V = np.log([[0.5, 0.1, 0.1, 0.1, 0.1, 0.1], [0.1, 0.5, 0.1, 0.1, 0.1, 0.1]])
        >>> PublicWatch(BoltzmannModel()).rows_stacked(g.view(None), ["Ann", "Ann"], V)[1].round(3).tolist()
        [0.5, 0.1, 0.1, 0.1, 0.1, 0.1]
        """
        start = self._uniform_start(view) if self._fed is None and len(actors) else None
        if start is not None:       # (a game read from its start: the spectator alike over every assignment)
            owners, n_players, n_slots = start
            rows = _subset_rows([owners[a] for a in actors], None, values, n_players, n_slots)
            if rows is not NotImplemented:
                return False if rows is None else rows
        fed = self._at(view)
        self._fed = None
        if fed is None:
            return None
        if len(actors) and fed.uniform():
            rows = _subset_rows([fed.owners[a] for a in actors], None, values, len(fed.single),
                                fed.n_slots)
            if rows is not NotImplemented:
                return False if rows is None else rows
        along = _rows_of(fed, list(zip(actors, values)))
        return False if along is None else np.asarray(along).reshape(len(actors), -1)

    def _uniform_start(self, view) -> tuple | None:
        """For a view where nothing has told anything yet (:meth:`_fresh`) whose fresh spectator is kept as
        probabilities alike over every assignment (:meth:`_FedSpectator.uniform`): ``(owner name -> index, players,
        agents)``, what :func:`_subset_rows` reads of it (a pure function of the players and agents: made once per
        setup); else ``None``.

        >>> from heimlich_lab import Game
        >>> from heimlich_lab.games.heimlich.inference.model import BoltzmannModel
        >>> owners, n_players, n_slots = PublicWatch(BoltzmannModel())._uniform_start(Game(["Ann", "Bob", "Cy"],
        ...                                                                                   seed=2).view(None))
        >>> owners["Cy"], n_players, n_slots
        (2, 3, 6)
        """
        kinds = view.log.kinds()
        if "start" in kinds or "take" in kinds or not DECISION_KINDS.isdisjoint(kinds):
            return None
        key = (tuple(view.players), tuple(view.agents))
        start = self._starts.get(key, False)
        if start is False:
            post = self._fresh(view)
            fed = None if post is None else _FedSpectator(post, len(view.log), view.log)
            start = (fed.owners, len(fed.single), fed.n_slots) if fed is not None and fed.uniform() else None
            if len(self._starts) >= _GAMES * 16:
                self._starts.clear()
            self._starts[key] = start
        return start

    def _at(self, view) -> _FedSpectator | None:
        """The fed spectator brought to ``view`` (``None`` for a game that started from a position)."""
        n = len(view.log)
        fed = self._fed
        if fed is not None and not _same_game(fed.log, view.log):
            fed = None
        elif fed is not None and fed.n < n:
            fed = fed if self._advance(view, fed, n) else None
        if fed is None or fed.n != n:
            post = self._fresh(view)
            if post is None:
                b = self.belief(view)
                post = None if b is None else b.posterior()
            fed = self._fed = None if post is None else _FedSpectator(post, n, view.log)
        return fed

    def _fresh(self, view):
        """The spectator's belief at a view where nothing has told anything yet (no decision, no take: the deal
        and the first roll), without reading it: every assignment alike; else ``None``."""
        kinds = view.log.kinds()
        if "start" in kinds or "take" in kinds or not DECISION_KINDS.isdisjoint(kinds):
            return None
        from .belief import Belief
        return Belief.at_start(view.players, view.agents, None, self.model, keep_updates=False).posterior()

    @staticmethod
    def _advance(view, fed: _FedSpectator, n: int) -> bool:
        """Move ``fed`` on to log length ``n``; ``False`` (``fed`` unusable) if the events since cannot be
        followed with what was fed (exactly one player decision, fed; the rest chance events that change
        nothing here)."""
        log = view.log
        kinds = log.kinds(fed.n)       # a decision's event has the decision's kind; only that one is read
        found = [j for j, k in enumerate(kinds, fed.n) if k in DECISION_KINDS]
        if "take" in kinds or len(found) != 1:
            return False
        ((actor, action, _),), _ = entries_from_log([log[found[0]]])
        values = fed.candidates.get((actor, _canonical(action)))
        if values is None or not fed.update(actor, values):
            return False
        fed.n, fed.candidates, fed.log = n, {}, log
        return True

    def row(self, view, player: str) -> np.ndarray | None:
        """``player``'s row of the spectator's belief at ``view``: P(player controls agent a) per agent of
        ``view.agents`` (``None`` for a game that started from a position)."""
        b = self.belief(view)
        return None if b is None else _row(b.marginals_array(), view, player)


class _FedSpectator:
    """The spectator :meth:`PublicWatch.feed` feeds: its belief, the length of the log it has read, and the
    decisions fed for the next entry. While every player holds one agent in every assignment (no second agent
    taken), the belief is kept as probabilities over the assignments, each decision multiplying in its actor's
    likelihoods: Bayes' rule with the same numbers as the posterior's log-space step (to rounding), in fewer
    steps, and a row is one sum over the assignments. The probabilities are taken from the posterior's log weights
    when first read (:attr:`p`): a spectator that is still alike over every assignment is read without them."""

    __slots__ = ("post", "_p", "_logw", "single", "owners", "n_slots", "n", "log", "candidates")

    def __init__(self, post, n: int, log):
        space = post.space
        hit = _SPACE_SLOTS.get(id(space))       # (every game starts from the few spaces of its starts: read once)
        if hit is None or hit[0] is not space:
            if len(_SPACE_SLOTS) >= 64:
                _SPACE_SLOTS.clear()
            hit = _SPACE_SLOTS[id(space)] = (space, [space.single_slot(o) for o in range(space.n_owners)],
                                             {name: o for o, name in enumerate(space.owners)})
        self.single, self.owners = hit[1], hit[2]       # (read only)
        self.n_slots = space.n_slots
        self._p = None
        if all(s is not None for s in self.single):
            self.post, self._logw = None, post.log_weights     # (read only; p = its exp, when first read)
        else:
            self.post, self._logw = post, None
        self.n, self.log, self.candidates = n, log, {}

    @property
    def p(self) -> np.ndarray | None:
        """The probabilities of the assignments while every player holds one agent (else ``None``): the posterior's
        ``posterior_vector()`` at the start, then after each :meth:`update`."""
        if self._p is None and self._logw is not None:
            self._p = np.exp(self._logw)        # (posterior_vector's own formula)
        return self._p

    @p.setter
    def p(self, value: np.ndarray) -> None:
        self._p = value

    def update(self, actor: str, values: np.ndarray) -> bool:
        """Bayes' rule with the actor's log-likelihoods per agent; ``False`` (nothing changed) if the decision
        is impossible under every assignment still possible."""
        if self.post is not None:
            try:
                self.post.update_actor(actor, values)     # all or nothing
            except HeimlichError:
                return False
            return True
        top = values.max()
        if not top > -np.inf:
            return False
        w = self.p * np.exp(values - top)[self.single[self.owners[actor]]]
        z = w.sum()
        if not z > 0:
            return False
        self.p = w / z
        return True

    def rows_along(self, steps) -> list | None:
        """:meth:`row` of each step's actor before the step, then :meth:`update` with its values (``None``: none),
        for a run of steps, while every player holds one agent: the probabilities are carried unnormalised
        (rescaled when they grow small), each row normalised by itself; ``None`` if a step is impossible. The
        spectator is not moved on (its run is forgotten)."""
        n_slots = self.n_slots
        if not steps:
            return []
        if self.uniform():
            rows = _rows_by_subsets([self.owners[a] for a, _ in steps], [v for _, v in steps], len(self.single),
                                    n_slots)
            if rows is not NotImplemented:
                return rows
        p = self.p
        given = [v for _, v in steps if v is not None]
        if given:   # every step's factors at once: exp(values - their top), 1 at the likeliest agent
            V = np.asarray(given, dtype=float)
            tops = V.max(axis=1)
            if not tops.min() > -np.inf:
                return None
            factors = iter(np.exp(V - tops[:, None]))
        rows, sums = [], []
        for actor, values in steps:
            single = self.single[self.owners[actor]]
            r = np.bincount(single, weights=p, minlength=n_slots)
            z = r.sum()
            if not z > 0:       # the previous step was impossible under every assignment still possible
                return None
            if z < 1e-150:
                p, r, z = p / z, r / z, 1.0
            rows.append(r)
            sums.append(z)
            if values is not None:
                p = p * next(factors)[single]
        if not p.sum() > 0:
            return None
        return list(np.asarray(rows) / np.asarray(sums)[:, None])

    def uniform(self) -> bool:
        """Whether the spectator is kept as probabilities (every player holds one agent) that are still alike over
        every assignment, of few enough agents for :func:`_rows_by_subsets`. Read from the log weights while the
        probabilities are not taken yet: equal log weights give equal probabilities (and unequal ones are read
        as probabilities, as before)."""
        n_slots = self.n_slots
        if self.post is not None or not (len(self.single) <= n_slots <= 10):
            return False
        w = self._logw if self._p is None and self._logw is not None and bool((self._logw == self._logw[0]).all()) \
            else self.p
        return w is not None and len(w) == math.perm(n_slots, len(self.single)) and bool((w == w[0]).all())

    def row(self, player: str) -> np.ndarray:
        if self.post is not None:
            return self.post.marginal_row(player)
        return np.bincount(self.single[self.owners[player]], weights=self.p, minlength=self.n_slots)


#: id(space) -> (the space, the slot each owner holds in each hypothesis, owner name -> index), for
#: :class:`_FedSpectator`: pure functions of the space (its own single_slot is cached too; this saves the calls)
_SPACE_SLOTS: dict = {}

#: (agents, players) -> the gathers of the subset recursion (:func:`_subset_layers`)
_SUBSETS: dict = {}


def _subset_layers(n_slots: int, n_players: int) -> tuple[list[np.ndarray], np.ndarray]:
    """For :func:`_rows_by_subsets`: per layer ``k`` (1 .. players - 1) the (subsets of ``k`` agents, ``k``) indices
    into the flattened (subsets of ``k - 1`` agents x agents) products that make each subset of ``k`` agents (the subset
    without one of its agents, then that agent), in increasing order; and (agents, subsets of ``players - 1`` agents
    without it) the last layer's subsets that leave each agent free, in increasing order.

    >>> steps, free = _subset_layers(3, 2)
    >>> steps[0].tolist(), free.tolist()     # subsets of one agent {0}, {1}, {2}; {1} leaves agent 0 free, ...
    ([[0], [1], [2]], [[1, 2], [0, 2], [0, 1]])
    """
    key = (n_slots, n_players)
    if key not in _SUBSETS:
        layers = [[s for s in range(1 << n_slots) if bin(s).count("1") == k] for k in range(n_players)]
        steps = []
        for k in range(1, n_players):
            at = {s: i for i, s in enumerate(layers[k - 1])}
            steps.append(np.array([sorted(at[s & ~(1 << b)] * n_slots + b for b in range(n_slots) if s >> b & 1)
                                   for s in layers[k]], dtype=np.intp).reshape(len(layers[k]), k))
        free = np.array([[j for j, s in enumerate(layers[n_players - 1]) if not s >> b & 1] for b in range(n_slots)],
                        dtype=np.intp)
        _SUBSETS[key] = (steps, free)
    return _SUBSETS[key]


def _subset_plan(n_slots: int, n_players: int) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray, np.ndarray]:
    """What :func:`_subset_rows` reads of :func:`_subset_layers`, made once per (agents, players): per layer, the
    (``k``, subsets) indices of the subset of ``k - 1`` agents and of the agent each product of the step multiplies
    (the step's flat index is ``subset * n_slots + agent``), the products' axis first so that their sums add whole
    rows; ``free`` likewise transposed, (subsets, agents); and the layers' indices (layers, 1).

    >>> split, free, layer = _subset_plan(3, 2)
    >>> without, added = split[0]
    >>> (without * 3 + added).T.tolist() == _subset_layers(3, 2)[0][0].tolist(), free.T.tolist(), layer.tolist()
    (True, [[1, 2], [0, 2], [0, 1]], [[0]])
    """
    key = (n_slots, n_players)
    plan = _SUBSET_PLANS.get(key)
    if plan is None:
        steps, free = _subset_layers(n_slots, n_players)
        split = [(np.ascontiguousarray((s // n_slots).T), np.ascontiguousarray((s % n_slots).T)) for s in steps]
        plan = _SUBSET_PLANS[key] = (split, np.ascontiguousarray(free.T), np.arange(len(steps))[:, None])
    return plan


#: (agents, players) -> :func:`_subset_plan`
_SUBSET_PLANS: dict = {}


def _rows_by_subsets(actors: list[int], values: list, n_players: int, n_slots: int):
    """:meth:`_FedSpectator.rows_along` from a uniform start over every assignment of one agent to each player:
    each player's weights are the product of their own steps' factors, so the actor's row at a step is its
    weights times, per agent, the sum over the other players' assignments to the other agents of their
    weights' products: a recursion over the subsets of agents the other players hold (every step at once; each
    layer's sums gathered from the one before, no matrix product: a product of these small 0/1 matrices runs
    through BLAS's threads, whose waiting cost more CPU than the sums; the steps run along memory, and the other
    players' weights of every layer are gathered at once). The same rows within rounding; ``None``
    if a step is impossible; ``NotImplemented`` where a player's every agent became impossible (the caller steps
    along then)."""
    given = [t for t, v in enumerate(values) if v is not None]
    rows = _subset_rows(actors, given, np.asarray([values[t] for t in given], dtype=float) if given else None,
                        n_players, n_slots)
    return rows if rows is None or rows is NotImplemented else list(rows)


def _subset_rows(actors: list[int], given, V: np.ndarray | None, n_players: int, n_slots: int):
    """:func:`_rows_by_subsets`, the steps' values given as ``V`` (steps with a value, agents) with ``given`` the
    indices of those steps (``None``: every step has one, ``V`` a row per step): the rows stacked (steps, agents),
    or ``None``, or ``NotImplemented``."""
    T = len(actors)
    who = np.array([*actors, actors[-1]])                               # after the last step: its actor's row
    at = np.arange(T + 1)
    # each player's summed log-factors before each step, by agent first: each (step, player)'s maximum over the
    # agents then compares whole rows (a maximum along a short last axis costs 8 times as much)
    logs = np.zeros((n_slots, T + 1, n_players))
    if V is not None and (given is None or len(given)):
        tops = V.max(axis=1)
        if not tops.min() > -np.inf:
            return None
        if given is None:       # (every step: its actor's row after it, without the steps' indices gathered)
            logs[:, at[1:], who[:T]] = (V - tops[:, None]).T
        else:
            logs[:, np.asarray(given) + 1, who[np.asarray(given, dtype=np.intp)]] = (V - tops[:, None]).T
        logs.cumsum(axis=1, out=logs)
    top = logs.max(axis=0)
    if not np.isfinite(top).all():
        return NotImplemented
    g = np.exp(np.subtract(logs, top, out=logs), out=logs)                  # (agents, T + 1, players)
    split, free, layer = _subset_plan(n_slots, n_players)
    # the sums kept with the steps along the last axis (each product, gather and sum runs along memory; the sums
    # add the same numbers in the same order as summing the steps' axis first)
    # (layers, agents, T + 1): the weights of the k-th player other than the actor, by agent, at each step
    G = np.ascontiguousarray(g[:, at, layer + (who <= layer)].transpose(1, 0, 2))
    f = G[0] if len(split) else np.ones((1, T + 1))
    for k in range(1, len(split)):      # the k-th other player takes one more agent
        # each subset's products (the subset without one agent's sums times that agent's weights), only those
        # that are summed: the same products as the whole (subsets x agents) product gathered, added in order
        # (the products' axis first: the sums add whole rows, one after the other, as a middle axis's sum does,
        # at a third of its cost)
        without, added = split[k]
        p = f.take(without, axis=0)
        p *= G[k].take(added, axis=0)
        f = p.sum(axis=0)
    rows = np.multiply(g[:, at, who].T, f[free].sum(axis=0).T, out=np.empty((T + 1, n_slots)))   # (T + 1, agents)
    z = rows.sum(axis=1)
    if not z.min() > 0:
        return None
    return rows[:T] / z[:T, None]


def _rows_of(fed: _FedSpectator, steps) -> list | None:
    """:meth:`PublicWatch.rows_along` from the fed spectator at its first view."""
    if fed.post is None:
        return fed.rows_along(steps)
    rows = []
    for actor, values in steps:
        rows.append(fed.row(actor))
        if values is not None and not fed.update(actor, np.asarray(values, dtype=float)):
            return None
    return rows


def _check_player(view, player: str) -> None:
    if player not in view.players:
        raise ModelError(f"unknown player {player!r}: players are {', '.join(view.players)}")


def _row(marginals, view, player: str) -> np.ndarray:
    _check_player(view, player)
    return marginals[view.players.index(player)]


def _same_game(followed, log) -> bool:
    """Whether ``log`` is of the game a log seen before was of (a log that cannot tell: never the same)."""
    same = getattr(followed, "same_game", None)
    return bool(same is not None and same(log))


def _canonical(action) -> tuple:
    """An action as a key that does not depend on the order of its arguments (a move read back from a log lists
    its agents in the log's order)."""
    return action.kind, tuple(sorted(map(repr, action.args)))


def exposure(row, likelihoods: np.ndarray, agents=None) -> np.ndarray:
    """The spectator's belief in each agent right after each option: ``m_a L_a(x) / sum_b m_b L_b(x)``.

    ``row`` (A,) the actor's row before (``None``: a fresh spectator, every agent alike), ``likelihoods``
    (A, n) ``P(option x | plays for agent a)``; returns (A, n). With ``agents`` (indices), the belief in that
    set of agents after each option (n,).

    >>> exposure([0.5, 0.5], np.array([[0.9, 0.1], [0.1, 0.9]])).round(2)
    array([[0.9, 0.1],
           [0.1, 0.9]])
    >>> exposure([0.9, 0.1], np.array([[0.9, 0.1], [0.1, 0.9]]), agents=[0]).round(3)
    array([0.988, 0.5  ])
    """
    L = np.asarray(likelihoods, dtype=float)
    w = L if row is None else np.asarray(row, dtype=float)[:, None] * L
    total = w.sum(axis=0)
    if total.min() > 0:       # the common case, without numpy's (slow) error-state switch
        out = w / total
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(total > 0, w / total, 0.0)
    return out if agents is None else out[list(agents)].sum(axis=0)
