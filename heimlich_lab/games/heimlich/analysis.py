"""Heimlich & Co. in a tournament (:data:`TOURNAMENT`, read by :mod:`heimlich_lab.analysis`): the table's
columns and rows, the named variants, and the per-game belief evaluator.

>>> parse_variant("top_secret+unoccupied")[0], rules_label(Rules(dossier=True))
('top_secret+unoccupied', 'dossier')

The built-in per-game evaluator: how well every player's exact belief guessed.

``tournament(..., evaluate="beliefs")`` (or ``evaluate=BeliefEvaluator(...)``) reads each
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

Speed: the tournament lets the evaluator watch each game as it is played (:meth:`BeliefEvaluator.watch_game`,
the spectator's view before each decision), so its record is not replayed (Top Secret games, whose hand
decisions each player reads with their own pool, and games with a take are replayed; the scores are the same
either way, tested). Bots whose model has the same utility weights as the evaluator's model are given the
evaluator's :class:`~heimlich_lab.games.heimlich.inference.utility.Utility` (its cache) before the game, so the
utilities the bots computed while playing are looked up again, not recomputed, during the replay (the kit's
models of the same weights share one already, :meth:`~heimlich_lab.games.heimlich.inference.utility.Utility.shared`;
this covers a model given its own).
Utilities are a pure function of the public state, so the games and the scores are the same
either way (``share_utility=False`` turns this off).
"""
from __future__ import annotations

from typing import Callable, Mapping

import numpy as np

from ...analysis.grid import labelled_rules
from ...engine.registry import TournamentSpec
from ...errors import HeimlichError
from .rules.ruleset import Rules

#: The columns the belief evaluator adds (besides ``belief_at_mark``).
METRIC_COLUMNS = ("belief_log_loss", "belief_brier", "belief_accuracy", "belief_expected_correct",
                  "belief_actual_correct")

#: The watches an evaluator keeps for games played and not yet read (a tournament's unit of work plays a few games
#: before it reads them: :data:`heimlich_lab.analysis.running.READ_AFTER`); beyond this many the oldest is
#: dropped (a game that ended in an error is never read), and that game is read from its record.
_WATCHES_KEPT = 64


class BeliefEvaluator:
    """``evaluate(record) -> {column: {player: value}}`` with every player's exact belief scores.

    ``until="dossier"`` (default) scores the beliefs at the dossier mark; ``until=None`` after the
    whole game. ``model``: any player model (default: the kit's default model).
    """

    def __init__(self, model=None, until="dossier", share_utility: bool = True, prefix: str = "belief_"):
        if model is None:
            from .inference.likelihoods import default_model
            model = default_model()
        self.model = model
        self.until = until
        self.share_utility = share_utility
        self.prefix = prefix
        self._names: tuple | None = None    # (prefix, the score columns, the mark's column): made once
        self._watches: list[_GameWatch] = []     # the games being played or waiting to be read (watch_game)

    def __repr__(self):
        return f"BeliefEvaluator(model={self.model!r}, until={self.until!r})"

    def __getstate__(self) -> dict:
        """A copy for another process (a tournament's workers) has no watches: the games they watch are this
        process's, and a copy would carry them along.

        >>> import pickle
        >>> ev = BeliefEvaluator(until=None)
        >>> _ = ev.watch_game()
        >>> len(ev._watches), len(pickle.loads(pickle.dumps(ev))._watches)
        (1, 0)
        """
        return {**self.__dict__, "_watches": []}

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

    def watch_game(self) -> _GameWatch:
        """A watch for the next game (the tournament passes it to the play loop): it keeps the spectator's view
        before each decision as the game is played, so that :meth:`__call__` reads that game's beliefs without
        replaying its record (the same views, so the same scores; a game it cannot follow is replayed)."""
        watches = self._watches
        if len(watches) >= _WATCHES_KEPT:   # (games that ended in an error are never evaluated)
            del watches[0]
        watches.append(_GameWatch(self.until))
        return watches[-1]

    def _watch_of(self, found: Callable[[_GameWatch], object]) -> object:
        """``found(watch)`` of the latest watch for which it is not ``None`` (that watch is done with: its game is
        read), else ``None``."""
        watches = self._watches
        for i in range(len(watches) - 1, -1, -1):
            got = found(watches[i])
            if got is not None:
                del watches[i]
                return got
        return None

    def _played_decisions(self, game) -> list | None:
        """The decisions of ``game`` as its watch kept them, if it could follow the game (its watch is let go
        either way: the game is being read), else ``None``."""
        watches = self._watches
        for i in range(len(watches) - 1, -1, -1):
            if watches[i].game is game:
                return watches.pop(i).decisions_played(game)
        return None

    def __call__(self, record) -> dict:
        from .inference.belief_set import BeliefSet
        decisions = self._watch_of(lambda w: w.decisions_of(record)) if self._watches else None
        return self._scored(BeliefSet.from_record(record, model=self.model, until=self.until, keep_updates=False,
                                                  decisions=decisions))

    def evaluate_game(self, game) -> dict:
        """``self(game.record)`` for a finished game of the tournament (which calls this instead when an evaluator
        has it): the game this evaluator watched is read from the decisions it kept, without making its record
        or checking that record against the game (the same beliefs, so the same scores: tested); any other game
        from its record.

        >>> from heimlich_lab import Game, Rules
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> from heimlich_lab.engine.play import play_game
        >>> ev = BeliefEvaluator(until=None)
        >>> bots = {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}
        >>> g = play_game(Game, bots, seed=4, rules=Rules(), watch=ev.watch_game())
        >>> ev.evaluate_game(g) == BeliefEvaluator(until=None)(g.record)
        True
        """
        decisions = self._played_decisions(game)
        return self(game.record) if decisions is None else self._read_played(game, decisions)

    def evaluate_games(self, games) -> list[dict]:
        """``[self.evaluate_game(g) for g in games]`` (the tournament calls this with a few finished games at a
        time): the games this evaluator watched have their decisions' likelihoods computed together
        (:func:`~heimlich_lab.games.heimlich.inference.likelihoods.games_read_at_once`: the same numbers, so the
        same scores; tested).

        >>> from heimlich_lab import Game, Rules
        >>> from heimlich_lab.bots import BoltzmannBot
        >>> from heimlich_lab.engine.play import play_game
        >>> ev = BeliefEvaluator(until=None)
        >>> bots = {p: BoltzmannBot(seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}
        >>> games = [play_game(Game, bots, seed=s, rules=Rules(), watch=ev.watch_game()) for s in (4, 5)]
        >>> ev.evaluate_games(games) == [BeliefEvaluator(until=None)(g.record) for g in games]
        True
        """
        from .inference.likelihoods import games_read_at_once
        games = list(games)
        decisions = [self._played_decisions(g) for g in games]
        watched = [i for i, d in enumerate(decisions) if d is not None]
        raw = games_read_at_once(self.model, [decisions[i] for i in watched]) if len(watched) > 1 else None
        raws = dict(zip(watched, raw)) if raw is not None else {}
        return [self(g.record) if d is None else self._read_played(g, d, raws.get(i))
                for i, (g, d) in enumerate(zip(games, decisions))]

    def _read_played(self, game, decisions: list, raw: list | None = None) -> dict:
        """The columns of a watched game, from its decisions as played (``raw``: their answers, if asked)."""
        from .inference.belief_set import BeliefSet
        deal = next(dict(a.args) for _, a in game.history if a.kind == "deal")
        return self._scored(BeliefSet.from_played(game.players, game.agents, deal, decisions, self.model,
                                                  final_owners=game.final_owners, keep_updates=False, raw=raw))

    def _scored(self, bs) -> dict:
        """The evaluator's columns from a :class:`BeliefSet` read to the stop."""
        players = list(bs.players)
        t, truth_row = _truth_of(bs.players, bs.agents, bs.truth)
        # scored against what each observer holds at the stop (bs.truth is the final owners: a dropped second
        # agent is free)
        sums = _score_sums(bs.marginals_stack(players), t, players, list(bs.agents), bs.own_agents,
                           truth_row).tolist()
        names = self._names
        if names is None or names[0] != self.prefix:
            names = self._names = (self.prefix, [f"{self.prefix}{k}" for k in _SCORE_NAMES],
                                   f"{self.prefix}at_mark")
        out: dict = {k: dict(zip(players, v)) for k, v in zip(names[1], sums)}
        out[names[2]] = bool(bs.at_mark)
        return out


class _GameWatch:
    """What :meth:`BeliefEvaluator.watch_game` keeps of a game while it is played: each decision's index in the log,
    actor, action, the spectator's view before it and the turn, up to the evaluator's stop (the dossier mark, or
    the end). Follows the games whose decisions the spectator's view says all about (no Top Secret hands)."""

    def __init__(self, until):
        from .rules.actions import DECISION_KINDS
        from .rules.replay import Decision, reached_mark
        self.until = until
        self.game = None
        self.items: list = []       # the decisions as Decision items, made as they are played
        self._marked = None         # the item decisions_played gave the mark's flag (the last then)
        self.stopped = False
        self.ok = until in (None, "dossier")
        # (looked up at every action)
        self._decision_kinds, self._reached_mark, self._decision = DECISION_KINDS, reached_mark, Decision

    def __call__(self, game, player: str, action) -> None:
        if self.game is None:
            self.game = game
            self.ok = self.ok and not game.rules.top_secret and game.start is None
        if not self.ok or self.stopped or game is not self.game:
            self.ok = self.ok and game is self.game
            return
        if self.until == "dossier" and self._reached_mark(game):
            self.stopped = True
            return
        if action.kind in self._decision_kinds:
            self.items.append(self._decision(len(game.history), player, action, None, game.view(None), game.turn, 0))

    def decisions_of(self, record) -> list | None:
        """The watched game's decisions as :class:`~heimlich_lab.games.heimlich.rules.replay.Decision` items, if
        ``record`` is that game's (its log as the game's history), else ``None``."""
        g = self.game
        if not self.ok or g is None or len(record.log) != len(g.history) \
                or any((e.action is not a and e.action != a) or e.actor != p  # (its own actions: no ==)
                       for e, (p, a) in zip(record.log, g.history)):
            return None
        return self.decisions_played(g)

    def decisions_played(self, game) -> list | None:
        """The watched game's decisions as :class:`~heimlich_lab.games.heimlich.rules.replay.Decision` items, if
        ``game`` is that game and the watch could follow it, else ``None``."""
        from .rules.replay import reached_mark
        g = self.game
        # a take changes who holds what: replayed (a game whose chance gave nobody a card or an agent has none)
        if not self.ok or g is None or game is not g \
                or (g.recipients and any(a.kind == "take" for _, a in g.history)):
            return None
        items = list(self.items)
        if items:   # a marker at the dossier mark once the last entry read was played (markers only go up)
            if self._marked is not None:    # (the last item of an earlier call: the items are the watch's own)
                self._marked.at_mark = False
            self._marked = items[-1]
            items[-1].at_mark = reached_mark(g)
        return items


#: The scores of :func:`_scores`, in the order of :func:`_score_sums`' rows.
_SCORE_NAMES = ("log_loss", "brier", "accuracy", "expected_correct", "actual_correct")


def _scores(marginals: Mapping | np.ndarray, t: np.ndarray, players: list, agents: list, own: Mapping
            ) -> dict[str, np.ndarray]:
    """:func:`~heimlich_lab.inference.metrics.score_belief` of every player's exact marginals (``marginals``:
    player -> (players + free, agents), or those tables stacked in ``players`` order, ``own``: player -> the agents
    they hold) against the truth table ``t``, for
    all of them at once: score name -> one value per player, in ``players`` order. The same arithmetic without its
    input checks (the BeliefSet's tables are valid by construction; the checks took about a tenth of a tournament
    game's time). Tested against score_belief.

    >>> players, agents = ["Ann", "Bob"], ["red", "blue", "green"]
    >>> t = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])          # Ann red, Bob blue, green free
    >>> sure = {"Ann": t, "Bob": t}
    >>> s = _scores(sure, t, players, agents, {"Ann": ("red",), "Bob": ("blue",)})
    >>> s["accuracy"].tolist(), s["actual_correct"].tolist()
    ([1.0, 1.0], [2.0, 2.0])
    """
    return dict(zip(_SCORE_NAMES, _score_sums(marginals, t, players, agents, own)))


def _truth_of(players: tuple, agents: tuple, owners: Mapping) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~heimlich_lab.inference.metrics.truth_table` of ``owners`` (player -> agents), and the row of each
    agent's owner in it (``"free"``: the last), read from the owners without a pass over the table; an owner table
    that truth_table refuses (an unknown player or agent, an agent given twice) is given to it, which raises.

    >>> t, rows = _truth_of(("Ann", "Bob"), ("red", "blue", "green"), {"Ann": ["red"], "Bob": ["green"]})
    >>> t.tolist(), rows.tolist()
    ([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], [0, 2, 1])
    """
    n_p, n_a = len(players), len(agents)
    const = _constants(players, agents)
    at_p, at_a = const[4], const[0]
    row = [n_p] * n_a
    given = 0
    try:
        for p, cols in owners.items():
            i = at_p[p]
            for c in ([cols] if isinstance(cols, str) else cols):
                row[at_a[c]] = i
                given += 1
    except KeyError:
        given = -1
    truth_row = np.array(row, dtype=np.intp)
    if given < 0 or given != n_a - row.count(n_p):      # unknown names, or an agent given twice: truth_table says
        from ...inference.metrics import truth_table
        truth_table(players, agents, owners)
    t = np.zeros((n_p + 1, n_a))
    t[truth_row, const[1]] = 1.0
    return t, truth_row


#: (players, agents) -> what :func:`_score_sums` reads of them: (agent -> column, the columns, the observers, the
#: observers as a column, player -> row); a tournament has a handful of setups
_CONSTANTS: dict = {}


def _constants(players, agents) -> tuple:
    """:data:`_CONSTANTS` of a setup, made on its first game (read-only by convention: shared by every game).

    >>> at, cols, obs, obs_col, row_of = _constants(["Ann", "Bob"], ["red", "blue", "green"])
    >>> at["blue"], cols.tolist(), obs_col.tolist(), row_of["Bob"]
    (1, [0, 1, 2], [[0], [1]], 1)
    """
    key = (tuple(players), tuple(agents))
    c = _CONSTANTS.get(key)
    if c is None:
        if len(_CONSTANTS) > 64:
            _CONSTANTS.clear()
        obs = np.arange(len(key[0]))
        c = _CONSTANTS[key] = ({a: j for j, a in enumerate(key[1])}, np.arange(len(key[1])), obs, obs[:, None],
                               {p: i for i, p in enumerate(key[0])})
    return c


def _score_sums(marginals: Mapping | np.ndarray, t: np.ndarray, players: list, agents: list, own: Mapping,
                truth_row: np.ndarray | None = None) -> np.ndarray:
    """:func:`_scores` as one array (5, observers), the scores in :func:`_scores`' order (``t``: a truth table of
    :func:`~heimlich_lab.inference.metrics.truth_table`, one 1 per column). Fewer array operations than the plain
    arithmetic (a mask of the agents scored, the truth table multiplied in; the tests keep it), the same numbers bit
    for bit (tested): each agent's truth row read where the plain code sums a product with the one-hot table, the
    agents held set to zero where it multiplies by the mask. ``truth_row``: ``t.argmax(axis=0)`` if known.

    >>> t = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1]])          # Ann red, Bob blue, green free
    >>> _score_sums({"Ann": t, "Bob": t}, t, ["Ann", "Bob"], ["red", "blue", "green"],
    ...             {"Ann": ("red",), "Bob": ("blue",)}).tolist()[2:]      # accuracy, expected and actual correct
    [[1.0, 1.0], [2.0, 2.0], [2.0, 2.0]]
    """
    m = np.asarray(marginals, dtype=float) if isinstance(marginals, np.ndarray) \
        else np.stack([np.asarray(marginals[p], dtype=float) for p in players])     # (O, R, A)
    m = m / m.sum(axis=1, keepdims=True)                  # as score_belief
    total = m.sum(axis=1)                                 # (O, A)
    mp = m / total[:, None, :]                            # as metrics._prepare
    n_a = len(agents)
    at, cols, obs, obs_col, _ = _constants(players, agents)
    js = [{at[a] for a in own[p] if a in at} for p in players]     # the agents each observer holds (not scored)
    n = [n_a - len(j) for j in js]                                  # how many scored
    held_i = [i for i, j in enumerate(js) for _ in j]
    held_j = [x for j in js for x in j]
    if truth_row is None:
        truth_row = t.argmax(axis=0)                      # (A,): the row of each agent's owner (or "free")
    # the sheet's entry per agent: the likeliest of the observer's opponents and "free" (the first on a tie)
    others = m.copy()
    others[obs, obs] = -np.inf
    best = others.argmax(axis=1)                                                      # (O, A): row index
    truth = mp[:, truth_row, cols]                        # (O, A): (mp * t).sum(axis=1), its other terms zeros
    # each score's value per observer and agent, then each summed over the scored agents (one sum for all five: the
    # same additions, in the same order, as one per score)
    per_agent = np.empty((5, len(players), n_a))
    np.log(np.minimum(np.maximum(truth, 1e-15), 1.0), out=per_agent[0])             # np.clip(truth, 1e-15, 1)
    np.sum(np.square(mp - t[None]), axis=1, out=per_agent[1])
    np.equal(mp.argmax(axis=1), truth_row, out=per_agent[2], casting="unsafe")
    np.divide(m[obs_col, best, cols], total, out=per_agent[3])
    np.equal(best, truth_row, out=per_agent[4], casting="unsafe")
    if held_i:
        per_agent[:, held_i, held_j] = 0.0                # (the plain code's mask: x * 0, x * 1)
    sums = per_agent.sum(axis=2)                                                      # (5, O)
    sums[:3] /= np.array(n, dtype=float)
    np.negative(sums[0], out=sums[0])                     # -sum / n
    return sums


#: Named variants: name -> Rules options.
VARIANTS = {
    "basic": {},
    "top_secret": {"top_secret": True},
    "dossier": {"dossier": True},
    "both": {"top_secret": True, "dossier": True},
}
_VARIANT_ALIASES = {"top-secret": "top_secret", "topsecret": "top_secret", "ts": "top_secret",
                    "top_secret+dossier": "both"}
#: Options that may follow a variant name after ``+``: option -> Rules options.
VARIANT_OPTIONS = {"unoccupied": {"safe_destination": "unoccupied"}, "other": {"safe_destination": "other"}}


def rules_label(rules: Rules) -> str:
    """A short, unique name for a rule set (used in the ``variant`` column).

    >>> rules_label(Rules()), rules_label(Rules(top_secret=True, dossier=True))
    ('basic', 'both')
    >>> rules_label(Rules(dossier=True, safe_destination="unoccupied"))
    'dossier+unoccupied'
    """
    name = {(False, False): "basic", (True, False): "top_secret", (False, True): "dossier",
            (True, True): "both"}[(rules.top_secret, rules.dossier)]
    if rules.safe_destination != "other":
        name += f"+{rules.safe_destination}"
    if rules.agents is not None:
        name += "+agents=" + ".".join(rules.agents)
    if rules.deck is not None:
        name += "+deck=" + ".".join(f"{c}{n}" for c, n in rules.deck)
    return name


def parse_variant(spec: "str | Rules | Mapping") -> tuple[str, Rules]:
    """``(label, Rules)`` from a variant name, a :class:`Rules`, or a dict of Rules options.

    Names are ``basic``, ``top_secret``, ``dossier`` (basic + Secret Dossier) and ``both``
    (Top Secret + Secret Dossier), optionally followed by ``+unoccupied`` (the safe moves to
    an empty building).

    >>> label, rules = parse_variant("top_secret+unoccupied")
    >>> label, rules.top_secret, rules.dossier, rules.safe_destination
    ('top_secret+unoccupied', True, False, 'unoccupied')
    >>> parse_variant({"dossier": True})[0]
    'dossier'
    """
    if isinstance(spec, (Rules, Mapping)):
        return labelled_rules(Rules, rules_label, spec, "variant")
    if not isinstance(spec, str) or not spec.strip():
        raise HeimlichError(f"a variant is a name ({', '.join(VARIANTS)}), a Rules or a dict, not {spec!r}")
    text = spec.strip().lower()
    text = _VARIANT_ALIASES.get(text, text)
    name, *options = text.split("+")
    name = _VARIANT_ALIASES.get(name, name)
    if name not in VARIANTS:
        raise HeimlichError(f"unknown variant {spec!r}; variants are {', '.join(VARIANTS)} "
                            f"(optionally +{', +'.join(VARIANT_OPTIONS)})")
    kw = dict(VARIANTS[name])
    for o in options:
        if o not in VARIANT_OPTIONS:
            raise HeimlichError(f"unknown variant option {o!r} in {spec!r}; options are {', '.join(VARIANT_OPTIONS)}")
        kw.update(VARIANT_OPTIONS[o])
    rules = Rules(**kw)
    return rules_label(rules), rules


def check_table(rules: Rules, n: int) -> None:
    """Raise if ``rules`` cannot seat ``n`` players (a custom agent list too short)."""
    rules.agents_for(n)


#: The columns of a tournament table, in order, with their kinds (evaluation metrics follow, sorted by name).
COLUMN_KINDS = {
    "game_id": "str", "root_seed": "int", "game_index": "int", "seed": "int", "n_players": "int", "variant": "str",
    "top_secret": "bool", "dossier": "bool", "safe_destination": "str", "lineup": "str", "seat": "int",
    "player": "str", "bot": "str", "bot_seed": "int", "agent": "str", "agents": "str", "final_agent": "str",
    "score": "int", "dossier_bonus": "int", "won": "bool", "shared_win": "bool", "free_agent_won": "bool",
    "n_winners": "int", "n_turns": "int", "n_actions": "int",
}
COLUMNS = tuple(COLUMN_KINDS)


def table_rows(g, rules: Rules, common: dict) -> list[dict]:
    """A finished game's rows, one per player in seat order (without the seat's columns)."""
    deal = next(dict(a.args) for actor, a in g.history if a.kind == "deal")
    winners = set(g.winners)
    final = g.final_owners
    scores = g.scores
    bonus = g.dossier_bonus
    owners = g.owners
    rows = []
    for p in g.players:
        final_agent = next(c for c, o in final.items() if o == p)
        rows.append({
            **common, "top_secret": rules.top_secret, "dossier": rules.dossier,
            "safe_destination": rules.safe_destination,
            "agent": deal[p], "agents": ",".join(owners[p]), "final_agent": final_agent,
            "score": scores[final_agent], "dossier_bonus": bonus.get(p, 0), "won": p in winners,
            "shared_win": p in winners and len(winners) > 1, "free_agent_won": not winners,
            "n_winners": len(winners), "n_turns": g.turn, "n_actions": len(g.history),
        })
    return rows


def summary(df, by: list[str]) -> list[tuple[str, object]]:
    """What ``heimlich-lab tournament`` prints after the win rates: how often no player won."""
    from ...analysis.statistics import free_agent_win_rate
    return [("No player won (a free agent scored most):", free_agent_win_rate(df, by=by))]


#: Heimlich & Co. in a tournament (:class:`~heimlich_lab.engine.registry.TournamentSpec`); its game ids are
#: ``SEED/NP/VARIANT/LINEUP/K``, as they always were.
def class_identities(record) -> tuple[dict, dict, dict]:
    """For the class data (:mod:`heimlich_lab.analysis.class_games`), per player of a finished full record: the
    agents they controlled (comma-separated), the agent that counted at the end (``""``: none) and its score.

    >>> from heimlich_lab import Rules, play
    >>> from heimlich_lab.bots import RandomBot
    >>> controlled, final, score = class_identities(play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2)}, seed=3))
    >>> sorted(controlled) == sorted(final) == sorted(score) == ["Ann", "Bob"]
    True
    """
    r = record.result
    final = {p: next((c for c, o in r["final_owners"].items() if o == p), None) for p in record.players}
    return ({p: ",".join(r["controlled"][p]) for p in record.players}, {p: final[p] or "" for p in record.players},
            {p: r["scores"][final[p]] if final[p] else 0 for p in record.players})


TOURNAMENT = TournamentSpec(
    columns=COLUMN_KINDS, rows=table_rows, parse_variant=parse_variant, check_table=check_table,
    evaluators={"beliefs": f"{__name__}:BeliefEvaluator", "belief": f"{__name__}:BeliefEvaluator"},
    id_prefix="", fair_share=True, summary=summary, belief_when="at the dossier mark",
    rules_label=rules_label, identities=class_identities)
