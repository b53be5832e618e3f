"""Landlock (Linux 5.13 and later): a worker process gives up, for itself and every process it starts, the
right to read files outside a few folders, to write or create any file, to open TCP connections, to reach
abstract Unix sockets and to signal processes outside itself (``docs/rules.md#bots-out-of-process``).

It is the standard library only (``ctypes`` and the three ``landlock_*`` system calls). Where the kernel has
no Landlock (another system, an older kernel, Landlock disabled) :func:`confine` does nothing and says so.
The restriction cannot be undone by the process: that is the point.
"""
from __future__ import annotations

import ctypes
import os
import sys

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446     # the same number on every architecture
_PR_SET_NO_NEW_PRIVS = 38
_RULE_PATH_BENEATH = 1
_VERSION_FLAG = 1

# file-system rights by the ABI version that introduced them
_FS = {1: (1 << 13) - 1, 2: 1 << 13, 3: 1 << 14, 5: 1 << 15}
_READ = (1 << 0) | (1 << 2) | (1 << 3)      # execute, read a file, read a folder
_READ_FILE_ONLY = (1 << 0) | (1 << 2)
_NET_TCP = (1 << 0) | (1 << 1)              # bind, connect (ABI 4)
_SCOPED = (1 << 0) | (1 << 1)               # abstract Unix sockets, signals (ABI 6)


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI version, 0 if it has none."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        v = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION_FLAG))
    except (OSError, AttributeError):  # pragma: no cover
        return 0
    return max(int(v), 0)


def readable_folders(extra=()) -> list[str]:
    """Python's own folders (the standard library, site-packages: every ``sys.path`` entry inside an installation
    prefix), the folder of the ``heimlich_lab`` package, and ``extra``."""
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)}
    out = []
    for p in sys.path:
        if p and os.path.isdir(p):
            real = os.path.realpath(p)
            if any(real == q or real.startswith(q + os.sep) for q in prefixes):
                out.append(real)
    out.append(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))     # the heimlich_lab package
    out.extend(os.path.realpath(x) for x in extra)
    return list(dict.fromkeys(out))


def confine(read_only=(), read_files=()) -> bool:
    """Restrict this process with Landlock: read only :func:`readable_folders` (and ``read_only`` folders,
    ``read_files`` files), write nothing, no TCP, no abstract Unix socket, no signal outside. Returns whether
    it was applied (``False``: the kernel has no Landlock; nothing changed)."""
    abi = abi_version()
    if abi < 1:
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    fs = 0
    for version, rights in _FS.items():
        if abi >= version:
            fs |= rights
    attr = _RulesetAttr(fs, _NET_TCP if abi >= 4 else 0, _SCOPED if abi >= 6 else 0)
    size = 24 if abi >= 6 else (16 if abi >= 4 else 8)
    fd = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset: " + os.strerror(ctypes.get_errno()))
    try:
        for path, rights in [(p, _READ) for p in readable_folders(read_only)] + \
                            [(os.path.realpath(f), _READ_FILE_ONLY) for f in read_files]:
            try:
                pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                rule = _PathBeneath(rights, pfd)
                if libc.syscall(_ADD_RULE, ctypes.c_int(fd), ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(rule),
                                ctypes.c_uint32(0)) != 0:
                    raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}: " + os.strerror(ctypes.get_errno()))
            finally:
                os.close(pfd)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(ctypes.get_errno()))
        if libc.syscall(_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self: " + os.strerror(ctypes.get_errno()))
    finally:
        os.close(fd)
    return True
