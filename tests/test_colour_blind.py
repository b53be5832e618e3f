"""Colour-blind safety of the board (issue 24, item 6): colour is never the only sign of an agent.

The agents' colours are simulated for deuteranopia, protanopia and tritanopia (``colorspacious``, severity 100,
CAM02-UCS distances). Where two agents' colours come close under a simulation, their marks must differ by more
than hue: every mark of an agent on the rendered board (its piece, its score-track marker, the arrow of its last
move, its heatmap column) carries the agent's letter, and the letters differ; so does every colour word in the
board's log and in "since your last turn" (its lettered swatch follows the word). The board is rendered by
``widgets/render.js`` itself (Node), from a state in the shape ``board_state`` sends.
"""
from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from colorspacious import cspace_convert, deltaE

ROOT = Path(__file__).resolve().parents[1]
COLOURS = ("grey", "yellow", "orange", "red", "green", "blue", "violet")
CVD = ("deuteranomaly", "protanomaly", "tritanomaly")
#: Two colours closer than this (CAM02-UCS) count as "told apart by hue alone at best".
CLOSE = 25.0


def palette() -> dict[str, dict]:
    """The agents' style in widgets/logic.js: colour -> {name, letter, fill}."""
    text = (ROOT / "widgets" / "logic.js").read_text()
    found = re.findall(r'(\w+): Object\.freeze\(\{ name: "(\w+)", letter: "(\w)", fill: "(#[0-9a-f]{6})"', text)
    return {c: {"name": n, "letter": ltr, "fill": f} for c, n, ltr, f in found}


def rgb(hex_: str) -> tuple[float, float, float]:
    return tuple(int(hex_[i:i + 2], 16) / 255 for i in (1, 3, 5))


def simulated(hex_: str, cvd: str):
    return cspace_convert(rgb(hex_), {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1").clip(0, 1)


def close_pairs(cvd: str) -> list[tuple[str, str, float]]:
    p = palette()
    out = []
    for a, b in itertools.combinations(p, 2):
        d = float(deltaE(simulated(p[a]["fill"], cvd), simulated(p[b]["fill"], cvd), input_space="sRGB1"))
        if d < CLOSE:
            out.append((a, b, d))
    return out


RENDER = """
import * as R from "./widgets/render.js";
import { moveState } from "./widgets/tests/fixtures.mjs";
const LOG = JSON.parse(process.argv[1]);
const html = R.renderWidget(moveState({
  last_moves: { Bob: { red: [5, 7], green: [5, 6], grey: [0, 2] },
    Cy: { yellow: [0, 1], orange: [3, 4], blue: [-3, 0] } },
  log: LOG, since_last_turn: LOG,
}));
const grab = (re) => [...html.matchAll(re)].map((m) => [m[1], m[2]]);
const list = (testid) => {
  const i = html.indexOf(`data-testid="${testid}"`);
  return [...html.slice(i, html.indexOf("</ol>", i)).matchAll(/<li>([\\s\\S]*?)<\\/li>/g)].map((m) => m[1]);
};
console.log(JSON.stringify({
  agents: grab(/<g[^>]*data-agent="(\\w+)"[^>]*>([\\s\\S]*?)<\\/g>/g),
  markers: grab(/<g[^>]*data-marker="(\\w+)"[^>]*>([\\s\\S]*?)<\\/g>/g),
  arrows: grab(/<g class="hb-arrow" data-arrow="\\w+:(\\w+)">([\\s\\S]*?)<\\/g>/g),
  heat: grab(/<th scope="col" title="[^"]*\\((\\w+)\\)">([\\s\\S]*?)<\\/th>/g),
  log: list("log"), since: list("since"),
}));
"""


def log_lines() -> list[str]:
    """The log of a real Top Secret game, as the kernel sends it (``board_state``): moves, card plays and scorings
    name agents by colour (the transcript's words, which the notebooks print unchanged)."""
    from heimlich_lab.bots.registry import make_bot
    from heimlich_lab.engine.play import play_game
    from heimlich_lab.games.heimlich.rules.game import Game
    from heimlich_lab.games.heimlich.rules.ruleset import Rules
    from heimlich_lab.games.heimlich.widget.state import board_state
    game = play_game(Game, {p: make_bot("greedy", seed=i) for i, p in enumerate(["Ann", "Bob", "Cy"])}, seed=3,
                     rules=Rules(top_secret=True))
    return board_state(game, "Ann")["log"]


@pytest.fixture(scope="module")
def marks() -> dict:
    node = shutil.which("node")
    assert node, "Node is needed to render the board (make test-js installs it)"
    out = subprocess.run([node, "--input-type=module", "-e", RENDER, json.dumps(log_lines())], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def test_the_simulations_find_the_pairs_the_teacher_saw():
    """Without this the test below would check nothing: red and green run together for a deuteranope."""
    assert any({a, b} == {"red", "green"} for a, b, _ in close_pairs("deuteranomaly"))
    assert all(close_pairs(cvd) for cvd in CVD[:2])


@pytest.mark.parametrize("cvd", CVD)
def test_no_two_agents_marks_differ_by_hue_alone(cvd, marks):
    p = palette()
    assert len({s["letter"] for s in p.values()}) == len(p), "every agent has its own letter"
    for a, b, d in close_pairs(cvd):
        for kind in ("agents", "markers", "arrows", "heat"):
            shown = {c: inner for c, inner in marks[kind]}
            for c in (a, b):
                if c not in shown:
                    continue
                letter = p[c]["letter"]
                assert re.search(rf">{letter}</", shown[c]), \
                    f"{cvd}: {a} and {b} are {d:.1f} apart, and the {kind} mark of {c} has no letter {letter}"
    for kind in ("agents", "markers", "arrows", "heat"):
        assert len(marks[kind]) >= 6, f"the board drew too few {kind} to check"


@pytest.mark.parametrize("kind", ["log", "since"])
def test_every_colour_word_in_the_boards_sentences_carries_its_letter(kind, marks):
    """Log lines and "since your last turn": each agent named by its colour is followed by its lettered swatch."""
    p = palette()
    word = rf"(?<![A-Za-z])({'|'.join(COLOURS)})(?![A-Za-z])"
    named = 0
    for line in marks[kind]:
        named += len(re.findall(word, re.sub(r"<[^>]*>", " ", line)))
        for m in re.finditer(word + r"(?![^<]*>)", line):          # a colour word of the text (not of markup)
            colour, after = m.group(1), line[m.end():]
            assert re.match(rf'\u00a0<span class="hb-swatch hb-c-{colour}"[^>]*>{p[colour]["letter"]}</span>', after), \
                f"{kind}: {colour} is named without its letter {p[colour]['letter']} in {line!r}"
    assert named >= 20, f"the game's {kind} named too few agents to check ({named})"
