"""Heimlich & Co. as an OpenSpiel game (``pip install heimlich-lab[openspiel]``).

Importing this module registers the pure-Python game ``"heimlich_lab"`` with
``pyspiel``:

>>> game = load_openspiel_game(players=3, top_secret=True)
>>> game.num_players(), game.num_distinct_actions(), game.get_type().short_name
(3, 2038, 'heimlich_lab')
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())      # the deal: 6 * 5 * 4 assignments
(True, 120)
>>> state.apply_action(0)                                      # the first deal
>>> state.action_to_string(pyspiel.PlayerId.CHANCE, state.chance_outcomes()[0][0])   # Top Secret: 2 cards each
'draw back12'

The game (all from the engine, :class:`heimlich_lab.Game` with ``chance="manual"``):

* sequential, explicit chance nodes: the deal, die rolls, card draws and taking a
  free agent are chance outcomes with the engine's probabilities;
* imperfect information: a player's information-state string (perfect recall) is
  their seat and every event of their log (:meth:`Game.view`: other players' agent
  cards, draws and dossier entries are blanked); the observation string and tensor
  hold what the player knows now (:func:`~heimlich_lab.games.heimlich.adapters.encoding.encode_view`);
* player action ids: the fixed table of :mod:`heimlich_lab.games.heimlich.adapters.encoding`
  (2036 ids); chance outcome ids: :class:`~heimlich_lab.games.heimlich.adapters.encoding.ChanceTable`;
* returns at the end: ``+1`` for every winner (a shared win is a win), ``-1`` for
  everyone else (so ``-1`` for all when a free agent wins): a general-sum game;
* parameters: ``players`` (2..7, default 3), ``top_secret``, ``dossier`` (bools),
  ``safe_destination`` (``"other"`` or ``"unoccupied"``) and ``max_decisions``
  (default 2000; a game that reaches it ends with returns 0 for everyone; random
  play needs about 300 at most).

Algorithms that search the true state (e.g. ``MCTSBot``) see every secret: use
them as an omniscient baseline (see :func:`mcts_demo`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

try:
    import pyspiel
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installed extras
    if e.name != "pyspiel":  # OpenSpiel is there, but broken: show why
        raise
    raise ImportError("the OpenSpiel adapter needs OpenSpiel: pip install 'heimlich-lab[openspiel]'") from e

import numpy as np

from ..rules.game import Game
from ..rules.ruleset import SAFE_DESTINATIONS, Rules
from .encoding import (
    NUM_ACTIONS,
    OBS_SIZE,
    ChanceTable,
    action_id,
    chance_table,
    copy_game,
    decode_action,
    encode_view,
    info_state_string,
    view_string,
)

SHORT_NAME = "heimlich_lab"
DEFAULT_PARAMS = {"players": 3, "top_secret": False, "dossier": False, "safe_destination": "other",
                  "max_decisions": 2000}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Heimlich & Co. (heimlich-lab)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=7,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


@dataclass(frozen=True)
class _Config:
    players: tuple[str, ...]
    rules: Rules
    agents: tuple[str, ...]
    seat: dict
    chance: ChanceTable
    max_decisions: int


@lru_cache(maxsize=64)
def _config(key: tuple) -> _Config:
    n, top_secret, dossier, safe_destination, max_decisions = key
    rules = Rules(top_secret=top_secret, dossier=dossier, safe_destination=safe_destination)
    players = tuple(f"player_{i}" for i in range(n))
    agents = rules.agents_for(n)
    return _Config(players, rules, agents, {p: i for i, p in enumerate(players)}, chance_table(players, agents),
                   max_decisions)


def _key(params: dict) -> tuple:
    p = {**DEFAULT_PARAMS, **(params or {})}
    unknown = set(p) - set(DEFAULT_PARAMS)
    if unknown:
        raise ValueError(f"unknown heimlich_lab parameter(s) {sorted(unknown)}; "
                         f"parameters are {sorted(DEFAULT_PARAMS)}")
    n = int(p["players"])
    if not 2 <= n <= 7:
        raise ValueError(f"Heimlich & Co. is for 2 to 7 players, not {n}")
    if p["safe_destination"] not in SAFE_DESTINATIONS:
        raise ValueError(f"safe_destination must be one of {SAFE_DESTINATIONS}")
    if int(p["max_decisions"]) < 1:
        raise ValueError("max_decisions must be at least 1")
    return (n, bool(p["top_secret"]), bool(p["dossier"]), str(p["safe_destination"]), int(p["max_decisions"]))


class _Engine:
    """Holds the engine game; OpenSpiel clones states with ``copy.deepcopy``, which this makes fast."""

    __slots__ = ("game",)

    def __init__(self, game: Game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Engine(copy_game(self.game))

    def __reduce__(self):
        return (_Engine, (self.game,))


_MOVE_IDS: dict = {}  # (agents, points) -> sorted ids of every allocation (the same at every move decision)


class HeimlichGame(pyspiel.Game):
    """The OpenSpiel game (see the module doc for the parameters)."""

    def __init__(self, params=None):
        key = _key(params)
        cfg = _config(key)
        info = pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=cfg.chance.size,
                                num_players=key[0], min_utility=-1.0, max_utility=1.0, utility_sum=None,
                                max_game_length=key[4])
        super().__init__(_GAME_TYPE, info, {**DEFAULT_PARAMS, **(params or {})})
        self.key = key

    def new_initial_state(self):
        return HeimlichState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if isinstance(iig_obs_type, dict):  # called as make_py_observer(params)
            iig_obs_type, params = None, iig_obs_type
        return HeimlichObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
                                _config(self.key))


class HeimlichState(pyspiel.State):
    """A state: the engine game (manual chance) plus the count of decisions made."""

    def __init__(self, game: HeimlichGame):
        super().__init__(game)
        self._key = game.key
        cfg = _config(self._key)
        self._engine = _Engine(Game(cfg.players, cfg.rules, chance="manual"))
        self._decisions = 0
        self._truncated = False

    @property
    def engine(self) -> Game:
        """The engine :class:`~heimlich_lab.Game` (OMNISCIENT: for teaching and tests, not for bots)."""
        return self._engine.game

    def current_player(self):
        g = self._engine.game
        if g.is_over or self._truncated:
            return pyspiel.PlayerId.TERMINAL
        if g.is_chance_node:
            return pyspiel.PlayerId.CHANCE
        return _config(self._key).seat[g.current_player]

    def _legal_actions(self, player):
        g = self._engine.game
        if g.phase == "move":
            key = (g.agents, g.points)
            ids = _MOVE_IDS.get(key)
            if ids is None:
                ids = _MOVE_IDS[key] = sorted(action_id(a, ()) for a in g.legal_actions())
            return ids
        players = _config(self._key).players
        return sorted(action_id(a, players) for a in g.legal_actions())

    def chance_outcomes(self):
        ct = _config(self._key).chance
        return sorted((ct.id(a), p) for a, p in self._engine.game.chance_outcomes())

    def _apply_action(self, action):
        g = self._engine.game
        cfg = _config(self._key)
        if g.is_chance_node:
            g.apply(cfg.chance.decode(action))
            return
        g.apply(decode_action(action, cfg.players))
        self._decisions += 1
        if self._decisions >= cfg.max_decisions and not g.is_over:
            self._truncated = True

    def _action_to_string(self, player, action):
        cfg = _config(self._key)
        if player == pyspiel.PlayerId.CHANCE:
            return str(cfg.chance.decode(action))
        return str(decode_action(action, cfg.players))

    def is_terminal(self):
        return self._engine.game.is_over or self._truncated

    def returns(self):
        g = self._engine.game
        players = _config(self._key).players
        if not g.is_over:
            return [0.0] * len(players)
        won = set(g.winners)
        return [1.0 if p in won else -1.0 for p in players]

    def __str__(self):
        g = self._engine.game
        owners = ";".join(f"{p}:{'+'.join(c)}" for p, c in g.owners.items())
        hands = ";".join(f"{p}:{'+'.join(h)}" for p, h in g.hands.items())
        return (f"turn={g.turn} phase={g.phase} decisions={self._decisions} truncated={self._truncated} "
                f"positions={g.positions} scores={g.scores} safe={g.safe} owners={owners} hands={hands} "
                f"supply={g.supply_size} discards={'+'.join(g.discards)} actions={len(g.history)}")


class HeimlichObserver:
    """Observations that follow the information rule: only ``game.view(player)`` goes in.

    Perfect recall (information state): :func:`~heimlich_lab.games.heimlich.adapters.encoding.info_state_string`,
    no tensor. Otherwise: :func:`~heimlich_lab.games.heimlich.adapters.encoding.view_string` and the tensor of
    :func:`~heimlich_lab.games.heimlich.adapters.encoding.encode_view`. Without private information (public
    observer) the spectator's view is used.
    """

    def __init__(self, iig_obs_type, params, cfg: _Config):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.cfg = cfg
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if self.perfect_recall:
            self.tensor = None
            self.dict = {}
        else:
            self.tensor = np.zeros(OBS_SIZE, np.float32)
            self.dict = {"observation": self.tensor}

    def _view(self, state, player):
        return state.engine.view(self.cfg.players[player] if self.private else None)

    def set_from(self, state, player):
        if self.tensor is not None:
            encode_view(self._view(state, player), out=self.tensor)

    def string_from(self, state, player):
        v = self._view(state, player)
        return info_state_string(v) if self.perfect_recall else view_string(v)


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, HeimlichGame)


def load_openspiel_game(players: int = 3, top_secret: bool = False, dossier: bool = False,
                        safe_destination: str = "other", max_decisions: int = DEFAULT_PARAMS["max_decisions"]):
    """``pyspiel.load_game("heimlich_lab", {...})`` with these parameters."""
    return pyspiel.load_game(SHORT_NAME, {"players": int(players), "top_secret": bool(top_secret),
                                          "dossier": bool(dossier), "safe_destination": str(safe_destination),
                                          "max_decisions": int(max_decisions)})


def mcts_demo(players: int = 3, top_secret: bool = False, max_simulations: int = 8, n_rollouts: int = 1,
              max_decisions: int = 60, seed: int = 0) -> list[float]:
    """One game: OpenSpiel's ``MCTSBot`` (random-rollout evaluator) in seat 0 against uniform random
    bots, played by ``open_spiel.python.algorithms.evaluate_bots``; returns each player's return.

    MCTS searches the true state, so it sees every secret: an omniscient baseline, not a fair
    player. ``max_decisions`` keeps the demonstration short (a game cut there returns 0s).

    >>> r = mcts_demo(players=2, max_simulations=2, max_decisions=12)
    >>> len(r), all(x in (-1.0, 0.0, 1.0) for x in r)
    (2, True)
    """
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = load_openspiel_game(players=players, top_secret=top_secret, max_decisions=max_decisions)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=n_rollouts, random_state=np.random.RandomState(seed + 1))
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=max_simulations, evaluator=evaluator, solve=False,
                         random_state=np.random.RandomState(seed + 2))]
    bots += [pyspiel.make_uniform_random_bot(p, seed + 10 + p) for p in range(1, players)]
    return list(evaluate_bots(game.new_initial_state(), bots, rng))
