"""Write instructor/quiz-bank.md from instructor/quiz-bank.yaml: the questions by week, each with its answer and
explanation (for the instructor; copy questions out without the answers for a quiz).

    python scripts/make_quiz_bank.py          # write instructor/quiz-bank.md
    python scripts/make_quiz_bank.py --check  # exit 1 if it is not current
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BANK = ROOT / "instructor" / "quiz-bank.yaml"
SCHEDULE = ROOT / "instructor" / "schedule.yaml"
TARGET = ROOT / "instructor" / "quiz-bank.md"
KINDS = {"choice": "multiple choice", "numeric": "numeric", "short": "short answer"}


def load(path: Path = BANK) -> list[dict]:
    """The questions of the bank, in file order."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))["questions"]


def _answer(q: dict) -> str:
    if q["kind"] == "choice":
        return f"**{q['answer']})** {q['options'][q['answer']]}"
    if q["kind"] == "numeric":
        return f"**{q['answer']:g}**" if isinstance(q["answer"], (int, float)) else f"**{q['answer']}**"
    return q["answer"]


def render(questions: list[dict] | None = None) -> str:
    """The Markdown page.

    >>> page = render([{"id": "x", "week": 1, "notebook": 0, "kind": "numeric", "question": "1 + 1?",
    ...                 "answer": 2, "tolerance": 0, "explanation": "Count."}])
    >>> "**Q1.1** (numeric, notebook 0) 1 + 1?" in page and "*Answer:* **2**. Count." in page
    True
    """
    questions = load() if questions is None else questions
    weeks = {w["week"]: w["title"] for w in yaml.safe_load(SCHEDULE.read_text(encoding="utf-8"))["weeks"]}
    lines = ["# Quiz bank", "",
             "*Instructor only: the answers are below each question.* Generated from `instructor/quiz-bank.yaml` "
             "by `scripts/make_quiz_bank.py`; edit the YAML, not this page. Every numeric answer the library can "
             "compute is recomputed by `tests/test_kit.py`, and every number quoted from a notebook is looked up "
             "in it.", "",
             f"{len(questions)} questions: " + ", ".join(
                 f"{sum(q['kind'] == k for q in questions)} {name}" for k, name in KINDS.items()) + ".", ""]
    for week in sorted({q["week"] for q in questions}):
        lines += [f"## Week {week}: {weeks.get(week, '')}".rstrip(": "), ""]
        for n, q in enumerate([q for q in questions if q["week"] == week], 1):
            lines.append(f"**Q{week}.{n}** ({KINDS[q['kind']]}, notebook {q['notebook']}) {q['question']}")
            lines.append("")
            if q["kind"] == "choice":
                lines += [f"- {letter}) {text}" for letter, text in q["options"].items()] + [""]
            lines += [f"*Answer:* {_answer(q)}. {q['explanation']}".replace(". . ", ". ").replace(".. ", ". "), ""]
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if instructor/quiz-bank.md is not current")
    args = parser.parse_args(argv)
    page = render()
    if args.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != page:
            print(f"{TARGET.relative_to(ROOT)} is not current: run python scripts/make_quiz_bank.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(page, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
