"""The board widget: play Heimlich & Co. inside JupyterLab.

:func:`play_in_notebook` opens a game for humans around one screen (hot seat),
humans against bots, or bots alone; :func:`replay_in_notebook` shows a saved
record with a slider. The front end is a small ES module in ``widgets/``
(shipped inside the wheel as ``heimlich_lab/widget/static``); the state it
draws comes from :func:`heimlich_lab.widget.state.board_state`, which is made
from the viewer's view only.

>>> from heimlich_lab.bots import RandomBot
>>> w = play_in_notebook(["Ann", "Bob"], bots={"Bob": RandomBot(seed=1)}, seed=3)
>>> w.state["viewer"], w.state["is_human_turn"]
('Ann', True)
>>> w.controller.send_action("move grey+1" if w.state["phase"] == "move" else "points 1") is None
True
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Mapping, Sequence

import anywidget
import traitlets

from ..errors import HeimlichError, WrongPlayer
from ..rules.actions import Action
from ..rules.game import Game
from ..rules.records import GameRecord
from ..rules.ruleset import Rules
from .state import belief_panel, board_state, last_move_of


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
        if self.controller is not None:
            self.controller.handle_message(content)


class GameController:
    """Runs one game for the widget: humans' clicks, bots' moves, the curtain, autoplay and beliefs.

    ``viewer`` fixes whose view is shown when no human is playing (``None`` spectator, a player name, or
    ``"omniscient"``). With humans, the view follows the human whose decision it is, behind a curtain
    when the screen must change hands.
    """

    def __init__(self, players: Sequence[str], bots: Mapping[str, object] | None = None, rules: Rules | None = None,
                 seed: int | None = None, viewer: str | None = None, beliefs: bool = True,
                 belief_factory: Callable | None = None, speed_ms: int = 400, autoplay: bool | None = None):
        bots = dict(bots or {})
        unknown = set(bots) - set(players)
        if unknown:
            raise HeimlichError(f"bots given for unknown player(s) {sorted(unknown)}; players are {list(players)}")
        for p, b in bots.items():
            if not callable(getattr(b, "choose", None)):
                raise HeimlichError(f"the bot for {p} has no choose(view, legal_actions) method")
        self.game = Game(players, rules=rules, seed=seed)
        self.bots = bots
        self.humans = [p for p in players if p not in bots]
        if viewer not in (None, "omniscient", *players):
            raise HeimlichError(f"viewer must be a player, 'omniscient' or None, not {viewer!r}")
        self.fixed_viewer = viewer
        self.viewer = self.humans[0] if self.humans else viewer
        self.curtain: str | None = None
        self.playing = (not self.humans) if autoplay is None else autoplay
        self.last_error = ""
        self.timings: list[dict] = []
        self.beliefs = {}
        if beliefs:
            factory = belief_factory or _default_belief_factory()
            if factory is not None:
                observers = self.humans or ([viewer] if viewer not in (None, "omniscient") else [None])
                self.beliefs = {o: factory(self.game, o) for o in observers}
        self.widget = BoardWidget(controller=self, speed_ms=speed_ms)
        self.refresh()

    # ------------------------------------------------------------ state
    def refresh(self, last_move: dict | None = None) -> None:
        g = self.game
        viewer = None if self.curtain else self.viewer
        omniscient = viewer == "omniscient"
        belief = None
        if not self.curtain and self.beliefs:
            b = self.beliefs.get(viewer if not omniscient else None)
            if b is not None:
                belief = _panel(b)
        view = g.omniscient_view() if omniscient else g.view(viewer)
        state = board_state(
            g, None if omniscient else viewer, omniscient=omniscient, human_players=self.humans,
            belief=belief, curtain=self.curtain,
            autoplay={"available": bool(self.bots), "playing": self.playing, "speed_ms": self.widget.speed_ms}
            if self.bots else None,
            last_move=last_move if last_move is not None else last_move_of(view))
        if self.last_error:
            state["error"] = self.last_error
        self.widget.state = state

    # ------------------------------------------------------------ actions
    def _apply(self, action) -> None:
        """Apply a decision, updating every belief from its observer's view before the decision."""
        g = self.game
        actor = g.current_player
        act = Action.parse(action)
        before = {o: g.view(o) for o in self.beliefs}
        g.apply(act, player=actor)
        for o, b in self.beliefs.items():
            b.observe(before[o], actor, act)

    def send_action(self, notation: str) -> None:
        """A human's decision from the front end (or from Python). Errors are shown, the game is unchanged."""
        g = self.game
        t0 = time.perf_counter()
        self.last_error = ""
        current = g.current_player
        if current is None:
            self.last_error = "No decision is due."
        elif current not in self.humans:
            self.last_error = f"It is {current}'s decision, and {current} is a bot."
        elif self.curtain or self.viewer != current:
            self.last_error = f"It is {current}'s decision: hand the screen over first."
        else:
            try:
                self._apply(notation)
            except HeimlichError as e:
                self.last_error = str(e)
        self._after_change()
        self.timings.append({"what": "human", "seconds": time.perf_counter() - t0})

    def step(self) -> bool:
        """Let the bot whose decision it is act once. Returns False if no bot is due."""
        g = self.game
        p = g.current_player
        if p is None or p not in self.bots:
            return False
        t0 = time.perf_counter()
        a = self.bots[p].choose(g.view(p), g.legal_actions())
        self._apply(a)
        self._after_change()
        self.timings.append({"what": "bot", "seconds": time.perf_counter() - t0})
        return True

    def run_bots(self, max_steps: int = 10_000) -> int:
        """Let bots act until a human's decision or the end (for scripts and tests)."""
        n = 0
        while n < max_steps and self.step():
            n += 1
        return n

    def _after_change(self):
        g = self.game
        cur = g.current_player
        if self.humans and cur in self.humans and cur != self.viewer and len(self.humans) > 1:
            self.curtain = f"Hand over to {cur}, then click"
        elif self.humans and cur in self.humans and len(self.humans) == 1:
            self.viewer = cur
        self.refresh()

    def reveal(self) -> None:
        """The next human has the screen: lift the curtain and show their view."""
        if self.curtain:
            self.curtain = None
            self.viewer = self.game.current_player
        self.refresh()

    def handle_message(self, msg: dict) -> None:
        kind = msg.get("type")
        if kind == "action":
            self.send_action(str(msg.get("action", "")))
        elif kind == "curtain":
            self.reveal()
        elif kind == "control":
            cmd = msg.get("command")
            if cmd == "step":
                self.step() or self.refresh()
            elif cmd == "play":
                self.playing = True
                self.refresh()
            elif cmd == "pause":
                self.playing = False
                self.refresh()
            elif cmd == "speed":
                self.widget.speed_ms = max(0, int(msg.get("value", self.widget.speed_ms)))
                self.refresh()
        elif kind == "timing":
            self.timings.append({"what": msg.get("what", "front-end"), "seconds": float(msg.get("ms", 0)) / 1000})

    @property
    def record(self) -> GameRecord:
        return self.game.record


def _panel(belief) -> dict:
    sheet = None
    try:
        from ..inference.dossier import secret_dossier
        if getattr(belief, "dossier_ready", False):
            sheet = secret_dossier(belief)
    except ImportError:
        pass
    return belief_panel(belief, sheet=sheet)


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
                     **kwargs) -> BoardWidget:
    """Open a game on the board: hot seat for the humans, bots for the rest.

    ``bots`` maps player names to bots; players without a bot are humans. With no humans, ``viewer``
    chooses the view shown (``None`` spectator, a player, or ``"omniscient"``).
    """
    ctl = GameController(players, bots=bots, rules=rules, seed=seed, viewer=viewer, speed_ms=speed_ms,
                         beliefs=beliefs, **kwargs)
    return ctl.widget


class ReplayController:
    """A saved record on the board with a slider, seen as one player, a spectator, or omniscient (labelled)."""

    def __init__(self, record: GameRecord, viewer: str | None = None, speed_ms: int = 300):
        if isinstance(record, (str, Path)):
            record = GameRecord.load(record)
        if viewer not in (None, "omniscient", *record.players):
            raise WrongPlayer(f"viewer must be a player of the record, 'omniscient' or None, not {viewer!r}",
                              rule="players")
        self.record = record
        self.viewer = viewer
        self.views = []
        self.game = None
        for _, g in record.games():
            self.game = g
            self.views.append(g.omniscient_view() if viewer == "omniscient" else g.view(viewer))
        self.index = len(self.views) - 1
        self.widget = BoardWidget(controller=self, speed_ms=speed_ms)
        self.refresh()

    def refresh(self):
        v = self.views[self.index]
        state = board_state(self.game, None if self.viewer == "omniscient" else self.viewer,
                            omniscient=self.viewer == "omniscient", view=v,
                            replay={"index": self.index, "length": len(self.views)}, last_move=last_move_of(v))
        self.widget.state = state

    def seek(self, index: int):
        self.index = max(0, min(int(index), len(self.views) - 1))
        self.refresh()

    def handle_message(self, msg: dict):
        if msg.get("type") == "replay":
            self.seek(msg.get("index", self.index))
        elif msg.get("type") == "control" and msg.get("command") == "step":
            self.seek(self.index + 1)


def replay_in_notebook(record, viewer: str | None = None, speed_ms: int = 300) -> BoardWidget:
    """Replay a record (or a path to one) on the board with a slider."""
    return ReplayController(record, viewer=viewer, speed_ms=speed_ms).widget
