"""Heimlich & Co. as a PettingZoo AEC environment (``pip install heimlich-lab[pettingzoo]``).

>>> e = env(n_players=3, top_secret=True)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["observation"].shape == (OBS_SIZE,), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True, True)
>>> random_game(e, seed=2)["steps"] > 0
True

* Agents ``player_0`` .. ``player_{n-1}`` in seat order; ``player_0`` begins.
  Chance (the deal, dice, card draws) is resolved inside the environment from the
  ``reset`` seed, so only players step; the same player may act several times in a row.
  ``reset()`` without a seed draws 63 bits from the operating system (docs/rules.md#seeds).
* Observation: a dict with ``"observation"`` (the float32 vector of
  :func:`~heimlich_lab.games.heimlich.adapters.encoding.encode_view`: only what that player may know)
  and ``"action_mask"`` (int8, 1 for the legal action ids of
  :mod:`heimlich_lab.games.heimlich.adapters.encoding`; all 0 when it is not the agent's decision).
* Action space: ``Discrete(2036)``, the fixed action table.
* Rewards at the end: ``+1`` for each winner (a shared win too), ``-1`` for everyone else.
  ``max_steps`` (optional) truncates a game after that many decisions.
"""
from __future__ import annotations

import secrets

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as e:  # pragma: no cover - depends on the installed extras
    if e.name not in ("gymnasium", "pettingzoo"):  # installed, but broken: show why
        raise
    raise ImportError("the PettingZoo adapter needs PettingZoo: pip install 'heimlich-lab[pettingzoo]'") from e

from ..rules.game import Game
from ..rules.ruleset import Rules
from .encoding import NUM_ACTIONS, OBS_HIGH, OBS_SIZE, action_id, decode_action, encode_view, view_string


class HeimlichEnv(AECEnv):
    """The AEC environment (see the module doc)."""

    metadata = {"name": "heimlich_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, n_players: int = 3, top_secret: bool = False, dossier: bool = False,
                 safe_destination: str = "other", max_steps: int | None = None, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.rules = Rules(top_secret=top_secret, dossier=dossier, safe_destination=safe_destination)
        self.rules.agents_for(n_players)  # 2..7 players
        self.possible_agents = [f"player_{i}" for i in range(n_players)]
        self.agents = []
        self.max_steps = max_steps
        self.render_mode = render_mode
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=OBS_HIGH, shape=(OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.game: Game | None = None
        self._players = tuple(self.possible_agents)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is None:    # 63 bits from the OS, as everywhere (docs/rules.md#seeds): no bot can guess it
            seed = secrets.randbits(63)
        self.game = Game(self._players, self.rules, seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self.agent_selection = self.game.current_player

    def action_mask(self, agent) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        g = self.game
        if g is not None and not g.is_over and g.current_player == agent:
            for a in g.legal_actions():
                mask[action_id(a, self._players)] = 1
        return mask

    def observe(self, agent):
        return {"observation": encode_view(self.game.view(agent)), "action_mask": self.action_mask(agent)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        act = decode_action(int(action), self._players)
        self._cumulative_rewards[agent] = 0
        self.game.apply(act, player=agent)          # an illegal id raises IllegalAction
        self.steps += 1
        self._clear_rewards()
        g = self.game
        if g.is_over:
            won = set(g.winners)
            for a in self.agents:
                self.rewards[a] = 1 if a in won else -1
                self.terminations[a] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        if not (g.is_over or any(self.truncations.values())):
            self.agent_selection = g.current_player
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        return view_string(self.game.spectator_view()) if self.game is not None else "(not started)"

    def close(self):
        pass


def env(**kwargs) -> HeimlichEnv:
    """A new :class:`HeimlichEnv` (PettingZoo convention)."""
    return HeimlichEnv(**kwargs)


raw_env = env


def random_game(environment: HeimlichEnv, seed: int | None = None) -> dict:
    """Play one game with uniformly random legal actions (the masks); returns the steps and the
    final rewards."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    total = {a: 0.0 for a in environment.possible_agents}
    steps = 0
    for agent in environment.agent_iter():
        obs, reward, terminated, truncated, info = environment.last()
        total[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        environment.step(action)
    return {"steps": steps, "rewards": total}
