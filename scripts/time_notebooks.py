"""How long each course notebook takes to run: wall-clock and the kernel's CPU time, one notebook at a time.

The wall-clock time depends on what else the machine is doing; the kernel's CPU time (user + system, read
from inside the kernel after the last cell) is the work itself, close to the wall-clock time on an otherwise
idle machine. The notebooks are run in memory (nothing is written), from their own folder, with their solutions.

    python scripts/time_notebooks.py                       # every notebook in instructor/notebooks/
    python scripts/time_notebooks.py instructor/assignments/*/model-answer.ipynb
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell

ROOT = Path(__file__).resolve().parent.parent
PROBE = ("import json as _j, resource as _r\n"
         "_u = _r.getrusage(_r.RUSAGE_SELF); _c = _r.getrusage(_r.RUSAGE_CHILDREN)\n"
         "print('CPU-SECONDS', _j.dumps(_u.ru_utime + _u.ru_stime + _c.ru_utime + _c.ru_stime))")


def run(path: Path) -> tuple[float, float, int]:
    """(wall seconds, kernel CPU seconds, code cells) for one notebook."""
    nb = nbformat.read(path, as_version=4)
    cells = sum(c.cell_type == "code" for c in nb.cells)
    nb.cells.append(new_code_cell(PROBE))
    start = time.perf_counter()
    NotebookClient(nb, timeout=1200, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    wall = time.perf_counter() - start
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    cpu = json.loads(text.split("CPU-SECONDS", 1)[1].strip())
    return wall, cpu, cells


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "instructor" / "notebooks").glob("[0-9]*.ipynb"))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# {os.cpu_count()} cores, load average {load:.2f} at the start")
    names = [p.name for p in paths]
    print(f"{'notebook':60} {'cells':>5} {'wall s':>8} {'CPU s':>8}")
    for path in paths:
        wall, cpu, cells = run(path)
        name = path.name if names.count(path.name) == 1 else f"{path.parent.name}/{path.name}"
        print(f"{name:60} {cells:5d} {wall:8.1f} {cpu:8.1f}", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# load average {load:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
