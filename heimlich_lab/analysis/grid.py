"""Which games a tournament plays: the grid of player counts, variants and line-ups, and their seeds.

:func:`game_tasks` lists one :class:`GameTask` per game of the grid, in grid order:

>>> tasks = game_tasks((3, 4), "basic", "random", games=2, seed=0)
>>> [t.game_id for t in tasks]
['0/3p/basic/random/0', '0/3p/basic/random/1', '0/4p/basic/random/0', '0/4p/basic/random/1']

Reproducibility. Game ``k`` of every cell of the grid gets the seed sequence
``numpy.random.SeedSequence(seed).spawn(games)[k]`` (so the cells share their
random numbers: a classic variance reduction when comparing bots). The game's
seed and each seat's bot seed are drawn from that sequence, so a result never
depends on how the work was split, on the order in which games finished, or on
how many games were asked for (game 7 is the same game whether you ask for 10
or 10 000):

>>> ss = _game_seed_sequence(0, 7)
>>> ss.spawn_key == np.random.SeedSequence(0).spawn(10)[7].spawn_key
True

Every game comes from the registry (:mod:`heimlich_lab.engine.registry`): its player counts, bots and rule
options (its spec's :class:`~heimlich_lab.engine.registry.TournamentSpec`); the games of a game other than
the first are named apart, after their spec's ``id_prefix``:

>>> [t.game_id for t in game_tasks(4, "basic", "team", games=1, seed=0, game="secrets")]
['0/secrets/4p/basic/team/0']
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from .._compat import legacy_exports
from ..bots.registry import make_bot
from ..engine.registry import GameSpec, game_spec
from ..errors import HeimlichError

#: The most games one tournament plays (its list of games is made before the first game is played).
MAX_GAMES = 1_000_000


def labelled_rules(options, label, spec, what: str) -> tuple[str, object]:
    """``(label(rules), rules)`` for a rules object of class ``options``, or a dict of its options (what a
    game's ``parse_variant`` does with a rules object or a dict)."""
    if isinstance(spec, options):
        return label(spec), spec
    try:
        rules = options(**spec)
    except TypeError as e:
        raise HeimlichError(f"{what} {dict(spec)!r}: {e}") from None
    return label(rules), rules


def check_game(game) -> GameSpec:
    """The spec of the game called ``game`` (``None``: the default game), checked against the registry."""
    return game_spec(game)


@dataclass(frozen=True)
class Lineup:
    """Who sits where: bot names per seat, or (``rotate=True``) a bot mix rotated over the seats.

    A fixed line-up of one name seats that bot everywhere; otherwise it must name one bot
    per seat (cells of the grid with another player count are left out). A rotated mix is
    repeated to fill the table, and game ``k`` turns it by ``k`` seats, so that over ``n``
    games every bot has sat in every seat equally often.

    >>> Lineup.parse("rotate:random,greedy").seats(3, 0), Lineup.parse("rotate:random,greedy").seats(3, 1)
    (('random', 'greedy', 'random'), ('random', 'random', 'greedy'))
    >>> Lineup.parse("random").seats(3, 0), Lineup.parse(["random", "greedy"]).label
    (('random', 'random', 'random'), 'random,greedy')
    """

    names: tuple[str, ...]
    rotate: bool = False

    @classmethod
    def parse(cls, spec: "str | Sequence[str] | Lineup") -> "Lineup":
        if isinstance(spec, Lineup):
            return spec
        rotate = False
        if isinstance(spec, str):
            text = spec.strip()
            if text.lower().startswith("rotate:"):
                rotate, text = True, text[len("rotate:"):]
            names = tuple(x.strip() for x in text.split(",") if x.strip())
        else:
            names = tuple(spec)
            if names and names[0] == "rotate":
                rotate, names = True, names[1:]
        if not names or not all(isinstance(x, str) and x for x in names):
            raise HeimlichError(f"a line-up names at least one bot, like 'random,random,greedy' or "
                                f"'rotate:random,greedy'; got {spec!r}")
        return cls(names, rotate)

    @property
    def label(self) -> str:
        return ("rotate:" if self.rotate else "") + ",".join(self.names)

    def fits(self, n_players: int) -> bool:
        """Whether this line-up can seat ``n_players`` players."""
        return self.rotate or len(self.names) in (1, n_players)

    def seats(self, n_players: int, game_index: int) -> tuple[str, ...]:
        """The bot in each seat for game ``game_index``."""
        if not self.fits(n_players):
            raise HeimlichError(f"line-up {self.label} names {len(self.names)} bots for {n_players} seats")
        fill = [self.names[i % len(self.names)] for i in range(n_players)]
        if not self.rotate:
            return tuple(fill)
        r = game_index % n_players
        return tuple(fill[(s - r) % n_players] for s in range(n_players))


@dataclass(frozen=True)
class GameTask:
    """One game of a tournament: where it sits in the grid and who plays it (its seeds follow from
    ``root_seed`` and ``game_index``, see :func:`game_seeds`)."""

    game_id: str
    root_seed: int
    game_index: int
    n_players: int
    variant: str
    rules: object              # the game's rule options (its spec's rules class)
    lineup: str
    seat_bots: tuple[str, ...]
    game: str | None = None    # the game's name; None: the default game
    #: bots that are not in the registry, by name: ``(name, factory)`` pairs, e.g. bot files
    #: (:class:`heimlich_lab.sandbox.BotFile`); picklable, so that worker processes can make them
    extra_bots: tuple = ()


_NONE_TYPE = type(None)


def _as_list(x, what: str, rules_class: type = _NONE_TYPE) -> list:
    if isinstance(x, (str, rules_class, Lineup)) or isinstance(x, Mapping):
        return [x]
    try:
        out = list(x)
    except TypeError:
        return [x]
    if not out:
        raise HeimlichError(f"give at least one {what}")
    return out


def game_tasks(player_counts, variants, bots, games: int, seed: int, game: str | None = None,
               extra_bots: "Mapping[str, object] | None" = None) -> list[GameTask]:
    """Every game of the grid, in grid order (player count, variant, line-up, game index), of the game
    called ``game`` (``None``: the default game).

    ``extra_bots`` names bots beside the registry's: name -> ``factory(seed=...)`` (e.g. a bot file).

    Bad input (a player count the game is not for, an unknown variant or bot, a line-up that fits no
    table) raises :class:`~heimlich_lab.errors.HeimlichError` here, before any game is played.
    """
    spec = check_game(game)
    table = spec.load("tournament")
    low, high, parse, options = spec.min_players, spec.max_players, table.parse_variant, spec.load("rules")
    counts = [_player_count(n) for n in _as_list(player_counts, "player count")]
    for n in counts:
        if not low <= n <= high:
            raise HeimlichError(f"{spec.title} is for {low} to {high} players, not {n}")
    if isinstance(variants, Mapping) and not set(variants) <= set(options.__dataclass_fields__):
        vlist = [(str(k), parse(v)[1]) for k, v in variants.items()]  # {label: spec}
    else:
        vlist = [parse(v) for v in _as_list(variants, "variant", options)]
    labels = [v for v, _ in vlist]
    if len(set(labels)) != len(labels):
        raise HeimlichError(f"variants repeat: {labels}")
    lineups = [Lineup.parse(b) for b in _as_list(bots, "bot line-up")]
    if len({lu.label for lu in lineups}) != len(lineups):
        raise HeimlichError(f"line-ups repeat: {[lu.label for lu in lineups]}")
    for n in counts:
        if not any(lu.fits(n) for lu in lineups):
            raise HeimlichError(f"no line-up seats {n} players: give one bot name per seat, one name for "
                                f"all seats, or a 'rotate:' mix")
    names = sorted({b for lu in lineups for b in lu.names})
    cells = sum(lu.fits(n) for n in counts for _ in vlist for lu in lineups)
    if cells * games > MAX_GAMES:   # said before a list of a billion games fills the memory
        raise HeimlichError(f"{cells} cell(s) of the grid x {games} games = {cells * games:,} games; a tournament "
                            f"plays at most {MAX_GAMES:,}: ask for fewer games or a smaller grid")
    given = dict(extra_bots or {})
    for b in names:  # fail now, in this process, on a misspelt bot
        if b not in given:
            make_bot(b, seed=0, game=spec.name)
    extra = tuple((b, f) for b, f in given.items() if b in names)
    prefix = f"{seed}/{table.id_prefix}"
    tasks = []
    for n in counts:
        for vlabel, rules in vlist:
            if table.check_table is not None:
                table.check_table(rules, n)  # e.g. a custom agent list that does not fit fails here
            for lu in lineups:
                if not lu.fits(n):
                    continue
                for k in range(games):
                    gid = f"{prefix}{n}p/{vlabel}/{lu.label}/{k}"
                    tasks.append(GameTask(gid, seed, k, n, vlabel, rules, lu.label, lu.seats(n, k), spec.name, extra))
    return tasks


def _player_count(n) -> int:
    try:
        return int(n)
    except (TypeError, ValueError):
        raise HeimlichError(f"a player count is a whole number, not {n!r}") from None


def _game_seed_sequence(root_seed: int, game_index: int) -> np.random.SeedSequence:
    """The seed sequence of game ``game_index``: the same as ``SeedSequence(root_seed).spawn(N)[game_index]``."""
    return np.random.SeedSequence(root_seed, spawn_key=(game_index,))


def _int63(ss: np.random.SeedSequence) -> int:
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def game_seeds(root_seed: int, game_index: int, n_players: int) -> tuple[int, list[int]]:
    """The game seed and the seats' bot seeds of game ``game_index`` of a tournament.

    >>> s, bots = game_seeds(0, 3, 4)
    >>> len(bots), game_seeds(0, 3, 4) == (s, bots), s != game_seeds(0, 4, 4)[0]
    (4, True, True)
    """
    ss = _game_seed_sequence(root_seed, game_index)
    return _int63(ss), [_int63(c) for c in ss.spawn(n_players)]


# the first games' variants, which this module defined before the games moved (heimlich_lab/_compat.py)
__getattr__, __dir__ = legacy_exports(__name__, globals())
