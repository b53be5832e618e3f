"""Bots out of process: an untrusted bot runs in its own worker process and sees only its player's record.

A bot in the game's own process is *trusted code*: Python lets it reach any object of the process
(``gc.get_referrers``, ``sys._getframe``), the game and its secrets included, whatever the view hides
(docs/rules.md#information-rule). A bot that must not cheat (a student's bot in a class tournament) runs
in a :class:`SandboxedBot`:

* its code runs in a separate Python process (a fresh interpreter, not a fork: nothing of the game's process
  is in it), started with pipes and a cleaned environment;
* for each decision it receives the game so far as its player's record (JSON, ``docs/record-format.md``: the
  rules, the players, its own deal, the log as it saw it) and the legal actions in notation, and answers one
  action in notation (the game's wire codec, :mod:`heimlich_lab.sandbox.wire`); the worker rebuilds a view
  from that alone, so the bot's ``choose(view, legal_actions)`` works as in process;
* it has ``time_limit`` seconds per decision and ``memory_mb`` megabytes of memory beyond what it holds after
  loading (``resource.setrlimit``); it may write no file; on Linux with Landlock it may read only Python's
  own folders and its own, open no network connection and signal no process outside itself.

**The fault rule** (docs/rules.md#bots-out-of-process). A decision the bot does not answer with one of the
legal actions is a *fault*: it raised, its process died, it ran out of memory, it took longer than
``time_limit``, or it answered something that is not a legal action. The bot loses that turn: the
decision is taken by the fallback, the first legal action in the engine's order. After ``max_faults``
faults in one game it is not asked again in that game (every later decision is the fallback's). The game
goes on and counts; the bot's faults are kept (:attr:`SandboxedBot.faults`; a tournament's ``bot_faults``
and ``bot_fault`` columns). A worker that died, hung or ran out of memory is killed and a fresh one
serves the next decision.

A bot file (the contract: :mod:`heimlich_lab.sandbox.bot_file`; an example: ``examples/student_bot.py``):

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "first.py"
>>> _ = path.write_text("def choose(view, legal_actions):\\n    return str(legal_actions[0])\\n")
>>> from heimlich_lab import Rules, play
>>> from heimlich_lab.bots import RandomBot
>>> spec = BotFile(path, time_limit=20)
>>> bot = spec.make(seed=1)
>>> rec = play(Rules(), {"Ann": bot, "Bob": RandomBot(2)}, seed=3)
>>> bot.close()
>>> rec.result is not None, bot.faults
(True, [])
"""
from __future__ import annotations

import os
import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.registry import default_game
from ..errors import HeimlichError
from .process import Fault, acquire, release
from .wire import codec, wire_games

__all__ = ["BotFile", "SandboxedBot", "FaultRecord", "FAULT_KINDS"]

#: What a fault can be: the bot raised, its process died; ran out of memory; took too long; answered
#: something that is not a legal action; the view could not be rebuilt; the file could not be loaded.
FAULT_KINDS = ("crash", "memory", "timeout", "answer", "illegal", "view", "load")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,39}")


@dataclass(frozen=True)
class FaultRecord:
    """One fault: the decision (counted from 0 in the bot's game), its kind and what happened."""

    decision: int
    kind: str
    message: str

    def __str__(self):
        return f"{self.kind} at decision {self.decision}: {self.message}"


def _positive(x, what: str, integer: bool = False):
    ok = (type(x) is int) if integer else (isinstance(x, (int, float)) and not isinstance(x, bool))
    if not ok or not (x > 0) or x != x or x == float("inf"):
        raise HeimlichError(f"{what} must be a positive {'whole ' if integer else ''}number, not {x!r}")
    return x


@dataclass(frozen=True)
class BotFile:
    """A bot in a Python file (see :mod:`heimlich_lab.sandbox.bot_file` for the contract), and how it runs.

    ``sandbox=True`` (the default): in its own process (:class:`SandboxedBot`) with ``time_limit`` seconds per
    decision, ``memory_mb`` megabytes and at most ``max_faults`` faults per game (see the fault rule in the
    module doc); ``confine`` also applies Landlock where Linux has it. ``sandbox=False``: loaded into this
    process, as trusted code (no limit applies). Calling it, ``BotFile(...)(seed=...)``, makes a bot.
    """

    path: str
    name: str = ""
    sandbox: bool = True
    time_limit: float = 5.0
    memory_mb: int = 512
    max_faults: int = 3
    confine: bool = True
    game: str = ""          # the game's registered name ("": the default game)

    def __post_init__(self):
        path = Path(self.path)
        if path.suffix != ".py" or not path.is_file():
            raise HeimlichError(f"--bot-file {self.path}: a bot file is a Python file (.py) that exists")
        object.__setattr__(self, "path", str(path.resolve()))
        object.__setattr__(self, "name", self.name or path.stem)
        if not _NAME.fullmatch(self.name):
            raise HeimlichError(f"--bot-file {self.path}: {self.name!r} cannot name a bot: use letters, digits, "
                                "'_', '.', '-' (give a name: NAME=PATH)")
        _positive(self.time_limit, "the time limit per decision (seconds)")
        _positive(self.memory_mb, "the memory limit (MB)", integer=True)
        _positive(self.max_faults, "max_faults", integer=True)
        if self.game == "":
            object.__setattr__(self, "game", default_game())
        if self.game not in wire_games():
            codec(self.game)    # the error: an unknown game, or one whose bots cannot run out of process

    def __call__(self, seed=None):
        return self.make(seed)

    def make(self, seed=None):
        """A new bot for one game: a :class:`SandboxedBot`, or (``sandbox=False``) the file's bot in process."""
        if not self.sandbox:
            from .bot_file import bot_factory, load_module
            return bot_factory(load_module(self.path), self.path)(seed=seed)
        return SandboxedBot(self, seed)

    def check(self) -> None:
        """Load the file (in a worker process when sandboxed) and raise :class:`HeimlichError` if it does not
        follow the contract; done before a tournament plays any game."""
        if not self.sandbox:
            self.make(seed=0)
            return
        try:
            worker = acquire(self.path, self.game, self.memory_mb, self.confine)
        except Fault as f:
            raise HeimlichError(f"bot file {self.path}: {f.message}") from None
        release(worker)


def _give_back(holder: list) -> None:
    if holder:
        release(holder.pop())


@dataclass(eq=False)
class SandboxedBot:
    """A bot whose code runs in its own process (see the module doc): ``choose(view, legal_actions)`` sends the
    view as its player's record and returns the bot's answer, or, on a fault, the fallback's.

    ``faults`` lists the :class:`FaultRecord` of every fault; ``close()`` hands its worker back for the next
    game (done anyway when the bot is garbage-collected)."""

    spec: BotFile
    seed: int | None = None
    faults: list = field(default_factory=list)

    def __post_init__(self):
        self._worker: list = []         # the worker while this bot holds one (a list: the finalizer shares it)
        self._finalizer = weakref.finalize(self, _give_back, self._worker)
        self._started = False
        self._log = None                # the game's event log seen last (to notice a new game)
        self._consumed = 0
        self._header: dict | None = None
        self._entries: list = []        # every log entry (event) sent in this game (to restart a worker mid-game)
        self._fields = None             # the view's public fields now, if its game's codec sends them
        self._sent = 0                  # how many of them the current worker holds
        self._worker_game = None        # the header of the game the current worker follows
        self._decision = 0
        self._game_faults = 0
        self._codec = codec(self.spec.game)

    @property
    def name(self) -> str:
        return self.spec.name

    def _new_game(self, view) -> bool:
        """Whether ``view`` is of another game than the last one (a bot object may play several games in turn)."""
        if self._log is None:
            return True
        return not self._codec.same_game(view, self._log, self._consumed)

    def _read(self, view) -> None:
        """Take in what is new in ``view`` (the game's codec says what): the header once per game, then the
        new log entries or events, and the view's current fields if the codec sends them."""
        if self._new_game(view):
            self._consumed, self._header, self._entries, self._sent, self._fields = 0, None, [], 0, None
            self._decision, self._game_faults = 0, 0
        header, entries, self._fields, self._consumed = self._codec.message(view, self._consumed)
        self._log = self._codec.game_mark(view)
        if header is not None:
            self._header = header
        self._entries.extend(entries)

    def _payload(self) -> dict:
        return {"entries": self._entries[self._sent:], "fields": self._fields}

    def choose(self, view, legal_actions):
        self._read(view)
        legal = tuple(legal_actions)
        if not legal:
            raise HeimlichError("choose() was called with no legal action")
        decision = self._decision
        self._decision += 1
        if self._game_faults >= self.spec.max_faults:
            return legal[0]
        try:
            answer = self._ask(legal)
        except Fault as f:
            return self._fault(decision, f.kind, f.message, legal, kill=f.kill)
        try:
            action = type(legal[0]).parse(answer)
        except HeimlichError as e:
            return self._fault(decision, "illegal", f"answered {answer[:80]!r}, which is not an action ({e})"[:300],
                               legal)
        if action not in legal:
            return self._fault(decision, "illegal", f"answered {answer[:80]!r}, which is not a legal action now",
                               legal)
        return next(a for a in legal if a == action)    # the engine's own object

    def _ask(self, legal) -> str:
        from .process import SETUP_LIMIT
        w = self._worker[0] if self._worker else None
        if w is not None and not w.alive:
            self._drop_worker()
            w = None
        if w is None:
            w = acquire(self.spec.path, self.spec.game, self.spec.memory_mb, self.spec.confine)
            self._worker.append(w)
        if not self._started:
            w.request({"op": "start", "seed": self.seed}, SETUP_LIMIT)
            self._started = True
        if self._worker_game is not self._header:   # a new game, or a new worker in the middle of one
            w.request({"op": "game", "header": self._header}, SETUP_LIMIT)
            self._worker_game, self._sent = self._header, 0
        new, self._sent = self._payload(), len(self._entries)  # held by the worker even if the bot fails
        answer = w.request({"op": "choose", "log": new, "legal": [str(a) for a in legal]}, self.spec.time_limit)
        action = answer.get("action")
        if not isinstance(action, str):
            raise Fault("answer", f"sent {str(answer)[:80]}, not an action")
        return action

    def _drop_worker(self) -> None:
        if self._worker:
            self._worker.pop().kill()
        self._started, self._worker_game, self._sent = False, None, 0

    def _fault(self, decision: int, kind: str, message: str, legal, kill: bool = False):
        self.faults.append(FaultRecord(decision, kind, message))
        self._game_faults += 1
        if kind == "load":      # the file will not load the next time either: no more tries in this game
            self._game_faults = self.spec.max_faults
        if kill:
            self._drop_worker()
        return legal[0]

    def close(self) -> None:
        """Hand the worker back (for the next game); the bot can still play: it takes a worker again."""
        _give_back(self._worker)
        self._started, self._worker_game, self._sent = False, None, 0

    def stderr_tail(self, lines: int = 10) -> str:
        """The last lines the bot printed (its standard output and error), while it holds a worker."""
        return self._worker[0].stderr_tail(lines) if self._worker else ""

    def __repr__(self):
        return f"SandboxedBot({os.path.basename(self.spec.path)}, seed={self.seed})"
