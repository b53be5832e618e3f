"""Top Secret (1985): the map as data (the stand-in, loading another, the located errors), records (replay,
tampering, the public and per-player records), the command line and the tournament through the registry."""
from __future__ import annotations

import contextlib
import copy
import io
import json
from importlib import resources

import pytest

from heimlich_lab import topsecret1985
from heimlich_lab.errors import HeimlichError, RecordError
from heimlich_lab.games.topsecret1985 import Game, Map, MapError, RandomBot, TopSecretRecord, TopSecretRules
from heimlich_lab.games.topsecret1985.bots import RunnerBot


def cli(*argv: str) -> tuple[int, str]:
    from heimlich_lab.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


@pytest.fixture(scope="module")
def record():
    return topsecret1985.play([RunnerBot(1), RunnerBot(2), RandomBot(3)], seed=11)


# ------------------------------------------------------------------------------------------------ the map
def test_the_stand_in_map_ships_as_package_data_and_is_checked():
    text = resources.files("heimlich_lab.games.topsecret1985").joinpath("data", "standin-map.json").read_text()
    m = Map.default()
    assert Map.from_data(json.loads(text)) == m and m.is_default
    assert len(m.cities) == 30 and m.graph.number_of_edges() == 66
    for c in ("NW", "NE", "SE", "SW"):      # every player 7 lines from their start base to their arrival base
        assert m.distance(m.start[c], m.arrival[c]) == 7
        assert set(m.spaces[c]) == {"A", "B", "C", "D"}
    # each corner: its start base, and the arrival base of the player diagonally opposite
    assert {m.data["graph"]["corners"][c]["arrival"] for c in ("NW", "SE")} == {"arrival-SE", "arrival-NW"}
    # the names of close cities are drawn apart; a city without a 'label' has its name below
    assert m.label["london"] == "left" and m.label["paris"] == "below" and set(m.label) == set(m.cities)


def test_a_map_file_loads_and_a_game_plays_on_it(tmp_path):
    small = json.loads(Map.default().to_json())
    keep = {"vancouver", "san-francisco", "tokyo", "sydney", "singapore", "hong-kong", "beijing", "lima",
            "santiago", "buenos-aires", "anchorage", "auckland", "bogota", "mexico-city"}
    small["nodes"] = [n for n in small["nodes"] if n["kind"] != "city" or n["id"] in keep]
    ids = {n["id"] for n in small["nodes"]}
    small["links"] = [ln for ln in small["links"] if ln["source"] in ids and ln["target"] in ids]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(small))
    m = Map.load(path)
    assert len(m.cities) == 14 and not m.is_default
    rec = topsecret1985.play([RunnerBot(1), RunnerBot(2)], seed=4, map=m)
    again = TopSecretRecord.from_json(rec.to_json())
    assert again.map == m and again.replay().map == m and again.replay().is_over
    assert json.loads(rec.to_json())["map"]["nodes"] == small["nodes"]
    assert json.loads(topsecret1985.play([RandomBot(1), RandomBot(2)], seed=4).to_json())["map"] is None


def broken(change):
    data = json.loads(Map.default().to_json())
    change(data)
    return data


@pytest.mark.parametrize("change, words", [
    (lambda d: d["links"].__setitem__(slice(None), [ln for ln in d["links"] if "anchorage" not in ln.values()]),
     "node 'anchorage' is joined to nothing"),
    (lambda d: d["links"].__setitem__(slice(None), [ln for ln in d["links"] if {ln["source"], ln["target"]} not in (
        {"new-york", "london"}, {"rio", "lagos"}, {"buenos-aires", "johannesburg"}, {"san-francisco", "tokyo"},
        {"lima", "auckland"})]), "the map is not connected"),
    (lambda d: next(n for n in d["nodes"] if n["id"] == "start-NE")["pos"].__setitem__(0, 500),
     "node 'start-NE': the start base lies at (500, 30), not in corner NE (x >= 750, y <= 150)"),
    (lambda d: next(n for n in d["nodes"] if n["id"] == "arrival-SW").__setitem__("player_corner", "NE"),
     "node 'arrival-SW': the arrival base lying in corner NE must be the base of the player of corner SW"),
    (lambda d: d["nodes"].__setitem__(slice(None), [n for n in d["nodes"] if n["id"] != "arrival-NW"]),
     "link 59 ('arrival-NW' - 'sydney'): 'arrival-NW' is not a node of the map"),
    (lambda d: d["nodes"].append({"id": "paris", "kind": "city", "name": "Paris", "pos": [1, 1]}),
     "node 'paris' appears twice"),
    (lambda d: d["nodes"][0].__setitem__("pos", [5000, 1]), "node 'anchorage': 'pos' [5000, 1] lies off the board"),
    (lambda d: d["graph"]["corners"]["SW"].__setitem__("arrival", "arrival-SW"),
     "corner SW: 'arrival' must be the arrival base lying there, 'arrival-NE'"),
    (lambda d: d["graph"].pop("corners"), "the graph has no 'corners'"),
    (lambda d: d["links"].append({"source": "start-NW", "target": "arrival-SE"}), "joins two bases"),
    (lambda d: next(n for n in d["nodes"] if n["id"] == "paris").__setitem__("label", "north"),
     "node 'paris': 'label' (where the city's name is drawn) must be one of below, above, left, right, not 'north'"),
    (lambda d: next(n for n in d["nodes"] if n["id"] == "start-NW").__setitem__("label", "left"),
     "node 'start-NW': only a city has a 'label'"),
])
def test_a_bad_map_is_refused_saying_what_and_where(change, words):
    with pytest.raises(MapError) as e:
        Map.from_data(broken(change), source="my-map.json")
    assert words in str(e.value) and str(e.value).startswith("my-map.json")


def test_a_map_file_that_cannot_be_read(tmp_path):
    with pytest.raises(MapError, match="cannot read map"):
        Map.load(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(MapError, match="not valid JSON"):
        Map.load(tmp_path / "bad.json")


# ------------------------------------------------------------------------------------------------ records
def test_a_record_replays_exactly_and_holds_the_contents(record, tmp_path):
    assert record.result is not None and set(record.contents) == set(record.players)
    for c in record.contents.values():
        assert sorted(c.values()) == ["1", "3", "5", "bomb"] and sorted(c) == ["A", "B", "C", "D"]
    path = record.save(tmp_path / "game.json")
    again = TopSecretRecord.load(path)
    assert again == record and again.replay().history == record.replay().history
    assert json.loads(path.read_text())["game"] == "topsecret1985"


def tampered(record, change) -> str:
    d = json.loads(record.to_json())
    change(d)
    return json.dumps(d)


def test_a_tampered_record_is_refused(record):
    roll = next(i for i, (a, t) in enumerate(record.log) if t.startswith("roll"))
    other = "roll 3 3" if record.log[roll][1] != "roll 3 3" else "roll 0 0"
    cases = [
        (lambda d: d["log"][roll].__setitem__(1, other), "does not match the seed"),
        (lambda d: d["result"]["secrets"].__setitem__("Ann", 99), "the result does not match the replayed game"),
        (lambda d: d["log"].pop(), "its log does not end the game"),
        (lambda d: d.__setitem__("version", 7), "unknown version 7"),
        (lambda d: d.__setitem__("colour", "red"), "unknown field(s) ['colour']"),
        (lambda d: d["log"].insert(5, ["Ann", "fly away"]), "log entry 5"),
        (lambda d: d.__setitem__("map", {"nodes": []}), "map: the graph has no 'corners'"),
        (lambda d: d["rules"].__setitem__("pickup", "never"), "bad rules"),
    ]
    step = next(i for i, (a, t) in enumerate(record.log) if t.startswith("step"))
    cases.append((lambda d: d["log"][step].__setitem__(1, "step " + record.log[step][1].split()[1] + " paris"),
                   f"log entry {step}"))
    for change, words in cases:
        with pytest.raises(RecordError) as e:
            TopSecretRecord.from_json(tampered(record, change), source="t.json")
        assert words in str(e.value), (words, str(e.value))


def test_the_public_record_and_each_players_hold_no_other_secret(record):
    pub = record.public()
    assert pub.seed is None and pub.contents == {} and pub.view == "public"
    assert TopSecretRecord.from_json(pub.to_json()) == pub
    for p in record.players:
        mine = record.as_player(p)
        assert mine.contents == {p: record.contents[p]}
        assert TopSecretRecord.from_json(mine.to_json()) == mine
        with pytest.raises(RecordError, match="hides secrets"):
            mine.replay()
    leaky = json.loads(pub.to_json())
    i = next(i for i, (a, t) in enumerate(leaky["log"]) if t == "contents ?")
    leaky["log"][i][1] = record.log[i][1]
    with pytest.raises(RecordError, match=f"log entry {i} .* is a secret a public record does not hold"):
        TopSecretRecord.from_json(json.dumps(leaky))


def test_a_face_down_duel_card_is_hidden_from_the_others_until_it_is_answered():
    from topsecret1985_helpers import pass_turn, set_up, turn
    g = set_up()
    turn(g, (3, 0), "step Ann#1 vancouver", "step Ann#1 san-francisco", "step Ann#1 tokyo")
    turn(g, (3, 0), "step Bob#1 sydney", "step Bob#1 singapore", "step Bob#1 hong-kong")
    pass_turn(g)
    g.apply("roll 1 0")
    g.apply("step Bob#1 tokyo")
    g.apply("card 4")
    rec = g.record
    assert rec.log[-1] == ("Bob", "card 4") and rec.as_player("Bob").log[-1] == ("Bob", "card 4")
    assert rec.as_player("Ann").log[-1] == ("Bob", "card ?") and rec.public().log[-1] == ("Bob", "card ?")
    with pytest.raises(HeimlichError) as e:
        g.apply("card 4", player="Bob")
    assert "4" not in str(e.value).replace("card 4", "")                 # the message does not tell Ann's
    g.apply("card 1")
    assert g.record.as_player("Ann").log[-2] == ("Bob", "card 4")        # both shown: public


# ------------------------------------------------------------------------------------------------ the registry
def test_play_replay_and_tournament_from_the_command_line(tmp_path):
    code, out = cli("play", "--game", "topsecret1985", "--players", "Ann,Bob,Cy", "--bots", "runner",
                    "--seed", "3", "--as", "Bob", "--out", str(tmp_path / "t.json"))
    assert code == 0 and out.startswith("Top Secret: Bob's view") and "Game over" in out
    assert "Bob hides his content cards: A=" in out and "Ann hides her content cards." in out
    code, replayed = cli("replay", str(tmp_path / "t.json"), "--as", "omniscient")
    assert code == 0 and "Ann hides her content cards: A=" in replayed
    code, out = cli("tournament", "--game", "topsecret1985", "--games", "2", "--seed", "1", "--no-progress",
                    "--bots", "runner", "--players", "2")
    assert code == 0 and "2 games" in out


def test_a_tournament_table_and_the_variants():
    from heimlich_lab.analysis import tournament, win_rates
    df = tournament(player_counts=(2,), bots="runner", games=2, seed=1, game="topsecret1985", progress=False,
                    variants=["basic", {"pickup": "stop"}])
    assert set(df["variant"]) == {"basic", "pickup=stop"} and set(df["game"]) == {"topsecret1985"}
    rates = win_rates(df, by="variant")
    assert rates["games"].tolist() == [4, 4]     # player rows
    assert rates["fair_share"].tolist() == [0.5, 0.5]     # a seat's share, not a team's (the column was empty)
    with pytest.raises(HeimlichError, match="Top Secret variant"):
        tournament(player_counts=(2,), bots="runner", games=1, seed=1, game="topsecret1985", progress=False,
                   variants=["fast"])


def test_the_public_api():
    g = topsecret1985.Game(["Ann", "Bob"], seed=2, map=topsecret1985.Map.default())
    assert g.seed == 2 and isinstance(g.rules, TopSecretRules)
    assert Game(["Ann", "Bob"]).seed != Game(["Ann", "Bob"]).seed        # a fresh OS seed, recorded
    rec = topsecret1985.play([topsecret1985.RandomBot(1), topsecret1985.RandomBot(2)], seed=9)
    assert rec.seed == 9 and copy.deepcopy(rec) == rec


def test_a_bot_out_of_process_is_handed_the_same_view(tmp_path):
    """The wire codec: at every decision of a whole game, the view a worker rebuilds from what was sent (as JSON)
    equals the player's view."""
    from heimlich_lab.games.topsecret1985.wire import Follower, message

    class Compare:
        def __init__(self, seed):
            self.bot, self.follower, self.consumed, self.checked = RunnerBot(seed), None, 0, 0

        def choose(self, view, legal):
            header, entries, fields, self.consumed = message(view, self.consumed)
            header, entries, fields = json.loads(json.dumps([header, entries, fields]))
            if header is not None:
                self.follower = Follower(header)
            self.follower.extend(entries, fields)
            assert self.follower.view() == view
            self.checked += 1
            return self.bot.choose(self.follower.view(), legal)

    bots = [Compare(1), Compare(2), Compare(3)]
    topsecret1985.play(bots, seed=6)
    assert all(b.checked > 20 for b in bots)


def test_a_bot_cannot_change_the_board_it_is_handed():
    g = Game(["Ann", "Bob"], seed=1)
    board = g.view("Ann").map
    with pytest.raises(TypeError):
        board.neighbours["vancouver"] = ("tokyo",)
    board.data["nodes"].clear()
    assert len(Map.default().data["nodes"]) == 38 and board.neighbours["vancouver"][0] == "anchorage"
