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
from ....errors import HeimlichError
from ....widget.front_end import clamp_speed
from ....widget.table_controller import TableController
from ..rules.actions import Action
from ..rules.game import CHANCE, Game, Position
from ..rules.records import GameRecord
from ..rules.ruleset import Rules
from .front_end import BoardWidget
from .panel import LivePanels, default_belief_factory
from .replay_controller import ReplayController
from .state import ROLL, LogMemo, board_setup, board_state, last_is_card_play, last_move_of


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
    ``ask_cards`` (Top Secret): ``"playable"`` (the default) asks a human whether to play a card only when they
    hold one that can act now; the other questions (``announce no`` when no card can be played, ``pass`` or
    ``done`` when nothing else is legal) are answered for them by the table, through the engine, so the record
    still holds every decision. ``"always"`` asks every question. Each human changes it for their own seat on the
    board (a check box beside the hand; :meth:`set_ask_cards`). The course's notebooks need the default: none
    of them teaches the forced answers (notebook 01 plays the basic game; 09 reads the cards off the board), and
    a lesson on the ``announce`` decision itself would pass ``ask_cards="always"``.
    """

    #: The pause after another player's card play in autoplay, at least (ms): the card stays on the screen long
    #: enough to be read (at speed 0, the fastest, there is no pause).
    CARD_PAUSE_MS = 2500
    #: The choices of ``ask_cards``.
    ASK_CARDS = ("playable", "always")

    def __init__(self, players: Sequence[str], bots: Mapping[str, object] | None = None, rules: Rules | None = None,
                 seed: int | None = None, viewer: str | None = None, beliefs: bool = True,
                 belief_factory: Callable | None = None, speed_ms: int = 400, autoplay: bool | None = None,
                 start: Position | None = None, class_folder=None, create_folder: bool = False,
                 ask_cards: str = "playable"):
        players = self._seat(players, bots, viewer, autoplay)
        if ask_cards not in self.ASK_CARDS:
            raise HeimlichError(f"ask_cards is one of {', '.join(map(repr, self.ASK_CARDS))}, not {ask_cards!r}")
        #: human -> whether the table answers their card questions when no card can act now (see ``ask_cards``)
        self.only_playable = {h: ask_cards == "playable" for h in self.humans}
        #: how many decisions the table answered for a human (they are in the record like any other)
        self.answered_for: dict[str, int] = {h: 0 for h in self.humans}
        self._class_data(class_folder, create_folder)
        self.seed = seed
        self.rng = random.Random(seed)
        self.game = Game(players, rules=rules, seed=seed, chance="manual", start=start)
        self.fixed_viewer = viewer
        speed_ms = clamp_speed(speed_ms)
        self.log_memos: dict = {}    # shown viewer -> its LogMemo (the log read once: its lines, the latest moves)
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
            autoplay=self.autoplay_state(), last_move=last_move_of(view), view=None,
            ask_cards=({"player": viewer, "only_playable": self.only_playable[viewer]}
                       if viewer in self.humans and g.rules.top_secret else None),
            memo=self.log_memos.setdefault((viewer, omniscient), LogMemo()))
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
        """Draw every due chance event from the controller's generator, except a human's die roll, and answer the
        card questions a human asked not to be asked (``ask_cards``)."""
        g = self.game
        while True:
            if g.is_chance_node:
                if g.phase == "roll" and g.active_player in self.humans:
                    return
                self._apply(self._sample(), CHANCE)
            elif not self._answer_for_human():
                return

    def forced_card_answer(self) -> Action | None:
        """The answer the table gives for the human whose card question is due, when their seat asks only about
        cards that can act now and nothing else is legal (``announce no``, ``pass``, ``done``); else ``None``."""
        g = self.game
        p = g.current_player
        if p is None or p not in self.humans or not self.only_playable.get(p) or g.phase not in ("announce", "round"):
            return None
        legal = g.legal_actions()
        if len(legal) != 1:
            return None
        act = Action.parse(legal[0])
        forced = act.kind in ("pass", "done") or (act.kind == "announce" and not act.args[0])
        return act if forced else None

    def _answer_for_human(self) -> bool:
        act = self.forced_card_answer()
        if act is None:
            return False
        p = self.game.current_player
        self._apply(act, p)
        self.answered_for[p] += 1
        return True

    def set_ask_cards(self, player: str, only_playable: bool = True) -> None:
        """A human's own preference (the board's check box): ask about playing a card only when they hold one
        that can act now (``True``), or ask every card question (``False``). A question due now is answered at
        once when it is one the table answers."""
        if player not in self.humans:
            raise HeimlichError(f"{player!r} is not a human at this table; the humans are {', '.join(self.humans)}")
        self.only_playable[player] = bool(only_playable)
        if not self.curtain:
            self._resolve_chance()
        self._after_change()

    def handle_message(self, msg: dict) -> None:
        """The board's messages (see :meth:`TableController.handle_message`), and ``ask-cards`` (a human's check
        box: ``{type: "ask-cards", player, value}``; only the human shown on the screen may change it)."""
        if msg.get("type") == "ask-cards":
            player = msg.get("player")
            value = msg.get("value")
            if player in self.humans and player == self.viewer and not self.curtain and isinstance(value, bool):
                self.set_ask_cards(player, value)
            else:
                self.refresh()      # the box shows the kernel's state again
            return
        super().handle_message(msg)

    def step_delay_ms(self) -> float:
        """After a card play, autoplay waits at least :data:`CARD_PAUSE_MS` (three steps at a slow
        pace) so that the card can be read; otherwise one step."""
        ms = super().step_delay_ms()
        if ms > 0 and last_is_card_play(self.game.view(None)):
            return max(3 * ms, self.CARD_PAUSE_MS)
        return ms

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
