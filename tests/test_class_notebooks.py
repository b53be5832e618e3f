"""Notebooks 5 and 8 load a class's games when a ``class-games/`` folder is next to them.

The loading cells are taken from the source notebooks themselves and run in a temporary folder that holds one
saved class game, so a change to a notebook's cell is what is tested. The "humans" of the saved game are
RandomBots standing in for people (the kit ships no class data; see docs/class-data.md, "Limits").
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from heimlich_lab import Rules, play
from heimlich_lab.bots import BoltzmannBot, RandomBot
from heimlich_lab.inference.model import BoltzmannModel
from heimlich_lab.widget.class_folder import save_class_game

NOTEBOOKS = Path(__file__).resolve().parents[1] / "instructor" / "notebooks"
SEATS = ["Fox", "Owl", "Cy", "Dee"]
HUMANS = ["Fox", "Dee"]


def loading_cell(notebook: str) -> str:
    """The source of the notebook's one code cell that calls class_games_or_simulated."""
    nb = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"]
             if c["cell_type"] == "code" and "class_games_or_simulated(" in "".join(c["source"])]
    assert len(cells) == 1, f"{notebook}: {len(cells)} cells load class games"
    return cells[0]


@pytest.fixture
def class_folder(tmp_path, monkeypatch):
    """A working folder with class-games/ holding one 4-player game, two of its seats human (stand-ins)."""
    bots = {"Owl": BoltzmannBot(seed=11), "Cy": BoltzmannBot(seed=12)}
    seat = {**{p: RandomBot(seed=20 + i) for i, p in enumerate(HUMANS)}, **bots}
    record = play(Rules(), {p: seat[p] for p in SEATS}, seed=5)
    (tmp_path / "class-games").mkdir()
    save_class_game(record, tmp_path / "class-games", humans=HUMANS, bots=bots, agreed=HUMANS)
    monkeypatch.chdir(tmp_path)
    return record


def test_notebook_5_fits_the_class_humans_when_the_folder_is_there(class_folder, capsys):
    ns = {"np": np, "BoltzmannModel": BoltzmannModel}
    exec(loading_cell("05-modelling-players.ipynb"), ns)
    out = capsys.readouterr().out
    assert out.startswith("Using 1 game your class played, from class-games\n"), out
    assert ns["source"] == "class" and len(ns["records"]) == 1
    assert ns["records"][0].to_dict() == class_folder.to_dict()
    assert ns["fit_players"] == [tuple(HUMANS)]
    per_human = sum(len(ns["collect_decisions"](ns["records"], who=p)) for p in HUMANS)
    everyone = len(ns["collect_decisions"](ns["records"]))
    assert len(ns["decisions"]) == per_human < everyone       # the bots' decisions are left out
    assert f"{len(ns['decisions'])} decisions" in out


def test_notebook_5_falls_back_to_its_simulated_bots_without_the_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    cell = loading_cell("05-modelling-players.ipynb").replace("n=6,", "n=1,")   # one game is enough here
    assert "n=1," in cell
    ns = {"np": np, "BoltzmannModel": BoltzmannModel}
    exec(cell, ns)
    out = capsys.readouterr().out
    assert out.startswith("No class games found in class-games (no such folder): using 1 games of simulated bots "
                          "instead\n"), out
    assert ns["source"] == "simulated" and ns["fit_players"] is None
    players = ["Ann", "Bob", "Cy"]
    expected = play(Rules(), {p: BoltzmannBot(beta=1.5, seed=i) for i, p in enumerate(players)}, seed=0)
    assert ns["records"][0].to_dict() == expected.to_dict()


def test_notebook_8_scores_the_belief_on_the_class_humans_when_the_folder_is_there(class_folder, capsys):
    ns = {"np": np}
    exec(loading_cell("08-experiments.ipynb"), ns)
    out = capsys.readouterr().out
    assert out.startswith("Using 1 game your class played, from class-games\n"), out
    assert ns["source"] == "class"
    games = ns["calibration_games"]
    assert games.fit_players == [tuple(HUMANS)]
    p_all, _, _ = ns["belief_events"](games, BoltzmannModel(beta=1.0))
    p, y, g = ns["p_matched"], ns["y_matched"], ns["game_matched"]
    # predictions about the humans only: each observer, its human opponents, the agents not its own
    agents = len(Rules().agents_for(len(SEATS)))
    expected = sum(sum(h != o for h in HUMANS) * (agents - 1) for o in SEATS)
    assert len(p) == len(y) == len(g) == expected < len(p_all)
    assert set(np.unique(y)) <= {0.0, 1.0} and np.all((p >= 0) & (p <= 1)) and set(g) == {0}
