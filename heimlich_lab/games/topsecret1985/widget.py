"""The Top Secret table in the notebook: an anywidget for live games (hot seat, humans against bots, bots alone)
and for replays of a record.

The front end is ``widgets/topsecret1985/table.js`` on the table shell (``widgets/shell.js``), bundled by esbuild
into ``widgets/topsecret1985/table.bundle.js`` (``node widgets/build.mjs``; committed, and shipped with
``table.css`` in the wheel as ``heimlich_lab/games/topsecret1985/static``). It knows no rules: it shows the synced
``setup`` and ``state`` (:mod:`heimlich_lab.games.topsecret1985.widget_state`, made from the viewer's view only;
the map is :func:`~heimlich_lab.games.topsecret1985.svg.board`'s picture), lays buttons over the places that
the viewer's legal decisions name (choose an agent, then the city it steps to) and sends messages:
``{"type": "action", "action": NOTATION}``, ``{"type": "curtain"}`` (the next human has the screen),
``{"type": "control", "command": "step" | "play" | "pause"}`` and ``{"type": "replay", "index": I}``.

>>> from heimlich_lab.games.topsecret1985 import RandomBot
>>> w = play_in_notebook(["Ann", "Bob"], bots={"Bob": RandomBot(1)}, seed=3)
>>> ctl = w.controller
>>> ctl.run_bots() >= 0 and w.state["viewer"], w.state["is_human_turn"], w.state["phase"]
('Ann', True, 'contents')
>>> ctl.send_action("contents A=5 B=5 C=1 D=bomb"); w.state["error"].startswith("'contents")  # refused: shown
True
>>> ctl.send_action("contents A=5 B=3 C=1 D=bomb"); w.state["seats"][0]["contents"]["D"]
'bomb'
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence

from ...engine.contract import CHANCE
from ...engine.words import for_any_name
from ...errors import HeimlichError
from ...widget.front_end import TableWidget, find_static
from ...widget.table_controller import OMNISCIENT, ReplaySteps, TableController, TableReplay, check_viewer
from .belief import Belief, Reader
from .game import Game
from .map import Map
from .model import Population
from .records import TopSecretRecord
from .rules import TopSecretRules
from .widget_state import LogWords, table_setup, table_state

__all__ = ["TopSecretController", "TopSecretReplay", "TopSecretTableWidget", "play_in_notebook",
           "replay_in_notebook", "static_dir"]


def static_dir() -> Path:
    """Where the front end lives: inside the installed package (wheel), else the checkout's
    ``widgets/topsecret1985``."""
    here = Path(__file__).resolve().parent
    return find_static(here, here.parents[2] / "widgets" / "topsecret1985", "table.bundle.js")


class TopSecretTableWidget(TableWidget):
    """The Top Secret table (see :class:`~heimlich_lab.widget.front_end.TableWidget`)."""

    _esm = static_dir() / "table.bundle.js"     # one module: anywidget loads it from a blob URL
    _css = static_dir() / "table.css"


class TopSecretController(TableController):
    """Runs one live game of Top Secret for the table: humans' clicks, bots' moves, the curtain, autoplay, beliefs.

    ``players`` in seat order (2 to 4); ``bots`` maps some of them to bots (``choose(view, legal_actions)``), the
    others are humans at this screen. ``seed`` seeds the game (the dice are drawn by the engine: the same seed and
    the same clicks give the same game); ``rules`` and ``map`` as :class:`~heimlich_lab.games.topsecret1985.Game`'s.
    With one human the screen shows that human's view; with several (hot seat) it shows the view of the human who
    decides, and a curtain (public facts only) goes up whenever the screen must change hands. With no human,
    ``viewer`` chooses the view (``None`` spectator, a player, or ``"omniscient"``). ``autoplay``: bots act by
    themselves, ``speed_ms`` apart (default: when a human plays); otherwise click Step or Play. ``beliefs``: show
    the viewer's belief about every opponent's suitcases (:class:`~heimlich_lab.games.topsecret1985.Belief`, with
    ``model``, a :class:`~heimlich_lab.games.topsecret1985.model.Population`; the default one by default).
    ``class_folder``: save the finished game there for the class if every human consents
    (:mod:`heimlich_lab.widget.class_folder`).
    """

    def __init__(self, players: Sequence[str], bots: Mapping[str, object] | None = None, seed: int | None = None,
                 rules: TopSecretRules | None = None, map: Map | None = None,   # noqa: A002 - the game's name
                 viewer: str | None = None, speed_ms: int = 400, autoplay: bool | None = None,
                 beliefs: bool = True, model: Population | None = None, class_folder: Any = None,
                 create_folder: bool = False):
        players = self._seat(players, bots, viewer, autoplay)
        self._class_data(class_folder, create_folder)
        if type(speed_ms) is not int or speed_ms < 0:
            raise HeimlichError(f"speed_ms must be a whole number of milliseconds >= 0, not {speed_ms!r}")
        self.game = Game(players, seed=seed, rules=rules, map=map)
        # every non-owner holds the same belief about an owner (belief.py): one spectator's belief serves every
        # viewer's panel, which leaves out the viewer's own suitcases
        self.belief: Belief | None = Belief(players, None, model) if beliefs else None
        self._reader = Reader(self.belief, players) if self.belief is not None else None
        self._words = LogWords()
        self.widget = TopSecretTableWidget(controller=self, speed_ms=speed_ms,
                                           setup=table_setup(self.game.view(None)))
        self._hot_seat_curtain()
        self._after_change()

    def refresh(self) -> None:
        """Rebuild the synced state from the shown viewer's view."""
        g = self.game
        if self.curtain:
            view, belief = g.view(None), None
        elif self.viewer == OMNISCIENT:
            view, belief = g.omniscient_view(), None
        else:
            view, belief = g.view(self.viewer), self.belief
        human = not self.curtain and self.viewer in self.humans and self.decider == self.viewer
        self.widget.state = table_state(view, belief, legal=g.legal_actions() if human else (), human=human,
                                        curtain=self.curtain, autoplay=self.autoplay_state(),
                                        error=for_any_name(self.last_error), words=self._words)

    def _apply(self, action: Any, actor: str) -> None:
        if self._reader is not None:
            self._reader.apply(self.game, action, actor)
        else:
            self.game.apply(action, player=actor)


class _Position(NamedTuple):
    """A replay's position: the game, the reader that feeds the belief (``None``: no belief) and the log in words."""

    game: Game
    reader: Reader | None
    words: LogWords


class TopSecretReplay(TableReplay):
    """A record on the table with a slider, seen as one player, a spectator (``None``) or ``"omniscient"``.

    It opens at step 0 (the position before the first log entry); each step is one entry of the record's log. The
    belief panel shows the viewer's belief at that step (none for the omniscient view, which is nobody's), with
    ``model`` as in :class:`TopSecretController`. The states are made as the slider asks
    (:class:`~heimlich_lab.widget.table_controller.ReplaySteps`): opening a long record is quick and holds the
    positions only every :attr:`CHECKPOINT_EVERY` steps and the last :attr:`KEEP_STATES` states shown.
    """

    #: Every how many steps a position is kept (a step further away is replayed from the nearest earlier one).
    CHECKPOINT_EVERY = 32
    #: How many of the states made last are kept (a slider going back and forth does not remake them).
    KEEP_STATES = 16

    def __init__(self, record: Any, viewer: str | None = None, beliefs: bool = True,
                 model: Population | None = None):
        if isinstance(record, (str, Path)):
            record = TopSecretRecord.load(record)
        if not isinstance(record, TopSecretRecord):
            raise HeimlichError("a Top Secret replay needs a TopSecretRecord or a path to one, not "
                                f"{type(record).__name__}")
        if not record.is_full:
            raise HeimlichError(f"a replay needs the full record; this one is a {record.view} record")
        check_viewer(viewer, record.players)
        self.record, self.viewer = record, viewer
        omniscient = viewer == OMNISCIENT
        belief = Belief(record.players, None, model) if beliefs and not omniscient else None
        reader = Reader(belief, record.players) if belief is not None else None
        game = Game(record.players, seed=record.seed, chance="manual", rules=record.rules, map=record.map)

        def view(position: _Position) -> Any:
            return position.game.omniscient_view() if omniscient else position.game.view(viewer)

        def advance(position: _Position, entry: tuple[str, str]) -> None:
            actor, text = entry
            if position.reader is not None:
                position.reader.apply(position.game, text, actor)
            else:
                position.game.apply(text, player=None if actor == CHANCE else actor)

        def render(position: _Position) -> dict[str, Any]:
            belief = position.reader.belief if position.reader is not None else None
            return table_state(view(position), belief, label=self.label, words=position.words)

        # the positions are kept every CHECKPOINT_EVERY steps and the states made as the slider asks
        # (ReplaySteps): opening walks the record once, which refuses a malformed one before anything opens
        self.states = ReplaySteps(_Position(game, reader, LogWords()), list(record.log), advance, render,
                                  every=self.CHECKPOINT_EVERY, keep=self.KEEP_STATES,
                                  mark=lambda p: p.words(view(p)))
        self.final = self.states.final.game
        self.widget = TopSecretTableWidget(controller=self, setup=table_setup(game.view(None)))
        self.refresh()

    def __len__(self) -> int:
        """The number of positions on the slider (the log's entries and the start)."""
        return len(self.states)

    def refresh(self) -> None:
        self.widget.state = self.states[self.index]


def play_in_notebook(players: Sequence[str], bots: Mapping[str, object] | None = None, seed: int | None = None,
                     rules: TopSecretRules | None = None, map: Map | None = None,   # noqa: A002
                     viewer: str | None = None, speed_ms: int = 400, autoplay: bool | None = None,
                     beliefs: bool = True, model: Population | None = None, class_folder: Any = None,
                     create_folder: bool = False) -> TopSecretTableWidget:
    """Open a game of Top Secret on the table (see :class:`TopSecretController`); the controller is
    ``widget.controller``."""
    return TopSecretController(players, bots=bots, seed=seed, rules=rules, map=map, viewer=viewer,
                               speed_ms=speed_ms, autoplay=autoplay, beliefs=beliefs, model=model,
                               class_folder=class_folder, create_folder=create_folder).widget


def replay_in_notebook(record: Any, viewer: str | None = None, beliefs: bool = True,
                       model: Population | None = None) -> TopSecretTableWidget:
    """Replay a :class:`TopSecretRecord` (or a path to one) on the table, from step 0 (see
    :class:`TopSecretReplay`)."""
    return TopSecretReplay(record, viewer=viewer, beliefs=beliefs, model=model).widget
