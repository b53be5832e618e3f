"""The shared part of every game's engine: setting a game up (players, rules, seed, chance), the ``apply()``
skeleton (check the action, log it, carry it out, let chance act), views, the record, copies, and the names
every engine has (:class:`~heimlich_lab.engine.contract.GameProtocol`). A game subclasses :class:`GameBase`
and supplies only its own rules:

* ``_to_act()``: the player index whose decision it is, :data:`CHANCE`, or ``None`` at the end;
* ``_compute_legal()``: the legal actions now; ``_is_legal(action)`` (default: one of them);
* ``_do(action, actor)``: carry out a logged action; ``_advance()``: automatic steps and, with
  ``chance="auto"``, chance events, until a decision is due;
* ``_explain_illegal(action, actor)``: the :class:`~heimlich_lab.errors.IllegalAction` naming the rule an
  illegal action breaks; ``_check_form(action)`` (optional): refuse a malformed hand-built action;
* the class attributes ``TITLE``, ``Action`` (the action class), ``CHANCE_KINDS`` (kinds of chance
  events), ``View`` (with ``View._of(game, player, omniscient=False)``, or a ``_view(player, omniscient)`` of the
  game's own) and ``_record_class()``.

Its state keeps, by these names: ``players``, ``rules``, ``seed``, ``chance``, ``history`` (``(actor,
action)`` pairs: what a replay applies), ``_pidx`` (player -> index), ``_phase``, ``_active``, ``_turn``,
``_winners`` and ``_legal_cache``.
"""
from __future__ import annotations

import copy
import random
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..errors import IllegalAction, PositionError, WrongPlayer
from .actions import check_player_name
from .contract import CHANCE

#: Seeds are whole numbers below this (a record must hold them as a JSON number).
MAX_SEED = 2**128


def new_seed() -> int:
    """A seed from the operating system (63 bits, recorded so that the game replays; no bot can guess it)."""
    return secrets.randbits(63)


def check_seed(seed: object) -> int:
    """``seed`` checked (a whole number 0 <= seed < 2**128), or a new one from the OS when ``None``."""
    if seed is not None and (type(seed) is not int or not 0 <= seed < MAX_SEED):
        # records store the seed as a JSON whole number; anything else would not reload
        shown = f"a {seed.bit_length()}-bit number" if type(seed) is int and seed >= MAX_SEED else repr(seed)
        raise PositionError(f"seed must be a whole number or None (0 <= seed < 2**128), not {shown}")
    # drawn from the OS and recorded: unguessable, yet the record replays (docs/rules.md#seeds)
    return new_seed() if seed is None else seed


class GameBase:
    """What every engine shares (see the module doc)."""

    TITLE: ClassVar[str] = "a game"
    #: How ``repr`` names a game of this kind.
    REPR_NAME: ClassVar[str] = "Game"
    Action: ClassVar[Any]          # the action class (``Action.parse``)
    View: ClassVar[Any]            # the view class (``View._of``)
    CHANCE_KINDS: ClassVar[frozenset[str]] = frozenset()

    players: tuple[str, ...]
    rules: Any
    seed: int
    chance: str
    history: list[tuple[str, Any]]
    _rng: random.Random
    _pidx: dict[str, int]
    _phase: str
    _active: int
    _turn: int
    _winners: tuple[str, ...] | None
    _legal_cache: tuple[Any, ...] | None

    if TYPE_CHECKING:   # each game supplies it (a property or a field)
        @property
        def phase(self) -> str: ...

    # ------------------------------------------------------------------ set-up
    def _set_up(self, players: Any, rules: Any, rules_class: type, seed: int | None, chance: str,
                rules_name: str | None = None) -> None:
        """Check and keep the players (names in seat order), the rules (``None``: the defaults; ``rules_name``
        names their class in errors), the seed and the chance mode; set ``_rng`` from the seed, ``_pidx``, an
        empty ``history`` and ``_legal_cache``."""
        if isinstance(players, str) or not isinstance(players, Iterable):
            raise PositionError(f"players must be a list of names in seat order, not {players!r}")
        players = tuple(players)
        for p in players:
            check_player_name(p)
            self._check_player_name(p)
        if len(set(players)) != len(players):
            raise PositionError(f"player names repeat: {list(players)}")
        self._check_player_count(len(players))
        rules = rules_class() if rules is None else rules
        if not isinstance(rules, rules_class):
            raise PositionError(f"rules must be a {rules_name or rules_class.__name__}, not {type(rules).__name__}")
        if chance not in ("auto", "manual"):
            raise PositionError(f"chance must be 'auto' or 'manual', not {chance!r}")
        self.players, self.rules, self.seed, self.chance = players, rules, check_seed(seed), chance
        self._rng = random.Random(self.seed)
        self._pidx = {p: i for i, p in enumerate(players)}
        self.history = []
        self._legal_cache = None

    def _check_player_name(self, name: str) -> None:
        """A game's own rule on names (beyond :func:`~heimlich_lab.engine.actions.check_player_name`)."""

    def _check_player_count(self, n: int) -> None:
        """Raise :class:`~heimlich_lab.errors.PositionError` if the game is not for ``n`` players."""

    # ------------------------------------------------------------------ the names every engine has
    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    @property
    def is_chance_node(self) -> bool:
        """True when chance acts next (only ever true with ``chance="manual"``)."""
        chance_acts: bool = self._to_act() == CHANCE
        return chance_acts

    @property
    def current_player(self) -> str | None:
        """The player whose decision it is; ``None`` at a chance node or when the game is over."""
        a = self._to_act()
        return None if a is None or a == CHANCE else self.players[a]

    @property
    def active_player(self) -> str:
        """The player whose turn it is."""
        return self.players[self._active]

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def winners(self) -> tuple[str, ...] | None:
        """``None`` until the end; then the winners (none on a tie or when nobody won)."""
        return self._winners

    def legal_actions(self) -> tuple[Any, ...]:
        """The legal actions of the current decision (the chance outcomes at a chance node)."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._compute_legal()
        return legal

    # ------------------------------------------------------------------ apply
    def apply(self, action: Any, player: str | None = None) -> None:
        """Apply one action (an action or its notation).

        ``player``, if given, must be the player whose decision it is (``"chance"`` for chance events). A
        bad action raises an error that names the rule it breaks, and the game is left exactly as it was.
        """
        act = action if type(action) is self.Action else self.Action.parse(action)
        if type(act.kind) is not str or type(act.args) is not tuple:
            self._check_form(act)    # a hand-built Action(["move"]): refused as malformed, not a TypeError
        actor = self._to_act()
        if actor is None:
            self._check_form(act)
            raise IllegalAction(f"{act} cannot be played: the game is over", rule="game-end")
        if player is not None:
            want = CHANCE if actor == CHANCE else self.players[actor]
            if player != want:
                raise WrongPlayer(f"it is {want}'s decision ({self.phase}), not {player}'s", rule="turn-order")
        if (act.kind in self.CHANCE_KINDS) != (actor == CHANCE):
            self._check_form(act)
            if actor == CHANCE:
                raise IllegalAction(f"{act} is a player's action, but chance acts now ({self.phase})", rule="chance")
            raise IllegalAction(f"{act} is a chance event, but it is {self.players[actor]}'s decision ({self.phase})",
                                rule="chance")
        try:
            legal = self._is_legal(act)
        except Exception:
            self._check_form(act)   # a hand-built action of the wrong shape: say so
            raise                   # a well-formed action that breaks the check is a bug, not an illegal move
        if not legal:
            # only on the error path, so the hot path pays nothing: a malformed action cannot even be
            # formatted into a message, so say that instead
            self._check_form(act)
            raise self._explain_illegal(act, actor)
        self._log(actor, act)
        self._do(act, actor)
        self._advance()

    def _log(self, actor: Any, act: Any) -> None:
        """Append the action to the history (what a replay applies); the legal actions change."""
        self.history.append((CHANCE if actor == CHANCE else self.players[actor], act))
        self._legal_cache = None

    def _is_legal(self, act: Any) -> bool:
        return act in self.legal_actions()

    def _check_form(self, act: Any) -> None:
        """Raise :class:`~heimlich_lab.errors.IllegalAction` (rule ``notation``) if ``act`` is malformed."""

    # ------------------------------------------------------------------ views, records, copies
    def view(self, player: str | None) -> Any:
        """What ``player`` may know now (the information rule); ``None`` for a spectator."""
        if player is not None and (not isinstance(player, str) or player not in self._pidx):
            raise WrongPlayer(f"{player!r} is not a player of this game ({', '.join(self.players)})",
                              rule="players")
        return self._view(player)

    def spectator_view(self) -> Any:
        """The public information only."""
        return self._view(None)

    def omniscient_view(self) -> Any:
        """OMNISCIENT: every secret shown. For teaching and debugging, never for a bot."""
        return self._view(None, omniscient=True)

    def _view(self, player: str | None, omniscient: bool = False) -> Any:
        """Build the view of ``player`` (checked) or the spectator's; a game may build it from its own fields
        (the default asks ``View._of(game, player, omniscient)``)."""
        return self.View._of(self, player, omniscient=omniscient)

    @property
    def record(self) -> Any:
        """The game's record so far (:meth:`_record_class`)."""
        return self._record_class().from_game(self)

    @classmethod
    def _record_class(cls) -> Any:
        raise NotImplementedError(f"{cls.__name__} must supply _record_class(): see docs/architecture.md")

    def copy(self) -> Self:
        """An independent copy (same state, same random generator state)."""
        return copy.deepcopy(self)

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"turn {self._turn}, {self.phase}"
        return f"<{self.REPR_NAME} {', '.join(self.players)}: {state}>"

    def _repr_html_(self) -> str:
        """How a notebook shows it: the game's ``display`` (its spec), else a table
        (:mod:`heimlich_lab.engine.display`)."""
        from .display import html_of
        return html_of(self)

    # to be supplied by each game
    def _to_act(self) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must supply _to_act(): see docs/architecture.md")

    def _compute_legal(self) -> tuple[Any, ...]:
        raise NotImplementedError(f"{type(self).__name__} must supply _compute_legal(): see docs/architecture.md")

    def _do(self, act: Any, actor: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must supply _do(): see docs/architecture.md")

    def _advance(self) -> None:
        raise NotImplementedError(f"{type(self).__name__} must supply _advance(): see docs/architecture.md")

    def _explain_illegal(self, act: Any, actor: Any) -> IllegalAction:
        return IllegalAction(f"{act} is not legal now ({self.phase})")
