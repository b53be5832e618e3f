"""The kit as an app (Voila): a page with a title and a header that asks which game and which mode, then shows
ONE table for that choice.

The games are the registry's (:func:`heimlich_lab.engine.registry.games`): a game registered there is offered
here, with its player counts, its bots (:func:`heimlich_lab.bots.registry.available_bots`) and the on/off
options of its rules (the ``bool`` fields of its rules class). The modes are :data:`MODES`: a hot seat (every
seat a human at this screen), against bots (you and bots), watch (bots only; press Play) and replay a file (a
saved record of the chosen game, uploaded from the browser). ``notebooks/app.ipynb`` is the app's notebook,
served offline by :mod:`heimlich_lab.commands.voila_app` (``make app``).

>>> app = TableApp()
>>> [value for _, value in app.game.options] == [s.name for s in games() if s.has("play_in_notebook")]
True
>>> [value for _, value in app.mode.options]
['hotseat', 'bots', 'watch', 'replay']
>>> app.table is None, len(app.box.children)        # nothing is played before Start
(True, 3)
>>> first, second = [s.name for s in playable_games()][:2]
>>> app.start(game=first, mode="bots", players=3, seed=1).controller.humans
['You']
>>> app.start(game=second, mode="replay")        # a replay needs a file: the choice stays open
>>> "Choose a saved game (a .json record) to replay first." in app.error.value
True
"""
from __future__ import annotations

import dataclasses
import html
import json
import typing
from typing import Any

import ipywidgets as W

from ..bots.registry import available_bots, make_bot
from ..engine.registry import GameSpec, game_spec, games, spec_of_record
from ..errors import HeimlichError

#: The app's name: the page's title (``notebooks/app.ipynb``'s metadata) and its header.
TITLE = "Heimlich Lab"
#: mode -> its words on the chooser, in order.
MODES = {"hotseat": "Hot seat", "bots": "Against bots", "watch": "Watch bots", "replay": "Replay a file"}
#: What each mode means, under the chooser.
MODE_HELP = {
    "hotseat": "Everyone plays at this screen; a curtain hides each player's secrets until they click Reveal.",
    "bots": "You play the first seat; the bots play the others.",
    "watch": "Only bots play: press Play to let them act, Next for one decision, Pause to stop.",
    "replay": "Open a saved game (a record, .json) and step through it with the slider.",
}
#: The seats' names, in order ("You" is the human's seat against bots).
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu")
YOU = "You"
#: A replay's views: the spectator's, every secret, or a player's (added once the file is read).
SPECTATOR, OMNISCIENT = "spectator", "omniscient"
#: The largest record the app reads (as the command line: a long game's record is a few hundred kilobytes).
MAX_RECORD_BYTES = 16 * 2**20


def playable_games() -> list[GameSpec]:
    """The registry's games that have a table (``play_in_notebook``), in the registry's order.

    >>> [s.title for s in playable_games()][:2]
    ['Heimlich & Co.', 'Secrets']
    """
    return [s for s in games() if s.has("play_in_notebook")]


def seat_names(n: int, you: bool = False) -> list[str]:
    """``n`` seats' names; the first is :data:`YOU` when a human plays against bots.

    >>> seat_names(3), seat_names(3, you=True)
    (['Ann', 'Bob', 'Cy'], ['You', 'Bob', 'Cy'])
    >>> seat_names(14)[-1]
    'Player 14'
    """
    names = [NAMES[i] if i < len(NAMES) else f"Player {i + 1}" for i in range(n)]
    if you and names:
        names[0] = YOU
    return names


def default_bot(game: str) -> str:
    """The bot the chooser offers first: the game's first bot by name other than the game-agnostic ``random``
    (a game's own bots play like people), else ``random``.

    >>> [default_bot(s.name) for s in playable_games()][:2]
    ['bluff', 'bluff']
    """
    bots = available_bots(game)
    return next((b for b in bots if b != "random"), "random")


def rule_switches(spec: GameSpec) -> dict[str, bool]:
    """The on/off options of a game's rules (its rules class's ``bool`` fields) and their defaults.

    >>> [rule_switches(s) for s in playable_games()][:2]
    [{'top_secret': False, 'dossier': False}, {}]
    """
    cls = spec.load("rules")
    if not dataclasses.is_dataclass(cls):
        return {}
    hints = typing.get_type_hints(cls)
    return {f.name: f.default for f in dataclasses.fields(cls)
            if hints.get(f.name) is bool and isinstance(f.default, bool)}


def read_record(spec: GameSpec, data: bytes, name: str = "record"):
    """A saved record of the game ``spec`` from a file's bytes, or a :class:`HeimlichError` that says what is
    wrong (not JSON, too big, a record of another game).

    >>> read_record(playable_games()[0], b"not json")
    Traceback (most recent call last):
    ...
    heimlich_lab.errors.HeimlichError: record: not a saved game (a JSON record): Expecting value
    """
    if len(data) > MAX_RECORD_BYTES:
        raise HeimlichError(f"{name}: larger than {MAX_RECORD_BYTES // 2**20} MB; a saved game is much smaller")
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError) as e:
        reason = str(e).split(":")[0]
        raise HeimlichError(f"{name}: not a saved game (a JSON record): {reason}") from None
    if not isinstance(obj, dict):
        raise HeimlichError(f"{name}: not a saved game (a JSON record)")
    found = spec_of_record(obj)
    if found.name != spec.name:
        raise HeimlichError(f"{name} is a record of {found.title}, not of {spec.title}: choose {found.title}")
    return spec.load("record").from_json(data, source=name)


#: The app's own look: a compact header, so that the table below it fits a 1366x768 screen.
STYLE = """<style>
.hl-app .hl-app-header h1 { font-size: 1.6rem; margin: 0.2rem 0; }
.hl-app .hl-app-compact h1 { font-size: 1.25rem; margin: 0 1rem 0 0; }
.hl-app .hl-app-tagline { margin: 0 0 0.6rem 0; }
.hl-app .hl-app-bar { align-items: center; flex-wrap: wrap; }
.hl-app .hl-app-summary { margin: 0 1rem 0 0; }
.hl-app .hl-app-error { color: #a4161a; font-weight: 600; }
</style>"""


def _label(option: str) -> str:
    return option.replace("_", " ").capitalize()


class TableApp:
    """The chooser and the one table it opens (see the module doc). ``box`` is what the notebook shows; ``table``
    is the table widget once started (its controller is ``table.controller``), ``None`` before."""

    def __init__(self, speed_ms: int = 500):
        self.speed_ms = speed_ms
        self.table = None
        self.record = None
        self.style = W.HTML(STYLE)
        self.header = W.HTML(
            f'<header class="hl-app-header" data-testid="app-header"><h1>{html.escape(TITLE)}</h1>'
            '<p class="hl-app-tagline">Play a hidden-identity game, watch bots play it, or replay a saved game; '
            "the belief panel shows what a player can know.</p></header>")
        # above a table the header is one line: the title, what is played, and the way back to the chooser
        self.compact_header = W.HTML(
            f'<header class="hl-app-header hl-app-compact" data-testid="app-header"><h1>{html.escape(TITLE)}</h1>'
            "</header>")
        specs = playable_games()
        self.game = W.ToggleButtons(options=[(s.title, s.name) for s in specs], value=specs[0].name,
                                    description="Game", style={"description_width": "5em"})
        self.mode = W.ToggleButtons(options=[(v, k) for k, v in MODES.items()], value="bots",
                                    description="Mode", style={"description_width": "5em"})
        self.mode_help = W.HTML()
        self.players = W.BoundedIntText(description="Players", style={"description_width": "5em"},
                                        layout=W.Layout(width="12em"))
        self.bot = W.Dropdown(description="Bots", style={"description_width": "5em"}, layout=W.Layout(width="20em"))
        self.seed = W.BoundedIntText(value=1, min=0, max=2**31 - 1, description="Seed",
                                     style={"description_width": "5em"}, layout=W.Layout(width="14em"))
        self.switches = W.VBox()
        self.upload = W.FileUpload(accept=".json", multiple=False, description="Saved game (.json)")
        self.viewer = W.Dropdown(description="Seen by", style={"description_width": "5em"},
                                 layout=W.Layout(width="20em"))
        self.start_button = W.Button(description="Start", button_style="primary", icon="")
        self.start_button.add_class("hl-app-start")
        self.error = W.HTML()
        self.again = W.Button(description="Choose another game or mode", layout=W.Layout(width="auto"))
        self.again.add_class("hl-app-again")
        self.summary = W.HTML()
        self.options = W.VBox()
        self.chooser = W.VBox([self.game, self.mode, self.mode_help, self.options, self.start_button, self.error])
        self.chooser.add_class("hl-app-chooser")
        self.box = W.VBox([self.style, self.header, self.chooser])
        self.box.add_class("hl-app")
        self.game.observe(lambda _: self._game_changed(), "value")
        self.mode.observe(lambda _: self._show_options(), "value")
        self.upload.observe(lambda _: self._file_chosen(), "value")
        self.start_button.on_click(lambda _: self.start())
        self.again.on_click(lambda _: self.choose_again())
        self._game_changed()

    # ------------------------------------------------------------ the chooser
    @property
    def spec(self) -> GameSpec:
        return game_spec(self.game.value)

    def _game_changed(self) -> None:
        spec = self.spec
        self.players.min, self.players.max = spec.min_players, spec.max_players
        self.players.value = spec.default_players
        self.bot.options = available_bots(spec.name)
        self.bot.value = default_bot(spec.name)
        self.switches.children = [W.Checkbox(value=on, description=_label(name), indent=False)
                                  for name, on in rule_switches(spec).items()]
        self._forget_file()
        self._show_options()

    def _show_options(self) -> None:
        mode = self.mode.value
        if mode == "replay":
            shown = [self.upload, self.viewer] if self.record is not None else [self.upload]
        else:
            shown = [self.players, *([self.bot] if mode != "hotseat" else []), self.seed, self.switches]
        self.options.children = shown
        self.error.value = ""
        # set last: ``data-choice`` tells a page (and a browser test) that the kernel has shown this choice's options
        self.mode_help.value = (f'<p class="hl-app-help" data-choice="{self.game.value}/{mode}">'
                                f"{html.escape(MODE_HELP[mode])}</p>")

    def _forget_file(self) -> None:
        self.record = None
        self.viewer.options = [("a spectator (public information only)", SPECTATOR)]

    def _file_chosen(self) -> None:
        files = list(self.upload.value)
        self._forget_file()
        if files:
            f = files[-1]
            try:
                self.load_record(bytes(f["content"]), f.get("name", "record"))
            except HeimlichError as e:
                self._show_options()
                self.error.value = _error(str(e))
                return
        self._show_options()

    def load_record(self, data: bytes, name: str = "record") -> None:
        """Read a saved game for the replay (what the upload button does); a bad file raises a
        :class:`HeimlichError` and leaves the choice as it was."""
        record = read_record(self.spec, data, name)
        self.record = record
        self.viewer.options = [("a spectator (public information only)", SPECTATOR),
                               ("every secret shown (omniscient)", OMNISCIENT),
                               *((f"{p}", p) for p in record.players)]
        self.viewer.value = SPECTATOR
        self._show_options()

    def rules(self, switches: dict[str, bool] | None = None):
        """The rules of the chosen game with the chosen switches (``switches`` overrides the check boxes)."""
        chosen = {c.description: c.value for c in self.switches.children}
        values = {name: chosen.get(_label(name), on) for name, on in rule_switches(self.spec).items()}
        values.update(switches or {})
        return self.spec.load("rules")(**values)

    # ------------------------------------------------------------ the table
    def start(self, game: str | None = None, mode: str | None = None, players: int | None = None,
              seed: int | None = None, bot: str | None = None, rules: dict[str, bool] | None = None):
        """Open the table for the choice (the chooser's values, or those given here); returns the table widget,
        or ``None`` with a clear message in :attr:`error` when the choice cannot start (nothing changes then)."""
        try:
            if game is not None:
                self.game.value = game_spec(game).name
            if mode is not None:
                if mode not in MODES:
                    raise HeimlichError(f"unknown mode {mode!r}; modes are {', '.join(MODES)}")
                self.mode.value = mode
            for widget, value in ((self.players, players), (self.seed, seed), (self.bot, bot)):
                if value is not None:
                    widget.value = value
            table = self._open(rules)
        except HeimlichError as e:
            self.error.value = _error(str(e))
            return None
        self._show_table(table)
        return table

    def _open(self, switches):
        spec, mode = self.spec, self.mode.value
        if mode == "replay":
            if not spec.has("replay_in_notebook"):
                raise HeimlichError(f"{spec.title} has no replay table yet")
            if self.record is None:
                raise HeimlichError("Choose a saved game (a .json record) to replay first.")
            viewer = {SPECTATOR: None}.get(self.viewer.value, self.viewer.value)
            return spec.load("replay_in_notebook")(self.record, viewer=viewer)
        n = int(self.players.value)
        if not spec.min_players <= n <= spec.max_players:
            raise HeimlichError(f"{spec.title} is for {spec.min_players} to {spec.max_players} players, not {n}")
        names = seat_names(n, you=mode == "bots")
        seed = int(self.seed.value)
        bot_seats = {"hotseat": [], "bots": names[1:], "watch": names}[mode]
        bots = {p: make_bot(self.bot.value, seed=seed + 1 + i, game=spec.name) for i, p in enumerate(bot_seats)}
        kwargs: dict[str, Any] = {"bots": bots, "seed": seed, "rules": self.rules(switches),
                                  "speed_ms": self.speed_ms}
        if mode == "watch":
            kwargs["autoplay"] = False      # press Play
        return spec.load("play_in_notebook")(names, **kwargs)

    def _describe(self) -> str:
        spec, mode = self.spec, self.mode.value
        if mode == "replay":
            seen = dict((v, k) for k, v in self.viewer.options)[self.viewer.value]
            return f"{spec.title}: a saved game, seen by {seen}"
        who = {"hotseat": "hot seat", "bots": f"you against {self.bot.value} bots",
               "watch": f"{self.bot.value} bots"}[mode]
        return f"{spec.title}: {self.players.value} players, {who}, seed {self.seed.value}"

    def _show_table(self, table) -> None:
        self.close_table()
        self.table = table
        self.summary.value = f'<p class="hl-app-summary" data-testid="app-summary">{html.escape(self._describe())}</p>'
        bar = W.HBox([self.compact_header, self.summary, self.again])
        bar.add_class("hl-app-bar")
        self.box.children = [self.style, bar, table]

    def close_table(self) -> None:
        """Stop the table shown (its bots' autoplay) and close its widget."""
        table, self.table = self.table, None
        if table is None:
            return
        ctl = getattr(table, "controller", None)
        if ctl is not None and hasattr(ctl, "pause") and getattr(ctl, "bots", None):
            ctl.pause()
        table.close()

    def choose_again(self) -> None:
        """Back to the chooser (the table is closed)."""
        self.close_table()
        self.error.value = ""
        self.box.children = [self.style, self.header, self.chooser]

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.box)


def _error(text: str) -> str:
    return f'<p class="hl-app-error" role="alert" data-testid="app-error">{html.escape(text, quote=False)}</p>'


def table_app(speed_ms: int = 500) -> TableApp:
    """The app (what ``notebooks/app.ipynb`` shows)."""
    return TableApp(speed_ms=speed_ms)
