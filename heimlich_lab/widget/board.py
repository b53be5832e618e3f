"""The board widget: play Heimlich & Co. inside JupyterLab (or Voila).

:func:`play_in_notebook` opens a game for humans around one screen (hot seat),
humans against bots, or bots alone; :func:`replay_in_notebook` shows a saved
record with a slider. The front end is a small ES module in ``widgets/``
(shipped inside the wheel as ``heimlich_lab/widget/static``); the state it
draws comes from :func:`heimlich_lab.widget.state.board_state`, which is made
from the viewer's view only.

The controller runs the game with ``chance="manual"`` and draws every chance
event from its own seeded generator: bots' rolls, the deal and card draws at
once, a human's roll when the human clicks "Roll the die". The record holds
every outcome, so it replays exactly, and the same seed with the same clicks
gives the same game.

>>> from heimlich_lab.bots import RandomBot
>>> w = play_in_notebook(["Ann", "Bob"], bots={"Bob": RandomBot(seed=1)}, seed=3)
>>> ctl = w.controller
>>> w.state["viewer"], w.state["is_human_turn"], w.state["legal"]
('Ann', True, ['roll'])
>>> ctl.send_action("roll"); w.state["phase"] in ("points", "move")
True
>>> ctl.send_action("pass"); w.state["error"].startswith("pass")     # refused: shown, game unchanged
True
"""
from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Callable, Mapping, Sequence

import anywidget
import traitlets

from ..errors import HeimlichError, WrongPlayer
from ..rules.actions import HIDDEN, Action
from ..rules.game import CHANCE, Game, Position
from ..rules.records import GameRecord
from ..rules.ruleset import Rules
from .state import ROLL, belief_panel, board_state, last_move_of

#: The autoplay pace (ms per bot step): one range for the kernel (``set_speed``) and the front end's
#: slider (``SPEED_RANGE`` in ``widgets/logic.js``; a test checks they agree).
SPEED_MIN_MS, SPEED_MAX_MS, SPEED_STEP_MS = 0, 2000, 50


def static_dir() -> Path:
    """Where the front end lives: inside the installed package (wheel), else the checkout's ``widgets/``."""
    here = Path(__file__).resolve().parent
    packaged = here / "static"
    if (packaged / "board.bundle.js").exists():
        return packaged
    checkout = here.parent.parent / "widgets"
    if (checkout / "board.bundle.js").exists():
        return checkout
    raise FileNotFoundError("the board's front end (board.bundle.js) is missing from the package and the checkout; "
                            "run: node widgets/build.mjs")


class BoardWidget(anywidget.AnyWidget):
    """The anywidget: ``state`` (what the viewer may see) and ``speed_ms`` (animation and autoplay pace)."""

    _esm = static_dir() / "board.bundle.js"  # one module: anywidget loads it from a blob URL
    _css = static_dir() / "board.css"
    state = traitlets.Dict().tag(sync=True)
    speed_ms = traitlets.Int(400).tag(sync=True)

    def __init__(self, controller=None, **kwargs):
        super().__init__(**kwargs)
        self.controller = controller
        self.on_msg(self._on_front_end_message)

    def _on_front_end_message(self, widget, content, buffers):
        if self.controller is not None and isinstance(content, dict):
            self.controller.handle_message(content)


def _running_loop():
    """The running asyncio loop (a Jupyter kernel's), or ``None`` in plain Python."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class GameController:
    """Runs one game for the widget: humans' clicks, bots' moves, chance, the curtain, autoplay and beliefs.

    ``players`` in seat order; ``bots`` maps some of them to bots (objects with
    ``choose(view, legal_actions)``), the others are humans at this screen.
    ``seed`` seeds the controller's generator, which draws every chance event.
    ``start`` is an optional :class:`~heimlich_lab.Position` to play from.
    ``viewer`` fixes whose view is shown when no human plays (``None`` spectator, a
    player, or ``"omniscient"``). With one human the view is always that human's; with
    several (hot seat) it is the view of the human whose decision it is, and a curtain
    (a spectator's view) goes up whenever the screen must change hands.
    ``autoplay``: whether bots play by themselves (paced by ``speed_ms``, scheduled on the
    kernel's event loop); default: yes when a human plays, no for bots alone (click Play).
    ``belief_factory(game, observer)`` makes the belief panel's belief; by default a
    :class:`~heimlich_lab.inference.belief.Belief` with the Boltzmann model when available.
    """

    def __init__(self, players: Sequence[str], bots: Mapping[str, object] | None = None, rules: Rules | None = None,
                 seed: int | None = None, viewer: str | None = None, beliefs: bool = True,
                 belief_factory: Callable | None = None, speed_ms: int = 400, autoplay: bool | None = None,
                 start: Position | None = None):
        bots = dict(bots or {})
        players = tuple(players)
        unknown = set(bots) - set(players)
        if unknown:
            raise HeimlichError(f"bots given for unknown player(s) {sorted(unknown)}; players are {list(players)}")
        for p, b in bots.items():
            if not callable(getattr(b, "choose", None)):
                raise HeimlichError(f"the bot for {p} has no choose(view, legal_actions) method")
        if viewer not in (None, "omniscient", *players):
            raise HeimlichError(f"viewer must be a player, 'omniscient' or None, not {viewer!r}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.game = Game(players, rules=rules, seed=seed, chance="manual", start=start)
        self.bots = bots
        self.humans = [p for p in players if p not in bots]
        self.fixed_viewer = viewer
        self.viewer: str | None = self.humans[0] if len(self.humans) == 1 else (None if self.humans else viewer)
        self.curtain: str | None = None
        self.playing = bool(self.humans) if autoplay is None else bool(autoplay)
        self.last_error = ""
        self.timings: list[dict] = []
        self._pending = None         # the scheduled autoplay step (an asyncio TimerHandle)
        self._last_panel: dict = {}  # observer -> (history length, panel)
        self._dossier_notes: dict = {}  # observer -> (history length, the notes so far)
        self.belief_errors: dict = {}
        self.beliefs: dict = {}
        speed_ms = clamp_speed(speed_ms)
        self._resolve_chance()       # the deal (and a bot's first roll, the first cards)
        if beliefs:
            factory = belief_factory or _default_belief_factory()
            if factory is not None:
                if self.humans:
                    observers = list(self.humans)
                else:
                    observers = [viewer if viewer not in (None, "omniscient") else None]
                for o in observers:
                    try:
                        self.beliefs[o] = factory(self.game, o)
                    except HeimlichError as e:
                        self.belief_errors[o] = str(e)
        self.widget = BoardWidget(controller=self, speed_ms=speed_ms)
        if len(self.humans) > 1:
            d = self.decider
            self.curtain = f"Hand over to {d}, then click Reveal" if d in self.humans else self._bots_curtain()
        self._after_change()

    # ------------------------------------------------------------ who acts
    @property
    def decider(self) -> str | None:
        """The player whose decision it is, including a human's pending die roll; ``None`` if nobody's."""
        g = self.game
        if g.is_over:
            return None
        p = g.current_player
        if p is not None:
            return p
        if g.is_chance_node and g.phase == "roll":
            return g.active_player
        return None

    def _bots_curtain(self) -> str:
        return "The bots are playing (public view); the board asks for the next human when it is their turn"

    # ------------------------------------------------------------ state
    def _shown_viewer(self):
        """(viewer passed to board_state, omniscient?) for what is on the screen now."""
        if self.curtain:
            return None, False
        if self.viewer == "omniscient":
            return None, True
        return self.viewer, False

    def refresh(self) -> None:
        """Rebuild the synced state from the shown viewer's view."""
        g = self.game
        viewer, omniscient = self._shown_viewer()
        view = g.omniscient_view() if omniscient else g.view(viewer)
        belief = None
        if not self.curtain:
            belief = self._panel(None if omniscient else viewer, view)
        state = board_state(
            g, viewer, omniscient=omniscient, human_players=self.humans, belief=belief, curtain=self.curtain,
            autoplay=({"available": True, "playing": self.playing, "speed_ms": self.widget.speed_ms}
                      if self.bots else None),
            last_move=last_move_of(view), view=None)
        if self.curtain and self.humans:
            state["view_label"] = "Curtain up: public information only"
        state["error"] = self.last_error
        self.widget.state = state

    def _panel(self, observer, view) -> dict | None:
        if observer not in self.beliefs:
            if observer in self.belief_errors:
                return {"observer": observer, "rows": [], "cols": [], "p": [], "entropy": [], "explanation": "",
                        "notes": [f"The belief stopped: {self.belief_errors[observer]}"], "sheet": None}
            return None
        b = self.beliefs[observer]
        n_seen = len(getattr(b, "history", ()))
        key = (n_seen, len(self.game.history), view.dossier_done, len(view.dossier_sheet))
        cached = self._last_panel.get(observer)
        if cached is not None and cached[0] == key:
            return cached[1]
        sheet, notes = None, []
        if view.rules.dossier and view.dossier_done:
            sheet, notes = dossier_suggestion(b, view)
        notes = notes + self._notes_for(observer)
        panel = belief_panel(b, sheet=sheet, notes=notes, version=len(self.game.history))
        self._last_panel[observer] = (key, panel)
        return panel

    def _notes_for(self, observer) -> list[str]:
        """The observer's dossier notes so far (the rulebook's deductions), cached per history length."""
        n = len(self.game.history)
        cached = self._dossier_notes.get(observer)
        if cached is None or cached[0] != n:
            cached = (n, dossier_note_lines(self.game, observer))
            self._dossier_notes[observer] = cached
        return cached[1]

    # ------------------------------------------------------------ actions
    def _apply(self, action, actor: str) -> None:
        """Apply one action, updating every belief from its observer's view before the action."""
        g = self.game
        act = action if isinstance(action, Action) else Action.parse(action)
        before = {o: g.view(o) for o in self.beliefs}
        n = len(g.history)
        g.apply(act, player=actor)
        if act.kind in ("deal", "roll", "draw"):
            return                                   # chance events tell a belief nothing about owners
        who = g.recipients.get(n) if act.kind == "take" else actor
        for o, b in list(self.beliefs.items()):
            seen = act
            if act.kind == "take" and o != who:
                seen = Action("take", (HIDDEN,))     # nobody else sees which free agent card was taken
            try:
                b.observe(before[o], who, seen)
            except HeimlichError as e:               # a belief that cannot follow stops; the game goes on
                del self.beliefs[o]
                self.belief_errors[o] = str(e)

    def _sample(self) -> Action:
        outcomes = self.game.chance_outcomes()
        acts = [a for a, _ in outcomes]
        return self.rng.choices(acts, weights=[p for _, p in outcomes])[0]

    def _resolve_chance(self) -> None:
        """Draw every due chance event from the controller's generator, except a human's die roll."""
        g = self.game
        while g.is_chance_node:
            if g.phase == "roll" and g.active_player in self.humans:
                return
            self._apply(self._sample(), CHANCE)

    def send_action(self, notation: str, player: str | None = None) -> None:
        """A human's decision from the front end (or from Python): an action's notation, or ``"roll"``.

        ``player`` (optional) says who acts; by default the human shown on the screen.
        A refused action is shown as an error (``state["error"]``) and the game is unchanged.
        """
        g = self.game
        t0 = time.perf_counter()
        self.last_error = ""
        d = self.decider
        who = player if player is not None else (None if self.curtain else self.viewer)
        notation = str(notation).strip()
        if d is None:
            self.last_error = "No decision is due." if not g.is_over else "The game is over."
        elif d not in self.humans:
            self.last_error = f"It is {d}'s decision, and {d} is a bot."
        elif player is not None and player != d:
            self.last_error = f"It is {d}'s decision, not {player}'s."
        elif self.curtain or who != d:
            self.last_error = f"It is {d}'s decision: hand the screen over to {d} first."
        elif notation == ROLL:
            if g.is_chance_node and g.phase == "roll":
                self._apply(self._sample(), CHANCE)
            else:
                self.last_error = f"There is nothing to roll now: the decision is {g.phase}."
        elif g.is_chance_node:
            self.last_error = f"{d}: roll the die first (click 'Roll the die')."
        else:
            try:
                self._apply(notation, d)
            except HeimlichError as e:
                self.last_error = str(e)
        if not self.last_error:
            self._resolve_chance()
        self._after_change()
        self._timed("human", t0)

    def step(self) -> bool:
        """Let the bot whose decision it is act once. Returns False if no bot is due."""
        g = self.game
        p = self.decider
        if p is None or p not in self.bots:
            return False
        t0 = time.perf_counter()
        self.last_error = ""
        a = self.bots[p].choose(g.view(p), g.legal_actions())
        try:
            self._apply(a, p)
        except HeimlichError as e:
            self.last_error = f"the bot {p} chose {a}, which is refused: {e}"
            self.playing = False
            self.refresh()
            return False
        self._resolve_chance()
        self._after_change()
        self._timed("bot", t0)
        return True

    def _timed(self, what: str, t0: float) -> None:
        """Kernel time of one decision (apply, beliefs, state) and when it ended (epoch s): the last 1000."""
        self.timings.append({"what": what, "seconds": time.perf_counter() - t0, "end": time.time()})
        del self.timings[:-1000]

    def run_bots(self, max_steps: int = 10_000) -> int:
        """Let bots act until a human's decision or the end (for scripts and tests). Returns the steps taken."""
        n = 0
        while n < max_steps and self.step():
            n += 1
        return n

    def _after_change(self) -> None:
        """Curtain and viewer for the decision now due, then refresh and schedule the next bot step."""
        g = self.game
        d = self.decider
        if len(self.humans) > 1:
            was = self.curtain
            if g.is_over:
                self.curtain, self.viewer = None, None          # the end: everyone sees the public result
            elif d in self.humans:
                if self.curtain or d != self.viewer:
                    self.curtain = f"Hand over to {d}, then click Reveal"
            elif not self.curtain:
                self.curtain = self._bots_curtain()
            if self.curtain != was:
                self.last_error = ""    # an old error message may mention the previous viewer's cards
        if self.bots and not self.humans and g.is_over:
            self.playing = False
        self.refresh()
        self._schedule()

    def reveal(self) -> None:
        """The next human has the screen: lift the curtain and show their view."""
        d = self.decider
        if self.curtain and d in self.humans:
            self.curtain = None
            self.viewer = d
            self.last_error = ""
        self.refresh()

    # ------------------------------------------------------------ autoplay (driven from the kernel)
    def _schedule(self) -> None:
        """While playing, schedule the next bot step on the running loop (at most one pending)."""
        if not self.playing or self._pending is not None or self.decider not in self.bots:
            return
        loop = _running_loop()
        if loop is None:            # plain Python: call run_bots()
            return
        self._pending = loop.call_later(max(0, self.widget.speed_ms) / 1000, self._tick)

    def _tick(self) -> None:
        self._pending = None
        if self.playing:
            self.step()

    def _cancel(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def play(self) -> None:
        """Start autoplay (bots act one after another, ``speed_ms`` apart)."""
        self.playing = True
        self.refresh()
        self._schedule()

    def pause(self) -> None:
        """Stop autoplay."""
        self.playing = False
        self._cancel()
        self.refresh()

    def set_speed(self, ms: int) -> None:
        """The autoplay pace in ms per bot step, clamped to ``SPEED_MIN_MS..SPEED_MAX_MS`` (the slider's range)."""
        self.widget.speed_ms = clamp_speed(ms)
        if self._pending is not None:     # the new pace applies to the step already waiting
            self._cancel()
            self._schedule()
        self.refresh()

    def handle_message(self, msg: dict) -> None:
        """A message from the front end (see widgets/README.md)."""
        kind = msg.get("type")
        if kind == "action":
            self.send_action(str(msg.get("action", "")))
        elif kind == "curtain":
            self.reveal()
        elif kind == "control":
            cmd = msg.get("command")
            if cmd == "step":
                if not self.step():
                    self.refresh()
            elif cmd == "play":
                self.play()
            elif cmd == "pause":
                self.pause()
            elif cmd == "speed":
                try:
                    self.set_speed(int(msg.get("value", self.widget.speed_ms)))
                except (TypeError, ValueError):
                    pass

    @property
    def record(self) -> GameRecord:
        """The game's record so far (every chance outcome included: it replays exactly)."""
        return self.game.record

    def replay(self, viewer: str | None = None) -> "BoardWidget":
        """This game's record on a replay board."""
        return replay_in_notebook(self.record, viewer=viewer)


def clamp_speed(ms) -> int:
    """``ms`` clamped to the autoplay range shared with the front end's slider."""
    return max(SPEED_MIN_MS, min(SPEED_MAX_MS, int(ms)))


def dossier_suggestion(belief, view) -> tuple[dict, list[str]]:
    """The suggested Secret Dossier sheet (agent -> opponent or 'free') and a note on it, from a belief.

    Uses :func:`heimlich_lab.inference.dossier.secret_dossier` (the sheet with the most expected
    correct entries) when it is installed; otherwise names, for each agent but the viewer's own,
    the most probable opponent or 'free' (the same rule).
    """
    try:
        from ..inference import dossier as _dossier
        sheet = _normalise_sheet(_dossier.secret_dossier(belief))
        exp = _dossier.expected_correct(belief, sheet)
        return sheet, [f"Suggested sheet: expected correct entries {exp:.1f} of {len(sheet)} (5 spaces each)."]
    except (ImportError, HeimlichError, TypeError, AttributeError):
        pass
    m = belief.marginals()
    rows = [r for r in m if r != view.viewer]
    own = set(view.own_agents)
    sheet = {c: max(rows, key=lambda r: m[r][c]) for c in view.agents if c not in own}
    return sheet, ["Suggested sheet: the most probable owner of each agent (or 'free')."]


def dossier_note_lines(game, observer: str | None, max_notes: int = 8, found=None) -> list[str]:
    """The rulebook's dossier notes so far, from ``observer``'s information
    (:func:`heimlich_lab.inference.dossier.dossier_notes`): each player's support, then the latest notes.
    ``found``: the notes already computed (a replay filters them by log index)."""
    if found is None:
        try:
            from ..inference.dossier import dossier_notes
            found = list(dossier_notes(game, observer))
        except (ImportError, HeimlichError, TypeError, AttributeError):
            return []
    support = [str(n) for n in found if getattr(n, "kind", "") == "support"]
    other = [str(n) for n in found if getattr(n, "kind", "") != "support"]
    return support + (other[-(max_notes - len(support)):] if max_notes > len(support) else [])


def _normalise_sheet(s) -> dict | None:
    if not isinstance(s, Mapping):
        return None
    return {str(c): (v if isinstance(v, str) else str(v[0]) if isinstance(v, (tuple, list)) and v else str(v))
            for c, v in s.items()}


def _default_belief_factory():
    """A Belief per observer when the deduction module is installed, else ``None`` (public log only)."""
    try:
        from ..inference.belief import Belief
        from ..inference.model import BoltzmannModel
    except ImportError:
        return None

    def make(game, observer):
        return Belief.for_game(game, observer, BoltzmannModel())
    return make


def play_in_notebook(players: Sequence[str], bots: Mapping[str, object] | None = None, rules: Rules | None = None,
                     seed: int | None = None, viewer: str | None = None, speed_ms: int = 400, beliefs: bool = True,
                     start: Position | None = None, autoplay: bool | None = None, **kwargs) -> BoardWidget:
    """Open a game on the board: hot seat for the humans, bots for the rest (see :class:`GameController`).

    ``bots`` maps player names to bots; players without a bot are humans. With no humans, ``viewer``
    chooses the view shown (``None`` spectator, a player, or ``"omniscient"``). The controller is
    ``widget.controller``.
    """
    ctl = GameController(players, bots=bots, rules=rules, seed=seed, viewer=viewer, speed_ms=speed_ms,
                         beliefs=beliefs, start=start, autoplay=autoplay, **kwargs)
    return ctl.widget


class ReplayController:
    """A saved record on the board with a slider, seen as one player, a spectator, or omniscient (labelled).

    ``beliefs=True`` shows the viewer's belief at each position (a spectator's for a
    spectator; none for the omniscient view, which is not anyone's knowledge).
    """

    def __init__(self, record: GameRecord, viewer: str | None = None, speed_ms: int = 300, beliefs: bool = True,
                 model=None):
        if isinstance(record, (str, Path)):
            record = GameRecord.load(record)
        if viewer not in (None, "omniscient", *record.players):
            raise WrongPlayer(f"viewer must be a player of the record, 'omniscient' or None, not {viewer!r}",
                              rule="players")
        self.record = record
        self.viewer = viewer
        self.views = []
        self.applied: list[int] = []    # log entries applied at each position
        self.game = None
        for _, g in record.games():
            self.game = g
            if self.applied and len(g.history) == self.applied[-1]:
                continue                # an entry already drawn from the seed (chance="auto"): same position
            self.applied.append(len(g.history))
            self.views.append(g.omniscient_view() if viewer == "omniscient" else g.view(viewer))
        self.index = len(self.views) - 1
        self.belief = None
        self.belief_error = ""
        if beliefs and viewer != "omniscient":
            self.belief = _replay_belief(record, viewer, model)
        self._panels: dict[int, dict] = {}
        self._hist = None
        self._notes = None       # the record as the viewer may read it (for the dossier notes)
        self.widget = BoardWidget(controller=self, speed_ms=speed_ms)
        self.refresh()

    @property
    def label(self) -> str:
        who = {None: "a spectator (public information only)",
               "omniscient": "omniscient: every secret shown"}.get(self.viewer, f"{self.viewer}'s view")
        return f"Replay, {who}"

    def _panel(self, index: int) -> dict | None:
        b = self.belief
        if b is None:
            return None
        if index not in self._panels:
            steps = [s for s in b.history if s.index < self.applied[index]]   # the decisions made by then
            if self._hist is None:
                self._hist = b.marginals_history()
            hist = self._hist
            k = len(steps)
            rows = [*b.players, "free"]
            m = {r: {a: float(hist[k, i, j]) for j, a in enumerate(b.agents)} for i, r in enumerate(rows)}
            ent = list(b.entropy_history()[:k + 1])
            expl = ""
            if steps and steps[-1].update is not None:
                expl = "\n".join(b.explain_step(steps[-1]))
            v = self.views[index]
            sheet, notes = None, []
            if v.rules.dossier and v.dossier_done:
                own = set(v.own_agents)
                opp = [r for r in rows if r != self.viewer]
                sheet = {c: max(opp, key=lambda r: m[r][c]) for c in v.agents if c not in own}
                notes = ["Suggested sheet: the most probable owner of each agent (or 'free') at this point."]
            notes = notes + dossier_note_lines(None, self.viewer, found=self._notes_until(self.applied[index]))
            self._panels[index] = belief_panel(b, marginals=m, entropy=ent, explanation=expl, sheet=sheet,
                                               notes=notes, version=self.applied[index])
        return self._panels[index]

    def _notes_until(self, n: int) -> list:
        """The viewer's dossier notes from the first ``n`` log entries (the record as the viewer may read it)."""
        try:
            from ..inference.dossier import dossier_notes
            if self._notes is None:
                self._notes = self.record.as_player(self.viewer) if self.viewer is not None else self.record.public()
            return list(dossier_notes(self._notes, self.viewer, until=n))
        except (ImportError, HeimlichError, TypeError, AttributeError):
            return []

    def refresh(self):
        v = self.views[self.index]
        state = board_state(self.game, None if self.viewer == "omniscient" else self.viewer,
                            omniscient=self.viewer == "omniscient", view=v,
                            replay={"index": self.index, "length": len(self.views)}, last_move=last_move_of(v),
                            belief=self._panel(self.index), label=self.label)
        self.widget.state = state

    def seek(self, index: int):
        self.index = max(0, min(int(index), len(self.views) - 1))
        self.refresh()

    def handle_message(self, msg: dict):
        if msg.get("type") == "replay":
            try:
                self.seek(int(msg.get("index", self.index)))
            except (TypeError, ValueError):
                pass
        elif msg.get("type") == "control" and msg.get("command") == "step":
            self.seek(self.index + 1)


def _replay_belief(record: GameRecord, viewer, model):
    try:
        from ..inference.belief import Belief
        from ..inference.model import BoltzmannModel
    except ImportError:
        return None
    rec = record.as_player(viewer) if viewer is not None else record.public()
    try:
        return Belief.from_record(rec, observer=viewer, model=model or BoltzmannModel())
    except HeimlichError:
        return None


def replay_in_notebook(record, viewer: str | None = None, speed_ms: int = 300, beliefs: bool = True) -> BoardWidget:
    """Replay a record (or a path to one) on the board with a slider."""
    return ReplayController(record, viewer=viewer, speed_ms=speed_ms, beliefs=beliefs).widget
