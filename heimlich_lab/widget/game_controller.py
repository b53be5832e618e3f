"""The game controller: runs one live game for the board widget.

Humans' clicks, bots' moves, chance, the hot-seat curtain, autoplay on the kernel's
event loop, and the belief panels (:class:`~heimlich_lab.widget.panel.LivePanels`).

The controller runs the game with ``chance="manual"`` and draws every chance
event from its own seeded generator: bots' rolls, the deal and card draws at
once, a human's roll when the human clicks "Roll the die". The record holds
every outcome, so it replays exactly, and the same seed with the same clicks
gives the same game.
"""
from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Callable, Mapping, Sequence

from ..errors import HeimlichError
from ..rules.actions import Action
from ..rules.game import CHANCE, Game, Position
from ..rules.records import GameRecord
from ..rules.ruleset import Rules
from ..rules.words import for_any_name
from .front_end import BoardWidget, clamp_speed
from .panel import LivePanels, default_belief_factory
from .replay_controller import ReplayController
from .state import ROLL, board_setup, board_state, last_move_of

_LOG = logging.getLogger(__name__)


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
    ``belief_factory(game, observer)`` makes the belief panel's belief, which then reads the observer's
    decisions one at a time with ``add(decision)`` (see :class:`~heimlich_lab.widget.panel.LivePanels`); by default a
    :class:`~heimlich_lab.inference.belief.Belief` with the Boltzmann model
    (:func:`~heimlich_lab.widget.panel.default_belief_factory`).
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
        speed_ms = clamp_speed(speed_ms)
        self.panels = LivePanels(self.game, (), default_belief_factory)   # no beliefs while chance deals
        self._resolve_chance()       # the deal (and a bot's first roll, the first cards)
        if beliefs:
            observers = self.humans or [viewer if viewer not in (None, "omniscient") else None]
            self.panels = LivePanels(self.game, observers, belief_factory or default_belief_factory)
        self.widget = BoardWidget(controller=self, speed_ms=speed_ms, setup=board_setup(self.game.view(None)))
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

    @property
    def beliefs(self) -> dict:
        """Observer -> the belief shown in that observer's panel (those still following the game)."""
        return self.panels.beliefs

    @property
    def belief_errors(self) -> dict:
        """Observer -> why that observer's belief stopped."""
        return self.panels.errors

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
            belief = self.panels.panel(None if omniscient else viewer, view)
        state = board_state(
            g, viewer, omniscient=omniscient, human_players=self.humans, belief=belief, curtain=self.curtain,
            autoplay=({"available": not g.is_over, "playing": self.playing, "speed_ms": self.widget.speed_ms}
                      if self.bots else None),
            last_move=last_move_of(view), view=None)
        if self.curtain and self.humans:
            state["view_label"] = "Curtain up: public information only"
        state["error"] = for_any_name(self.last_error)
        self.widget.state = state

    # ------------------------------------------------------------ actions
    def _apply(self, action, actor: str) -> None:
        """Apply one action; the belief panels follow it."""
        self.game.apply(action, player=actor)
        self.panels.follow()

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
            # the engine's explanation may name the bot's secrets (its dossier entry, its cards): the human
            # sees only that the bot failed, the detail goes to the kernel's log
            _LOG.warning("the bot %s chose %s, which is refused: %s", p, a, e)
            self.last_error = f"The bot {p} chose an action the rules refuse; the game is paused (details in the log)."
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
        if g.is_over:
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
        return ReplayController(self.record, viewer=viewer).widget
