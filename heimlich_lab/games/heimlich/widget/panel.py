"""The belief panel: the observer's belief as a heatmap, its entropy, the latest explanation, the rulebook's
dossier notes and, after the dossier mark, a suggested sheet.

:func:`belief_panel` turns a belief into the panel's JSON; :class:`LivePanels` keeps one
belief per observer of a live game and follows every decision as that observer saw it;
the replay controller asks :func:`replay_belief` for the belief of a whole record.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ....engine.words import for_any_name, possessive
from ....errors import HeimlichError, ModelError
from ..inference.belief import Belief
from ..inference.dossier import DossierNoteWriter, expected_correct, secret_dossier
from ..inference.likelihoods import ask_model, default_model
from ..rules.board import AGENT_BY_COLOUR
from ..rules.records import GameRecord
from ..rules.replay import DecisionStream

#: How many dossier notes the panel lists: each player's support, then the latest others.
MAX_NOTES = 8


def belief_panel(belief, sheet: dict | None = None, notes: list[str] | None = None,
                 marginals: Mapping | None = None, entropy=None, explanation: str | None = None,
                 version: int | None = None, steps: int | None = None) -> dict:
    """The belief panel's JSON from a :class:`~heimlich_lab.games.heimlich.inference.belief.Belief`-like object.

    Needs ``marginals()`` (player/free -> agent -> p) and optionally ``entropy_history()`` and
    ``last_explanation()``; ``marginals``, ``entropy`` and ``explanation`` override them (a replay
    shows a belief at an earlier step). ``version``: the log length of the position the panel was made for
    (the front end shows it as ``data-belief-version``, so a page can tell when the panel is updated).
    ``steps``: how many of the belief's steps had happened by then (a replay; default all), for ``updates``,
    the largest changes so far (:func:`largest_updates`). ``own``: the observer's own agents (their row is
    certain: the board shows a line instead of it).
    """
    m = marginals if marginals is not None else belief.marginals()
    rows = list(m)
    cols = list(next(iter(m.values())).keys()) if m else []
    if entropy is None:
        entropy = belief.entropy_history() if hasattr(belief, "entropy_history") else []
    ent = [round(float(x), 4) for x in entropy]
    if explanation is None and hasattr(belief, "last_explanation"):
        explanation = belief.last_explanation()
    # each other player's posterior over the model's types (a model with types, the live belief only)
    types = belief.player_types() if marginals is None and hasattr(belief, "player_types") else {}
    observer = getattr(belief, "observer", None)
    own = [c for c in cols if observer in m and m[observer][c] >= 0.999]
    seen = f"given what {observer} has seen" if observer is not None else "given the public information"
    return {
        "observer": observer,
        "title": "Who controls which agent?",
        "caption": for_any_name(f"cell = probability that this player controls this agent, {seen}"),
        "own": own,
        "own_text": (f"{possessive(observer)} own agent{'s' if len(own) > 1 else ''}: "
                     + " and ".join(f"{AGENT_BY_COLOUR[c].name} ({c})" for c in own) + " (no row: known for sure)"
                     if own else ""),
        "updates": largest_updates(belief, steps),
        "rows": rows, "cols": cols,
        "p": [[round(float(m[r][c]), 4) for c in cols] for r in rows],
        "entropy": ent[-200:],
        "explanation": for_any_name(explanation or ""),
        "notes": list(notes or []),
        "sheet": dict(sheet) if sheet else None,
        "version": int(version) if version is not None else len(ent),
        "types": {p: {k: round(v, 4) for k, v in t.items()} for p, t in types.items()},
    }


#: How many of the largest updates the panel lists.
MAX_UPDATES = 3


def largest_updates(belief, steps: int | None = None, k: int = MAX_UPDATES) -> list[dict]:
    """The ``k`` steps (of the first ``steps``) that changed the belief most, largest first: ``turn``, ``text``
    (the decision, in words), ``change`` (half the summed absolute change of the table: how much probability
    moved) and ``log`` (the log entry). ``[]`` for a belief without a history.

    >>> from heimlich_lab import Belief, Rules, play
    >>> from heimlich_lab.bots import GreedyBot
    >>> rec = play(Rules(), {"Ann": GreedyBot(seed=1), "Bob": GreedyBot(seed=2), "Cy": GreedyBot(seed=3)}, seed=5)
    >>> ups = largest_updates(Belief.from_record(rec, "Ann", until=30))
    >>> len(ups), ups[0]["change"] >= ups[-1]["change"] > 0
    (3, True)
    """
    history = getattr(belief, "history", None)
    if not history or not hasattr(belief, "marginals_history"):
        return []
    n = len(history) if steps is None else min(steps, len(history))
    if n == 0:
        return []
    tables = belief.marginals_history()[: n + 1]
    moved = 0.5 * np.abs(np.diff(tables, axis=0)).sum(axis=(1, 2))
    best = [int(i) for i in np.argsort(-moved, kind="stable")[:k] if moved[i] > 1e-6]
    return [{"turn": history[i].turn, "text": for_any_name(history[i].description), "change": round(float(moved[i]), 3),
             "log": history[i].index} for i in best]


def stopped_panel(observer, reason: str) -> dict:
    """The panel of a belief that could not follow the game (the game goes on)."""
    return {"observer": observer, "rows": [], "cols": [], "p": [], "entropy": [], "explanation": "",
            "notes": [f"The belief stopped: {reason}"], "sheet": None, "types": {}, "own": [], "updates": []}


def dossier_suggestion(belief, view) -> tuple[dict, list[str]]:
    """The suggested Secret Dossier sheet (agent -> opponent or 'free') and a note on it, from a belief.

    Uses :func:`heimlich_lab.games.heimlich.inference.dossier.secret_dossier` (the sheet with the most expected correct
    entries); a belief-like object without the marginals that needs (a custom ``belief_factory``'s) gets,
    for each agent but the viewer's own, the most probable opponent or 'free' (the same rule).
    """
    try:
        sheet = secret_dossier(belief)
    except ModelError:
        return most_probable_sheet(belief.marginals(), view), [
            "Suggested sheet: the most probable owner of each agent (or 'free')."]
    exp = expected_correct(belief, sheet)
    return sheet, [f"Suggested sheet: expected correct entries {exp:.1f} of {len(sheet)} (5 spaces each)."]


def most_probable_sheet(marginals: Mapping, view) -> dict:
    """For each agent but the viewer's own, the opponent (or 'free') most probably holding it."""
    rows = [r for r in marginals if r != view.viewer]
    own = set(view.own_agents)
    return {c: max(rows, key=lambda r: marginals[r][c]) for c in view.agents if c not in own}


def dossier_note_lines(found, max_notes: int = MAX_NOTES) -> list[str]:
    """The panel's lines for the dossier notes ``found``
    (:class:`~heimlich_lab.games.heimlich.inference.dossier.DossierNote`): each player's support, then the latest other
    notes."""
    support = [str(n) for n in found if n.kind == "support"]
    other = [str(n) for n in found if n.kind != "support"]
    return support + (other[-(max_notes - len(support)):] if max_notes > len(support) else [])


def default_belief_factory(game, observer):
    """The panel's belief: exact deduction with the kit's default player model (types learned per player),
    knowing the observer's own agent card(s) and no decision yet (:class:`LivePanels` tells it each one)."""
    own = tuple(game.view(observer).own_agents) if observer is not None else ()
    return Belief(game.players, game.agents, observer, default_model(), own)


def replay_belief(record: GameRecord, viewer, model=None):
    """The viewer's belief over a whole record (from the record as the viewer may read it), or ``None`` if the
    record cannot be followed."""
    rec = record.as_player(viewer) if viewer is not None else record.public()
    try:
        return Belief.from_record(rec, observer=viewer, model=model or default_model())
    except HeimlichError:
        return None


#: Decisions whose options the model reads from one table of utilities, made once per position (a move of six
#: points among seven agents has 924 options): worth preparing while the player thinks.
PREPARED_PHASES = ("move", "points", "safe")


class LivePanels:
    """The belief panels of a live game: for each observer, the one stream of decisions as that observer saw
    them (:class:`~heimlich_lab.games.heimlich.rules.replay.DecisionStream`, which hides what the observer may not see),
    read once each: its belief and its dossier notes follow it, so a late step costs what an early one does.

    ``factory(game, observer)`` makes a belief that has read no decision yet and takes them one at a time
    with ``add(decision)``, a :class:`~heimlich_lab.inference.reader.DecisionReader` (as
    :class:`~heimlich_lab.games.heimlich.inference.belief.Belief` is, and the dossier notes beside it); one that fails
    (or later cannot follow the game) stops with its reason shown in its panel, and the game goes on.
    """

    def __init__(self, game, observers, factory=default_belief_factory):
        self.game = game
        self.beliefs: dict = {}
        self.errors: dict = {}
        self._panels: dict = {}   # observer -> (what the panel was made from, panel)
        self._streams: dict = {}  # observer -> (its decision stream, its dossier note writer)
        for o in observers:
            try:
                self.beliefs[o] = factory(game, o)
            except HeimlichError as e:
                self.errors[o] = str(e)
            self._streams[o] = (DecisionStream(game, o), DossierNoteWriter(o))
        self.follow()

    def follow(self) -> None:
        """Read the decisions made since the last call, for every observer: its notes and its belief."""
        for o, (stream, writer) in self._streams.items():
            for decision in stream.new():
                writer.add(decision)
                if o in self.beliefs:
                    try:
                        self.beliefs[o].add(decision)
                    except HeimlichError as e:   # a belief that cannot follow stops; the game goes on
                        del self.beliefs[o]
                        self.errors[o] = str(e)

    def prepare(self) -> None:
        """Get ready for the decision the game awaits: when its decider's belief reads its own decisions (the
        kind of table, :attr:`~heimlich_lab.games.heimlich.inference.belief.Belief.learns_from_own`), ask its model
        about one of the options now, so that the tables the model needs (the utility of every option) are made while
        the player thinks, not after the click. Call it once the board is shown."""
        g = self.game
        who = g.current_player
        b = self.beliefs.get(who)
        if b is None or g.is_over or not getattr(b, "learns_from_own", False) or g.phase not in PREPARED_PHASES:
            return
        try:
            ask_model(b.model, g.view(who), who, g.legal_actions()[0], len(g.agents))
        except HeimlichError:   # only a head start: the belief asks again, and says what is wrong, when it reads
            pass

    def panel(self, observer, view) -> dict | None:
        """``observer``'s panel for ``view`` (the observer's view now), or ``None`` without a belief."""
        if observer not in self.beliefs:
            return stopped_panel(observer, self.errors[observer]) if observer in self.errors else None
        b = self.beliefs[observer]
        n = len(self.game.history)
        key = (len(getattr(b, "history", ())), n, view.dossier_done, len(view.dossier_sheet))
        cached = self._panels.get(observer)
        if cached is not None and cached[0] == key:
            return cached[1]
        sheet, notes = None, []
        if view.rules.dossier and view.dossier_done:
            sheet, notes = dossier_suggestion(b, view)
        panel = belief_panel(b, sheet=sheet, notes=notes + self.note_lines(observer), version=n)
        self._panels[observer] = (key, panel)
        return panel

    def note_lines(self, observer) -> list[str]:
        """The observer's dossier notes so far (the rulebook's deductions)."""
        return dossier_note_lines(self._streams[observer][1].notes())
