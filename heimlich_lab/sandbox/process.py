"""A bot's worker process seen from the parent: starting it, one request and its answer within a time
limit, killing it; and the pool that keeps idle workers for the next game.

Every failure of the worker is a :class:`Fault` (its ``kind`` says which: ``timeout``, ``crash``, ``memory``,
``answer``, ``view``, ``load``); the caller decides what it costs the bot (:mod:`heimlich_lab.sandbox`).
"""
from __future__ import annotations

import atexit
import collections
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

#: Longest line a worker may send (its answers are a few dozen characters).
MAX_LINE = 64 * 1024
#: Seconds a worker has to start and load its bot file (Python and numpy take a few seconds on a busy machine).
LOAD_LIMIT = 120.0
#: Seconds a worker has to set up a bot or a game (not a decision).
SETUP_LIMIT = 60.0
#: What of the parent's environment a worker keeps (nothing secret: no tokens, no scheduler address).
_ENV_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "HOME", "SYSTEMROOT", "TZ")


class Fault(Exception):
    """A worker that failed: ``kind`` (``timeout``, ``crash``, ``memory``, ``answer``, ``view``, ``load``) and
    what happened."""

    def __init__(self, kind: str, message: str, kill: bool = True):
        super().__init__(message)
        self.kind = kind
        #: whether the worker is past trusting (dead, hung, out of memory, talking nonsense): kill it
        self.kill = kill

    @property
    def message(self) -> str:
        return str(self)


def _short(text: str, n: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 3] + "..."


class Worker:
    """One worker process running one bot file."""

    def __init__(self, path: str, game: str, memory_mb: int, confine: bool):
        self.key = (path, game, memory_mb, confine)
        self.home = tempfile.mkdtemp(prefix="heimlich-bot-")
        env = {k: os.environ[k] for k in _ENV_KEEP if k in os.environ}
        env.update(PYTHONPATH=str(Path(__file__).resolve().parents[2]), PYTHONHASHSEED="0",
                   PYTHONDONTWRITEBYTECODE="1", TMPDIR=self.home, OPENBLAS_NUM_THREADS="1",
                   OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "heimlich_lab.sandbox.worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=self.home, start_new_session=True,
            close_fds=True)
        _LIVE.add(self)
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._buf = b""
        self._id = 0
        self.stderr = collections.deque(maxlen=40)
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()
        try:
            self.request({"op": "load", "path": path, "game": game, "memory_mb": memory_mb, "confine": confine},
                         LOAD_LIMIT)
        except Fault:
            self.kill()
            raise

    def _read_stderr(self) -> None:
        f = self.proc.stderr
        try:
            for line in iter(lambda: f.readline(4096), b""):
                self.stderr.append(line.decode("utf-8", "replace").rstrip("\n"))
        except (OSError, ValueError):
            pass

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stderr_tail(self, lines: int = 3) -> str:
        return " | ".join(list(self.stderr)[-lines:])

    def request(self, msg: dict, limit: float) -> dict:
        """Send ``msg`` and wait at most ``limit`` seconds for its answer (the answer to a ``choose`` carries
        the same ``id``). Raises :class:`Fault`."""
        if msg.get("op") == "choose":
            self._id += 1
            msg = {**msg, "id": self._id}
        deadline = time.monotonic() + limit
        self._write(json.dumps(msg).encode() + b"\n", deadline)
        while True:
            answer = self._read_line(deadline)
            if msg.get("op") == "choose" and answer.get("id") != msg["id"]:
                continue    # an answer to an earlier question (or made up by the bot): not this one
            if "error" in answer:     # the bot raised or answered a non-action: the worker itself is fine
                kind = str(answer.get("fault", "crash"))
                raise Fault(kind, _short(answer["error"]), kill=kind in ("memory", "load", "view"))
            return answer

    def _write(self, data: bytes, deadline: float) -> None:
        """Write within the deadline too: a worker that stops reading cannot block the game's process."""
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Fault("timeout", "did not take its question within the time limit")
            _, ready, _ = select.select([], [fd], [], left)
            if not ready:
                continue
            try:
                n = os.write(fd, view[:65536])
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise self._ended() from None
            view = view[n:]

    def _read_line(self, deadline: float) -> dict:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Fault("timeout", "no answer within the time limit")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._ended()
            self._buf += chunk
            if len(self._buf) > MAX_LINE and b"\n" not in self._buf:
                raise Fault("answer", f"sent more than {MAX_LINE} bytes without ending the line")
        line, _, self._buf = self._buf.partition(b"\n")
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            shown = _short(line.decode("utf-8", "replace"), 80)
            raise Fault("answer", f"sent a line that is not JSON: {shown!r}") from None
        if not isinstance(answer, dict):
            raise Fault("answer", f"sent {_short(repr(answer), 80)}, not a message")
        return answer

    def _ended(self) -> Fault:
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._drain.join(timeout=1)
        how = ("was killed by signal " + signal.Signals(-code).name) if code is not None and code < 0 else \
            f"exited (status {code})"
        tail = self.stderr_tail()
        kind = "memory" if "MemoryError" in tail else "crash"
        return Fault(kind, f"the bot's process {how}" + (f"; it printed: {_short(tail, 200)}" if tail else ""))

    def kill(self) -> None:
        """End the process (and any process it started in its session) and remove its folder."""
        _LIVE.discard(self)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not wait
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        shutil.rmtree(self.home, ignore_errors=True)


#: Every worker this process started and has not killed.
_LIVE: set = set()
#: Idle workers by (path, game, memory, confine, file's mtime and size): reused by the next game.
_IDLE: dict[tuple, list[Worker]] = collections.defaultdict(list)
_LOCK = threading.Lock()


def _file_key(path: str) -> tuple:
    try:
        st = os.stat(path)
        return (st.st_mtime_ns, st.st_size)
    except OSError:
        return (None, None)


def acquire(path: str, game: str, memory_mb: int, confine: bool) -> Worker:
    """An idle worker for this bot file (loaded from the file as it is now), or a new one."""
    key = (path, game, memory_mb, confine, _file_key(path))
    with _LOCK:
        idle = _IDLE.get(key, [])
        while idle:
            w = idle.pop()
            if w.alive:
                w.pool_key = key
                return w
            w.kill()
    w = Worker(path, game, memory_mb, confine)
    w.pool_key = key
    return w


def release(worker: Worker) -> None:
    """Give a healthy worker back for the next game (a dead one is cleaned up)."""
    if not worker.alive:
        worker.kill()
        return
    with _LOCK:
        _IDLE[worker.pool_key].append(worker)


def shutdown() -> None:
    """Kill every worker this process started (called at exit)."""
    with _LOCK:
        _IDLE.clear()
    for w in list(_LIVE):
        w.kill()


atexit.register(shutdown)
