"""The registry of games, as data: each game registers a :class:`GameSpec` (its name, player counts, engine,
record, bots, default belief, table, transcript, tournament table and command-line hooks), and the shared
layers (the bot registry, the analysis layer, the commands) take everything from it. They hold no branch on
a game's name: a game added here appears in ``play``, ``replay``, ``evaluate``, ``tournament`` and ``bench``.

A spec names the game's parts as ``"module:attribute"`` strings, imported only when used
(:meth:`GameSpec.load`), so that listing the games costs nothing.

>>> [s.name for s in games()]
['heimlich', 'secrets', 'topsecret1985']
>>> spec = game_spec("secrets")
>>> spec.title, spec.min_players, spec.max_players, spec.load("game").__name__
('Secrets', 4, 8, 'Game')
>>> game_spec("chess")
Traceback (most recent call last):
...
heimlich_lab.errors.HeimlichError: unknown game 'chess'; games are heimlich, secrets, topsecret1985
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Mapping

from ..errors import HeimlichError

#: The package that lists the games the kit ships (each registers its spec when that package is imported).
BUILTIN_PACKAGE = "heimlich_lab.games"


@dataclass(frozen=True)
class GameSpec:
    """What the shared layers know about a game. References are ``"module:attribute"`` strings (see
    :meth:`load`); ``None`` where a game has no such part.

    * ``name`` (the ``--game`` of the command line, a record's ``game`` field unless ``record_tag`` says
      otherwise), ``title`` (in words), ``min_players``, ``max_players``, ``default_players`` (a
      tournament's table when none is given);
    * ``game``: the engine class, ``Game(players, seed=..., rules=..., chance=...)``
      (:mod:`heimlich_lab.engine.contract`);
    * ``rules``: the class of its rule options (a dataclass; ``rules=None`` is the default rules);
    * ``record``: the record class (:class:`~heimlich_lab.engine.records.RecordBase`); ``record_tag``: the
      ``game`` field its records carry (``None``: records without the field are this game's);
    * ``bots``: the module that registers the game's bots with :func:`heimlich_lab.bots.register_bot` when
      imported;
    * ``belief``: the default belief class; ``transcript``: ``transcript(game_or_record, viewer) -> lines``;
      ``play_in_notebook`` and ``replay_in_notebook``: its table in JupyterLab;
    * ``tournament``: a :class:`TournamentSpec` (the table's columns and rows, variants, evaluators);
    * ``cli``: a module with the command line's hooks (:mod:`heimlich_lab.commands` reads
      ``add_arguments(command, parser)``, ``rules_from_args(args)``, and optionally ``seeds(seed, n)``,
      ``run_evaluate(args)``, ``evaluate_bots``, ``evaluate_players`` (the table when ``--players`` is not
      given: 5 by default));
    * ``benchmarks``: ``{name: "module:function"}`` for ``heimlich-lab bench`` (``function(quick) -> [(label,
      value, unit)]``);
    * ``display``: ``display(obj) -> HTML`` for its games, views and records in a notebook
      (:mod:`heimlich_lab.engine.display`; ``None``: the default table);
    * ``wire``: the module of its wire codec (:mod:`heimlich_lab.engine.wire`: what a bot in another process
      is sent and how its worker rebuilds the view; ``None``: its bots run only in process).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    game: str
    rules: str
    record: str
    bots: str
    default_players: int | None = None
    record_tag: str | None = ""
    belief: str | None = None
    transcript: str | None = None
    play_in_notebook: str | None = None
    replay_in_notebook: str | None = None
    tournament: str | None = None
    cli: str | None = None
    benchmarks: Mapping[str, str] = field(default_factory=dict)
    display: str | None = None
    wire: str | None = None

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name.isidentifier() and self.name.islower()):
            raise HeimlichError(f"a game's name is one lower-case word, not {self.name!r}")
        if not (isinstance(self.min_players, int) and isinstance(self.max_players, int)
                and 1 <= self.min_players <= self.max_players):
            raise HeimlichError(f"{self.name}: player counts {self.min_players}..{self.max_players} are not a range")
        if self.default_players is None:
            object.__setattr__(self, "default_players", self.min_players)
        if self.record_tag == "":
            object.__setattr__(self, "record_tag", self.name)

    def load(self, part: str) -> Any:
        """The object a reference names, imported now: ``spec.load("game")`` is the engine class.

        >>> game_spec("heimlich").load("rules")().top_secret
        False
        """
        ref = getattr(self, part, None) if part in self.__dataclass_fields__ else part
        if ref is None:
            raise HeimlichError(f"{self.title} has no {part}")
        return resolve(ref)

    def has(self, part: str) -> bool:
        """Whether the game has this part (a reference that is not ``None``)."""
        return getattr(self, part, None) is not None

    def __repr__(self) -> str:
        return f"<GameSpec {self.name}: {self.title}, {self.min_players} to {self.max_players} players>"


@dataclass(frozen=True)
class TournamentSpec:
    """A game's tournament table: ``columns`` (name -> ``"int"``, ``"bool"``, ``"str"`` or ``"float"``, in
    order), ``rows(game, rules, common) -> [row per player, seat order]`` (the seat's columns are added by the
    tournament), ``parse_variant(spec) -> (label, rules)``, ``evaluators`` (name -> ``"module:Class"``, each
    ``Class()(record) -> {column: {player: value}}``), ``check_table(rules, n)`` (raise if the rules cannot
    seat ``n``; optional), ``id_prefix`` (what a game id starts with after the root seed), ``fair_share``
    (whether a seat's fair share of wins is 1/n), ``summary(df, by) -> [(title, table)]`` (extra summaries the
    command prints; optional) and ``belief_when`` (when the belief evaluator scores, in words).

    For the class data (:mod:`heimlich_lab.analysis.class_games`): ``rules_label(rules) -> str`` (the
    variant's name, the inverse of ``parse_variant``) and ``identities(record) -> (dealt, final, score)``, each
    ``{player: value}`` for a finished full record: who the player secretly was, what counted at the end (text)
    and the final score."""

    columns: Mapping[str, str]
    rows: Any
    parse_variant: Any
    evaluators: Mapping[str, str] = field(default_factory=dict)
    check_table: Any = None
    id_prefix: str = ""
    fair_share: bool = True
    summary: Any = None
    belief_when: str = "at the end of the game"
    rules_label: Any = None
    identities: Any = None


def resolve(ref: Any) -> Any:
    """``"module:attribute"`` (or ``"module"``) imported; anything else as it is."""
    if not isinstance(ref, str):
        return ref
    module, _, attribute = ref.partition(":")
    obj = import_module(module)
    for name in filter(None, attribute.split(".")):
        obj = getattr(obj, name)
    return obj


_GAMES: dict[str, GameSpec] = {}
_LOADED = False


def _builtin() -> None:
    global _LOADED
    if not _LOADED:
        _LOADED = True
        import_module(BUILTIN_PACKAGE).register_builtin_games()


def register_game(spec: GameSpec, replace: bool = False) -> GameSpec:
    """Add a game to the registry (``replace=True`` to register a name again)."""
    if not isinstance(spec, GameSpec):
        raise HeimlichError(f"register a GameSpec, not {type(spec).__name__}")
    if spec.name in _GAMES and not replace and _GAMES[spec.name] is not spec:
        raise HeimlichError(f"a game named {spec.name!r} is registered already")
    _GAMES[spec.name] = spec
    return spec


def unregister_game(name: str) -> None:
    """Remove a game from the registry (a test's fake game)."""
    _GAMES.pop(name, None)


def games() -> tuple[GameSpec, ...]:
    """Every registered game, the kit's own first, in the order registered."""
    _builtin()
    return tuple(_GAMES.values())


def game_names() -> tuple[str, ...]:
    """The names of the registered games (the choices of ``--game``)."""
    return tuple(s.name for s in games())


def default_game() -> str:
    """The game a command plays when none is named: the first registered (the kit's first game)."""
    return games()[0].name


def game_spec(name: str | GameSpec | None = None) -> GameSpec:
    """The spec of the game called ``name`` (``None``: the default game)."""
    if isinstance(name, GameSpec):
        return name
    _builtin()
    if name is None:
        return games()[0]
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise HeimlichError(f"unknown game {name!r}; games are {', '.join(_GAMES)}") from None


def spec_of_record_object(record: Any) -> GameSpec:
    """The game a record object is of: the spec whose ``record`` class it is an instance of.

    >>> from heimlich_lab.games.secrets.records import SecretsRecord
    >>> spec_of_record_object(SecretsRecord.__new__(SecretsRecord)).name
    'secrets'
    """
    for spec in games():
        if isinstance(record, spec.load("record")):
            return spec
    raise HeimlichError(f"{type(record).__name__} is not the record of a game; games are {', '.join(game_names())}")


def spec_of_record(data: Mapping[str, Any]) -> GameSpec:
    """The game a record's JSON object belongs to, from its ``game`` field (see ``record_tag``).

    >>> spec_of_record({"format": "heimlich-lab-record", "game": "secrets"}).name
    'secrets'
    >>> spec_of_record({"format": "heimlich-lab-record"}).name      # records of the first game have no field
    'heimlich'
    """
    tag = data.get("game") if isinstance(data, Mapping) else None
    for spec in games():
        if spec.record_tag == tag:
            return spec
    raise HeimlichError(f"a record of an unknown game {tag!r}; games are {', '.join(game_names())}")
