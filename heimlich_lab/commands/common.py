"""Arguments shared by several sub-commands, and the choice of game.

Every argument is checked by argparse before any work is done: a bad one ends the command with a usage error
(exit status 2) that names it. The games come from the registry (:mod:`heimlich_lab.engine.registry`):
``--game`` lists them, and each game's own options (its spec's ``cli.add_arguments``) are added in a group of
their own; an option of another game than the one chosen is refused (:func:`chosen_game`).
"""
from __future__ import annotations

import argparse
import math
import os
import re
import secrets
import stat
from pathlib import Path

from .._compat import legacy_exports
from ..engine.records import check_save_target
from ..engine.registry import GameSpec, default_game, game_spec, games
from ..errors import HeimlichError

#: Seeds given on the command line, and those drawn for you, are below this.
MAX_CLI_SEED = 2**63
#: The largest record file the command line reads (a long game's record is a few hundred kilobytes).
MAX_RECORD_BYTES = 16 * 2**20
#: How much of an offending input an error message quotes.
EXCERPT = 60


def excerpt(text, n: int = EXCERPT, quote: bool = True) -> str:
    """``repr(text)`` (or the text itself, ``quote=False``), cut to about ``n`` characters: what an error message
    quotes of bad input.

    >>> excerpt("7"), excerpt("x" * 1000), excerpt("/tmp", quote=False)
    ("'7'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (1000 characters)", '/tmp')
    """
    text = str(text)
    show = repr if quote else str
    if len(text) <= n:
        return show(text)
    return f"{show(text[:n - 4])}... ({len(text)} characters)"


def read_input_file(path: str, what: str = "record", limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a file the command reads (a record): a regular file of at most ``limit`` bytes (not
    ``/dev/zero``, a FIFO or a folder), or a :class:`HeimlichError` that says why not."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise HeimlichError(f"cannot read {what} {excerpt(path, quote=False)}: {e.strerror}") from None
    except ValueError:      # a NUL character: no file has such a name
        raise HeimlichError(f"cannot read {what} {excerpt(path)}: a file name has no NUL character") from None
    if not stat.S_ISREG(st.st_mode):
        raise HeimlichError(f"{excerpt(path, quote=False)}: not a regular file (a device, a FIFO or a folder); "
                            f"give a {what} file")
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise HeimlichError(f"cannot read {what} {excerpt(path, quote=False)}: {e.strerror}") from None
    if len(data) > limit:
        raise HeimlichError(f"{excerpt(path, quote=False)}: larger than {limit // 2**20} MB; that is no {what}")
    return data


def check_out_path(text: str) -> str:
    """Refuse an output path that is not a regular file or a new path (a device like ``/dev/null``, a FIFO, a
    folder), or that is where this command prints (``/dev/stdout`` redirected to a file): saving there
    would replace it."""
    check_save_target(text)     # what saving itself refuses: a folder, a device, a FIFO
    try:
        st = os.stat(text)
    except FileNotFoundError:
        return text             # a new file (or a link to one)
    for fd, name in ((1, "standard output"), (2, "standard error")):
        try:
            out = os.fstat(fd)
        except OSError:
            continue
        if (out.st_dev, out.st_ino) == (st.st_dev, st.st_ino):
            raise HeimlichError(f"{excerpt(text)} is this command's {name} (where it prints): saving there "
                                "would replace what was printed; give another file")
    return text


def seed_argument(text: str) -> int:
    """An argparse type: a seed, a whole number 0 <= seed < 2**63 in ASCII digits.

    >>> seed_argument("7")
    7
    >>> seed_argument("-1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '-1' is not a seed: give a whole number from 0 to 2**63 - 1
    """
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and int(text) < MAX_CLI_SEED):
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a seed: give a whole number from 0 to 2**63 - 1")
    return int(text)


def add_seed_argument(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--seed", type=seed_argument, default=None,
                   help=f"seed of {what}, 0 to 2**63-1 (default: one drawn from the OS, printed). A known, "
                        "small seed lets a bot recompute every secret: leave it out for a fair game")


def seed_or_drawn(seed: int | None) -> int:
    """``seed``, or a fresh one from the OS (63 bits: no bot can guess it)."""
    return secrets.randbits(63) if seed is None else seed


def whole_number(least: int):
    """An argparse type: a whole number >= ``least``."""
    def parse(text: str) -> int:
        if not re.fullmatch(r"-?[0-9]{1,9}", text) or int(text) < least:
            raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a whole number >= {least}")
        return int(text)
    parse.__name__ = f"whole number >= {least}"
    return parse


def positive_number(text: str) -> float:
    """An argparse type: a finite number > 0 (a time limit)."""
    x = finite_number(text)
    if not x > 0:
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a number > 0")
    return x


def finite_number(text: str) -> float:
    """An argparse type: a finite number (not ``nan`` or ``inf``)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a number") from None
    if not math.isfinite(x):
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a finite number")
    return x


def out_file(*suffixes: str):
    """An argparse type: a file to write, in a folder that exists, not a folder itself (and, if ``suffixes``
    are given, ending in one of them); a regular file or a new path, and not where the command prints
    (:func:`check_out_path`)."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError("give a file name (it is empty)")
        shown = excerpt(text, quote=False)
        try:
            path = Path(text)
            if path.is_dir():
                raise argparse.ArgumentTypeError(f"{shown} is a folder; give a file name")
            if not path.parent.is_dir():
                raise argparse.ArgumentTypeError(
                    f"{shown}: the folder {excerpt(path.parent, quote=False)} does not exist")
            if suffixes and path.suffix.lower() not in suffixes:
                raise argparse.ArgumentTypeError(f"{shown}: the file name must end in {' or '.join(suffixes)}")
            check_out_path(text)
        except (HeimlichError, OSError, ValueError) as e:     # a name the system refuses (a NUL byte, too long)
            raise argparse.ArgumentTypeError(f"{shown}: {e}"[:300]) from None
        return text
    parse.__name__ = "file name"
    return parse


def split_names(text: str, what: str) -> list[str]:
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise HeimlichError(f"give at least one {what}, separated by commas")
    return names


def report_seed_and_save(game, args, seed: int) -> None:
    """After ``play`` (either game): say the drawn seed (when none was given) and save the record to ``--out``."""
    if args.seed is None:
        print(f"Seed {seed} (drawn; --seed {seed} plays this game again)")
    if args.out:
        check_out_path(args.out)    # again: it may have changed while the game was played
        try:
            game.record.save(args.out)
        except OSError as e:
            raise HeimlichError(f"--out {args.out}: cannot save the record: {e.strerror or e}") from None
        print(f"Record saved to {args.out}")


def game_hooks(spec: GameSpec):
    """The game's command-line hooks (its spec's ``cli`` module), or ``None``."""
    return spec.load("cli") if spec.has("cli") else None


#: The namespace attribute that lists the games' own options given on the command line (by ``dest``).
GIVEN = "game_options_given"


class _Recorder:
    """An argument group that remembers the arguments added to it (a game's own options) and marks each so that
    the parsed arguments say which were given, even with their default value (:func:`chosen_game`)."""

    def __init__(self, group):
        self.group, self.actions = group, []

    def add_argument(self, *args, **kwargs):
        action = self.group.add_argument(*args, **kwargs)
        action.__class__ = _noting_given(type(action))
        self.actions.append(action)
        return action


_NOTING: dict[type, type] = {}


def _noting_given(cls: type) -> type:
    """A subclass of the argparse action class ``cls`` that also notes its ``dest`` in the namespace's
    :data:`GIVEN` when the option appears on the command line (whatever its value)."""
    if cls not in _NOTING:
        def __call__(self, parser, namespace, values, option_string=None):
            setattr(namespace, GIVEN, getattr(namespace, GIVEN, frozenset()) | {self.dest})
            return cls.__call__(self, parser, namespace, values, option_string)
        _NOTING[cls] = type(f"Noting{cls.__name__}", (cls,), {"__call__": __call__})
    return _NOTING[cls]


def add_game_argument(p: argparse.ArgumentParser, command: str | None = None) -> None:
    """``--game`` (the registered games, the first by default) and, for ``command``, each game's own options."""
    specs, default = games(), default_game()
    p.add_argument("--game", choices=[s.name for s in specs], default=default,
                   help="the game: " + ", ".join(f"{s.name} ({s.title}, {s.min_players} to {s.max_players} players)"
                                                 for s in specs) + f" (default: {default})")
    own = {}
    for s in specs:
        hooks = game_hooks(s)
        if command is not None and hooks is not None and hasattr(hooks, "add_arguments"):
            recorder = _Recorder(p.add_argument_group(f"options of {s.title} (--game {s.name})"))
            hooks.add_arguments(command, recorder)
            own[s.name] = recorder.actions
    p.set_defaults(game_options=own)


def chosen_game(args) -> GameSpec:
    """The spec of the game ``--game`` chose; an option of another game (its spec's ``cli.add_arguments``)
    given on the command line, even with its default value, raises :class:`~heimlich_lab.errors.HeimlichError`
    (``--top-secret: options of Heimlich & Co.; Secrets has none of them``).

    >>> import argparse
    >>> p = argparse.ArgumentParser(prog="play")
    >>> add_game_argument(p, "play")
    >>> from heimlich_lab.engine.registry import default_game, game_names
    >>> chosen_game(p.parse_args(["--game", game_names()[1], "--safe-destination", "other"]))
    Traceback (most recent call last):
    heimlich_lab.errors.HeimlichError: --safe-destination: options of Heimlich & Co.; Secrets has none of them
    >>> chosen_game(p.parse_args(["--safe-destination", "other"])).name == default_game()
    True
    """
    spec = game_spec(args.game)
    options = getattr(args, "game_options", {})
    mine = {a.dest for a in options.get(spec.name, [])}
    noted: frozenset[str] = getattr(args, GIVEN, frozenset())
    for name, actions in options.items():
        given = [a.option_strings[0] for a in actions
                 if name != spec.name and a.dest not in mine
                 and (a.dest in noted or getattr(args, a.dest, a.default) != a.default)]
        if given:
            raise HeimlichError(f"{', '.join(given)}: options of {game_spec(name).title}; "
                                f"{spec.title} has none of them")
    return spec


def rules_from_args(spec: GameSpec, args):
    """The game's rules from its options (its ``cli.rules_from_args``; the default rules if it has none)."""
    hooks = game_hooks(spec)
    if hooks is not None and hasattr(hooks, "rules_from_args"):
        return hooks.rules_from_args(args)
    return spec.load("rules")()


def cli_seeds(spec: GameSpec, seed: int, n: int) -> tuple[int, list[int]]:
    """The game's seed and one seed per bot for a game the command line plays with ``--seed``: the game's own
    derivation (its ``cli.seeds``), else that of a tournament's game 0
    (:func:`~heimlich_lab.analysis.grid.game_seeds`): the bots' seeds are spawned apart from the game's, so a
    bot that knows its own seed learns nothing about the deal, the draws or the rolls.

    >>> g, bots = cli_seeds(game_spec(None), 7, 3)
    >>> (g, bots) == cli_seeds(game_spec(None), 7, 3), g in bots
    (True, False)
    """
    hooks = game_hooks(spec)
    if hooks is not None and hasattr(hooks, "seeds"):
        return hooks.seeds(seed, n)
    from ..analysis.grid import game_seeds
    return game_seeds(seed, 0, n)


def check_viewer(viewer, players) -> None:
    """``--as``: a player, ``omniscient`` or left out."""
    if viewer not in (None, "omniscient") and viewer not in players:
        raise HeimlichError(f"--as {viewer}: not a player ({', '.join(players)}), 'omniscient' or left out")


# the first game's rules options, which this module defined before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
