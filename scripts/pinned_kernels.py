"""Run a command whose numpy and OpenBLAS use the kernels the committed figures were made with.

    python scripts/pinned_kernels.py COMMAND [ARGS...]
    python scripts/pinned_kernels.py --show        # the kernels a pinned process loads

numpy and OpenBLAS pick their kernels by the CPU when they load. Their AVX-512 kernels round some ``exp``, ``log``
and dot products differently in the last bit from their AVX2 ones: on an AVX-512 machine (2026-11-27) the belief
fixtures (``tests/data/belief_fixtures.npz``) came out up to 3e-16 apart, and a strict notebook printed
``0.9301431562651695`` where its committed output says ``...696``. The fixtures and the strict notebooks' outputs
were made with numpy's x86-64-v3 kernels (AVX2, FMA) and OpenBLAS's Haswell kernels; a command run through this
script loads those on any x86-64 CPU that has AVX2 (numpy's higher dispatch targets turned off with
``NPY_DISABLE_CPU_FEATURES``, OpenBLAS's with ``OPENBLAS_CORETYPE``), so that comparing bit for bit compares the
code, not the CPU. Elsewhere (another architecture, no AVX2) the command runs as it is, with a warning.
"""
from __future__ import annotations

import os
import platform
import subprocess
import sys

#: OpenBLAS's kernels of the committed figures
OPENBLAS_CORETYPE = "Haswell"
#: numpy's dispatch targets up to those of the committed figures (the baseline, then x86-64-v3)
NUMPY_TARGETS = ("X86_V2", "X86_V3")

#: What a pinned process prints for --show: its numpy targets, then OpenBLAS's kernels (numpy's wheels bring OpenBLAS
#: as numpy.libs/libscipy_openblas64_*.so, which names the kernels it loaded)
SHOW = ("import ctypes, glob, os, numpy; from numpy._core import _multiarray_umath as m; "
        "print(*sorted(t for t in m.__cpu_dispatch__ if m.__cpu_features__.get(t))); "
        "lib = ctypes.CDLL(glob.glob(os.path.dirname(numpy.__file__) + '.libs/*openblas*')[0]); "
        "f = lib.scipy_openblas_get_corename64_; f.restype = ctypes.c_char_p; print(f().decode())")


def environment() -> dict[str, str] | None:
    """This process's environment with the committed figures' kernels pinned, or ``None`` where they cannot be
    loaded (not x86-64, or no AVX2).

    >>> env = environment()
    >>> env is None or (env["OPENBLAS_CORETYPE"] == "Haswell" and "X86_V3" not in env["NPY_DISABLE_CPU_FEATURES"])
    True
    """
    from numpy._core import _multiarray_umath as umath
    features = umath.__cpu_features__
    if platform.machine().lower() not in ("x86_64", "amd64") or not features.get("X86_V3"):
        return None
    # only targets this CPU has (numpy refuses to turn off one it does not), with those already off in a pinned
    # process (which sees them as missing)
    off = os.environ.get("NPY_DISABLE_CPU_FEATURES", "").replace(",", " ").split()
    off += [t for t in umath.__cpu_dispatch__ if t not in NUMPY_TARGETS and features.get(t) and t not in off]
    return {**os.environ, "OPENBLAS_CORETYPE": OPENBLAS_CORETYPE, "NPY_DISABLE_CPU_FEATURES": " ".join(off)}


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(command, **kwargs)`` with the kernels pinned where they can be (else as it is, warned)."""
    env = environment()
    if env is None:
        print(f"pinned_kernels: the committed figures' kernels (x86-64-v3) cannot be loaded on this "
              f"{platform.machine()} CPU; running unpinned (results may differ in the last bit)", file=sys.stderr)
    return subprocess.run(command, env=env, **kwargs)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    if argv == ["--show"]:
        argv = [sys.executable, "-c", SHOW]
    return run(argv).returncode


if __name__ == "__main__":
    sys.exit(main())
