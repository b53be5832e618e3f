"""The Secrets table in the notebook: an anywidget for live games (hot seat, humans against bots, bots alone)
and for replays of a record.

The front end is ``widgets/secrets/table.js`` on the table shell (``widgets/shell.js``), bundled by esbuild into
``widgets/secrets/table.bundle.js`` (``node widgets/build.mjs``; committed, and shipped with ``table.css`` in the
wheel as ``heimlich_lab/games/secrets/static``). It knows no rules: it draws the synced ``setup`` and
``state`` (:mod:`heimlich_lab.games.secrets.widget_state`, made from the viewer's view only) and sends messages:
``{"type": "action", "action": NOTATION}``, ``{"type": "curtain"}`` (the next human has the screen),
``{"type": "control", "command": "step" | "play" | "pause"}`` and ``{"type": "replay", "index": I}``.

>>> from heimlich_lab.games.secrets import RandomBot
>>> w = play_in_notebook(["Ann", "Bob", "Cy", "Dee"],
...                      bots={p: RandomBot(i) for i, p in enumerate(["Bob", "Cy", "Dee"])}, seed=3)
>>> ctl = w.controller
>>> w.state["viewer"], w.state["is_human_turn"], w.state["decisions"][0]["notation"]
('Ann', True, 'offer scientist Bob')
>>> ctl.send_action("accept"); w.state["error"].startswith("accept")    # refused: shown, game unchanged
True
>>> ctl.send_action("offer scientist Bob"); ctl.run_bots() > 0
True
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

from ...engine.words import for_any_name
from ...errors import HeimlichError
from ...widget.front_end import TableWidget, find_static
from ...widget.table_controller import OMNISCIENT, TableController, TableReplay, check_viewer
from .belief import Belief
from .game import Game
from .records import SecretsRecord
from .rules import SecretsRules
from .widget_state import table_setup, table_state


def static_dir() -> Path:
    """Where the front end lives: inside the installed package (wheel), else the checkout's ``widgets/secrets``."""
    here = Path(__file__).resolve().parent
    return find_static(here, here.parents[2] / "widgets" / "secrets", "table.bundle.js")


class SecretsTableWidget(TableWidget):
    """The Secrets table (see :class:`~heimlich_lab.widget.front_end.TableWidget`)."""

    _esm = static_dir() / "table.bundle.js"     # one module: anywidget loads it from a blob URL
    _css = static_dir() / "table.css"


class SecretsController(TableController):
    """Runs one live game of Secrets for the table: humans' clicks, bots' moves, the curtain, autoplay, beliefs.

    ``players`` in seat order; ``bots`` maps some of them to bots (``choose(view, legal_actions)``), the others
    are humans at this screen. ``seed`` seeds the game (chance is drawn by the engine: the same seed and the same
    clicks give the same game). With one human the screen shows that human's view; with several (hot seat) it
    shows the view of the human who decides, and a curtain (public facts only) goes up whenever the screen must
    change hands. With no human, ``viewer`` chooses the view (``None`` spectator, a player, or ``"omniscient"``).
    ``autoplay``: bots act by themselves, ``speed_ms`` apart, on the kernel's event loop (default: when a human
    plays); otherwise click Step or Play. ``beliefs``: show the viewer's exact belief (``Belief``); ``model``: its
    player model (``None``: only what was seen and heard; a :class:`~heimlich_lab.games.secrets.SecretsModel` also reads
    the choices). ``class_folder``: save the finished game there for the class if every human ticks the table's
    consent box (``create_folder=True`` creates a missing folder; :mod:`heimlich_lab.widget.class_folder`).
    What does not depend on the game (the curtain, the checks on a decision, a bot's step, autoplay,
    the front end's messages) is :class:`~heimlich_lab.widget.table_controller.TableController`'s.
    """

    def __init__(self, players: Sequence[str], bots: Mapping[str, object] | None = None, seed: int | None = None,
                 rules: SecretsRules | None = None, viewer: str | None = None, speed_ms: int = 400,
                 autoplay: bool | None = None, beliefs: bool = True, model=None, class_folder=None,
                 create_folder: bool = False):
        players = self._seat(players, bots, viewer, autoplay)
        self._class_data(class_folder, create_folder)
        if type(speed_ms) is not int or speed_ms < 0:
            raise HeimlichError(f"speed_ms must be a whole number of milliseconds >= 0, not {speed_ms!r}")
        self.game = Game(players, seed=seed, rules=rules)
        observers = self.humans or ([] if viewer == OMNISCIENT else [viewer])
        self.beliefs = {o: Belief.for_game(self.game, o, model) for o in observers} if beliefs else {}
        #: observer -> how many of its belief's updates were made by the end of its last turn (the headline's
        #: "since your last turn")
        self._turn_ends: dict = {}
        self.widget = SecretsTableWidget(controller=self, speed_ms=speed_ms, setup=table_setup(self.game.view(None)))
        self._hot_seat_curtain()
        self._after_change()

    # ------------------------------------------------------------ what is shown
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
        self.widget.state = table_state(view, belief, legal=g.legal_actions() if human else (), human=human,
                                        curtain=self.curtain, autoplay=self.autoplay_state(),
                                        error=for_any_name(self.last_error), markers=markers,
                                        since=self._turn_ends.get(self.viewer, 0))

    # ------------------------------------------------------------ actions
    def _apply(self, action, player: str) -> None:
        before = self.game.view(None)
        turn, active = before.turn, before.active_player
        self.game.apply(action, player=player)
        ended = active if self.game.view(None).turn != turn else None   # whose turn is over
        for o, b in self.beliefs.items():
            b.sync(self.game.view(o))
            if o == ended:     # o's turn is over: the headline's story starts anew
                self._turn_ends[o] = len(b.posterior.history)


class SecretsReplay(TableReplay):
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
        check_viewer(viewer, record.players)
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

    def __len__(self) -> int:
        """The number of positions on the slider."""
        return len(self.states)

    def refresh(self) -> None:
        self.widget.state = self.states[self.index]


def play_in_notebook(players: Sequence[str], bots: Mapping[str, object] | None = None, seed: int | None = None,
                     rules: SecretsRules | None = None, viewer: str | None = None, speed_ms: int = 400,
                     autoplay: bool | None = None, beliefs: bool = True, model=None, class_folder=None,
                     create_folder: bool = False) -> SecretsTableWidget:
    """Open a game of Secrets on the table (see :class:`SecretsController`); the controller is
    ``widget.controller``. With ``class_folder`` the table saves the finished game for the class, with consent."""
    return SecretsController(players, bots=bots, seed=seed, rules=rules, viewer=viewer, speed_ms=speed_ms,
                             autoplay=autoplay, beliefs=beliefs, model=model, class_folder=class_folder,
                             create_folder=create_folder).widget


def replay_in_notebook(record, viewer: str | None = None, beliefs: bool = True, model=None) -> SecretsTableWidget:
    """Replay a :class:`SecretsRecord` (or a path to one) on the table, from step 0 (see :class:`SecretsReplay`)."""
    return SecretsReplay(record, viewer=viewer, beliefs=beliefs, model=model).widget
