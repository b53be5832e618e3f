"""nbval hook: a notebook cell that writes to stderr (a warning, a stray log line) fails its test.

The course promises that every code cell runs cleanly; nbval alone only checks outputs and exceptions.
"""
import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    outputs = getattr(item, "test_outputs", None) or []
    errors = [o.get("text", "") for o in outputs if o.get("output_type") == "stream" and o.get("name") == "stderr"]
    if errors:
        pytest.fail("cell wrote to stderr (warnings are not allowed in the course):\n" + "".join(errors)[:2000],
                    pytrace=False)
    return result
