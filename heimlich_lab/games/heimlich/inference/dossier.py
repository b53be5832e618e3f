"""The automated Secret Dossier: the rulebook's notes, and the best sheet to write.

The 2002 rulebook asks every player to note, during the game:

* who moved which agent **to** the ruins, and **from** the ruins;
* who did **not** move an agent to the ruins when they could;
* who **supports** which agent (the movement points they give it);
* who **created** which scoring situation and which agents **profited**;
* who **could have** created a scoring situation but did not.

:func:`dossier_notes` writes these notes from one observer's information (the
public history; nothing secret is needed). At the dossier mark (a marker at
29) every player writes, for each agent but their own, an opponent's name or
"free"; each correct entry earns 5 spaces. :func:`secret_dossier` writes the
sheet that maximises the expected number of correct entries under a belief
(per agent, its most probable owner), and :func:`best_matching_sheet` the best
sheet naming each opponent exactly once (an assignment problem).

>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> from heimlich_lab.games.heimlich.inference.belief import Belief, PushModel
>>> rec = play(Rules(), {"Ann": RandomBot(1), "Bob": RandomBot(2), "Cy": RandomBot(3)}, seed=3)
>>> notes = dossier_notes(rec, "Ann", until="dossier")
>>> sorted({n.kind for n in notes}) <= sorted(NOTE_KINDS)
True
>>> b = Belief.from_record(rec, "Ann", model=PushModel(0.4), until="dossier")
>>> sheet = secret_dossier(b)
>>> sorted(sheet) == sorted(c for c in b.agents if c not in b.own_agents)
True
>>> expected_correct(b, sheet) >= best_matching_sheet(b)[1] - 1e-12
True
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment

from ....engine.words import count
from ....errors import ModelError
from ....inference.core import FREE_LABEL
from ..rules.actions import DECISION_KINDS
from ..rules.board import RUINS, building_after, building_name, clockwise_distance
from ..rules.replay import Decision, public_decisions

__all__ = ["NOTE_KINDS", "DossierNote", "DossierNoteWriter", "DossierNotes", "dossier_notes", "secret_dossier",
           "expected_correct", "best_matching_sheet", "sheet_marginals"]

#: Kinds of notes, in the rulebook's order.
NOTE_KINDS = ("from_ruins", "to_ruins", "ruins_declined", "support", "scoring", "scoring_declined")


@dataclass(frozen=True)
class DossierNote:
    """One note: ``kind`` (see :data:`NOTE_KINDS`), the player it is about, the agents it concerns,
    the turn and log entry, the sentence ``text`` and the facts in ``data``."""

    kind: str
    player: str
    agents: tuple[str, ...]
    text: str
    turn: int | None = None
    index: int | None = None
    data: dict = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return self.text


class DossierNotes(list):
    """A list of :class:`DossierNote` with groupings."""

    def by_agent(self) -> dict[str, list[DossierNote]]:
        """Agent colour -> the notes that concern it (a note may concern several agents)."""
        out: dict[str, list[DossierNote]] = {}
        for n in self:
            for a in n.agents:
                out.setdefault(a, []).append(n)
        return out

    def by_player(self) -> dict[str, list[DossierNote]]:
        out: dict[str, list[DossierNote]] = {}
        for n in self:
            out.setdefault(n.player, []).append(n)
        return out

    def of_kind(self, kind: str) -> DossierNotes:
        return DossierNotes(n for n in self if n.kind == kind)

    def text(self) -> str:
        """All notes, one per line."""
        return "\n".join(n.text for n in self)


def _join(xs) -> str:
    xs = list(xs)
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def dossier_notes(source, observer: str | None, until=None, *, include_own: bool = False) -> DossierNotes:
    """The rulebook's dossier notes from ``observer``'s information.

    ``source``: a :class:`~heimlich_lab.Game` (its ``view(observer)``), a
    full record, or a record the observer may read (``public``, or
    ``player:OBSERVER``). ``until``: ``None``, ``"dossier"`` (up to the
    dossier mark) or a number of log entries. Notes about the observer's own
    decisions are left out unless ``include_own``. Support notes (points
    given per agent) come last, one per player.
    """
    writer = DossierNoteWriter(observer, include_own=include_own)
    for decision in public_decisions(source, observer, until):
        writer.add(decision)
    return writer.notes()


class DossierNoteWriter:
    """Writes :func:`dossier_notes` one decision at a time, so a live game's notes grow without a replay.

    Feed it the decisions of :func:`~heimlich_lab.games.heimlich.rules.replay.public_decisions`
    or of a :class:`~heimlich_lab.games.heimlich.rules.replay.DecisionStream` for the same
    ``observer``; :meth:`notes` gives the notes so far.

    >>> from heimlich_lab import Game
    >>> from heimlich_lab.bots import RandomBot
    >>> from heimlich_lab.games.heimlich.rules.replay import DecisionStream
    >>> g = Game(["Ann", "Bob", "Cy"], seed=3)
    >>> stream, writer = DecisionStream(g, "Ann"), DossierNoteWriter("Ann")
    >>> bots = {p: RandomBot(i) for i, p in enumerate(g.players)}
    >>> while not g.is_over:
    ...     p = g.current_player
    ...     g.apply(bots[p].choose(g.view(p), g.legal_actions()))
    ...     for d in stream.new():
    ...         writer.add(d)
    >>> writer.notes() == dossier_notes(g, "Ann")
    True
    """

    def __init__(self, observer: str | None, include_own: bool = False):
        self.observer, self.include_own = observer, include_own
        self._notes = DossierNotes()
        self._support: dict[str, dict[str, int]] = {}
        self._creator: dict[str, str] = {}  # agent at the safe with a pending trigger -> who put it there

    def notes(self) -> DossierNotes:
        """The notes so far; the support notes (points given per agent) last, one per player."""
        notes = DossierNotes(self._notes)
        for who, given in self._support.items():
            total = sum(given.values())
            ranked = sorted(given.items(), key=lambda kv: -kv[1])
            text = f"{who} supports " + ", ".join(f"{a} ({n} of {total} points)" for a, n in ranked)
            notes.append(DossierNote("support", who, tuple(a for a, _ in ranked), text, None, None,
                                     {"points": dict(ranked), "total": total}))
        return notes

    def add(self, item: Decision) -> None:
        """Note what one decision (as the observer saw it) shows."""
        observer, include_own = self.observer, self.include_own
        notes, support, creator = self._notes, self._support, self._creator
        actor, act, view = item.actor, item.action, item.view
        mine = actor == observer and not include_own
        events = item.events if (act.kind in DECISION_KINDS) else []
        if not mine and view is not None and act.kind == "move":
            pos, safe, pts = view.positions, view.safe, view.points
            steps = dict(act.args)
            moves = {c: (pos[c], building_after(pos[c], n)) for c, n in steps.items()}
            given = support.setdefault(actor, {})
            for c, n in steps.items():
                given[c] = given.get(c, 0) + n
            _ruins_notes(notes, item, actor, moves)
            reach_ruins = [c for c in view.agents if pos[c] != RUINS and 1 <= clockwise_distance(pos[c], RUINS) <= pts]
            if reach_ruins and not any(to == RUINS for _, to in moves.values()):
                notes.append(DossierNote(
                    "ruins_declined", actor, tuple(reach_ruins),
                    f"Turn {item.turn}: {actor} could have moved {_join(reach_ruins)} to the ruins "
                    f"({count(pts, 'point')}) and did not", item.turn, item.index, {"points": pts}))
            reach_safe = [c for c in view.agents if 1 <= clockwise_distance(pos[c], safe) <= pts]
            made = [c for c, (_, to) in moves.items() if to == safe]
            if reach_safe and not made:
                notes.append(DossierNote(
                    "scoring_declined", actor, tuple(reach_safe),
                    f"Turn {item.turn}: {actor} could have created a scoring (moving {_join(reach_safe)} to the "
                    f"safe on {building_name(safe)}) and did not", item.turn, item.index,
                    {"points": pts, "safe": safe}))
        elif not mine and act.kind == "play":
            for ev in events:
                if ev.kind == "play":
                    _ruins_notes(notes, item, actor, ev.data.get("moves") or {}, card=act.args[0])
        for ev in events:
            d = ev.data
            if ev.kind in ("move", "play"):
                moves = d.get("moves") or {}
                for a in moves:
                    if a in creator and a not in (d.get("triggers") or []):
                        creator.pop(a, None)
                for a in d.get("triggers") or []:
                    if a in moves:
                        creator[a] = actor
                if "safe" in d:  # placesafe: every trigger cancelled
                    creator.clear()
            elif ev.kind == "safe":
                creator.clear()
            elif ev.kind == "score":
                by_maker: dict[str, list[str]] = {}
                for a in d.get("triggers") or []:
                    by_maker.setdefault(creator.get(a, d.get("player")), []).append(a)
                gains = d.get("gains") or {}
                won = {a: g for a, g in sorted(gains.items(), key=lambda kv: -kv[1]) if g > 0}
                lost = {a: g for a, g in gains.items() if g < 0}
                for who, trig in by_maker.items():
                    if who == observer and not include_own:
                        continue
                    text = (f"Turn {item.turn}: {who} created a scoring ({_join(trig)} at the safe); profited: "
                            + (", ".join(f"{a} +{g}" for a, g in won.items()) or "nobody"))
                    if lost:
                        text += "; lost: " + ", ".join(f"{a} {g}" for a, g in lost.items())
                    notes.append(DossierNote("scoring", who, tuple(won), text, item.turn, item.index,
                                             {"triggers": list(trig), "gains": dict(gains)}))
                creator.clear()


def _ruins_notes(notes, item, actor, moves, card: str | None = None) -> None:
    how = f" (card {card})" if card else ""
    to_r = [c for c, (frm, to) in moves.items() if to == RUINS and frm != RUINS]
    from_r = [c for c, (frm, to) in moves.items() if frm == RUINS and to != RUINS]
    if to_r:
        notes.append(DossierNote("to_ruins", actor, tuple(to_r),
                                 f"Turn {item.turn}: {actor} moved {_join(to_r)} to the ruins{how}",
                                 item.turn, item.index, {"card": card}))
    if from_r:
        dest = {c: building_name(moves[c][1]) for c in from_r}
        notes.append(DossierNote("from_ruins", actor, tuple(from_r),
                                 f"Turn {item.turn}: {actor} moved "
                                 + _join([f"{c} from the ruins to {dest[c]}" for c in from_r]) + how,
                                 item.turn, item.index, {"card": card}))


# =========================================================================== the sheet


def sheet_marginals(belief) -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...], str | None, tuple[str, ...]]:
    """``(marginals, players, agents, observer, own_agents)`` of a belief; columns rescaled to sum to 1.

    Works with :class:`~heimlich_lab.games.heimlich.inference.belief.Belief` and the
    baselines (any object with ``marginals_array()``, ``players``, ``agents``,
    ``observer`` and ``own_agents``).
    """
    try:
        m = np.array(belief.marginals_array(), dtype=float)
        players, agents = tuple(belief.players), tuple(belief.agents)
        observer, own = belief.observer, tuple(belief.own_agents)
    except AttributeError as e:
        raise ModelError(f"expected a belief (with marginals_array, players, agents, observer, own_agents): {e}") \
            from None
    if m.shape != (len(players) + 1, len(agents)):
        raise ModelError(f"marginals have shape {m.shape}, expected {(len(players) + 1, len(agents))}")
    col = m.sum(axis=0, keepdims=True)
    m = np.divide(m, col, out=np.zeros_like(m), where=col > 0)
    return m, players, agents, observer, own


def _entry_rows(players, observer) -> list[int]:
    """Rows a sheet may name: the opponents, then free."""
    return [i for i, p in enumerate(players) if p != observer] + [len(players)]


def secret_dossier(belief) -> dict[str, str]:
    """The sheet maximising the expected number of correct entries: per agent (not the observer's
    own), its most probable owner among the opponents and "free" (the first on ties).

    Entries are independent in the sum of expected correct entries, so the
    per-agent argmax is optimal (a name may be written more than once).

    The sheet is scored at the end against the *final* owners: a player who
    then holds two agents keeps only the farther one, the other counts as
    "free" (docs/rules.md#second-agent). At the dossier mark that future is unknown, so this
    uses the belief's marginals of control *at the mark* as an approximation:
    an agent the belief gives to a two-agent player is scored as that
    player's, though it may end up "free" if it is the nearer one. With one
    agent per player (no second-agent take) the two coincide.
    """
    m, players, agents, observer, own = sheet_marginals(belief)
    rows = _entry_rows(players, observer)
    names = [*players, FREE_LABEL]
    sheet = {}
    for j, a in enumerate(agents):
        if a in own:
            continue
        r = rows[int(np.argmax(m[rows, j]))]
        sheet[a] = names[r]
    return sheet


def expected_correct(belief, sheet: Mapping[str, str]) -> float:
    """Expected number of correct entries of ``sheet`` (agent -> player or "free") under ``belief``.

    Uses the belief's marginals at the mark, with the same approximation for a
    second agent as :func:`secret_dossier`.
    """
    m, players, agents, observer, own = sheet_marginals(belief)
    names = [*players, FREE_LABEL]
    total = 0.0
    for a, who in sheet.items():
        if a not in agents:
            raise ModelError(f"unknown agent {a!r} in the sheet (agents: {', '.join(agents)})")
        if who not in names:
            raise ModelError(f"sheet entry {a}={who!r}: name a player or 'free'")
        total += float(m[names.index(who), agents.index(a)])
    return total


def best_matching_sheet(belief) -> tuple[dict[str, str], float]:
    """The best sheet naming every opponent exactly once (the other agents "free"), and its expected
    number of correct entries.

    Maximises ``sum over named (o, a) of P(o holds a) + sum over the rest of P(a free)``, i.e. the
    assignment with weights ``P(o holds a) - P(a free)`` (:func:`scipy.optimize.linear_sum_assignment`).
    """
    m, players, agents, observer, own = sheet_marginals(belief)
    opp = [i for i, p in enumerate(players) if p != observer]
    cols = [j for j, a in enumerate(agents) if a not in own]
    if len(opp) > len(cols):
        raise ModelError("more opponents than agents to name")
    free = m[len(players), cols]
    gain = m[np.ix_(opp, cols)] - free[None, :]
    r, c = linear_sum_assignment(-gain)
    sheet = {agents[j]: FREE_LABEL for j in cols}
    for i, j in zip(r, c):
        sheet[agents[cols[j]]] = players[opp[i]]
    return sheet, float(free.sum() + gain[r, c].sum())
