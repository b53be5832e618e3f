"""The command line under attack (issue 23, item 7): deep JSON, devices and FIFOs, standard output as --out,
huge --games, endless input, Ctrl-C and huge inputs quoted in errors; and a fuzzer over its arguments.

Tests that would exhaust the memory before the fix run in a child process with a memory limit, so that they
fail fast instead of taking the machine down."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from heimlich_lab.cli import main

ROOT = Path(__file__).resolve().parents[1]
PLAY = ["play", "--players", "Ann,Bob", "--seed", "1"]


def run(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as e:     # argparse's usage errors
        code = e.code
    except KeyboardInterrupt:   # escaped main(): the test fails on the status, it does not stop pytest
        code = "KeyboardInterrupt escaped"
    out, err = capsys.readouterr()
    return code, out, err


def cli(args, memory_mb: int = 2048, **kw) -> subprocess.CompletedProcess:
    """``heimlich-lab ARGS`` in a child process with at most ``memory_mb`` of address space."""
    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kw.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "heimlich_lab.cli", *args], stderr=subprocess.PIPE, text=True,
                          env=env, preexec_fn=limit, **kw)


# ---------------------------------------------------------------------------------------------- reading


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"game": ' + "[" * 50_000 + "]" * 50_000 + "}"],
                         ids=["list", "in-an-object"])
def test_replay_of_deeply_nested_json_is_a_clear_error(capsys, tmp_path, text):
    deep = tmp_path / "deep.json"
    deep.write_text(text)
    code, out, err = run(capsys, ["replay", str(deep)])
    assert code == 2 and out == ""
    assert err.startswith("heimlich-lab: error: ") and "nested too deeply" in err


def test_replay_reads_no_device_and_no_endless_file(tmp_path):
    done = cli(["replay", "/dev/zero"])
    assert done.returncode == 2 and "not a regular file" in done.stderr and "Traceback" not in done.stderr
    big = tmp_path / "big.json"
    with open(big, "wb") as f:      # 17 MB of nothing (sparse): no record is that large
        f.truncate(17 * 2**20)
    done = cli(["replay", str(big)])
    assert done.returncode == 2 and "larger than 16 MB" in done.stderr


def test_replay_of_a_fifo_is_refused_without_waiting_for_a_writer(capsys, tmp_path):
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)
    code, _, err = run(capsys, ["replay", str(fifo)])
    assert code == 2 and "not a regular file" in err


def test_replay_of_a_file_name_with_a_nul_character_is_a_clear_error(capsys):
    assert main(["replay", "record\x00.json"]) == 2
    err = capsys.readouterr().err
    assert "a file name has no NUL character" in err and "Traceback" not in err


def test_replay_of_a_record_that_is_not_utf8_is_a_clear_error(capsys, tmp_path):
    bad = tmp_path / "latin.json"
    bad.write_bytes(b'{"format": "heimlich-lab-record", "players": ["\xe9"]}')
    code, _, err = run(capsys, ["replay", str(bad)])
    assert code == 2 and "not UTF-8" in err


# ---------------------------------------------------------------------------------------------- writing


def _special_files(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    link = tmp_path / "link.json"
    link.symlink_to(fifo)
    found = [fifo, link]
    try:                            # a character device of our own (root only), never the system's /dev/null
        dev = tmp_path / "null.json"
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        found.append(dev)
    except (PermissionError, OSError):
        pass
    return found


def test_out_refuses_fifos_devices_and_links_to_them(capsys, tmp_path):
    for path in _special_files(tmp_path):
        kind = stat.S_IFMT(os.stat(path).st_mode)
        code, out, err = run(capsys, PLAY + ["--out", str(path)])
        assert code == 2 and out == "" and "not a regular file" in err, path
        assert stat.S_IFMT(os.stat(path).st_mode) == kind, f"{path} was replaced"
        assert not (path.is_symlink() is False and path.name == "link.json")


def test_tournament_out_refuses_a_fifo_also_through_the_library(capsys, tmp_path):
    from heimlich_lab.analysis import tournament
    from heimlich_lab.errors import HeimlichError
    fifo = tmp_path / "results.csv"
    os.mkfifo(fifo)
    code, _, err = run(capsys, ["tournament", "--games", "1", "--no-progress", "--out", str(fifo)])
    assert code == 2 and "not a regular file" in err
    with pytest.raises(HeimlichError, match="not a regular file"):
        tournament(games=1, progress=False, out=fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_out_to_standard_output_redirected_to_a_file_keeps_the_transcript(tmp_path):
    log = tmp_path / "log.txt"
    with open(log, "w") as f:
        done = cli(PLAY + ["--out", "/dev/stdout"], stdout=f)
    text = log.read_text()
    assert done.returncode == 2 and "standard output" in done.stderr
    assert not text.lstrip().startswith("{"), "the record replaced what was printed"


def test_out_to_standard_output_into_a_pipe_is_refused(tmp_path):
    done = cli(PLAY + ["--out", "/dev/stdout"])
    assert done.returncode == 2 and "not a regular file" in done.stderr


# ---------------------------------------------------------------------------------------------- size, Ctrl-C


def test_tournament_with_a_billion_games_is_refused_before_any_game():
    done = cli(["tournament", "--games", "999999999", "--no-progress"])
    assert done.returncode == 2 and "999,999,999 games" in done.stderr and "at most 1,000,000" in done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr


def test_ctrl_c_is_a_short_message_and_exit_status_130(capsys, monkeypatch):
    import heimlich_lab.commands.play as play_command

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(play_command, "play_game", interrupted)
    code, out, err = run(capsys, PLAY)
    assert code == 130 and err == "heimlich-lab: interrupted\n"


def test_ctrl_c_during_a_tournament_keeps_the_file_and_prints_no_traceback(tmp_path):
    out = tmp_path / "r.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # the child takes Ctrl-C as a terminal would give it, even when this test runs in the background of a shell
    # (which starts it with SIGINT ignored, and a child inherits that)
    proc = subprocess.Popen([sys.executable, "-m", "heimlich_lab.cli", "tournament", "--games", "100000",
                             "--no-progress", "--seed", "1", "--out", str(out), "--save-every", "0.2"],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for _ in range(3000):           # wait until the first games are saved (every 0.2 s; 5 minutes at most)
            if out.exists() and len(out.read_text().splitlines()) > 4:
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr and len(stderr.splitlines()) <= 4, stderr
    from heimlich_lab.analysis.storage import load_results
    assert len(load_results(out)) > 0


# ---------------------------------------------------------------------------------------------- excerpts


def test_errors_quote_only_an_excerpt_of_a_huge_input(capsys, tmp_path):
    rec = tmp_path / "huge.json"
    rec.write_text(json.dumps({"format": "heimlich-lab-record", "version": 2, "players": ["x" * 2_000_000],
                               "rules": {}, "log": []}))
    code, _, err = run(capsys, ["replay", str(rec)])
    assert code == 2 and len(err) < 1000 and "characters cut" in err
    code, _, err = run(capsys, PLAY[:3] + ["--seed", "9" * 100_000])
    assert code == 2 and len(err) < 1500 and "is not a seed" in err
    code, _, err = run(capsys, ["play", "--players", "Ann,Bob", "--game", "g" * 100_000])
    assert code == 2 and len(err) < 1500


# ---------------------------------------------------------------------------------------------- fuzz

_PATHS = ["/dev/zero", "/dev/null", "/dev/stdout", "", ".", "/no/such/dir/x.json", "deep.json", "fifo.json",
          "ok.json", "x.csv", "x.parquet", "r\x00.json"]
_VALUES = st.one_of(st.sampled_from(["0", "1", "-1", "2", "inf", "nan", "1e400", "999999999", "٣", "Ann,Bob",
                                     "Ann,Ann", "random", "greedy", "rotate:random", "basic", "both", "x" * 500]),
                    st.sampled_from(_PATHS), st.text(max_size=20))
_FLAGS = {"play": ["--players", "--seed", "--bots", "--out", "--as", "--game", "--draws", "--safe-mover"],
          "replay": ["--as"],
          "tournament": ["--players", "--variants", "--bots", "--seed", "--jobs", "--out", "--by", "--game",
                         "--bot-file", "--decision-time", "--bot-memory", "--max-faults"],
          "evaluate": ["--seed", "--beta", "--out", "--players"]}


@st.composite
def argvs(draw):
    command = draw(st.sampled_from(sorted(_FLAGS)))
    argv = [command]
    if command == "replay":
        argv.append(draw(st.sampled_from(_PATHS)))
    for flag in draw(st.lists(st.sampled_from(_FLAGS[command]), max_size=4)):
        argv += [flag, draw(_VALUES)]
    if command == "tournament":      # keep the work small when the arguments are all valid
        argv += ["--games", draw(st.sampled_from(["0", "1", "x", "-2", "999999999"]))]
    if command == "evaluate":        # (an evaluation of even one game takes long: only its argument checks)
        argv += ["--games", draw(st.sampled_from(["0", "x", "-2"]))]
    if command == "tournament":
        argv.append("--no-progress")
    if command == "evaluate":
        argv += ["--players", "3"]
    return argv


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(argv=argvs())
def test_fuzzed_arguments_end_in_a_status_and_a_short_message(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if not Path("deep.json").exists():
        Path("deep.json").write_text("[" * 100_000 + "]" * 100_000)
        Path("ok.json").write_text("{}")
        os.mkfifo("fifo.json")
    before = os.stat("/dev/null")
    code, out, err = run(capsys, argv)
    assert code in (0, 2), (argv, code, err[-500:])
    assert len(err) < 3000, argv
    if code == 2:
        assert "Traceback" not in err and ("error" in err or "usage" in err)
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert stat.S_ISFIFO(os.stat("fifo.json").st_mode)
