"""The Secrets table in the notebook: an anywidget for live games (hot seat, humans against bots, bots alone)
and for replays of a record.

The front end is one ES module and its CSS, ``widgets/secrets/table.js`` and ``table.css`` (no build step; the
wheel ships them as ``heimlich_lab/secrets/static``). It knows no rules: it draws the synced ``setup`` and
``state`` (:mod:`heimlich_lab.secrets.widget_state`, made from the viewer's view only) and sends messages:
``{"type": "action", "action": NOTATION}``, ``{"type": "curtain"}`` (the next human has the screen),
``{"type": "control", "command": "step" | "play" | "pause"}`` and ``{"type": "replay", "index": I}``.

>>> from heimlich_lab.secrets import RandomBot
>>> w = play_in_notebook(["Ann", "Bob", "Cy", "Dee"], bots={p: RandomBot(i) for i, p in enumerate(["Bob", "Cy", "Dee"])},
...                      seed=3)
>>> ctl = w.controller
>>> w.state["viewer"], w.state["is_human_turn"], w.state["decisions"][0]["notation"]
('Ann', True, 'offer scientist Bob')
>>> ctl.send_action("accept"); w.state["error"].startswith("accept")    # refused: shown, game unchanged
True
>>> ctl.send_action("offer scientist Bob"); ctl.run_bots() > 0
True
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Mapping, Sequence

import anywidget
import traitlets

from ..errors import HeimlichError, WrongPlayer
from .belief import Belief
from .game import Game
from .records import SecretsRecord
from .rules import SecretsRules
from .widget_state import table_setup, table_state

_LOG = logging.getLogger(__name__)
OMNISCIENT = "omniscient"


def static_dir() -> Path:
    """Where the front end lives: inside the installed package (wheel), else the checkout's ``widgets/secrets``."""
    here = Path(__file__).resolve().parent
    for folder in (here / "static", here.parent.parent / "widgets" / "secrets"):
        if (folder / "table.js").exists():
            return folder
    raise FileNotFoundError("the Secrets table's front end (table.js) is missing from the package and the checkout")


class SecretsTableWidget(anywidget.AnyWidget):
    """The anywidget: ``setup`` (fixed for the game) and ``state`` (what the viewer may see now). Messages from
    the front end go to ``controller.handle_message``."""

    _esm = static_dir() / "table.js"
    _css = static_dir() / "table.css"
    setup = traitlets.Dict().tag(sync=True)
    state = traitlets.Dict().tag(sync=True)

    def __init__(self, controller=None, **kwargs):
        super().__init__(**kwargs)
        self.controller = controller
        self.on_msg(self._on_front_end_message)

    def _on_front_end_message(self, widget, content, buffers):
        if self.controller is not None and isinstance(content, dict):
            self.controller.handle_message(content)


def _check_viewer(viewer, players) -> None:
    if viewer not in (None, OMNISCIENT, *players):
        raise WrongPlayer(f"viewer must be a player, {OMNISCIENT!r} or None (a spectator), not {viewer!r}",
                          rule="players")


class SecretsController:
    """Runs one live game of Secrets for the table: humans' clicks, bots' moves, the curtain, autoplay, beliefs.

    ``players`` in seat order; ``bots`` maps some of them to bots (``choose(view, legal_actions)``), the others
    are humans at this screen. ``seed`` seeds the game (chance is drawn by the engine: the same seed and the same
    clicks give the same game). With one human the screen shows that human's view; with several (hot seat) it
    shows the view of the human who decides, and a curtain (public facts only) goes up whenever the screen must
    change hands. With no human, ``viewer`` chooses the view (``None`` spectator, a player, or ``"omniscient"``).
    ``autoplay``: bots act by themselves, ``speed_ms`` apart, on the kernel's event loop (default: when a human
    plays); otherwise click Step or Play. ``beliefs``: show the viewer's exact belief (``Belief``); ``model``: its
    player model (``None``: only what was seen and heard; a :class:`~heimlich_lab.secrets.SecretsModel` also reads
    the choices).
    """

    def __init__(self, players: Sequence[str], bots: Mapping[str, object] | None = None, seed: int | None = None,
                 rules: SecretsRules | None = None, viewer: str | None = None, speed_ms: int = 400,
                 autoplay: bool | None = None, beliefs: bool = True, model=None):
        bots = dict(bots or {})
        players = tuple(players)
        unknown = set(bots) - set(players)
        if unknown:
            raise HeimlichError(f"bots given for unknown player(s) {sorted(unknown)}; players are {list(players)}")
        for p, b in bots.items():
            if not callable(getattr(b, "choose", None)):
                raise HeimlichError(f"the bot for {p} has no choose(view, legal_actions) method")
        _check_viewer(viewer, players)
        if type(speed_ms) is not int or speed_ms < 0:
            raise HeimlichError(f"speed_ms must be a whole number of milliseconds >= 0, not {speed_ms!r}")
        self.game = Game(players, seed=seed, rules=rules)
        self.bots = bots
        self.humans = [p for p in players if p not in bots]
        self.viewer = self.humans[0] if len(self.humans) == 1 else (None if self.humans else viewer)
        self.speed_ms = speed_ms
        self.playing = bool(self.humans) if autoplay is None else bool(autoplay)
        self.curtain: str | None = None
        self.last_error = ""
        self._pending = None
        observers = self.humans or ([] if viewer == OMNISCIENT else [viewer])
        self.beliefs = {o: Belief.for_game(self.game, o, model) for o in observers} if beliefs else {}
        self.widget = SecretsTableWidget(controller=self, setup=table_setup(self.game.view(None)))
        if len(self.humans) > 1:
            self.curtain = self._curtain_text()
        self._after_change()

    # ------------------------------------------------------------ who acts, what is shown
    @property
    def decider(self) -> str | None:
        """The player whose decision it is (``None`` at the end)."""
        return self.game.current_player

    def _curtain_text(self) -> str:
        d = self.decider
        if d in self.humans:
            return f"Hand the screen to {d}, then click Reveal"
        return "The bots are playing (public view); the table asks for the next human when it is their turn"

    def refresh(self) -> None:
        """Rebuild the synced state from the shown viewer's view."""
        g = self.game
        if self.curtain:
            view, belief, markers = g.view(None), None, None
        elif self.viewer == OMNISCIENT:
            view, belief, markers = g.omniscient_view(), None, g.identities
        else:
            view, belief, markers = g.view(self.viewer), self.beliefs.get(self.viewer), None
        human = not self.curtain and self.viewer in self.humans and self.decider == self.viewer
        autoplay = {"playing": self.playing, "speed_ms": self.speed_ms} if self.bots else None
        self.widget.state = table_state(view, belief, legal=g.legal_actions() if human else (), human=human,
                                        curtain=self.curtain, autoplay=autoplay, error=self.last_error,
                                        markers=markers)

    # ------------------------------------------------------------ actions
    def _apply(self, action, player: str) -> None:
        self.game.apply(action, player=player)
        for o, b in self.beliefs.items():
            b.sync(self.game.view(o))

    def send_action(self, notation: str, player: str | None = None) -> None:
        """A human's decision (from the front end or Python). A refused action is shown in ``state["error"]`` and
        the game is unchanged."""
        self.last_error = ""
        d = self.decider
        if d is None:
            self.last_error = "The game is over."
        elif d not in self.humans:
            self.last_error = f"It is {d}'s decision, and {d} is a bot."
        elif player is not None and player != d:
            self.last_error = f"It is {d}'s decision, not {player}'s."
        elif self.curtain or self.viewer != d:
            self.last_error = f"It is {d}'s decision: hand the screen to {d} first."
        else:
            try:
                self._apply(str(notation).strip(), d)
            except HeimlichError as e:
                self.last_error = str(e)
        self._after_change()

    def step(self) -> bool:
        """Let the bot whose decision it is act once. Returns False if no bot is due."""
        p = self.decider
        if p is None or p not in self.bots:
            return False
        self.last_error = ""
        g = self.game
        a = self.bots[p].choose(g.view(p), g.legal_actions())
        try:
            self._apply(a, p)
        except HeimlichError as e:     # the detail may name the bot's secrets: to the kernel's log only
            _LOG.warning("the bot %s chose %s, which is refused: %s", p, a, e)
            self.last_error = f"The bot {p} chose an action the rules refuse; the game is paused (details in the log)."
            self.playing = False
            self.refresh()
            return False
        self._after_change()
        return True

    def run_bots(self, max_steps: int = 10_000) -> int:
        """Let bots act until a human's decision or the end (for scripts and tests). Returns the steps taken."""
        n = 0
        while n < max_steps and self.step():
            n += 1
        return n

    def _after_change(self) -> None:
        d = self.decider
        if len(self.humans) > 1:
            was = self.curtain
            if self.game.is_over:
                self.curtain, self.viewer = None, None          # the end: everyone sees the public result
            elif (d in self.humans and (self.curtain or d != self.viewer)) or (d not in self.humans and not self.curtain):
                self.curtain = self._curtain_text()
            if self.curtain != was:
                self.last_error = ""    # an old message may mention the previous viewer's cards
        if self.game.is_over:
            self.playing = False
        self.refresh()
        self._schedule()

    def reveal(self) -> None:
        """The next human has the screen: lift the curtain and show their view."""
        d = self.decider
        if self.curtain and d in self.humans:
            self.curtain, self.viewer, self.last_error = None, d, ""
        self.refresh()

    # ------------------------------------------------------------ autoplay on the kernel's loop
    def _schedule(self) -> None:
        if not self.playing or self._pending is not None or self.decider not in self.bots:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:        # plain Python: call run_bots()
            return
        self._pending = loop.call_later(self.speed_ms / 1000, self._tick)

    def _tick(self) -> None:
        self._pending = None
        if self.playing:
            self.step()

    def play(self) -> None:
        """Start autoplay."""
        self.playing = True
        self.refresh()
        self._schedule()

    def pause(self) -> None:
        """Stop autoplay."""
        self.playing = False
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self.refresh()

    def handle_message(self, msg: dict) -> None:
        """A message from the front end (see the module doc)."""
        kind = msg.get("type")
        if kind == "action":
            self.send_action(str(msg.get("action", "")))
        elif kind == "curtain":
            self.reveal()
        elif kind == "control":
            cmd = msg.get("command")
            if cmd == "step" and not self.step():
                self.refresh()
            elif cmd == "play":
                self.play()
            elif cmd == "pause":
                self.pause()

    @property
    def record(self) -> SecretsRecord:
        """The game's record so far (it replays exactly)."""
        return self.game.record


class SecretsReplay:
    """A record on the table with a slider, seen as one player, a spectator (``None``) or ``"omniscient"``.

    It opens at step 0 (the first decision); each step is one log entry that changes the position. The belief
    panel shows the viewer's exact belief at that step (none for the omniscient view, which is nobody's), with
    ``model`` as in :class:`SecretsController`.
    """

    def __init__(self, record, viewer: str | None = None, beliefs: bool = True, model=None):
        if isinstance(record, (str, Path)):
            record = SecretsRecord.load(record)
        if not isinstance(record, SecretsRecord):
            raise HeimlichError(f"a Secrets replay needs a SecretsRecord or a path to one, not {type(record).__name__}")
        _check_viewer(viewer, record.players)
        self.record, self.viewer = record, viewer
        omniscient = viewer == OMNISCIENT
        belief = Belief(record.players, viewer, record.rules, model) if beliefs and not omniscient else None
        self.states: list[dict] = []
        self.index = 0
        applied = -1
        for _, g in record.games():
            if len(g.history) == applied:
                continue                # an entry the seed had already drawn (chance="auto"): same position
            applied = len(g.history)
            view = g.omniscient_view() if omniscient else g.view(viewer)
            if belief is not None:
                belief.sync(view)
            self.states.append(table_state(view, belief, markers=g.identities if omniscient else None,
                                           label=self.label))
        for i, s in enumerate(self.states):
            s["replay"] = {"index": i, "length": len(self.states)}
        self.widget = SecretsTableWidget(controller=self, setup=table_setup(record.replay(0).view(None)))
        self.refresh()

    @property
    def label(self) -> str:
        who = {None: "a spectator (public information only)",
               OMNISCIENT: "omniscient: every secret shown"}.get(self.viewer, f"{self.viewer}'s view")
        return f"Replay, {who}"

    def refresh(self) -> None:
        self.widget.state = self.states[self.index]

    def seek(self, index: int) -> None:
        """Show step ``index`` (clamped to the record)."""
        self.index = max(0, min(int(index), len(self.states) - 1))
        self.refresh()

    def handle_message(self, msg: dict) -> None:
        if msg.get("type") == "replay":
            try:
                self.seek(int(msg.get("index", self.index)))
            except (TypeError, ValueError):
                pass
        elif msg.get("type") == "control" and msg.get("command") == "step":
            self.seek(self.index + 1)


def play_in_notebook(players: Sequence[str], bots: Mapping[str, object] | None = None, seed: int | None = None,
                     rules: SecretsRules | None = None, viewer: str | None = None, speed_ms: int = 400,
                     autoplay: bool | None = None, beliefs: bool = True, model=None) -> SecretsTableWidget:
    """Open a game of Secrets on the table (see :class:`SecretsController`); the controller is
    ``widget.controller``."""
    return SecretsController(players, bots=bots, seed=seed, rules=rules, viewer=viewer, speed_ms=speed_ms,
                             autoplay=autoplay, beliefs=beliefs, model=model).widget


def replay_in_notebook(record, viewer: str | None = None, beliefs: bool = True, model=None) -> SecretsTableWidget:
    """Replay a :class:`SecretsRecord` (or a path to one) on the table, from step 0 (see :class:`SecretsReplay`)."""
    return SecretsReplay(record, viewer=viewer, beliefs=beliefs, model=model).widget
