"""Kinds of Secrets players: the population of types a belief reads each other player's choices through.

The first game's idea (:mod:`heimlich_lab.games.heimlich.inference.player_types`) in the second game: nobody at a
table plays like one fixed model, so each other player has an unknown *type*, fixed for the game, learned from
all their choices together, exactly, alongside the markers
(:class:`~heimlich_lab.inference.mixture.TypedPosterior` with the players as its actors; hidden swaps keep each
arrangement's history apart). The types (:class:`SecretsType`):

* ``random``: every option alike (what :class:`~heimlich_lab.bots.RandomBot` does);
* ``team``: a softmax at rationality ``beta`` of :func:`~heimlich_lab.games.secrets.model.decision_utilities`,
  with a share ``epsilon`` of uniformly random choices, the decider read as knowing the teams of the arrangement
  (``knows="all"``), only its own marker (``"own"``) or the markers it has seen (``"seen"``: the utilities
  expected over the arrangements that agree with what it saw, which is what a
  :class:`~heimlich_lab.games.secrets.bots.TeamBot` maximizes; the default population's team players);
* ``bluff``: a team player who, with probability ``bluff`` per choice, plays as if its teammates were its rivals
  (:class:`~heimlich_lab.games.secrets.bots.BluffBot`).

A :class:`SecretsPopulation` weighs the types; players at one table tend to be alike, so its prior may be a
table (kinds of table x types), and which kind of table this is is learned from every player's choices at once:
a table of random players is soon read as one, and its choices stop moving the belief. The default population
(:func:`default_population`) is what :class:`~heimlich_lab.games.secrets.Belief` reads choices through by
default; ``model=None`` reads nothing but what was seen (looks, shows, swaps).

>>> from heimlich_lab.games.secrets import Belief, Game
>>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
>>> for a in ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal scientist", "reveal detective",
...           "offer scientist Dee", "accept"]:
...     g.apply(a)
>>> b = Belief.for_game(g, "Bob", model=default_population())
>>> b.probability("Dee", "CIA") > b.probability("Cy", "CIA")    # Ann gave Dee +5: likely teammates
True
>>> sorted(b.type_probabilities("Ann"), key=b.type_probabilities("Ann").get)[-1]
'random'
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...errors import ModelError
from ...inference.core import log_sum_exp
from ...inference.mixture import population_tables
from .belief import arrangement_space
from .model import DECISIONS, choices, is_real_number
from .rules import MIDDLE

__all__ = ["KINDS", "KNOWS", "SecretsPopulation", "SecretsType", "default_population", "known_utilities"]

#: The kinds of player a type can be.
KINDS = ("random", "team", "bluff")
#: What a type's decider is read as knowing of the markers (see :class:`SecretsType`).
KNOWS = ("all", "own", "seen")


@dataclass(frozen=True)
class SecretsType:
    """One kind of Secrets player: ``kind`` in :data:`KINDS`, its rationality ``beta``, its share of uniformly
    random choices ``epsilon`` and, for a bluffer, its share of bluffs ``bluff``. ``knows``: ``"all"``, the
    decider is read as if it knew the teams of the arrangement; ``"own"``, as if it knew only its own marker
    (its utilities averaged over the arrangements that agree on it: it cannot aim at a teammate it does not know);
    ``"seen"``, as if it knew the markers it has seen and no other
    (:meth:`~heimlich_lab.games.secrets.Belief.known_to`: its looks, the shows, others' Journalists, followed
    through the swaps): its utilities averaged over the arrangements that agree on those, which is the expected
    utility a :class:`~heimlich_lab.games.secrets.bots.TeamBot` maximizes (its seen-only belief is uniform over
    them). A ``team`` type that knows what it has seen, at a high ``beta`` and a small ``epsilon``, is a TeamBot's
    own rule with a little noise (a TeamBot breaks ties at random: the softmax's limit).

    >>> SecretsType("team", beta=0.5).name
    'team (β=0.5)'
    >>> SecretsType("team", beta=-1)
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: SecretsType beta must be a finite number >= 0, not -1
    """

    kind: str
    beta: float = 1.0
    epsilon: float = 0.1
    bluff: float = 0.3
    knows: str = "all"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ModelError(f"SecretsType kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if not is_real_number(self.beta) or not (math.isfinite(self.beta) and self.beta >= 0):
            raise ModelError(f"SecretsType beta must be a finite number >= 0, not {self.beta!r}")
        for what in ("epsilon", "bluff"):
            x = getattr(self, what)
            if not is_real_number(x) or not 0 <= x <= 1:
                raise ModelError(f"SecretsType {what} must be a probability in [0, 1], not {x!r}")
        if self.knows not in KNOWS:
            raise ModelError(f"SecretsType knows must be one of {', '.join(map(repr, KNOWS))}, not {self.knows!r}")

    @property
    def name(self) -> str:
        if self.kind == "random":
            return "random"
        name = f"{self.kind} (β={self.beta:g}" + (")" if self.kind == "team" else f", {self.bluff:g})")
        return name if self.knows == "all" else name[:-1] + f", knows {self.knows})"

    def log_likelihood(self, choice, team_u: np.ndarray, pretend_u: np.ndarray | None) -> np.ndarray:
        """log P(the choice | arrangement) (H,) for this type, from the decision's utilities (hypotheses x
        options) and, for a bluffer, the bluff's."""
        n = team_u.shape[1]
        if self.kind == "random":
            return np.full(team_u.shape[0], -math.log(n))
        if self.knows != "all":
            team_u = known_utilities(choice, False, self.knows)
            pretend_u = None if pretend_u is None else known_utilities(choice, True, self.knows)
        ll = _softmax_choice(team_u, choice.chosen, self.beta, self.epsilon)
        if self.kind == "bluff" and self.bluff > 0:
            assert pretend_u is not None
            bluffed = _softmax_choice(pretend_u, choice.chosen, self.beta, self.epsilon)
            ll = np.logaddexp(np.log1p(-self.bluff) + ll if self.bluff < 1 else -np.inf,
                              math.log(self.bluff) + bluffed)
        return ll


def known_utilities(choice, pretend: bool, knows: str) -> np.ndarray:
    """The decision's utilities (hypotheses x options), per hypothesis averaged over every arrangement of the
    markers that agrees with it on the slots the decider knows (all alike): ``knows="own"``, its own seat;
    ``"seen"``, the slots it has seen (``choice.known``). What a decider who knows only those expects.
    Kept on the choice (``choice.cache``): every type that knows as much reads the same table.

    >>> from heimlich_lab.games.secrets import Belief, Game
    >>> g = Game(["Ann", "Bob", "Cy", "Dee"], chance="manual")
    >>> for a in ["deal Ann=CIA Bob=KGB Cy=Hippie Dee=CIA middle=KGB", "reveal scientist", "reveal detective",
    ...           "offer scientist Dee", "accept"]:
    ...     g.apply(a)
    >>> read = {k: Belief.for_game(g, "Bob", model=SecretsPopulation([SecretsType("team", 2.0, knows=k)]))
    ...         for k in KNOWS}
    >>> read["seen"].known_to("Ann")     # at 4 players each has seen only their own marker: "seen" is "own"
    ('Ann',)
    >>> read["seen"].identities() == read["own"].identities() != read["all"].identities()
    True
    """
    key = (pretend, knows)
    if key in choice.cache:
        return choice.cache[key]
    known = (choice.decider,) if knows == "own" else choice.known
    counts = tuple(int((choice.table[0] == t).sum()) for t in range(3))
    slots = choice.players + (MIDDLE,)
    full = arrangement_space(slots, counts).table
    u = choice.utilities(pretend, table=full)
    cols = [slots.index(s) for s in known]
    place = 3 ** np.arange(len(cols))
    groups, key_full = np.unique(full[:, cols] @ place, return_inverse=True)
    sums = np.zeros((len(groups), u.shape[1]))
    np.add.at(sums, key_full, u)
    means = sums / np.bincount(key_full, minlength=len(groups))[:, None]
    out = means[np.searchsorted(groups, choice.table[:, cols] @ place)]
    choice.cache[key] = out
    return out


def _softmax_choice(u: np.ndarray, chosen: int, beta: float, epsilon: float) -> np.ndarray:
    """log of (1 - epsilon) softmax(beta u)[chosen] + epsilon / n, per row of ``u`` (hypotheses x options)."""
    z = beta * u
    soft = z[:, chosen] - log_sum_exp(z, 1)
    n = u.shape[1]
    if epsilon == 0:
        return soft
    if epsilon == 1:
        return np.full(u.shape[0], -math.log(n))
    return np.logaddexp(math.log1p(-epsilon) + soft, math.log(epsilon / n))


class SecretsPopulation:
    """Types and their prior weights: a player model for :class:`~heimlich_lab.games.secrets.Belief` that learns
    each other player's type (see the module doc).

    ``prior``: one weight per type (default uniform), or a table (kinds of table x types) with ``table_names``
    and ``table_prior`` (default uniform): the players' types are then independent given the kind of table,
    which the belief learns too. ``reads``: the kinds of decision read (default all of
    :data:`~heimlich_lab.games.secrets.model.DECISIONS`).

    >>> pop = SecretsPopulation([SecretsType("random"), SecretsType("team")], [0.3, 0.7])
    >>> pop.type_names, pop.table_names
    (('random', 'team (β=1)'), ('any table',))
    >>> SecretsPopulation([SecretsType("random")], [-1])        # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.ModelError: prior must be 1 non-negative weights, one per type (or one such row ...
    """

    def __init__(self, types, prior=None, *, table_names=None, table_prior=None, reads=DECISIONS):
        types = tuple(types)
        reads = tuple(reads)
        if not reads or not set(reads) <= set(DECISIONS):
            raise ModelError(f"reads must be kinds of decision among {', '.join(DECISIONS)}, not {reads!r}")
        #: the kinds of decision read (:data:`~heimlich_lab.games.secrets.model.DECISIONS`); the others tell nothing
        self.reads = reads
        if not types or not all(isinstance(t, SecretsType) for t in types):
            raise ModelError("a population needs at least one SecretsType")
        names = tuple(t.name for t in types)
        self.tables, self.table_prior, tnames = population_tables(names, prior, table_prior, table_names)
        self.types, self.type_names, self.table_names = types, names, tnames
        #: the marginal prior weight of each type
        self.prior = self.table_prior @ self.tables
        for a in (self.tables, self.table_prior, self.prior):
            a.setflags(write=False)
        self._bluffs = any(t.kind == "bluff" and t.bluff > 0 for t in types)

    def __repr__(self):
        return f"SecretsPopulation({', '.join(self.type_names)}; tables: {', '.join(self.table_names)})"

    @property
    def log_tables(self) -> np.ndarray:
        """log of the prior table (kinds of table x types)."""
        with np.errstate(divide="ignore"):
            return np.log(self.tables)

    @property
    def log_table_prior(self) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(self.table_prior)

    def type_readings(self, belief, e, ctx) -> list[tuple[str, np.ndarray, str]]:
        """The choices event ``e`` shows (:func:`~heimlich_lab.games.secrets.model.choices`), each as
        ``(decider, log P(choice | type, arrangement) (types x arrangements), label)``."""
        out = []
        for c in choices(belief, e, ctx):
            if c.kind not in self.reads:
                continue
            team_u = c.utilities()
            pretend_u = c.utilities(pretend=True) if self._bluffs else None
            ll = np.stack([t.log_likelihood(c, team_u, pretend_u) for t in self.types])
            out.append((c.decider, ll, c.label))
        return out


#: The default population's types: random; team players read by a TeamBot's own rule (they know the markers they
#: have seen, ``knows="seen"``), a softer (β 2) and a sharper one (β 8), each with 10% random choices; a bluffer of
#: that kind (β 4) who plays as if its teammates were its rivals 30% of the time (a BluffBot's share).
DEFAULT_TYPES = (SecretsType("random"), SecretsType("team", 2.0, 0.1, knows="seen"),
                 SecretsType("team", 8.0, 0.1, knows="seen"), SecretsType("bluff", 4.0, 0.1, 0.3, knows="seen"))
#: The default kinds of table: (name, prior weight, weights of the types above). Players at one table tend to be
#: alike, and which kind of table this is is learnt from every player's choices at once. Tuned on seeds
#: 1000-1059 and 2000-2059 of ``evaluate_tables`` (BENCHMARKS.md, issue 26 item 5).
DEFAULT_TABLES = (("a mixed table", 0.1, (0.6, 0.13, 0.13, 0.14)),
                  ("random players", 0.5, (0.97, 0.01, 0.01, 0.01)),
                  ("team players", 0.2, (0.01, 0.33, 0.33, 0.33)),
                  ("bluffers", 0.2, (0.01, 0.15, 0.15, 0.69)))


@lru_cache(maxsize=1)
def default_population() -> SecretsPopulation:
    """The kit's Secrets population (:data:`DEFAULT_TYPES` on the kinds of table :data:`DEFAULT_TABLES`), the
    default :class:`~heimlich_lab.games.secrets.Belief`'s (one shared, read-only object).

    >>> pop = default_population()
    >>> pop.table_names
    ('a mixed table', 'random players', 'team players', 'bluffers')
    >>> round(float(pop.prior.sum()), 6)
    1.0
    """
    return SecretsPopulation(DEFAULT_TYPES, [t[2] for t in DEFAULT_TABLES], table_names=[t[0] for t in DEFAULT_TABLES],
                             table_prior=[t[1] for t in DEFAULT_TABLES])
