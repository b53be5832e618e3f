"""The belief panel: the observer's belief as a heatmap, its entropy, the latest explanation, the rulebook's
dossier notes and, after the dossier mark, a suggested sheet.

:func:`belief_panel` turns a belief into the panel's JSON; :class:`LivePanels` keeps one
belief per observer of a live game and follows every decision as that observer saw it;
the replay controller asks :func:`replay_belief` for the belief of a whole record.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np

from ....engine.words import for_any_name, possessive
from ....errors import HeimlichError, ModelError
from ....inference.core import FREE_LABEL
from ....widget.story import MIN_BITS, evidence_text, lead_in, most_informative, panel_frame, quiet_headline
from ..inference.belief import Belief
from ..inference.dossier import DossierNoteWriter, expected_correct, secret_dossier
from ..inference.likelihoods import ask_model, default_model
from ..rules.board import AGENT_BY_COLOUR
from ..rules.cards import CARDS
from ..rules.records import GameRecord
from ..rules.replay import DecisionStream

#: How many dossier notes the panel lists: each player's support, then the latest others.
MAX_NOTES = 8


def belief_panel(belief, sheet: dict | None = None, notes: list[str] | None = None,
                 marginals: Mapping | None = None, entropy=None, explanation: str | None = None,
                 version: int | None = None, steps: int | None = None, since: int | None = None,
                 memo: PanelMemo | None = None) -> dict:
    """The belief panel's JSON from a :class:`~heimlich_lab.games.heimlich.inference.belief.Belief`-like object.

    Needs ``marginals()`` (player/free -> agent -> p) and optionally ``entropy_history()`` and
    ``last_explanation()``; ``marginals``, ``entropy`` and ``explanation`` override them (a replay
    shows a belief at an earlier step). ``version``: the log length of the position the panel was made for
    (the front end shows it as ``data-belief-version``, so a page can tell when the panel is updated).
    ``steps``: how many of the belief's steps had happened by then (a replay; default all), for ``updates``,
    the largest changes so far (:func:`largest_updates`). ``own``: the observer's own agents (their row is
    certain: the board shows a line instead of it). ``headline``: the most informative update since the observer's
    last decision (:func:`story_headline`; ``since``: that decision's log entry, default: the observer's latest
    step in the belief's history), in plain words; ``glossary``: the words the details use, each with a gloss.
    ``memo``: a live panel's :class:`PanelMemo` (the same panel, each step of the belief's history read once).
    """
    m = marginals if marginals is not None else belief.marginals()
    rows = list(m)
    cols = list(next(iter(m.values())).keys()) if m else []
    rounded = memo.entropies(belief) if memo is not None and entropy is None else None
    if rounded is not None:
        n_entropy, ent = len(rounded), rounded[-200:]
    else:
        if entropy is None:
            entropy = belief.entropy_history() if hasattr(belief, "entropy_history") else []
        n_entropy = len(entropy)
        ent = [round(float(x), 4) for x in entropy[-200:]]      # the panel shows the latest 200
    if explanation is None and hasattr(belief, "last_explanation"):
        explanation = belief.last_explanation()
    # each other player's posterior over the model's types (a model with types, the live belief only)
    types = belief.player_types() if marginals is None and hasattr(belief, "player_types") else {}
    observer = getattr(belief, "observer", None)
    own_row = m[observer] if observer in m else None        # a table's row is made when read: read each once
    own = [c for c in cols if own_row is not None and own_row[c] >= 0.999]
    seen = f"given what {observer} has seen" if observer is not None else "given the public information"
    # the frame (title, headline, the model's sentence, glossary, version) is the shared one; the rest is Heimlich's
    headline = story_headline(belief, steps, since, memo=memo)
    return panel_frame(observer, "Who controls which agent?", headline, explanation or "",
                       GLOSSARY, int(version) if version is not None else n_entropy) | {
        "caption": for_any_name(f"cell = probability that this player controls this agent, {seen}"),
        "own": own,
        "own_text": (f"{possessive(observer)} own agent{'s' if len(own) > 1 else ''}: "
                     + " and ".join(f"{AGENT_BY_COLOUR[c].name} ({c})" for c in own) + " (no row: known for sure)"
                     if own else ""),
        "updates": largest_updates(belief, steps, memo=memo),
        "rows": rows, "cols": cols,
        "p": [[round(float(row[c]), 4) for c in cols] for row in map(m.__getitem__, rows)],
        "entropy": ent,
        "notes": list(notes or []),
        "sheet": dict(sheet) if sheet else None,
        "types": {p: {k: round(v, 4) for k, v in t.items()} for p, t in types.items()},
    }


#: How many of the largest updates the panel lists.
MAX_UPDATES = 3


def largest_updates(belief, steps: int | None = None, k: int = MAX_UPDATES, memo: PanelMemo | None = None
                    ) -> list[dict]:
    """The ``k`` steps (of the first ``steps``) that changed the belief most, largest first: ``turn``, ``text``
    (the decision, in words), ``change`` (half the summed absolute change of the table: how much probability
    moved) and ``log`` (the log entry). ``[]`` for a belief without a history.

    >>> from heimlich_lab import Belief, Rules, play
    >>> from heimlich_lab.bots import GreedyBot
    >>> rec = play(Rules(), {"Ann": GreedyBot(seed=1), "Bob": GreedyBot(seed=2), "Cy": GreedyBot(seed=3)}, seed=5)
    >>> ups = largest_updates(Belief.from_record(rec, "Ann", until=30))
    >>> len(ups), ups[0]["change"] >= ups[-1]["change"] > 0
    (3, True)

    ``memo``: a live panel's :class:`PanelMemo` (the same list; each step's change computed once).
    """
    history = getattr(belief, "history", None)
    if not history or not hasattr(belief, "marginals_history"):
        return []
    n = len(history) if steps is None else min(steps, len(history))
    if n == 0:
        return []
    moved = memo.moved(belief) if memo is not None and steps is None else None
    if moved is None:
        tables = belief.marginals_history()[: n + 1]
        moved = _moved(tables)
    best = [int(i) for i in np.argsort(-moved, kind="stable")[:k] if moved[i] > 1e-6]
    return [{"turn": history[i].turn, "text": for_any_name(history[i].description), "change": round(float(moved[i]), 3),
             "log": history[i].index} for i in best]


def _moved(tables: np.ndarray) -> np.ndarray:
    """How much probability each step moved: half the summed absolute change between consecutive tables."""
    moved: np.ndarray = 0.5 * np.abs(np.diff(tables, axis=0)).sum(axis=(1, 2))
    return moved


class PanelMemo:
    """What a live panel reads of its belief's history, each step once: how much probability each step moved
    (:func:`largest_updates`) and the most informative update since a log entry (:func:`story_headline`). Without
    it the panel reads the whole history at every step. It answers for one belief whose history only grows (a
    belief's history is appended to, and a failed step leaves it as it was): another belief, a shorter history or
    a step that is not the one read before starts it afresh. The answers are those of the full reads.

    >>> from heimlich_lab import Belief, Rules, play
    >>> from heimlich_lab.bots import GreedyBot
    >>> rec = play(Rules(), {"Ann": GreedyBot(seed=1), "Bob": GreedyBot(seed=2), "Cy": GreedyBot(seed=3)}, seed=5)
    >>> b, memo = Belief.from_record(rec, "Ann", until=30), PanelMemo()
    >>> belief_panel(b, since=-1, memo=memo) == belief_panel(b, since=-1)
    True
    """

    def __init__(self) -> None:
        self._reset(None)

    def _reset(self, history) -> None:
        self._history = history             # the history read (the belief's own list)
        self._n, self._last = 0, None       # how many of its steps were read, and the last of them
        self._moved: np.ndarray | None = None   # the change of each step read (None: a step without a table)
        self._tables = True                 # whether every step read keeps its table
        self._last_table: np.ndarray | None = None
        self._scans: dict = {}              # (since, observer) -> (steps scanned, best step, row, column, bits)
        self._said: dict = {}               # (id of a step, row, column, bits) -> (the step, its headline)
        self._entropies: list[float] = []   # the entropy history read so far, rounded as the panel shows it
        self._entropy_read = 0              # how many steps of the history it has read

    def _follow(self, belief) -> list:
        """The belief's history, after forgetting what another belief's (or a rewritten one's) said."""
        history = belief.history
        if (history is not self._history or len(history) < self._n
                or (self._n and history[self._n - 1] is not self._last)):
            self._reset(history)
        if history:
            self._n, self._last = len(history), history[-1]
        return history

    def moved(self, belief) -> np.ndarray | None:
        """How much probability each step of the history moved, as :func:`largest_updates` reads it (``None``
        once a step keeps no table: the full read leaves such steps out)."""
        history = self._follow(belief)
        done = 0 if self._moved is None else len(self._moved)
        new = history[done:]
        self._tables = self._tables and all(st.marginals is not None for st in new)
        if not self._tables:
            return None
        if self._moved is None:
            tables = belief.marginals_history()
            self._moved, self._last_table = _moved(tables), tables[-1]
        elif new:
            tables = np.stack([self._last_table, *(st.marginals for st in new)])
            self._moved, self._last_table = np.concatenate([self._moved, _moved(tables)]), tables[-1]
        return self._moved

    def entropies(self, belief) -> list[float] | None:
        """The belief's entropy history rounded as the panel shows it, each step's rounded once (``None`` for a
        belief without an entropy history)."""
        if not hasattr(belief, "entropy_history"):
            return None
        history = self._follow(belief)
        if not self._entropies:
            self._entropies = [round(float(x), 4) for x in belief.entropy_history()]
        else:
            self._entropies += [round(float(st.entropy), 4) for st in history[self._entropy_read:]
                                if st.entropy is not None]    # as entropy_history: steps without one left out
        self._entropy_read = len(history)
        return self._entropies

    def headline(self, found: tuple) -> dict:
        """:func:`_headline` of ``found`` (a step, row, column and bits), said once (the headline often stays
        on the same update for many steps)."""
        key = (id(found[0]), *found[1:])
        hit = self._said.get(key)
        if hit is None or hit[0] is not found[0]:
            if len(self._said) > 64:
                self._said.clear()
            hit = (found[0], _headline(*found))
            self._said[key] = hit
        return dict(hit[1])

    def most_informative(self, belief, since: int, observer):
        """:func:`_most_informative` of the whole history, reading only the steps added since the last call."""
        history = self._follow(belief)
        n, best, row, col, bits = self._scans.get((since, observer), (0, None, 0, 0, MIN_BITS))
        for st in history[n:]:
            if st.index > since and st.actor != observer and st.update is not None:
                found = _most_informative([st], since, observer, min_bits=bits)
                if found is not None:
                    best, row, col, bits = found
        self._scans[(since, observer)] = (len(history), best, row, col, bits)
        return None if best is None else (best, row, col, bits)


#: The words of the panel's details, each with a one-line gloss (the headline uses none of them).
GLOSSARY = (
    {"term": "times more likely (likelihood ratio)",
     "gloss": "how much more probable the decision is if the claim is true than if it is false"},
    {"term": "probability moved",
     "gloss": "how much of the table's probability changed hands in one update (half the summed changes)"},
    {"term": "entropy (bits)", "gloss": "how uncertain the whole table still is: 0 means known for sure"},
    {"term": "type", "gloss": "a kind of player the model knows (random, careful, greedy, bluffer...)"},
    {"term": "\u03b2 (beta)",
     "gloss": "how carefully a type picks its best move: near 0 at random, large always the best"},
    {"term": "careless, steady, careful, greedy",
     "gloss": "the types from small to large \u03b2: how closely a player follows their own interest"},
    {"term": "read through X's type",
     "gloss": "the update weighs the decision by how X usually plays, as far as the model can tell so far"},
)

#: Words that must not appear in a headline (they belong to the details, with their gloss).
JARGON = ("\u03b2", "type", "steady", "careless", "careful", "greedy", "bluffer", "moved)", "entropy",
          "likelihood", "read through", "P(")

def _plain(description: str) -> str:
    """A decision's description for the headline: "point(s)" said right, "church" as the board names it, a card
    by what it does, not by its code.

    >>> _plain("Cy played back12: grey from church to 10")
    'Cy played the card "One agent 1 or 2 buildings back": grey from the Church to 10'
    """
    text = re.sub(r"\bplayed (\w+):", lambda m: f'played the card "{CARDS[m[1]].text.rstrip(".")}":'
                  if m[1] in CARDS else m[0], description)
    text = re.sub(r"\b(\d+) point\(s\)", lambda m: f"{m[1]} point" + ("" if m[1] == "1" else "s"), text)
    return re.sub(r"\bchurch\b", "the Church", text)


def headline_text(description: str, owner: str, agent: str, before: float, after: float, log_ratio: float) -> str:
    """One update in plain words (:func:`~heimlich_lab.widget.story.evidence_text`): what was seen, how much more
    likely it is if ``owner`` controls ``agent`` (or does not), and the probability before and after.

    >>> headline_text("Bob moved red from church to 3", "Bob", "red", 0.2, 0.69, np.log(9.1))
    'Bob moved red from the Church to 3: 9\u00d7 more likely if Bob controls red (0.20 \u2192 0.69)'
    >>> headline_text("Bob moved red", "Bob", "blue", 0.4, 0.1, np.log(1 / 6))
    'Bob moved red: 6\u00d7 more likely if Bob does not control blue (0.40 \u2192 0.10)'
    """
    claim = f"nobody controls {agent}" if owner == FREE_LABEL else f"{owner} controls {agent}"
    nope = f"somebody controls {agent}" if owner == FREE_LABEL else f"{owner} does not control {agent}"
    return evidence_text(_plain(description), claim, nope, before, after, log_ratio)


def story_headline(belief, steps: int | None = None, since: int | None = None, memo: PanelMemo | None = None
                   ) -> dict | None:
    """The most informative update since the observer's last decision, in plain words (``None`` for a belief
    without a history).

    Only other players' decisions count (the observer's own never make the headline). Each candidate step is
    scored by the information of the largest change in its actor's row, the binary KL divergence of that
    cell's probability (bits, :func:`_bits`); the best one's ``text`` is :func:`headline_text`. ``since``: the
    log entry where the observer's last turn ended (:func:`last_decision_of`; ``-1``: none yet); default (a
    replay): the observer's latest step before another player's latest one (a spectator: the last round of
    turns). Keys: ``text``, ``turn``, ``log``, ``actor``, ``owner``, ``agent``, ``before``, ``after``, ``bits``
    (and for a spectator ``label``, the lead-in); when nothing informative happened, ``text`` says so and
    ``earlier`` is the most informative update of the game so far (the story stays on the screen).

    >>> from heimlich_lab import Belief, Rules, play
    >>> from heimlich_lab.bots import GreedyBot
    >>> rec = play(Rules(), {"Ann": GreedyBot(seed=1), "Bob": GreedyBot(seed=2), "Cy": GreedyBot(seed=3)}, seed=5)
    >>> b = Belief.from_record(rec, "Ann", until=30)
    >>> story_headline(b, since=-1)["text"]          # since the start
    'Bob moved orange from the Church to 6: 356\u00d7 more likely if Bob controls orange (0.20 \u2192 0.99)'
    >>> story_headline(b, steps=10)["text"]          # Ann's turn 7: Bob's and Cy's turns 5, 6 (not Ann's own)
    'Cy moved blue from 5 to 8: 41\u00d7 more likely if Cy controls blue (0.97 \u2192 1.00)'
    >>> h = story_headline(b)                        # since Ann's last turn: only what is known by now
    >>> h["text"], h["earlier"][:30]                 # and the most telling update so far stays
    ("Nothing has changed the belief much since Ann's last turn.", 'Bob moved orange from the Chur')

    ``memo``: a live panel's :class:`PanelMemo` (the same headline, each step read once).
    """
    history = getattr(belief, "history", None)
    if history is None:
        return None
    observer = getattr(belief, "observer", None)
    shown = list(history if steps is None else history[: max(0, steps)])
    if since is None:
        if observer is not None:
            since = _last_turn_end([(st.index, st.actor) for st in shown], observer)
        else:
            turns = [st.turn for st in shown if st.turn is not None]
            last = max(turns, default=0)
            since = min((st.index - 1 for st in shown if st.turn is not None
                         and st.turn > last - len(getattr(belief, "players", ()))), default=-1)
    scan = (memo.most_informative if memo is not None and steps is None
            else lambda _, after, who: _most_informative(shown, after, who))
    best = scan(belief, since, observer)
    if best is None:
        out = quiet_headline(observer, yet=since < 0, spectator=" since the last round")
        earlier = scan(belief, -1, observer) if since >= 0 else None
        if earlier is not None:     # the story so far stays on the screen
            out["earlier"] = (memo.headline(earlier) if memo is not None else _headline(*earlier))["text"]
        return out
    said = memo.headline(best) if memo is not None else _headline(*best)
    return said | lead_in(observer)      # a spectator has no turn of their own: "Lately:"


def _most_informative(steps, since: int, observer, min_bits: float = MIN_BITS):
    """The step (after log entry ``since``, not the observer's) whose actor's row gained the most information,
    with that row and cell and the bits (:func:`~heimlich_lab.widget.story.most_informative`), or ``None``
    (none above ``min_bits``)."""
    by_update = {id(st.update): st for st in steps
                 if st.index > since and st.actor != observer and st.update is not None}

    def actor_row(u):
        names = [*u.owners, FREE_LABEL]
        actor = by_update[id(u)].actor
        return [names.index(actor)] if actor in names else None
    best = most_informative([st.update for st in by_update.values()], actor_row, min_bits=min_bits)
    return None if best is None else (by_update[id(best[0])], *best[1:])


def _headline(st, row: int, j: int, bits: float) -> dict:
    upd = st.update
    agent, before, after = upd.slots[j], float(upd.marginals_before[row, j]), float(upd.marginals_after[row, j])
    lr = upd.log_likelihood_ratio(row, j)
    return {"text": headline_text(st.description, st.actor, agent, before, after, lr), "turn": st.turn,
            "log": st.index, "actor": st.actor, "owner": st.actor, "agent": agent,
            "before": round(before, 4), "after": round(after, 4), "bits": round(bits, 4)}


def last_decision_of(view) -> int:
    """Where "since the viewer's last turn" starts in ``view``: the last log entry of the viewer's latest turn that
    is over (a turn starts with its roll; the viewer's decisions in the turn being played and in other players'
    Top Secret rounds do not reset it). ``-1``: no turn of the viewer's is over yet, or a spectator.

    >>> from heimlich_lab import Game
    >>> g = Game(["Ann", "Bob", "Cy"], seed=2)
    >>> last_decision_of(g.view("Ann")), last_decision_of(g.view(None))   # Ann's first turn: everything counts
    (-1, -1)
    >>> g.apply("move red+3"); v = g.view("Ann")                  # Ann's turn is over; Bob's begins
    >>> v.log[last_decision_of(v)].player, v.log[last_decision_of(v) + 1].kind
    ('Ann', 'roll')
    """
    if view is None or view.viewer is None:
        return -1
    log = view.log
    rolls = [(i, log[i].player) for i, k in enumerate(log.kinds()) if k == "roll"]
    if not rolls:
        return -1
    mine = [n for n, (_, p) in enumerate(rolls) if p == view.viewer]
    if mine and mine[-1] == len(rolls) - 1:     # the viewer's turn is being played: the one before counts
        mine = mine[:-1]
    if not mine:
        return -1
    n = mine[-1]
    return rolls[n + 1][0] - 1 if n + 1 < len(rolls) else len(log) - 1


def _last_turn_end(deciders, observer) -> int:
    """The latest ``(index, player)`` of ``observer`` before another player's latest one (``-1``: none).

    >>> _last_turn_end([(1, "Ann"), (3, "Bob"), (5, "Ann"), (6, "Ann")], "Ann"), _last_turn_end([(2, "Ann")], "Ann")
    (1, -1)
    """
    others = max((i for i, p in deciders if p != observer), default=-1)
    return max((i for i, p in deciders if p == observer and i < others), default=-1)


def stopped_panel(observer, reason: str) -> dict:
    """The panel of a belief that could not follow the game (the game goes on)."""
    return {"observer": observer, "rows": [], "cols": [], "p": [], "entropy": [], "explanation": "",
            "notes": [f"The belief stopped: {reason}"], "sheet": None, "types": {}, "own": [], "updates": [],
            "headline": None, "glossary": []}


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
    if max_notes <= len(support):
        return support
    other = [n for n in found if n.kind != "support"]
    return support + [str(n) for n in other[-(max_notes - len(support)):]]     # only the lines shown in words


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
        self._memos: dict = {}    # observer -> PanelMemo (its belief's history read once)
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
        panel = belief_panel(b, sheet=sheet, notes=notes + self.note_lines(observer), version=n,
                             since=last_decision_of(view), memo=self._memos.setdefault(observer, PanelMemo()))
        self._panels[observer] = (key, panel)
        return panel

    def note_lines(self, observer) -> list[str]:
        """The observer's dossier notes so far (the rulebook's deductions)."""
        return dossier_note_lines(self._streams[observer][1].notes())
