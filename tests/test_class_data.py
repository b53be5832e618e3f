"""Class data: the board saves a finished game into the class folder only with every human's consent (atomically,
never over a file, the folder made only when asked, a bad folder shown on the board while the game goes on), and
heimlich_lab.analysis reads a folder back (checked; bad files skipped and named) as tidy tables and as records
for fitting. docs/class-data.md is the guide."""
from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import tempfile
from pathlib import Path

import pandas as pd
import pytest

from heimlich_lab import GameRecord, Rules, play, secrets
from heimlich_lab.analysis import class_games as cg_module
from heimlich_lab.analysis import ClassRecords, class_games_or_simulated, class_records, load_class_games
from heimlich_lab.analysis.class_games import DECISION_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS
from heimlich_lab.bots import RandomBot
from heimlich_lab.errors import HeimlichError, ModelError
from heimlich_lab.inference.fit import decision_data, fit_boltzmann
from heimlich_lab.inference.population import fit_population
from heimlich_lab.secrets.widget import SecretsController
from heimlich_lab.widget import GameController, play_in_notebook
from heimlich_lab.widget import class_folder as cf
from heimlich_lab.widget.class_folder import (CONSENT_BOX, CONSENT_TEXT, ClassFolderError, check_folder,
                                              save_class_game)

THREE = ["Ann", "Bob", "Cy"]
NAME = re.compile(r"^(heimlich|secrets)-\d{8}-\d{6}Z-seed(none|\d+)-[0-9a-f]{6}\.json$")
WHEN = dt.datetime(2025, 3, 4, 5, 6, 7, tzinfo=dt.timezone.utc)


def table(humans=("Ann",), seed=3, players=THREE, **kw) -> GameController:
    """A live board: the humans at the screen, RandomBots in the other seats, no belief panel (fast)."""
    bots = {p: RandomBot(seed=seed * 10 + i) for i, p in enumerate(players) if p not in humans}
    return GameController(players, bots=bots, seed=seed, beliefs=False, **kw)


def play_out(ctl, seed: int = 0, until_over: bool = True, max_steps: int = 20_000) -> None:
    """Play a live table to its end: bots by themselves, each human's decision a seeded random legal one, sent
    through the board's own path (``send_action``, after the curtain is lifted)."""
    rng = random.Random(seed)
    for _ in range(max_steps):
        if ctl.game.is_over:
            return
        if ctl.run_bots():
            continue
        if ctl.curtain:
            ctl.reveal()
        g = ctl.game
        if g.is_chance_node:
            ctl.send_action("roll")
        else:
            ctl.send_action(str(rng.choice(g.legal_actions())))
        assert not ctl.last_error, ctl.last_error
    raise AssertionError("the game did not end")


def files(folder: Path) -> list[str]:
    return sorted(p.name for p in Path(folder).iterdir())


# ------------------------------------------------------------------------------------------ saving: consent
def test_a_game_without_consent_writes_nothing(tmp_path):
    ctl = table(class_folder=tmp_path)
    state = ctl.widget.class_data
    assert [s["consent"] for s in state["seats"]] == [False], "the box starts unticked"
    assert state["text"] == CONSENT_TEXT.format(folder=str(tmp_path)) and state["error"] == ""
    play_out(ctl)
    assert files(tmp_path) == []
    assert ctl.widget.class_data["saved"] is None
    assert ctl.widget.class_data["status"].startswith("Not saved: not everyone at the table agreed")


def test_one_human_of_two_is_not_enough(tmp_path):
    ctl = table(humans=("Ann", "Cy"), class_folder=tmp_path)
    ctl.set_consent("Ann")
    play_out(ctl)
    assert files(tmp_path) == []
    assert [s["consent"] for s in ctl.widget.class_data["seats"]] == [True, False]


def test_with_every_humans_consent_the_finished_game_is_saved_once_and_reads_back_equal(tmp_path):
    ctl = table(humans=("Ann", "Cy"), class_folder=tmp_path)
    for p in ("Ann", "Cy"):
        ctl.set_consent(p, True)
    assert files(tmp_path) == [], "nothing is written before the end"
    assert "(2 of 2 so far)" in ctl.widget.class_data["status"]
    play_out(ctl)
    (name,) = files(tmp_path)
    assert NAME.match(name) and name.startswith("heimlich-") and f"-seed{ctl.game.seed}-" in name
    assert ctl.widget.class_data["saved"] == name and name in ctl.widget.class_data["status"]
    ctl.refresh()
    ctl._after_change()                      # more changes after the end: still one file
    assert files(tmp_path) == [name]
    d = json.loads((tmp_path / name).read_text())
    assert d["format"] == cf.CLASS_GAME_FORMAT and d["version"] == cf.CLASS_GAME_VERSION and d["game"] == "heimlich"
    assert d["seats"] == [{"player": "Ann", "kind": "human"}, {"player": "Bob", "kind": "bot", "bot": "RandomBot(seed=31)"},
                          {"player": "Cy", "kind": "human"}]
    assert d["consent"] == {"asked": CONSENT_TEXT.format(folder=str(tmp_path)), "agreed": ["Ann", "Cy"]}
    assert d["record"] == ctl.record.to_dict(), "the full record, as played"
    assert dt.datetime.fromisoformat(d["saved_at"].replace("Z", "+00:00")).tzinfo is not None
    loaded = load_class_games(tmp_path)
    assert [r.to_dict() for r in loaded.records] == [ctl.record.to_dict()]


def test_ticking_after_the_end_saves_and_unticking_deletes_the_file(tmp_path):
    ctl = table(class_folder=tmp_path)
    play_out(ctl)
    assert files(tmp_path) == []
    ctl.set_consent("Ann", True)
    (name,) = files(tmp_path)
    ctl.set_consent("Ann", False)
    assert files(tmp_path) == []
    assert ctl.widget.class_data["status"] == f"Deleted {name}: this game is not saved."
    ctl.set_consent("Ann", True)
    assert len(files(tmp_path)) == 1


def test_the_front_ends_consent_message(tmp_path):
    ctl = table(class_folder=tmp_path)
    v = ctl.widget.class_data["version"]
    ctl.handle_message({"type": "consent", "player": "Ann", "value": True})
    assert ctl.class_saver.consent == {"Ann": True} and ctl.widget.class_data["version"] == v + 1
    ctl.handle_message({"type": "consent", "player": "Ann", "value": "yes"})     # only true ticks the box
    assert ctl.class_saver.consent == {"Ann": False}
    before = dict(ctl.class_saver.consent)
    ctl.handle_message({"type": "consent", "player": "Bob", "value": True})      # a bot's seat: refused, redrawn
    assert ctl.class_saver.consent == before and ctl.widget.class_data["version"] == v + 3


def test_a_table_without_a_person_saves_nothing_and_bad_input_is_refused(tmp_path):
    ctl = table(humans=(), class_folder=tmp_path)
    assert ctl.widget.class_data["seats"] == []
    assert "only games people play are saved" in ctl.widget.class_data["status"]
    ctl.run_bots()
    assert ctl.game.is_over and files(tmp_path) == []
    with pytest.raises(HeimlichError, match="not a human player"):
        ctl.set_consent("Bob")
    human = table(class_folder=tmp_path)
    with pytest.raises(HeimlichError, match="True or False"):
        human.set_consent("Ann", "yes")
    assert human.class_saver.consent == {"Ann": False}
    with pytest.raises(HeimlichError, match="saves no class data"):
        table().set_consent("Ann")
    with pytest.raises(HeimlichError, match="needs a class_folder"):
        table(create_folder=True)
    with pytest.raises(ClassFolderError, match="folder's path"):
        table(class_folder=42)
    assert table().widget.class_data == {}, "no box unless a class folder is named"


# ------------------------------------------------------------------------------------------ saving: the folder
def reference_record(seed=3):
    ctl = table(seed=seed)
    play_out(ctl)
    return ctl.record.to_dict()


def test_a_missing_folder_is_created_only_when_asked(tmp_path):
    missing = tmp_path / "class-games"
    ctl = table(class_folder=missing)
    assert "the folder does not exist (create it, or pass create_folder=True)" in ctl.widget.class_data["error"]
    ctl.set_consent("Ann")
    play_out(ctl)
    assert not missing.exists()
    assert ctl.record.to_dict() == reference_record(), "the game is not affected"
    assert ctl.widget.class_data["status"].startswith("Not saved: the folder has a problem")
    made = table(class_folder=missing, create_folder=True)
    assert made.widget.class_data["error"] == "" and not missing.exists(), "not made before a game is saved"
    made.set_consent("Ann")
    play_out(made)
    assert len(files(missing)) == 1


def test_a_folder_that_is_a_file_is_shown_on_the_board_and_the_game_goes_on(tmp_path):
    f = tmp_path / "class-games"
    f.write_text("not a folder")
    ctl = play_in_notebook(THREE, bots={"Bob": RandomBot(seed=31), "Cy": RandomBot(seed=32)}, seed=3, beliefs=False,
                           class_folder=f).controller
    assert ctl.widget.class_data["error"] == f"Cannot save class games into {f}: it is a file, not a folder"
    ctl.set_consent("Ann")
    play_out(ctl)
    assert f.read_text() == "not a folder"
    assert ctl.game.is_over and ctl.record.to_dict() == reference_record()
    assert "it is a file" in ctl.widget.class_data["error"]
    inside = tmp_path / "class-games" / "sub"
    with pytest.raises(ClassFolderError, match="is a file, so the folder cannot be created"):
        check_folder(inside, create=True)


def test_an_unwritable_folder_is_shown_on_the_board(tmp_path, monkeypatch):
    real = os.access
    monkeypatch.setattr(cf.os, "access", lambda p, mode: False if Path(p) == tmp_path else real(p, mode))
    ctl = table(class_folder=tmp_path)
    assert ctl.widget.class_data["error"] == f"Cannot save class games into {tmp_path}: no permission to write " \
                                             "into the folder"
    monkeypatch.undo()

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")
    ctl = table(class_folder=tmp_path)
    ctl.set_consent("Ann")
    monkeypatch.setattr(cf.tempfile, "mkstemp", refuse)
    play_out(ctl)
    assert ctl.widget.class_data["error"] == f"Cannot save class games into {tmp_path}: Permission denied"
    assert files(tmp_path) == [] and ctl.record.to_dict() == reference_record()
    monkeypatch.undo()
    ctl.set_consent("Ann", False)
    ctl.set_consent("Ann", True)                    # fixed: untick and tick to try again
    assert len(files(tmp_path)) == 1 and ctl.widget.class_data["error"] == ""


def finished(seed=1):
    return play(Rules(), {"Ann": RandomBot(seed=seed), "Bob": RandomBot(seed=seed + 1)}, seed=seed)


def test_a_write_that_fails_half_way_leaves_nothing(tmp_path, monkeypatch):
    def broken_fsync(fd):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(cf.os, "fsync", broken_fsync)
    with pytest.raises(ClassFolderError, match="Input/output error"):
        save_class_game(finished(), tmp_path, humans=["Ann"], bots={"Bob": RandomBot(seed=2)}, agreed=["Ann"])
    assert files(tmp_path) == [], "no file, no temporary file"


def test_a_file_is_never_overwritten(tmp_path):
    rec = finished()
    kw = dict(humans=["Ann"], bots={"Bob": RandomBot(seed=2)}, agreed=["Ann"], now=WHEN)
    first = save_class_game(rec, tmp_path, rng=random.Random(7), **kw)
    text = first.read_bytes()
    second = save_class_game(rec, tmp_path, rng=random.Random(7), **kw)   # the same name comes first: taken
    assert second != first and first.read_bytes() == text
    assert files(tmp_path) == sorted([first.name, second.name])
    assert all(NAME.match(n) for n in files(tmp_path))
    assert first.name.startswith("heimlich-20250304-050607Z-seed1-")


def test_what_save_class_game_refuses(tmp_path):
    rec = finished()
    bots = {"Bob": RandomBot(seed=2)}
    with pytest.raises(ClassFolderError, match="Ann did not agree"):
        save_class_game(rec, tmp_path, humans=["Ann"], bots=bots, agreed=[])
    with pytest.raises(ClassFolderError, match="without a human player"):
        save_class_game(rec, tmp_path, humans=[], bots={"Ann": RandomBot(), **bots}, agreed=[])
    with pytest.raises(ClassFolderError, match="finished game's full record"):
        save_class_game(rec.public(), tmp_path, humans=["Ann"], bots=bots, agreed=["Ann"])
    g = rec.replay(until=5)
    with pytest.raises(ClassFolderError, match="finished game's full record"):
        save_class_game(g.record, tmp_path, humans=["Ann"], bots=bots, agreed=["Ann"])
    with pytest.raises(ClassFolderError, match="neither a human nor a bot"):
        save_class_game(rec, tmp_path, humans=["Ann"], bots={}, agreed=["Ann"])
    assert files(tmp_path) == []


def test_secrets_saves_with_consent_too(tmp_path):
    players = ["Ann", "Bob", "Cy", "Dee"]
    ctl = SecretsController(players, bots={p: secrets.RandomBot(i) for i, p in enumerate(players[1:])}, seed=5,
                            beliefs=False, class_folder=tmp_path)
    assert ctl.widget.class_data["seats"] == [{"player": "Ann", "label": CONSENT_BOX.format(player="Ann"),
                                               "consent": False}]
    ctl.set_consent("Ann")
    play_out(ctl)
    (name,) = files(tmp_path)
    assert name.startswith("secrets-")
    loaded = load_class_games(tmp_path)
    assert loaded.games["game"].tolist() == ["secrets"]
    assert [r.to_dict() for r in loaded.records] == [ctl.record.to_dict()]
    assert set(loaded.decisions.loc[loaded.decisions["controller"] == "human", "player"]) == {"Ann"}
    untold = SecretsController(players, bots={p: secrets.RandomBot(i) for i, p in enumerate(players[1:])}, seed=5,
                               beliefs=False, class_folder=tmp_path / "other", create_folder=True)
    play_out(untold)
    assert not (tmp_path / "other").exists()


def test_the_format_names_agree_between_the_writer_and_the_reader():
    assert (cf.CLASS_GAME_FORMAT, cf.CLASS_GAME_VERSION) == (cg_module.CLASS_GAME_FORMAT, cg_module.CLASS_GAME_VERSION)


# ------------------------------------------------------------------------------------------ loading
@pytest.fixture(scope="module")
def board_games():
    """Three finished games played on the board (Ann human with consent, seeded random decisions), saved through
    the board's own path into a folder, and their records as played."""
    folder = Path(tempfile.mkdtemp()) / "class-games"
    played = []
    for s, (humans, n) in enumerate([(("Ann",), 3), (("Ann", "Cy"), 3), (("Bob",), 4)]):
        players = ["Ann", "Bob", "Cy", "Dee"][:n]
        ctl = table(humans=humans, seed=20 + s, players=players, class_folder=folder, create_folder=True,
                    rules=Rules(top_secret=s == 1))
        for h in humans:
            ctl.set_consent(h)
        play_out(ctl, seed=s)
        played.append(ctl)
    return folder, played


def test_round_trip_through_the_board(board_games):
    folder, played = board_games
    data = load_class_games(folder)
    assert data.skipped == [] and len(data) == 3
    by_seed = {r.seed: r.to_dict() for r in data.records}
    assert by_seed == {c.game.seed: c.record.to_dict() for c in played}
    games = data.games.set_index("game_id")
    for ctl in played:
        rec = ctl.record
        gid = next(Path(f).stem for f, r in zip(data.records.files, data.records) if r.seed == rec.seed)
        rows = data.decisions[data.decisions["game_id"] == gid]
        assert len(rows) == sum(e.actor != "chance" for e in rec.log)
        assert rows["notation"].tolist() == [str(e.action) for e in rec.log if e.actor != "chance"]
        assert rows["decision"].tolist() == list(range(len(rows)))
        assert set(rows.loc[rows["is_human"], "player"]) == set(ctl.humans)
        assert set(rows.loc[~rows["is_human"], "bot"]) == {repr(ctl.bots[p]) for p in ctl.bots}
        assert (rows["n_options"] >= 1).all() and rows["turn"].is_monotonic_increasing
        g = games.loc[gid]
        assert g["winners"] == ",".join(rec.winners) and g["n_actions"] == len(rec.log)
        assert g["n_humans"] == len(ctl.humans) and g["n_bots"] == len(ctl.bots)
        assert g["variant"] == ("top_secret" if rec.rules.top_secret else "basic")
        seats = data.seats[data.seats["game_id"] == gid]
        assert seats["player"].tolist() == list(rec.players)
        assert seats.loc[seats["won"], "player"].tolist() == rec.winners
        final = rec.result["final_owners"]
        assert seats["score"].tolist() == [rec.result["scores"][next(c for c, o in final.items() if o == p)]
                                           for p in rec.players]


def test_the_tables_schema_and_dtypes(board_games):
    folder, _ = board_games
    data = load_class_games(folder)
    empty = load_class_games(folder / "nothing-here")
    for got, schema in [(data.decisions, DECISION_COLUMNS), (data.seats, SEAT_COLUMNS), (data.games, GAME_COLUMNS),
                        (empty.decisions, DECISION_COLUMNS), (empty.seats, SEAT_COLUMNS),
                        (empty.games, GAME_COLUMNS)]:
        assert list(got.columns) == list(schema)
        assert {c: str(t) for c, t in got.dtypes.items()} == {c: str(pd.Series(dtype=t).dtype)
                                                            for c, t in schema.items()}
    assert len(empty) == 0 and empty.skipped == []
    assert data.games["saved_at"].notna().all()
    assert data.decisions["game"].unique().tolist() == ["heimlich"]
    assert sorted(data.decisions["controller"].unique()) == ["bot", "human"]


def test_a_folder_of_good_tampered_and_other_files(board_games, tmp_path, capsys):
    folder, played = board_games
    good = sorted(folder.iterdir())
    for p in good:
        (tmp_path / p.name).write_bytes(p.read_bytes())
    base = json.loads(good[0].read_text())

    def variant(name, change):
        d = json.loads(json.dumps(base))
        change(d)
        (tmp_path / name).write_text(json.dumps(d))

    variant("t-winner.json", lambda d: d["record"]["result"].update(winners=["Nobody"]))
    i = next(i for i, e in enumerate(base["record"]["log"]) if e[1].startswith("points"))
    variant("t-move.json", lambda d: d["record"]["log"].__setitem__(i, [d["record"]["log"][i][0], "points 9"]))
    variant("t-bots.json", lambda d: [s.update(kind="bot", bot="X") for s in d["seats"]])
    variant("t-consent.json", lambda d: d["consent"].update(agreed=[]))
    variant("t-seats.json", lambda d: d["seats"].reverse())
    variant("t-version.json", lambda d: d.update(version=99))
    (tmp_path / "zz-copy.json").write_bytes(good[1].read_bytes())
    (tmp_path / "other.json").write_text('{"hello": 1}')
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "half.json").write_text('{"format": "heimlich-lab-class-game"')
    (tmp_path / "latin1.json").write_bytes(b"\xff\xfe")
    (tmp_path / "notes.txt").write_text("bring dice")
    (tmp_path / "sub").mkdir()
    (tmp_path / ".class-game-x.tmp").write_text("{")
    plain = finished(seed=9)
    plain.save(tmp_path / "plain-record.json")
    plain.public().save(tmp_path / "public-record.json")
    capsys.readouterr()

    data = load_class_games(tmp_path)
    printed = capsys.readouterr().out
    skipped = dict(data.skipped)
    assert len(data) == 4, "the three board games and the plain record"
    assert set(skipped) == {"t-winner.json", "t-move.json", "t-bots.json", "t-consent.json", "t-seats.json",
                            "t-version.json", "zz-copy.json", "other.json", "list.json", "half.json", "latin1.json",
                            "public-record.json"}
    assert "winners" in skipped["t-winner.json"] and "Nobody" in skipped["t-winner.json"]   # not a player
    assert "log entry" in skipped["t-move.json"]
    assert "no human seat" in skipped["t-bots.json"]
    assert "without the consent of every human seat" in skipped["t-consent.json"]
    assert "'seats' name" in skipped["t-seats.json"]
    assert "unknown class-game version 99" in skipped["t-version.json"]
    assert skipped["zz-copy.json"] == f"the same game as {good[1].name}"
    assert "not a class game or a record" in skipped["other.json"] and "not a class game" in skipped["list.json"]
    assert "not valid JSON" in skipped["half.json"] and "not UTF-8" in skipped["latin1.json"]
    assert "class data need the full record" in skipped["public-record.json"]
    assert sorted(data.ignored) == ["notes.txt", "sub"]
    lines = printed.splitlines()
    assert lines[0] == f"Skipped 12 files in {tmp_path}:"
    assert lines[1].startswith("  half.json: not valid JSON") and lines[2] == "  latin1.json: not UTF-8 text"
    assert len(lines) == 12 and lines[-1] == "  and 2 more (all of them: .skipped)", "ten named, the rest counted"
    plain_rows = data.seats[data.seats["game_id"] == "plain-record"]
    assert plain_rows["controller"].tolist() == ["unknown", "unknown"] and plain_rows["is_human"].isna().all()
    assert data.games.set_index("game_id").loc["plain-record", "n_humans"] is pd.NA
    recs = class_records(tmp_path, quiet=True)
    assert recs.fit_players[recs.files.index(tmp_path / "plain-record.json")] == ("Ann", "Bob"), \
        "unknown seats: every player counts"
    with pytest.raises(HeimlichError, match="is a file, not a class folder"):
        load_class_games(tmp_path / "notes.txt")
    with pytest.raises(HeimlichError, match="game is one of"):
        load_class_games(tmp_path, game="chess")


def test_both_games_in_one_folder(board_games, tmp_path):
    folder, _ = board_games
    for p in folder.iterdir():
        (tmp_path / p.name).write_bytes(p.read_bytes())
    s = secrets.play([secrets.RandomBot(i) for i in range(4)], seed=2)
    save_class_game(s, tmp_path, humans=["Ann"], bots={p: secrets.RandomBot(0) for p in s.players[1:]},
                    agreed=["Ann"])
    both = load_class_games(tmp_path)
    assert both.games["game"].value_counts().to_dict() == {"heimlich": 3, "secrets": 1}
    assert both.summary() == f"4 class games in {tmp_path} (3 heimlich, 1 secrets)"
    assert len(load_class_games(tmp_path, game="secrets")) == 1
    assert all(isinstance(r, GameRecord) for r in class_records(tmp_path))
    assert len(class_records(tmp_path, game="secrets")) == 1
    assert len(class_records(tmp_path, n_players=4)) == 1


# ------------------------------------------------------------------------------------------ notebooks and fits
def simulate(k):
    return play(Rules(), {p: RandomBot(seed=100 * k + i) for i, p in enumerate(THREE)}, seed=k)


def test_class_games_or_simulated_says_which(board_games, tmp_path, capsys):
    folder, _ = board_games
    recs, source = class_games_or_simulated(folder, simulate=simulate, n=2)
    assert (source, len(recs), recs.source) == ("class", 3, "class")
    assert capsys.readouterr().out == f"Using 3 games your class played, from {folder}\n"
    recs, source = class_games_or_simulated(tmp_path / "none", simulate=simulate, n=2)
    assert (source, len(recs), recs.fit_players) == ("simulated", 2, None)
    assert capsys.readouterr().out == (f"No class games found in {tmp_path / 'none'} (no such folder): using 2 games "
                                       "of simulated bots instead\n")
    assert [r.to_dict() for r in recs] == [simulate(0).to_dict(), simulate(1).to_dict()]
    class_games_or_simulated(tmp_path, simulate=simulate, n=1)
    assert capsys.readouterr().out == (f"No class games found in {tmp_path}: using 1 games of simulated bots "
                                       "instead\n")
    _, source = class_games_or_simulated(folder, simulate=simulate, n=1, min_games=5)
    assert source == "simulated"
    assert capsys.readouterr().out.startswith(f"Only 3 class games in {folder} (fewer than 5): using 1 games")
    _, source = class_games_or_simulated(folder, simulate=simulate, n=1, n_players=4)
    assert source == "class" and capsys.readouterr().out == f"Using 1 4-player game your class played, from {folder}\n"
    with pytest.raises(HeimlichError, match="must return a finished heimlich record"):
        class_games_or_simulated(tmp_path, simulate=lambda k: "a game", n=1)
    with pytest.raises(HeimlichError, match="simulate must be a function"):
        class_games_or_simulated(tmp_path, simulate=None, n=1)
    with pytest.raises(HeimlichError, match="whole numbers >= 1"):
        class_games_or_simulated(tmp_path, simulate=simulate, n=0)


def test_fits_on_class_games_use_the_humans_decisions_only(board_games):
    folder, played = board_games
    recs = class_records(folder)
    assert isinstance(recs, ClassRecords)
    assert sorted(recs.fit_players) == sorted(tuple(c.humans) for c in played)
    humans = decision_data(recs, players=recs.fit_players)
    everyone = decision_data(recs)
    per_game = [decision_data([r], players=[h]).n_decisions for r, h in zip(recs, recs.fit_players)]
    assert humans.n_decisions == sum(per_game) < everyone.n_decisions
    fit = fit_boltzmann(recs, epsilon=0.05, players=recs.fit_players)
    assert fit.n_decisions == humans.n_decisions
    pop = fit_population(recs, players=recs.fit_players, bootstrap=5)
    assert pop.fit["players"] == sum(len(c.humans) for c in played) == 4
    with pytest.raises(ModelError, match="one per record"):
        decision_data(recs, players=recs.fit_players[:1])
    with pytest.raises(ModelError, match="who did not play"):
        decision_data(recs[:1], players=[("Zed",)])
    with pytest.raises(ModelError, match="list of player names"):
        fit_population(recs[:1], players=["Ann"])
    with pytest.raises(ModelError, match="not DecisionData"):
        fit_boltzmann(humans, players=recs.fit_players)
