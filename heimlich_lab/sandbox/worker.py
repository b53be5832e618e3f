"""The worker process of a bot that runs out of process (:mod:`heimlich_lab.sandbox`).

Started as ``python -m heimlich_lab.sandbox.worker`` with pipes; it speaks JSON, one message a line.
Before the bot's code is loaded it moves the protocol off the standard streams (what the bot prints goes to
standard error), caps its own memory (``resource.setrlimit``: address space, no core files, no file
written) and, where Linux offers Landlock, gives up reading files outside Python's own folders and the
bot's, writing any file, opening network connections and signalling processes outside itself. The bot's
code then runs with only what the parent sends: the player's view as the game's wire codec puts it (the
player's record, as the player saw it; :mod:`heimlich_lab.engine.wire`, :mod:`heimlich_lab.sandbox.wire`).

Messages (parent -> worker, then the worker's answer):

* ``{"op": "load", "path", "game", "memory_mb", "confine"}`` -> ``{"ok": true}``: load the bot file;
* ``{"op": "start", "seed"}`` -> ``{"ok": true}``: a new bot (``Bot(seed=seed)``, or the function's rng);
* ``{"op": "game", "header"}`` -> ``{"ok": true}``: a new game, the header its codec made;
* ``{"op": "choose", "id", "log", "legal"}`` -> ``{"id", "action"}``: ``log`` is ``{"entries", "fields"}``,
  the new log entries (or events) and the view's fields as the codec sends them, ``legal`` the legal actions
  in notation; the answer is the chosen action in notation.

Any failure is answered ``{"error": text, "fault": kind}`` (kind ``load``, ``crash``, ``memory``,
``answer`` or ``view``); the parent decides what it means.
"""
from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any

#: Longest action text sent back.
MAX_ANSWER = 2000


def _short(text: str, n: int = 400) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _describe(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" (line {tb[-1].lineno} of {os.path.basename(tb[-1].filename)})" if tb else ""
    return _short(f"{type(exc).__name__}: {exc}{where}")


def _limit_resources(memory_mb: int) -> None:
    try:
        import resource
    except ImportError:     # pragma: no cover - not on Unix: no limits
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory_mb:
        try:
            with open("/proc/self/status") as f:
                now = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        except (OSError, StopIteration):   # pragma: no cover - not Linux
            now = 0
        cap = now + memory_mb * 2**20
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def _forbid_writing_files() -> None:
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    except (ImportError, ValueError, OSError):   # pragma: no cover
        pass


def main() -> int:
    # the protocol gets its own descriptors; the bot's print() goes to standard error, its input() reads nothing
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr

    def send(msg: dict) -> None:
        proto_out.write(json.dumps(msg).encode() + b"\n")
        proto_out.flush()

    def receive() -> dict | None:
        line = proto_in.readline()
        return json.loads(line) if line else None

    msg = receive()
    if not msg or msg.get("op") != "load":
        return 2
    game = msg["game"]
    try:
        from .bot_file import bot_factory, load_module
        from .wire import codec
        Follower = codec(game).Follower     # importing the codec loads the game's modules, before the limits
        _limit_resources(int(msg.get("memory_mb") or 0))     # the bot's memory: what it adds from here on
        confined = False
        if msg.get("confine"):
            from .confine import confine
            confined = confine(read_files=[msg["path"]])
        _forbid_writing_files()
        make = bot_factory(load_module(msg["path"]), os.path.basename(msg["path"]))
    except MemoryError:
        send({"error": "ran out of memory while loading", "fault": "memory"})
        return 1
    except BaseException as e:  # noqa: BLE001 - whatever the bot file does, it is reported
        send({"error": _describe(e), "fault": "load"})
        return 1
    send({"ok": True, "confined": confined})

    bot: Any = None           # the bot and the view follower, once "start" and "game" made them (a "choose"
    follower: Any = None      # before them fails on None and is reported like any other failure)
    while True:
        msg = receive()
        if msg is None:
            return 0
        op = msg.get("op")
        ident = msg.get("id")
        try:
            if op == "start":
                import random
                random.seed(msg.get("seed"))
                bot = make(seed=msg.get("seed"))
                send({"ok": True})
            elif op == "game":
                try:
                    follower = Follower(msg["header"])
                except Exception as e:  # noqa: BLE001
                    send({"error": f"cannot read the view sent: {_describe(e)}", "fault": "view"})
                    continue
                send({"ok": True})
            elif op == "choose":
                try:
                    follower.extend(msg["log"]["entries"], msg["log"]["fields"])
                    view = follower.view()
                    legal = tuple(follower.parse(t) for t in msg["legal"])
                except Exception as e:  # noqa: BLE001
                    send({"id": ident, "error": f"cannot read the view sent: {_describe(e)}", "fault": "view"})
                    continue
                answer = bot.choose(view, legal)
                if isinstance(answer, str) or (type(answer).__name__ == "Action" and hasattr(answer, "kind")):
                    text = str(answer)
                    if len(text) > MAX_ANSWER:
                        send({"id": ident, "error": f"answered a text of {len(text)} characters", "fault": "answer"})
                    else:
                        send({"id": ident, "action": text})
                else:
                    send({"id": ident, "error": f"returned {_short(repr(answer), 80)} "
                          f"({type(answer).__name__}), not an action", "fault": "answer"})
            else:
                send({"id": ident, "error": f"unknown message {op!r}", "fault": "view"})
        except MemoryError:
            send({"id": ident, "error": "ran out of memory (MemoryError)", "fault": "memory"})
        except BaseException as e:  # noqa: BLE001 - the bot raised (or exited): reported, the parent decides
            send({"id": ident, "error": _describe(e), "fault": "crash"})


if __name__ == "__main__":
    sys.exit(main())
