"""Which suitcase holds what: each player's exact posterior over every opponent's 24 ways to fill A-D.

Per opponent the hypotheses are the 24 fillings of A-D with 5, 3, 1 and the bomb, each with the opponent's
player type (:mod:`~heimlich_lab.games.topsecret1985.model`): a table of ``types x 24`` log weights, learned from

* every decision of the **owner** (where they place their suitcases, where they send their agents, which
  suitcase they pick up, carry, leave or drop): :func:`~heimlich_lab.games.topsecret1985.model.decision_table`
  prices the options under every filling and type;
* every **delivery**, which shows one content to everyone: the fillings that disagree are ruled out.

Decisions of players who do not know a suitcase's contents carry no evidence about it, so an opponent's table
moves only with that opponent's own decisions and the deliveries of their suitcases. What the owner's decisions
depend on is public (the board, where things are, what was delivered), so every player who is not the owner holds
the *same* posterior about them: one pass over a game serves every observer (:meth:`Belief.for_all`).

>>> from heimlich_lab.games.topsecret1985 import play, make_bot
>>> rec = play([make_bot("careful", seed=s) for s in range(3)], seed=11)
>>> b = Belief.from_record(rec, "Ann")
>>> sorted(b.contents())
['Bob', 'Cy']
>>> table = b.contents()["Bob"]
>>> all(abs(sum(table[L].values()) - 1) < 1e-9 for L in "ABCD")
True
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...engine.contract import CHANCE
from ...errors import ModelError
from ...inference.core import Marginals, logsumexp
from .actions import Action
from .game import Game
from .map import LETTERS
from .model import CONTENT_INDEX, FILLING_CONTENT, FILLINGS, INFORMATIVE, DecisionTable, Population, decision_table
from .rules import CONTENTS
from .transcript import describe

__all__ = ["Belief", "Evidence", "Reader", "read_game"]

_LOG_24 = np.log(len(FILLINGS))


@dataclass(frozen=True)
class Evidence:
    """One update of the belief about ``player``: in words, and how far it moved the belief (``kl``, in bits)."""

    player: str
    words: str
    kl: float
    ratio: float

    def __str__(self) -> str:
        return self.words


class Belief:
    """``observer``'s belief about the contents of every opponent's suitcases (``observer=None``: a spectator's,
    about everyone's). Build it with :meth:`from_record` or :meth:`for_all`; read it with :meth:`contents`,
    :meth:`marginals`, :meth:`fillings` and :meth:`types`."""

    def __init__(self, players: Iterable[str], observer: str | None = None, model: Population | None = None):
        self.players = tuple(players)
        if observer is not None and observer not in self.players:
            raise ModelError(f"{observer!r} does not play here; the players are {', '.join(self.players)}")
        if model is not None and not isinstance(model, Population):
            raise ModelError(f"model must be a topsecret1985 Population, not {type(model).__name__}")
        self.observer = observer
        self.model = Population.default() if model is None else model
        start = np.log(self.model.prior)[:, None] - _LOG_24 + np.zeros((1, len(FILLINGS)))
        #: Per opponent, the normalised log weights of the (player type, filling) table, shape (types, 24).
        self.tables = {p: start.copy() for p in self.players if p != observer}
        #: The updates so far, oldest first.
        self.evidence: list[Evidence] = []

    # ------------------------------------------------------------------ building
    @classmethod
    def from_record(cls, record: Any, observer: str | None, model: Population | None = None) -> Belief:
        """``observer``'s belief at the end of ``record`` (a full record, or one exported for ``observer``)."""
        return cls.for_all(record, model, observers=(observer,))[observer]

    @classmethod
    def for_all(cls, record: Any, model: Population | None = None,
                observers: Iterable[str | None] | None = None) -> dict[str | None, Belief]:
        """Every player's belief at the end of ``record`` (and a spectator's, key ``None``), from one pass."""
        wanted = tuple(record.players) + (None,) if observers is None else tuple(observers)
        for o in wanted:
            if o is not None and o not in record.players:
                raise ModelError(f"{o!r} does not play in this record; the players are {', '.join(record.players)}")
        public = cls(record.players, None, model)
        read_game(public, record)
        out = {}
        for o in wanted:
            b = cls(record.players, o, public.model)
            for p in b.tables:
                b.tables[p] = public.tables[p].copy()
            b.evidence = [e for e in public.evidence if e.player != o]
            out[o] = b
        return out

    # ------------------------------------------------------------------ updating
    def observe(self, table: DecisionTable, chosen: Action | str, words: str | None = None) -> Evidence | None:
        """Take in ``table.player``'s choice of ``chosen`` (an Action or its notation) among the table's options."""
        p = table.player
        if p not in self.tables:
            return None                # the observer's own decision: they know their own contents
        loglik = self.model.log_likelihoods(table, table.index(chosen))
        return self._update(p, loglik, words or f"{p}: {chosen}")

    def reveal(self, player: str, letter: str, content: str, words: str | None = None) -> Evidence | None:
        """A delivery showed that ``player``'s suitcase ``letter`` holds ``content``."""
        if player not in self.players or letter not in LETTERS or content not in CONTENTS:
            raise ModelError(f"cannot reveal {player}:{letter} = {content}")
        if player not in self.tables:
            return None
        agree = FILLING_CONTENT[:, LETTERS.index(letter)] == CONTENT_INDEX[content]
        loglik = np.where(agree, 0.0, -np.inf)[None, :] + np.zeros((len(self.model.types), 1))
        return self._update(player, loglik, words or f"{player}'s suitcase {letter} held {content}")

    def _update(self, player: str, loglik: np.ndarray, words: str) -> Evidence:
        before = self._filling_probabilities(player)
        new = self.tables[player] + loglik
        top = new.max()
        total = top + np.log(np.exp(new - top).sum()) if np.isfinite(top) else -np.inf
        if not np.isfinite(total):
            raise ModelError(f"{words}: this rules out every filling of {player}'s suitcases (a record that "
                             "contradicts itself?)")
        self.tables[player] = new - total
        after = self._filling_probabilities(player)
        with np.errstate(divide="ignore", invalid="ignore"):
            kl = float(np.sum(np.where(after > 0, after * np.log2(after / before), 0.0)))
        spread = loglik.max() - loglik[np.isfinite(loglik)].min() if np.isfinite(loglik).any() else 0.0
        ev = Evidence(player, words, kl, float(np.exp(min(spread, 700))))
        self.evidence.append(ev)
        return ev

    # ------------------------------------------------------------------ reading
    def _filling_probabilities(self, player: str) -> np.ndarray:
        p: np.ndarray = np.exp(self.tables[player]).sum(axis=0)     # the table is kept normalised
        p /= p.sum()
        return p

    def _check(self, player: str) -> None:
        if player not in self.tables:
            raise ModelError(f"{player!r} is not an opponent of this belief's observer ({self.observer}); the "
                             f"opponents are {', '.join(self.tables)}")

    def fillings(self, player: str) -> pd.Series:
        """P(filling) of ``player``'s suitcases, indexed by fillings like ``"A=5 B=3 C=1 D=bomb"``."""
        self._check(player)
        names = [" ".join(f"{L}={c}" for L, c in zip(LETTERS, f)) for f in FILLINGS]
        return pd.Series(self._filling_probabilities(player), index=names, name=player)

    def marginals(self, player: str) -> Marginals:
        """P(content) of each of ``player``'s suitcases: rows A-D, columns 5, 3, 1, bomb."""
        self._check(player)
        pf = self._filling_probabilities(player)
        table = np.zeros((len(LETTERS), len(CONTENTS)))
        for L in range(len(LETTERS)):
            np.add.at(table[L], FILLING_CONTENT[:, L], pf)
        return Marginals(table, LETTERS, CONTENTS)

    def contents(self) -> dict[str, dict[str, dict[str, float]]]:
        """``{opponent: {"A": {"5": p, "3": p, "1": p, "bomb": p}, ...}}``."""
        return {p: self.marginals(p).to_dict() for p in self.tables}

    def types(self, player: str) -> dict[str, float]:
        """P(player type) of ``player``."""
        self._check(player)
        w = self.tables[player]
        pk = np.exp(logsumexp(w, axis=1) - logsumexp(w))
        return dict(zip(self.model.names(), pk.tolist()))

    def last_evidence(self, player: str | None = None) -> Evidence | None:
        """The latest update (about ``player``), for a panel's headline."""
        for ev in reversed(self.evidence):
            if player is None or ev.player == player:
                return ev
        return None

    def __repr__(self) -> str:
        who = "a spectator" if self.observer is None else self.observer
        return f"<Top Secret belief of {who} about {', '.join(self.tables)}>"

    def _repr_html_(self) -> str:
        parts = [f"<h4>{p}</h4>" + self.marginals(p).table.to_html(float_format="{:.3f}".format) for p in self.tables]
        return "".join(parts)


class Reader:
    """Feeds ``belief`` a game's decisions and deliveries as the game goes: :meth:`apply` applies one action to the
    game and takes in what its observer saw of it (:func:`read_game` replays a record through it; a live table
    applies its players' actions through it). What reaches the belief is what :func:`read_game` says.

    >>> from heimlich_lab.games.topsecret1985 import Game
    >>> g = Game(["Ann", "Bob"], chance="manual")
    >>> r = Reader(Belief(g.players, None), g.players)
    >>> for a in ["first Ann", "contents A=5 B=3 C=1 D=bomb", "contents A=bomb B=1 C=3 D=5", "place A rome"]:
    ...     r.apply(g, a, None if a.startswith("first") else g.current_player)
    >>> str(r.belief.evidence[-1])
    'Ann puts suitcase Ann:A in Rome.'
    """

    def __init__(self, belief: Belief, players: Iterable[str]):
        self.belief = belief
        self._shown = {p: 0 for p in players}

    def apply(self, game: Any, action: Action | str, actor: Any) -> None:
        """Apply ``action`` (an Action or its notation) for ``actor`` (a player, or ``None``/``CHANCE`` for chance)
        to ``game``; a refused action raises the game's error and teaches the belief nothing."""
        belief = self.belief
        act = Action.parse(action) if isinstance(action, str) else action
        chance = actor is None or actor == CHANCE
        table = None
        if not chance and act.kind in INFORMATIVE and actor in belief.tables:
            view = game.view(belief.observer)
            table = decision_table(view, game.legal_actions())
        game.apply(act, player=None if chance else actor)
        if table is not None:
            # the evidence in the transcript's words: the first thing the decision did, as the observer saw it
            said = (describe(e, game.map) for e in game.view(belief.observer).log_since(len(view)))
            belief.observe(table, act, next((line for line in said if line), f"{actor}: {act}"))
        for courier, done in game.delivered.items():     # deliveries show contents to everyone
            for suitcase, content in done[self._shown[courier]:]:
                owner, _, letter = suitcase.rpartition(":")
                belief.reveal(owner, letter, content,
                              f"{courier} brought {owner}'s suitcase {letter} home: it held {content}")
            self._shown[courier] = len(done)


def read_game(belief: Belief, record: Any, after_entry: Callable[[int, Any], None] | None = None) -> Belief:
    """Replay the full ``record`` and feed ``belief`` every decision and delivery, as its observer sees them:
    the observer's view at each decision, the legal actions (public: no rule depends on a hidden content) and
    the deliveries (public). Nothing else of the replayed game reaches the belief. ``after_entry(k, game)`` is
    called after the log's entry ``k`` is taken in (to read the belief as the game goes)."""
    if not getattr(record, "is_full", True):
        raise ModelError("a belief reads a full record (what it takes from it is what its observer saw); this "
                         f"one is a {record.view} record")
    # chance is applied from the log, as recorded (a game with automatic chance would draw it from the seed)
    game = Game(record.players, seed=record.seed, chance="manual", rules=record.rules, map=record.map)
    reader = Reader(belief, record.players)
    for k, (actor, text) in enumerate(record.log):
        reader.apply(game, text, actor)
        if after_entry is not None:
            after_entry(k, game)
    return belief
