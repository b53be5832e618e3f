"""Static pictures (heimlich_lab.svg): parse the SVG and check what is drawn where."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from heimlich_lab import Game, HeimlichError, Position, Rules
import heimlich_lab.svg as hs
from heimlich_lab.inference.belief import Belief
from heimlich_lab.rules.board import BUILDING_VALUES
from heimlich_lab.svg import (AGENT_COLOURS, BUILDING_RADIUS, Svg, board, building_point, heatmap,
                              probability_label, track_point)

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def with_attr(root: ET.Element, name: str, value=None) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.attrib and (value is None or e.attrib[name] == str(value))]


def translation(e: ET.Element) -> tuple[float, float]:
    x, y = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", e.attrib["transform"]).groups()
    return float(x), float(y)


def text_of(e: ET.Element) -> str:
    return "".join(e.itertext())


POSITION = Position(positions={"red": 4, "blue": 7, "green": 0, "yellow": 4}, owners={"Ann": "red", "Bob": "blue"},
                    scores={"red": 10, "blue": 3, "green": 0, "yellow": 50}, safe=4)


def test_twelve_buildings_on_the_ring_with_their_values():
    root = parse(board(POSITION))
    buildings = with_attr(root, "data-building")
    assert [int(b.attrib["data-building"]) for b in buildings] == list(BUILDING_VALUES)
    for b in buildings:
        x, y = translation(b)
        assert math.hypot(x - 400, y - 400) == pytest.approx(236, abs=0.01)
        assert text_of(b.find(f"{NS}text")) == b.attrib["data-building"].replace("-", "\u2212")
    church, one = translation(buildings[0]), translation(buildings[1])
    assert church == (400, 164) and one[0] > church[0]   # the Church at the top, then clockwise
    names = [text_of(t) for t in root.iter(f"{NS}text") if t.attrib.get("class") == "hs-name"]
    assert names == ["Church", "Ruins"]


def test_each_agent_is_drawn_in_its_building_with_its_letter_and_colour():
    root = parse(board(POSITION))
    agents = {a.attrib["data-agent"]: a for a in with_attr(root, "data-agent")}
    assert set(agents) == {"red", "blue", "green", "yellow"}
    for colour, building in POSITION.positions.items():
        x, y = translation(agents[colour])
        bx, by = building_point(building)
        assert math.hypot(x - bx, y - by) < BUILDING_RADIUS - 10
        assert agents[colour].find(f"{NS}circle").attrib["fill"] == AGENT_COLOURS[colour][0]
    assert text_of(agents["red"].find(f"{NS}text")) == "J" and text_of(agents["yellow"].find(f"{NS}text")) == "P"
    assert translation(agents["red"]) != translation(agents["yellow"])   # two in building 4, side by side


def test_the_safe_sits_by_its_building():
    root = parse(board(POSITION))
    (safe,) = with_attr(root, "data-safe")
    assert safe.attrib["data-safe"] == "4"
    ring = safe.find(f"{NS}circle")
    assert (float(ring.attrib["cx"]), float(ring.attrib["cy"])) == building_point(4)


def test_markers_on_the_track_and_past_the_finish_on_the_finish():
    root = parse(board(POSITION))
    markers = {m.attrib["data-marker"]: m for m in with_attr(root, "data-marker")}
    assert {c: int(m.attrib["data-score"]) for c, m in markers.items()} == POSITION.scores
    for colour, score in POSITION.scores.items():
        tx, ty, _, _ = track_point(min(score, 42))
        x, y = translation(markers[colour])
        assert 20 <= math.hypot(x - tx, y - ty) <= 50    # just inside its space, not on it
    spaces = with_attr(root, "data-track")
    assert [int(s.attrib["data-track"]) for s in spaces] == list(range(43))


def test_the_dossier_mark_only_in_dossier_games():
    def mark_title(svg):
        (space,) = with_attr(parse(svg), "data-track", 29)
        return text_of(space.find(f"{NS}title"))
    assert mark_title(board(POSITION)) == "29"
    assert mark_title(board(POSITION, rules=Rules(dossier=True))) == "29: dossier mark"
    g = Game(["Ann", "Bob", "Cy"], rules=Rules(dossier=True), seed=1)
    assert mark_title(board(g)) == "29: dossier mark"


def test_a_viewer_sees_only_their_own_agent_marked():
    g = Game(["Ann", "Bob", "Cy"], seed=3)
    ann = g.owners["Ann"][0]
    root = parse(board(g, viewer="Ann"))
    marked = [a.attrib["data-agent"] for a in with_attr(root, "data-agent") if a.find(f"{NS}circle[@class='hs-own']")
              is not None]
    assert marked == [ann]
    spectator = board(g)
    assert "hs-own" not in spectator and "data-owner" not in spectator
    for player, (colour,) in g.owners.items():   # nobody's owner is written during the game
        assert f"{player}'s agent" not in board(g, viewer="Ann") or player == "Ann"


def test_owners_are_drawn_once_the_game_is_over():
    g = Game(["Ann", "Bob"], seed=2)
    while not g.is_over:
        g.apply(g.chance_outcomes()[0][0] if g.is_chance_node else g.legal_actions()[0])
    root = parse(board(g))
    owners = {e.attrib["data-owner"] for e in with_attr(root, "data-owner")}
    assert {"Ann", "Bob"} <= owners
    assert "Game over" in text_of(root)


def test_the_heatmap_beside_the_board_leaves_out_the_viewers_row():
    g = Game(["Ann", "Bob", "Cy"], seed=3)
    b = Belief.for_game(g, "Ann")
    root = parse(board(g, viewer="Ann", belief=b))
    cells = with_attr(root, "data-cell")
    rows = {c.attrib["data-cell"].split(":")[0] for c in cells}
    assert rows == {"Bob", "Cy", "free"}
    for c in cells:
        row, col = c.attrib["data-cell"].split(":")
        assert float(c.attrib["data-p"]) == pytest.approx(b.marginals()[row][col], abs=1e-4)
        assert text_of(c.find(f"{NS}text")) == probability_label(b.marginals()[row][col])
    words = text_of(root)
    assert "given what Ann has seen" in words and "Ann's own agent: " in words
    assert with_attr(root, "data-legend", "scale")


def test_a_row_that_sums_to_two_is_explained():
    table = {"Bob": {"red": 1.0, "blue": 0.99, "green": 0.01}, "free": {"red": 0.0, "blue": 0.01, "green": 0.99}}
    assert "sums to 2" in text_of(parse(heatmap(table)))
    assert "sums to 2" not in text_of(parse(heatmap({"Bob": {"red": 0.5, "blue": 0.5}})))


def test_svg_displays_and_saves(tmp_path):
    s = board(POSITION, size=300)
    assert isinstance(s, Svg) and s._repr_svg_() == s
    root = parse(s)
    assert root.tag == f"{NS}svg" and root.attrib["width"] == "300" and root.attrib["viewBox"] == "0 0 800 800"
    path = s.save(tmp_path / "p.svg")
    assert path.read_text(encoding="utf-8") == s


@pytest.mark.parametrize("source, viewer, message", [
    ("a board", None, "draw a Game, a View or a Position, not str"),
    (POSITION, "Zed", "'Zed' is not a player of this position"),
])
def test_bad_input_is_explained(source, viewer, message):
    with pytest.raises(HeimlichError, match=re.escape(message)):
        board(source, viewer=viewer)


def test_another_players_view_is_refused():
    g = Game(["Ann", "Bob"], seed=1)
    with pytest.raises(HeimlichError, match="draw Bob's view from the game"):
        board(g.view("Ann"), viewer="Bob")
    with pytest.raises(HeimlichError, match="not an agent colour"):
        heatmap({"Bob": {"pink": 1.0}})
    with pytest.raises(HeimlichError, match="not int"):
        heatmap(3)


def test_the_pictures_and_the_widget_share_colours_and_geometry():
    """Two renderers (the widget draws live in the browser), one look: the same palette and ring."""
    logic = (Path(__file__).resolve().parents[1] / "widgets" / "logic.js").read_text(encoding="utf-8")
    agent = r'(\w+): Object\.freeze\(\{ name: "\w+", letter: "\w", fill: "(#[0-9a-f]{6})", ink: "(#[0-9a-f]{6})" \}\)'
    js_colours = {c: (fill, ink) for c, fill, ink in re.findall(agent, logic)}
    assert js_colours == hs.AGENT_COLOURS
    board_js = dict(re.findall(r"^  (\w+): (\d+),$", logic.split("export const BOARD")[1].split("});")[0], re.M))
    assert {k: int(v) for k, v in board_js.items() if k in ("size", "ringRadius", "buildingRadius", "trackInset",
                                                             "trackSpaceRadius")} == {
        "size": hs.SIZE, "ringRadius": hs.RING_RADIUS, "buildingRadius": hs.BUILDING_RADIUS,
        "trackInset": hs.TRACK_INSET, "trackSpaceRadius": hs.TRACK_RADIUS}


def test_a_player_called_you_reads_right_in_pictures():
    g = Game(["You", "Bob", "Cy"], seed=3)
    words = text_of(parse(board(g, viewer="You", belief=Belief.for_game(g, "You"))))
    assert "You's" not in words and "You has" not in words
    assert "Your agent: " in words and "given what You have seen" in words and "Your own agent: " in words


def test_the_player_types_are_written_under_the_heatmap_when_the_model_has_them():
    from heimlich_lab.inference.model import BoltzmannModel
    from heimlich_lab.inference.player_types import default_population
    g = Game(["Ann", "Bob", "Cy"], seed=3)
    typed = Belief.for_game(g, "Ann", model=default_population())
    assert typed.describe_types()
    words = text_of(parse(heatmap(typed)))
    for player, types in typed.player_types().items():      # the three likeliest types of each player
        top = ", ".join(f"{k} {v:.2f}" for k, v in list(types.items())[:3])
        assert f"{player} plays like: {top}" in words
    assert "plays like" not in text_of(parse(heatmap(Belief.for_game(g, "Ann", model=BoltzmannModel()))))
