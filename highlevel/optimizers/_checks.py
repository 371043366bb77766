"""Argument checks shared by the optimizers and the learning-rate schedules: one clear message each.

>>> check_number("rho", 0.9, low=0.0, high=1.0)
0.9
>>> check_number("rho", 1.5, low=0.0, high=1.0)
Traceback (most recent call last):
...
ValueError: `rho` must be a finite number in [0.0, 1.0]; received rho=1.5.
"""

import math


def _describe(low, high, low_open, high_open):
    if low is not None and high is not None:
        return f"in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
    if low is not None:
        return f"{'>' if low_open else '>='} {low}"
    if high is not None:
        return f"{'<' if high_open else '<='} {high}"
    return ""


def check_number(name, value, low=None, high=None, low_open=False, high_open=False, integer=False):
    """Returns ``value`` if it is a finite real number (an int if ``integer``) within the bounds, else raises
    ``ValueError`` naming the argument, the value received and the accepted range."""
    kind = "an integer" if integer else "a finite number"
    ok = not isinstance(value, bool) and isinstance(value, int if integer else (int, float))
    if ok:
        ok = math.isfinite(value)
        ok = ok and (low is None or (value > low if low_open else value >= low))
        ok = ok and (high is None or (value < high if high_open else value <= high))
    if not ok:
        bounds = _describe(low, high, low_open, high_open)
        raise ValueError(f"`{name}` must be {kind}{' ' + bounds if bounds else ''}; received {name}={value!r}.")
    return value
