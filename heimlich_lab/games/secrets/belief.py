"""Exact filtering belief over where the identity markers lie, on the game-agnostic core.

Slots are the seats and the ``"middle"``, owners are the teams, and a hypothesis is an arrangement of the marker
multiset (at most 630 for 8 players). The belief follows the observer's view event by event:

* the deal: every arrangement equally likely; start-up looks, Detective, Politician and Double Agent looks the
  observer makes, public shows (7-8 players' start, the Diplomat) and a Journalist's marker are *updates*
  (conditioning on what was seen);
* known swaps (Psychiatrist, Double Agent, one's own Diplomat) are *transitions*: a permutation of the slots;
* another player's Diplomat swap is a mixture of two permutations (left or right neighbour) with a prior over the
  side; others' looks tell nothing about the markers unless a player model reads them.

By default (``model="types"``) the others' choices (offers, answers, the UN player's choice, the Politician's
receiver and the Assassin's target) are read too, through a population of player types learnt per player
(:func:`~heimlich_lab.games.secrets.population.default_population`: random, team players, a bluffer, on kinds of
table), so that random players are soon read as random and the belief stays honest; ``model=None`` counts only
what was seen (the hard-information filter); a :class:`~heimlich_lab.games.secrets.model.SecretsModel` reads every
choice as a team player's.

>>> from heimlich_lab.games.secrets import Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> g.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB")
>>> b = Belief.for_game(g, "Ann", model=None)           # only what Ann sees
>>> b.identities()["Ann"]
{'CIA': 1.0, 'KGB': 0.0, 'Hippie': 0.0}
>>> round(b.identities()["Bob"]["KGB"], 3)     # 2 KGB among the 4 markers Ann has not seen
0.5
>>> for a in ["reveal journalist", "reveal psychiatrist", "offer psychiatrist Bob", "accept", "swap Ann Cy"]:
...     g.apply(a)
>>> _ = b.sync(g.view("Ann")); b.identities()["Cy"]["CIA"]     # her marker moved to Cy
1.0
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ...errors import ModelError
from ...inference.core import HypothesisSpace, Marginals, Posterior, Update
from ...inference.mixture import TypedPosterior
from ...inference.transition import swap
from .rules import MIDDLE, TEAMS, SecretsRules


@lru_cache(maxsize=32)
def arrangement_space(slots: tuple[str, ...], counts: tuple[int, int, int]) -> HypothesisSpace:
    """Every arrangement of ``counts`` CIA, KGB and Hippie markers on ``slots`` (shared, read-only).

    >>> len(arrangement_space(tuple("ABCDEFGH") + ("middle",), (4, 4, 1)))
    630
    """
    return HypothesisSpace.assignments(TEAMS, slots, dict(zip(TEAMS, counts)))


#: ``Belief(model=TYPES)``, the default: the others' choices read through the default population of player types.
TYPES = "types"


class Belief:
    """One observer's exact belief about the markers (``observer=None``: a spectator's).

    ``model``: ``"types"`` (the default: the others' choices read through the default population of player
    types), ``None`` (only what was seen), a :class:`~heimlich_lab.games.secrets.population.SecretsPopulation` or
    a :class:`~heimlich_lab.games.secrets.model.SecretsModel`.

    ``diplomat_left`` is the prior probability that another player's Diplomat swaps with the left neighbour.
    """

    def __init__(self, players, observer: str | None = None, rules: SecretsRules | None = None, model=TYPES,
                 diplomat_left: float = 0.5):
        players = tuple(players)
        if isinstance(model, str):
            if model != TYPES:
                raise ModelError(f"model is {TYPES!r} (the default population), None (only what was seen) or a "
                                 f"player model, not {model!r}")
            from .population import default_population
            model = default_population()
        rules = SecretsRules() if rules is None else rules
        if observer is not None and observer not in players:
            raise ModelError(f"observer {observer!r} is not a player ({', '.join(players)})")
        if not 0.0 <= diplomat_left <= 1.0:
            raise ModelError(f"diplomat_left is a probability, not {diplomat_left!r}")
        self.players, self.observer, self.rules, self.model = players, observer, rules, model
        self.slots = players + (MIDDLE,)
        counts = tuple(rules.markers_for(len(players)).values())
        space = arrangement_space(self.slots, counts)
        p_team = getattr(model, "p_team", None)
        # with a population of types (or a rationality mixture: team or random), each player has a type for the
        # whole game: the players are the typed actors of the core's mixture, their type learned from all their
        # choices together
        if hasattr(model, "type_readings"):
            self.posterior = TypedPosterior(space, model.log_tables, model.type_names, actors=players,
                                            population_log_prior=model.log_table_prior,
                                            population_names=model.table_names)
        elif p_team is not None:
            self.posterior = TypedPosterior(space, [np.log(p_team), np.log1p(-p_team)], ("team", "random"),
                                            actors=players)
        else:
            self.posterior = Posterior(space)
        self.diplomat_left = diplomat_left
        self.seen = 0          # events of the view consumed so far
        self._context: dict = {}
        self._tableaux: dict[str, list[list]] = {p: [] for p in players}
        self._known: dict[str, frozenset[str]] = {p: frozenset() for p in players}

    # ------------------------------------------------------------------ construction
    @classmethod
    def for_game(cls, game, observer: str | None, model=TYPES, **options) -> "Belief":
        """A live belief for ``observer`` in ``game``, synced with their view (call :meth:`sync` as it goes)."""
        b = cls(game.players, observer, game.rules, model, **options)
        b.sync(game.view(observer))
        return b

    @classmethod
    def from_view(cls, view, model=TYPES, **options) -> "Belief":
        """A belief built from a view alone (what a bot holds)."""
        b = cls(view.players, view.viewer, view.rules, model, **options)
        b.sync(view)
        return b

    @classmethod
    def from_record(cls, record, observer: str | None = None, model=TYPES, **options) -> "Belief":
        """The observer's belief at the end of a (full) record, before the final reveal."""
        game = record.replay()
        return cls.for_game(game, observer, model, **options)

    # ------------------------------------------------------------------ following the view
    def sync(self, view) -> list[Update]:
        """Take in the events of ``view`` not seen yet; returns the updates made."""
        if view.viewer != self.observer or view.players != self.players:
            raise ModelError(f"this belief is {self.observer}'s in a game of {', '.join(self.players)}; "
                             f"the view is {view.viewer}'s of {', '.join(view.players)}")
        out = []
        for e in view.log_since(self.seen):
            rec = self.add(e)
            if rec is not None:
                out.append(rec)
        return out

    def add(self, e) -> Update | None:
        """Take in the next event of the observer's view log, as the observer saw it (the Secrets decision
        stream, read in order: a :class:`~heimlich_lab.inference.reader.DecisionReader`; :meth:`sync` reads a
        view's new events with it). Returns the update it made, or ``None``."""
        rec = self._read(e)
        self.seen += 1
        return rec

    def known_to(self, player: str) -> tuple[str, ...]:
        """The slots whose marker ``player`` has seen, in slot order, as far as the observer can tell from what
        everyone sees: ``player``'s looks (not what they saw), the public shows and others' Journalists, followed
        through the swaps (a marker that moves is known where it went); another player's Diplomat, whose side
        only they see, makes everyone forget the middle and the Diplomat's two neighbours (an approximation: a
        player who saw the middle knows it went to one of the two). What a
        :class:`~heimlich_lab.games.secrets.bots.TeamBot` decides by (its belief knows these markers and no other).

        >>> from heimlich_lab.games.secrets import Game
        >>> g = Game(["Ann", "Bob", "Cy", "Dee", "Eve"], chance="manual")
        >>> g.apply("deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA Eve=KGB middle=Hippie")
        >>> b = Belief.for_game(g, "Ann", model=None)
        >>> b.known_to("Cy")                # at 5 players each looks at their own and their right neighbour's
        ('Bob', 'Cy')
        >>> b.known_to("Zed")
        Traceback (most recent call last):
        ...
        heimlich_lab.errors.ModelError: unknown player 'Zed': players are Ann, Bob, Cy, Dee, Eve
        """
        if player not in self._known:
            raise ModelError(f"unknown player {player!r}: players are {', '.join(self.players)}")
        return tuple(s for s in self.slots if s in self._known[player])

    def _follow_knowledge(self, e) -> None:
        """Who knows which marker (:meth:`known_to`), after event ``e``."""
        k, known = e.kind, self._known
        if k == "look":
            known[e.player] = known[e.player] | {e.slot}
        elif k in ("show", "expose"):
            slot = e.slot if k == "show" else e.player
            for p in known:
                if k == "show" or p != e.player:
                    known[p] = known[p] | {slot}
        elif k == "swap":
            moved = {e.a: e.b, e.b: e.a}
            for p in known:
                known[p] = frozenset(moved.get(s, s) for s in known[p])
        elif k == "side":
            i, n = self.players.index(e.player), len(self.players)
            lost = {self.players[(i + 1) % n], self.players[(i - 1) % n], MIDDLE}
            for p in known:
                known[p] = known[p] - lost

    def _read(self, e) -> Update | None:
        k, post, me = e.kind, self.posterior, self.observer
        ctx = self._context
        self._follow_knowledge(e)
        if k in ("look", "show") and e.team is not None:
            who = "everyone" if k == "show" else ("you" if e.player == me else e.player)
            whose = ("your own" if e.slot == me and who == "you" else
                     "the middle" if e.slot == MIDDLE else f"{e.slot}'s")
            return post.condition({e.slot: e.team}, label=f"{who} saw {whose} marker: {e.team}")
        if k == "expose" and e.team is not None:
            return post.condition({e.player: e.team}, label=f"{e.player}'s marker was shown: {e.team}")
        typed = isinstance(post, TypedPosterior)
        merge = not typed                  # with player types, hypotheses keep their histories apart
        if k == "swap":
            return post.transition(swap(post.space, e.a, e.b), merge=merge,
                                   label=f"{e.cause.capitalize()}: the {e.a} and {e.b} markers swapped")
        if k == "side":
            if e.slot is not None:
                return post.transition(swap(post.space, e.slot, MIDDLE), merge=merge,
                                       label=f"Diplomat: you swapped the middle marker with {e.slot}'s")
            i = self.players.index(e.player)
            left, right = self.players[(i + 1) % len(self.players)], self.players[(i - 1) % len(self.players)]
            p = self.diplomat_left
            return post.transition([swap(post.space, left, MIDDLE), swap(post.space, right, MIDDLE)], [p, 1 - p],
                                   merge=merge, label=f"Diplomat: {e.player} swapped the middle marker with {left}'s "
                                                      f"or {right}'s (you did not see which)")
        if k == "turn":
            ctx.clear()
            ctx["tableaux"] = self._tableaux
        elif k == "candidates":
            ctx["candidates"] = e.cards
        elif k == "offer":
            ctx["offer"] = (e.player, e.target)
        rec = None
        if typed:
            rec = self._read_with_types(e, ctx)
        elif self.model is not None:
            ll, label = self.model.evidence(self, e, ctx)
            if ll is not None:
                rec = post.update(ll, label=label, actor=e.player)
        if k == "add":                     # the tableaux as they were before each choice, for the model
            self._tableaux[e.player].append([e.card, True])
        elif k == "flip":
            for card in e.cards:
                next(c for c in self._tableaux[e.player] if c[0] == card and c[1])[1] = False
        return rec

    def _read_with_types(self, e, ctx) -> Update | None:
        """Choices under the per-player mixture: each decider is read as a team player (the model's likelihood
        per arrangement) or a random one (one over the number of options), through the core's
        :class:`~heimlich_lab.inference.mixture.TypedPosterior`: the posterior is the prior times, per player,
        p·P(choices | team) + (1-p)·P(choices | random)."""
        if hasattr(self.model, "type_readings"):        # a population: log-likelihoods per type already
            typed = self.model.type_readings(self, e, ctx)
            if not typed:
                return None
            return self.posterior.update_types([(d, ll) for d, ll, _ in typed],
                                               label="; ".join(r[2] for r in typed), actor=e.player)
        reads = self.model.readings(self, e, ctx)
        if not reads:
            return None
        readings = []
        for decider, team_ll, n_options, _ in reads:
            ll = np.empty((2, len(team_ll)))
            ll[0], ll[1] = team_ll, -np.log(n_options)      # as a team player, as a random one
            readings.append((decider, ll))
        return self.posterior.update_types(readings, label="; ".join(r[3] for r in reads), actor=e.player)

    def type_probabilities(self, player: str) -> dict[str, float]:
        """With player types (a population, or ``SecretsModel(p_team=...)``): P(``player``'s type) by name."""
        if not isinstance(self.posterior, TypedPosterior):
            raise ModelError("this belief has no player types: use a population or model=SecretsModel(p_team=...)")
        return self.posterior.type_probabilities(player)

    def team_player_probability(self, player: str) -> float:
        """With player types: P(``player`` is not a random player) (a team player or, in a population, a
        bluffer too)."""
        if not isinstance(self.posterior, TypedPosterior):
            raise ModelError("this belief has no player types: use the default population or "
                             "model=SecretsModel(p_team=...)")
        p = self.type_probabilities(player)
        return 1.0 - p.get("random", 0.0)

    # ------------------------------------------------------------------ answers
    def identities(self) -> dict[str, dict[str, float]]:
        """Seat or ``"middle"`` -> {team: probability} (the observer's own seat included)."""
        m = self.posterior.marginals()
        return {s: {t: float(m[o, j]) for o, t in enumerate(TEAMS)} for j, s in enumerate(self.slots)}

    def probability(self, slot: str, team: str) -> float:
        """P(the marker on ``slot`` is ``team``)."""
        return self.posterior.probability({slot: team})

    def marginals(self) -> Marginals:
        """P(the marker on a slot is a team's), a :class:`~heimlich_lab.inference.core.Marginals` table: rows the
        teams, columns the seats and the middle (``m["CIA"]["Ann"]``; ``np.asarray(m)`` is (teams, slots))."""
        return Marginals(self.posterior.marginals()[: len(TEAMS)], TEAMS, self.slots)

    def explain_last(self) -> str:
        """The last change of the belief, in words."""
        if not self.posterior.history:
            return "Nothing seen yet: every arrangement of the markers is equally likely."
        u = self.posterior.history[-1]
        moved = u.largest_changes(1)
        if not moved or abs(moved[0].after - moved[0].before) < 1e-12:
            return f"{u.label}: nothing changed."
        c = moved[0]
        return f"{u.label}: P({c.slot} is {c.owner}) {c.before:.2f} -> {c.after:.2f}."

    def __repr__(self):
        who = self.observer or "spectator"
        return f"<Secrets belief of {who}: {len(self.posterior)} arrangements, {len(self.posterior.history)} updates>"
