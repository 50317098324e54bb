"""The one place the tests read a clock: a wait for a condition, bounded so that a failure
ends the test instead of hanging it. What a test asserts never depends on the machine's speed
(tests/test_suite_rules.py keeps every other clock out of the suite)."""
import time

GUARD = 300.0  # s: far beyond any wait on a working run, slow or loaded machines included


def poll(ready, what: str, limit: float = GUARD, every: float = 0.02):
    """Call `ready()` until it returns a true value, and return that value; fail naming
    `what` after `limit` seconds (a hang guard, not a measurement)."""
    end = time.monotonic() + limit
    while not (got := ready()):
        assert time.monotonic() < end, f"{what}: not seen within {limit:.0f} s (a hang guard)"
        time.sleep(every)
    return got
