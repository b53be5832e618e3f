"""The game controller: runs one live game for the board widget.

Humans' clicks, bots' moves, chance, the hot-seat curtain, autoplay on the kernel's
event loop, and the belief panels (:class:`~heimlich_lab.games.heimlich.widget.panel.LivePanels`).

The controller runs the game with ``chance="manual"`` and draws every chance
event from its own seeded generator: bots' rolls, the deal and card draws at
once, a human's roll when the human clicks "Roll the die". The record holds
every outcome, so it replays exactly, and the same seed with the same clicks
gives the same game.
"""
from __future__ import annotations

import random
from typing import Callable, Mapping, Sequence

from ....engine.words import for_any_name
from ....widget.front_end import clamp_speed
from ....widget.table_controller import TableController
from ..rules.actions import Action
from ..rules.game import CHANCE, Game, Position
from ..rules.records import GameRecord
from ..rules.ruleset import Rules
from .front_end import BoardWidget
from .panel import LivePanels, default_belief_factory
from .replay_controller import ReplayController
from .state import ROLL, board_setup, board_state, last_move_of


class GameController(TableController):
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
    kernel's event loop); default: yes when a human plays, no for bots alone (click Play). ``autoplay=False``
    with a human pauses on the bots' turns: each bot decision waits for the board's Next button (or Pause,
    at any time), so that a class can follow what the bots do.
    ``belief_factory(game, observer)`` makes the belief panel's belief, which then reads the observer's
    decisions one at a time with ``add(decision)`` (see
    :class:`~heimlich_lab.games.heimlich.widget.panel.LivePanels`); by default a
    :class:`~heimlich_lab.games.heimlich.inference.belief.Belief` with the Boltzmann model
    (:func:`~heimlich_lab.games.heimlich.widget.panel.default_belief_factory`).
    ``class_folder``: save the finished game there for the class, if every human ticks the board's consent box
    (:mod:`~heimlich_lab.widget.class_folder`; ``create_folder=True`` creates a missing folder).
    """

    def __init__(self, players: Sequence[str], bots: Mapping[str, object] | None = None, rules: Rules | None = None,
                 seed: int | None = None, viewer: str | None = None, beliefs: bool = True,
                 belief_factory: Callable | None = None, speed_ms: int = 400, autoplay: bool | None = None,
                 start: Position | None = None, class_folder=None, create_folder: bool = False):
        players = self._seat(players, bots, viewer, autoplay)
        self._class_data(class_folder, create_folder)
        self.seed = seed
        self.rng = random.Random(seed)
        self.game = Game(players, rules=rules, seed=seed, chance="manual", start=start)
        self.fixed_viewer = viewer
        speed_ms = clamp_speed(speed_ms)
        self.panels = LivePanels(self.game, (), default_belief_factory)   # no beliefs while chance deals
        self._resolve_chance()       # the deal (and a bot's first roll, the first cards)
        if beliefs:
            observers = self.humans or [viewer if viewer not in (None, "omniscient") else None]
            self.panels = LivePanels(self.game, observers, belief_factory or default_belief_factory)
        self.widget = BoardWidget(controller=self, speed_ms=speed_ms, setup=board_setup(self.game.view(None)))
        self._hot_seat_curtain()
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
            autoplay=self.autoplay_state(),
            last_move=last_move_of(view), view=None)
        if self.curtain and self.humans:
            state["view_label"] = self.CURTAIN_LABEL
        state["error"] = for_any_name(self.last_error)
        self.widget.state = state
        self.panels.prepare()   # after the board is sent: the model's tables for the next decision, while it is thought

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

    def _decide(self, notation: str, player: str) -> None:
        """A human's checked decision: an action's notation, or ``"roll"`` for the die."""
        g = self.game
        if notation == ROLL:
            if g.is_chance_node and g.phase == "roll":
                self._apply(self._sample(), CHANCE)
            else:
                self.last_error = f"There is nothing to roll now: the decision is {g.phase}."
        elif g.is_chance_node:
            self.last_error = f"{player}: roll the die first (click 'Roll the die')."
        else:
            super()._decide(notation, player)

    @property
    def record(self) -> GameRecord:
        """The game's record so far (every chance outcome included: it replays exactly)."""
        return self.game.record

    def replay(self, viewer: str | None = None) -> "BoardWidget":
        """This game's record on a replay board."""
        return ReplayController(self.record, viewer=viewer).widget
