"""``Progbar``: a text progress bar for loops of your own, with running averages of the values you report.

Where the output is a terminal (or a notebook) and interactive logging is on
(``hl.config.is_interactive_logging_enabled()``), the bar is redrawn in place; elsewhere (a log file, CI) the
bar prints one finished line, never a stream of partial frames.

>>> bar = Progbar(3, verbose=2, stateful_metrics=["lr"])
>>> for step in range(1, 4):
...     bar.update(step, [("lr", 0.1 * step)])  # doctest: +ELLIPSIS
3/3 - ...s - lr: 0.3000
"""

import math
import os
import sys
import time


def _format_value(value):
    try:
        import numpy as np

        value = float(np.mean(value))
    except (TypeError, ValueError):
        return f" {value}"
    return f" {value:.4f}" if abs(value) > 1e-3 else f" {value:.4e}"


def _format_duration(seconds):
    if seconds >= 3600:
        return f"{int(seconds // 3600)}:{int(seconds % 3600 // 60):02d}:{int(seconds % 60):02d}"
    if seconds >= 60:
        return f"{int(seconds // 60)}:{int(seconds % 60):02d}"
    return f"{seconds:.0f}s"


def format_rate(seconds_per_unit, unit_name):
    """The time of one unit as a person reads it: ``2s/step``, ``13ms/step``, ``420us/step`` (shared with fit's
    progress line, callbacks/progress_display.py)."""
    if seconds_per_unit >= 1 or seconds_per_unit == 0:
        return f"{seconds_per_unit:.0f}s/{unit_name}"
    if seconds_per_unit >= 1e-3:
        return f"{seconds_per_unit * 1e3:.0f}ms/{unit_name}"
    return f"{seconds_per_unit * 1e6:.0f}us/{unit_name}"


class Progbar:
    """Shows the progress of a loop of ``target`` steps and the running means of reported values.

    Args:
        target: the number of steps, or None when unknown (the bar then shows the count only).
        width: the width of the bar in characters.
        verbose: 0 (silent), 1 (a bar updated as the loop runs) or 2 (one line when the loop ends).
        interval: the least number of seconds between two redraws of the bar.
        stateful_metrics: names whose reported value is shown as is (e.g. a metric that is already a
            running mean); every other name is averaged over the steps. Give this or ``stateless_metrics``.
        stateless_metrics: names that are averaged; every other name is shown as is.
        unit_name: what a step is called in the timing (``"step"``, ``"sample"``).

    Values are averaged weighted by the number of steps each update covers. The final update (``current``
    reaching ``target``, or ``finalize=True``) shows the values it reports as they are, as Keras's bar does.

    Raises:
        ValueError: if ``target`` is not a non-negative int or None, ``verbose`` is not 0, 1 or 2, or both
            ``stateful_metrics`` and ``stateless_metrics`` are given.

    >>> import highlevel as hl
    >>> bar = hl.utils.Progbar(3, verbose=2)  # verbose=2: one line when the target is reached
    >>> for step in range(3):
    ...     bar.update(step + 1, values=[("loss", 0.5)])
    3/3 - ...loss: 0.5000
    """

    def __init__(
        self,
        target,
        width=20,
        verbose=1,
        interval=0.05,
        stateful_metrics=None,
        stateless_metrics=None,
        unit_name="step",
    ):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError(
                "Progbar takes `stateful_metrics` (names shown as reported; others averaged) or `stateless_metrics` "
                "(names averaged; others shown as reported), not both."
            )
        if target is not None and (isinstance(target, bool) or not isinstance(target, int) or target < 0):
            raise ValueError(f"`target` must be a non-negative int or None; received target={target!r}.")
        if verbose not in (0, 1, 2):
            raise ValueError(f"`verbose` must be 0, 1 or 2; received verbose={verbose!r}.")
        self.target = target
        self.width = int(width)
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        if stateless_metrics is not None:
            self.stateful_metrics, self.stateless_metrics = None, set(stateless_metrics)
        else:
            self.stateful_metrics, self.stateless_metrics = set(stateful_metrics or ()), None
        self._values = {}  # name -> [weighted sum, weight]
        self._order = []
        self._seen_so_far = 0
        self._start = time.time()
        self._last_update = 0.0
        self._time_after_first_step = None
        self._prev_width = 0

    def _live(self):
        from highlevel.config import is_interactive_logging_enabled

        if not is_interactive_logging_enabled():
            return False
        stream = sys.stdout
        return (
            bool(getattr(stream, "isatty", lambda: False)())
            or "ipykernel" in sys.modules
            or "PYCHARM_HOSTED" in os.environ
        )

    def _averaged(self, name):
        if self.stateful_metrics is not None:
            return name not in self.stateful_metrics
        return name in self.stateless_metrics

    def _step_seconds(self, current, now):
        if not current:
            return 0.0
        if self._time_after_first_step is not None and current > 1:
            seconds = (now - self._time_after_first_step) / (current - 1)
        else:
            seconds = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return seconds

    def _metrics_text(self):
        text = ""
        for name in self._order:
            total, weight = self._values[name]
            text += f" - {name}:" + _format_value(total / max(weight, 1) if _is_number(total) else total)
        return text

    def update(self, current, values=None, finalize=None):
        """Records progress up to step ``current`` and the values reported for it.

        Args:
            current: the index of the step just completed (counting from 1).
            values: a list of ``(name, value)`` pairs for this update.
            finalize: whether this is the last update; by default, whether ``current >= target``.
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or []:
            if name not in self._order:
                self._order.append(name)
            if self._averaged(name) and not finalize and _is_number(value):
                covered = max(current - self._seen_so_far, 1)
                total, weight = self._values.get(name, [0.0, 0])
                self._values[name] = [total + value * covered, weight + covered]
            else:
                self._values[name] = [value, 1]
        self._seen_so_far = current
        now = time.time()
        step_seconds = self._step_seconds(current, now)
        if self.verbose == 1:
            live = self._live()
            if not finalize and (not live or now - self._last_update < self.interval):
                return
            known = self.target is not None and self.target > 0
            if known:
                digits = int(math.log10(self.target)) + 1
                done = min(int(self.width * current / self.target), self.width)
                arrow = ">" if done < self.width else "="
                bar = (
                    f"{current:{digits}d}/{self.target} ["
                    + "=" * max(done - 1, 0)
                    + (arrow if done else "")
                    + "." * (self.width - done)
                    + "]"
                )
            else:
                bar = f"{current:7d}/Unknown"
            if known and not finalize:
                info = f" - ETA: {_format_duration(step_seconds * (self.target - current))}"
            else:
                info = f" - {now - self._start:.0f}s"
            info += " " + format_rate(step_seconds, self.unit_name) + self._metrics_text()
            line = bar + info
            if live:
                pad = " " * max(self._prev_width - len(line), 0)
                sys.stdout.write("\r" + line + pad + ("\n" if finalize else ""))
            else:
                sys.stdout.write(line + "\n")
            sys.stdout.flush()
            self._prev_width = len(line)
        elif self.verbose == 2 and finalize:
            count = f"{current}/{self.target}" if self.target is not None else f"{current}"
            sys.stdout.write(f"{count} - {now - self._start:.0f}s" + self._metrics_text() + "\n")
            sys.stdout.flush()
        self._last_update = now

    def add(self, n, values=None):
        """Advances the bar by ``n`` steps (see :meth:`update`)."""
        self.update(self._seen_so_far + n, values)


def _is_number(value):
    try:
        float(value)
        return True
    except (TypeError, ValueError):
        try:
            import numpy as np

            np.mean(value)
            return True
        except (TypeError, ValueError):
            return False
