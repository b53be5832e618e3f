"""What every game's table shares in the notebook: one controller shape for live games, one for replays.

A game's live controller (in its package: Heimlich & Co.'s ``GameController``, Secrets' ``SecretsController``)
subclasses :class:`TableController`, which holds what does not depend on the game: who sits at the screen (humans, bots,
the viewer), the hot-seat curtain, the checks on a human's decision, a bot's step (a refused choice pauses the game; its
detail, which may name the bot's secrets, goes to the kernel's log only), autoplay on the kernel's event loop, and the
front end's messages. The subclass makes the game and the widget and says how an action is applied
(:meth:`TableController._apply`), how the shown state is built (:meth:`TableController.refresh`) and, if it draws chance
itself, :meth:`TableController._resolve_chance`. :class:`TableReplay` is the same for a record on a slider.

>>> from heimlich_lab.widget import GameController, ReplayController
>>> issubclass(GameController, TableController), issubclass(ReplayController, TableReplay)
(True, True)
"""
from __future__ import annotations

import asyncio
import logging
import pickle
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import Mapping, Sequence

from ..engine.views import view_label
from ..errors import HeimlichError, RecordError, WrongPlayer
from .class_folder import ClassGameSaver
from .front_end import clamp_speed

_LOG = logging.getLogger(__name__)

#: The viewer that sees every secret (a replay's or a bots-only game's view; nobody's knowledge).
OMNISCIENT = "omniscient"


def check_viewer(viewer, players: Sequence[str]) -> None:
    """Refuse a viewer that is not a player, ``"omniscient"`` or ``None`` (a spectator)."""
    if viewer not in (None, OMNISCIENT, *players):
        raise WrongPlayer(f"viewer must be a player, {OMNISCIENT!r} or None (a spectator), not {viewer!r}",
                          rule="players")


def _running_loop():
    """The running asyncio loop (a Jupyter kernel's), or ``None`` in plain Python."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class TableController(ABC):
    """The game-agnostic part of a live table (see the module doc). Subclasses set ``game`` and ``widget`` (a
    :class:`~heimlich_lab.widget.front_end.TableWidget`) after :meth:`_seat`, and define :meth:`refresh`."""

    #: The curtain's words when the screen must go to a human, and while bots play between humans: one wording
    #: in every game (the table shell, ``widgets/shell.js``, offers Reveal after "Hand the screen to").
    HAND_OVER = "Hand the screen to {player}, then click Reveal"
    BOTS_PLAYING = "The bots are playing (public view); the table asks for the next human when it is their turn"
    #: The view's label while the curtain is down (the same words as the shell's curtain).
    CURTAIN_LABEL = "Curtain down: public information only"
    #: The refusal of a decision made at a screen that shows someone else.
    NOT_SHOWN = "It is {player}'s decision: hand the screen to {player} first."

    def _seat(self, players: Sequence[str], bots: Mapping[str, object] | None, viewer, autoplay) -> tuple[str, ...]:
        """Check and keep who plays: the bots, the humans (the others), whose view is shown, autoplay."""
        bots = dict(bots or {})
        players = tuple(players)
        unknown = set(bots) - set(players)
        if unknown:
            raise HeimlichError(f"bots given for unknown player(s) {sorted(unknown)}; players are {list(players)}")
        for p, b in bots.items():
            if not callable(getattr(b, "choose", None)):
                raise HeimlichError(f"the bot for {p} has no choose(view, legal_actions) method")
        check_viewer(viewer, players)
        self.bots = bots
        self.humans = [p for p in players if p not in bots]
        self.viewer: str | None = self.humans[0] if len(self.humans) == 1 else (None if self.humans else viewer)
        self.curtain: str | None = None
        self.playing = bool(self.humans) if autoplay is None else bool(autoplay)
        self.last_error = ""
        self.timings: list[dict] = []
        self._pending = None         # the scheduled autoplay step (an asyncio TimerHandle)
        self.class_saver: ClassGameSaver | None = None
        return players

    def _class_data(self, class_folder, create_folder: bool = False) -> None:
        """With a ``class_folder``, the board asks the humans' consent and saves the finished game there
        (:mod:`heimlich_lab.widget.class_folder`); call after :meth:`_seat`."""
        if class_folder is not None:
            self.class_saver = ClassGameSaver(class_folder, self.humans, self.bots, create=create_folder)
        elif create_folder:
            raise HeimlichError("create_folder=True needs a class_folder")

    def set_consent(self, player: str, agree: bool = True) -> None:
        """A human at the table ticks (or unticks) the *Class data* box: the game is saved into the class folder
        when it ends (at once, if it is over) if every human agreed; unticking a saved game deletes its file."""
        if self.class_saver is None:
            raise HeimlichError("this table saves no class data: open it with class_folder=...")
        self.class_saver.set_consent(player, agree)
        self._sync_class_data()      # a finished game is saved now if everyone agreed

    def _sync_class_data(self) -> None:
        """Save a finished game if everyone agreed, and show the *Class data* box's state."""
        saver = self.class_saver
        if saver is None:
            return
        if self.game.is_over:
            saver.game_over(self.record)
        state = saver.state()
        if self.widget.class_data != state:
            self.widget.class_data = state

    # ------------------------------------------------------------ what the game says
    @property
    def decider(self) -> str | None:
        """The player whose decision it is; ``None`` if nobody's."""
        return self.game.current_player

    @abstractmethod
    def _apply(self, action, actor: str) -> None:
        """Apply one action (and let the beliefs follow it): each game's controller says how."""

    def _resolve_chance(self) -> None:
        """Draw the chance events now due (nothing, when the engine draws its own)."""
        return None

    @abstractmethod
    def refresh(self) -> None:
        """Rebuild the synced state from the shown viewer's view: each game's controller says how."""

    def _nothing_due(self) -> str:
        return "The game is over." if self.game.is_over else "No decision is due."

    # ------------------------------------------------------------ decisions
    def send_action(self, notation: str, player: str | None = None) -> None:
        """A human's decision from the front end (or from Python), as an action's notation.

        ``player`` (optional) says who acts; by default the human shown on the screen.
        A refused action is shown as an error (``state["error"]``) and the game is unchanged.
        """
        t0 = time.perf_counter()
        self.last_error = ""
        d = self.decider
        who = player if player is not None else (None if self.curtain else self.viewer)
        if d is None:
            self.last_error = self._nothing_due()
        elif d not in self.humans:
            self.last_error = f"It is {d}'s decision, and {d} is a bot."
        elif player is not None and player != d:
            self.last_error = f"It is {d}'s decision, not {player}'s."
        elif self.curtain or who != d:
            self.last_error = self.NOT_SHOWN.format(player=d)
        else:
            self._decide(str(notation).strip(), d)
        if not self.last_error:
            self._resolve_chance()
        self._after_change()
        self._timed("human", t0)

    def _decide(self, notation: str, player: str) -> None:
        """Apply a human's checked decision; a refusal becomes ``last_error``."""
        try:
            self._apply(notation, player)
        except HeimlichError as e:
            self.last_error = str(e)

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
            # the engine's explanation may name the bot's secrets: the human sees only that the bot failed
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

    # ------------------------------------------------------------ the curtain
    def _hot_seat_curtain(self) -> None:
        """Raise the curtain when the screen must change hands (hot seat), before the first decision too."""
        if len(self.humans) > 1:
            d = self.decider
            self.curtain = self.HAND_OVER.format(player=d) if d in self.humans else self.BOTS_PLAYING

    def autoplay_state(self) -> dict | None:
        """The controls' state for the front end (the table shell's Next, Play, Pause, speed), or ``None`` with no
        bot: ``available`` is true when a bot's decision is due, so Next, Play and Pause act (while a human
        decides, or rolls, they would do nothing and are disabled); ``playing``; ``speed_ms``."""
        if not self.bots:
            return None
        return {"available": not self.game.is_over and self.decider in self.bots, "playing": self.playing,
                "speed_ms": self.widget.speed_ms}

    def _after_change(self) -> None:
        """Curtain and viewer for the decision now due, then refresh and schedule the next bot step."""
        d = self.decider
        if len(self.humans) > 1:
            was = self.curtain
            if self.game.is_over:
                self.curtain, self.viewer = None, None          # the end: everyone sees the public result
            elif d in self.humans:
                if self.curtain or d != self.viewer:
                    self.curtain = self.HAND_OVER.format(player=d)
            elif not self.curtain:
                self.curtain = self.BOTS_PLAYING
            if self.curtain != was:
                self.last_error = ""    # an old error message may mention the previous viewer's cards
        if self.game.is_over:
            self.playing = False
        self._sync_class_data()
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
        self._pending = loop.call_later(max(0, self.step_delay_ms()) / 1000, self._tick)

    def step_delay_ms(self) -> float:
        """How long autoplay waits before the next bot step (ms): the pace, ``speed_ms``; a game may wait longer
        after something worth reading (Heimlich & Co. after a card play)."""
        return self.widget.speed_ms

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
        elif kind == "consent" and self.class_saver is not None:
            try:
                self.set_consent(str(msg.get("player", "")), msg.get("value") is True)
            except HeimlichError:       # not a human of this table: the box shows the kernel's state again
                self.class_saver.version += 1
                self._sync_class_data()
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
                value = message_number(msg.get("value"))     # a number: not true (1 ms), not text
                if value is not None:                        # 1e400 (inf) is the slowest pace, as any big number
                    self.set_speed(max(-1e9, min(value, 1e9)))

    @property
    def record(self):
        """The game's record so far (it replays exactly)."""
        return self.game.record


def message_number(x) -> float | None:
    """A number sent by the front end (JSON: an int or a float, ``inf`` for 1e400), or ``None`` for anything else
    (text, ``true``, NaN, a list): a message cannot pass a boolean for 1 or overflow ``int()``.

    >>> (message_number(3), message_number(1e400), message_number(True), message_number("2"),
    ...  message_number(float("nan")))
    (3, inf, None, None, None)
    """
    if isinstance(x, bool) or not isinstance(x, (int, float)) or x != x:
        return None
    return x


class TableReplay:
    """The game-agnostic part of a replay: a position ``index`` on a slider, moved by the front end's messages.
    Subclasses keep ``viewer`` and define ``refresh`` and ``__len__`` (the number of positions)."""

    index = 0

    @property
    def label(self) -> str:
        """Whose replay it is, in words (shown above the table)."""
        who = {None: "a spectator (public information only)",
               OMNISCIENT: "omniscient: every secret shown"}.get(self.viewer) or view_label(self.viewer)
        return f"Replay, {who}"

    def seek(self, index: int) -> None:
        """Show position ``index`` (clamped to the record)."""
        self.index = max(0, min(int(index), len(self) - 1))
        self.refresh()

    def handle_message(self, msg: dict) -> None:
        """A message from the front end: ``replay`` (go to an index) or the Step control."""
        if msg.get("type") == "replay":
            index = message_number(msg.get("index"))
            if index is not None:
                self.seek(max(-1, min(index, len(self))))    # clamped before int(): 1e400 is the end
        elif msg.get("type") == "control" and msg.get("command") == "step":
            self.seek(self.index + 1)


class ReplaySteps:
    """A replay's shown states, made on demand: the positions are kept only every ``every`` steps (pickled: a kept
    position is a compact string of bytes, not a graph of objects), and a state is made by replaying from the
    nearest earlier kept position; the last ``keep`` states made are kept too. Opening walks the record once (so a
    malformed record still raises here, before anything opens) without making any state; an entry that does not
    apply raises :class:`~heimlich_lab.errors.RecordError` naming it.

    ``start`` is the position before the first step (any object ``pickle`` takes, e.g. a tuple of the game and the
    belief); ``advance(position, entry)`` applies one of ``entries`` to it in place; ``render(position)`` makes the
    state shown there (it must depend on the position only); ``mark(position)``, if given, is called on every kept
    position when it is kept (to bring a cache inside the position up to date). ``steps[i]`` is the state after
    ``i`` entries, with ``"replay": {"index": i, "length": len(steps)}`` added; ``final`` is the position after
    the last entry.

    >>> steps = ReplaySteps([0], [1, 2, 3, 4, 5], lambda p, e: p.append(p[-1] + e), lambda p: {"sum": p[-1]}, every=2)
    >>> len(steps), steps[5], steps[0]["sum"], steps[3]["sum"], steps.final
    (6, {'sum': 15, 'replay': {'index': 5, 'length': 6}}, 0, 6, [0, 1, 3, 6, 10, 15])
    """

    def __init__(self, start, entries: Sequence, advance, render, *, every: int = 32, keep: int = 8,
                 mark=None):
        if type(every) is not int or every < 1 or type(keep) is not int or keep < 1:
            raise HeimlichError(f"every and keep must be whole numbers >= 1, not {every!r} and {keep!r}")
        self._entries, self._advance, self._render = list(entries), advance, render
        self._every, self._keep = every, keep
        self._kept: list[bytes] = []
        position = start
        for i in range(len(self._entries) + 1):
            if i % every == 0:
                if mark is not None:
                    mark(position)
                self._kept.append(self._save(position))
            if i < len(self._entries):
                try:
                    advance(position, self._entries[i])
                except HeimlichError as e:
                    raise RecordError(f"the record does not replay: entry {i} {self._entries[i]!r}: {e}") from e
        #: The position after the last entry (the walk's own; never changed afterwards).
        self.final = position
        self._work, self._at = None, -1       # the position being replayed, and after how many entries
        self._made: OrderedDict[int, dict] = OrderedDict()

    @staticmethod
    def _save(position) -> bytes:
        return pickle.dumps(position, pickle.HIGHEST_PROTOCOL)

    @staticmethod
    def _load(data: bytes):
        return pickle.loads(data)

    def __len__(self) -> int:
        return len(self._entries) + 1

    def __getitem__(self, index: int) -> dict:
        if not 0 <= index < len(self):
            raise IndexError(f"step {index} is not in 0..{len(self) - 1}")
        if index in self._made:
            self._made.move_to_end(index)
            return self._made[index]
        base = index - index % self._every
        if not base <= self._at <= index:      # the working position cannot get there: start from a kept one
            self._work, self._at = self._load(self._kept[base // self._every]), base
        while self._at < index:
            self._advance(self._work, self._entries[self._at])
            self._at += 1
        state = self._render(self._work)
        state["replay"] = {"index": index, "length": len(self)}
        self._made[index] = state
        while len(self._made) > self._keep:
            self._made.popitem(last=False)
        return state
