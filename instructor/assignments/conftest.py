"""nbval hook for the model answers: a cell that writes to stderr fails, as in the course notebooks
(the hook itself is instructor/notebooks/conftest.py's)."""
import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("course_notebooks_conftest",
                                               Path(__file__).resolve().parent.parent / "notebooks" / "conftest.py")
_course = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_course)

pytest_runtest_call = _course.pytest_runtest_call
