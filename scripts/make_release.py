"""Make the student release: notebooks/ from the instructor's source notebooks in instructor/notebooks/.

nbgrader's generate_assignment on every source notebook (one assignment per notebook, in a temporary course
root): solution regions become ``# YOUR CODE HERE``, hidden tests and instructor notes (cells tagged
``solution-text``) are removed, outputs cleared (heimlich_lab/course/release.py; docs/assessment.md). The
release is then searched for answer material (solution lines, hidden tests' numbers, digests, markers) and
not written if any is found. ``--check`` writes nothing and exits 1 unless notebooks/ is the current release.

    python scripts/make_release.py          # write notebooks/*.ipynb (the student release)
    python scripts/make_release.py --check  # CI: is the release current and clean?
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # this checkout's heimlich_lab

from heimlich_lab.course.release import DEFAULT_RELEASE, DEFAULT_SOURCE, ReleaseError, write_release  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that notebooks/ is the current release")
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE, help="the source notebooks (instructor/notebooks)")
    ap.add_argument("--target", type=Path, default=DEFAULT_RELEASE, help="the release folder (notebooks)")
    args = ap.parse_args(argv)
    try:
        return write_release(args.source, args.target, check=args.check)
    except ReleaseError as e:
        print(f"make_release: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
