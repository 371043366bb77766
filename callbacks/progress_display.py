"""Where ``fit``'s progress goes: a line redrawn in place, a notebook output updated in place, or plain lines.

Three places, one text. Each epoch (or ``evaluate``/``predict`` run) is one line such as
``Epoch 1/3 32/32 ━━━━━━━━━━━━━━━━━━━━ 2.1s 65ms/step - loss: 0.6931``:

* **a terminal** (stdout is a tty): the line is redrawn in place with ``\\r`` while the epoch runs (cut to the
  terminal's width, so that it never wraps) and ends with a newline when the epoch ends: one line per epoch.
* **a Jupyter kernel**: the line is one display output (``text/plain`` and ``text/html``) that is updated in
  place through its display id while the epoch runs. The last update holds the epoch's metrics, and that is
  what a saved notebook keeps: plain outputs, no widget, so they show with or without ipywidgets and in a
  notebook saved without widget state.
* **elsewhere** (a pipe, a file, a CI log) or with interactive logging off
  (``hl.config.disable_interactive_logging()``): nothing while the epoch runs, one finished line at its end.

>>> format_duration(0.4123), format_duration(2.06), format_duration(75)
('412ms', '2.1s', '1m 15s')
>>> format_per_step(2.06, 160)
'13ms/step'
"""

import html
import shutil
import sys
import time

from highlevel.utils.progbar import format_rate

BAR_WIDTH = 20
_DONE, _TODO = "━", "─"


def format_duration(seconds):
    """A duration as a person reads it: ``412ms``, ``2.1s``, ``14s``, ``1m 15s``, ``2h 03m``."""
    if seconds < 1:
        return f"{seconds * 1e3:.0f}ms"
    if seconds < 10:
        return f"{seconds:.1f}s"
    if seconds < 60:
        return f"{seconds:.0f}s"
    if seconds < 3600:
        return f"{int(seconds // 60)}m {int(seconds % 60):02d}s"
    return f"{int(seconds // 3600)}h {int(seconds % 3600 // 60):02d}m"


def format_per_step(seconds, steps):
    """The mean time of one step: ``13ms/step``, ``420us/step``, ``2s/step`` (empty when no step ran)."""
    return format_rate(seconds / steps, "step") if steps else ""


def format_logs(logs, skip=("outputs",)):
    """``loss: 0.1234 - accuracy: 0.9000`` from a logs dict (entries that are not numbers are left out)."""
    parts = []
    for key, value in (logs or {}).items():
        if key in skip:
            continue
        try:
            parts.append(f"{key}: {float(value):.4f}")
        except (TypeError, ValueError):
            continue
    return " - ".join(parts)


def progress_text(title, step, total, seconds, logs, final, bar=True):
    """One line of progress: the title, the step count, the bar, the time (ETA while running) and the metrics."""
    parts = [title] if title else []
    if total:
        parts.append(f"{step}/{total}")
        if bar:
            done = min(int(BAR_WIDTH * step / total), BAR_WIDTH)
            parts.append(_DONE * done + _TODO * (BAR_WIDTH - done))
    else:
        parts.append(f"{step} steps" if not bar else f"{step}")
    if final or not total or step >= total:  # all steps done (validation may still run): no "eta 0ms"
        timing = f"{format_duration(seconds)} {format_per_step(seconds, step)}".strip()
    else:
        left = seconds / step * (total - step) if step else 0.0
        timing = f"eta {format_duration(left)}" if step else ""
    text = " ".join(p for p in parts + [timing] if p)
    metrics = format_logs(logs)
    return f"{text} - {metrics}" if metrics else text


def _jupyter_shell():
    """The IPython shell of a Jupyter kernel this process runs in, else None (a terminal IPython has no kernel)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return None
    try:
        shell = ipython.get_ipython()
    except Exception:  # noqa: BLE001 - a broken IPython install is no notebook
        return None
    return shell if getattr(shell, "kernel", None) is not None else None


def where():
    """``"terminal"``, ``"jupyter"`` or ``"plain"``: how progress can be shown on this process's stdout now."""
    from highlevel import config

    if not config.is_interactive_logging_enabled():
        return "plain"
    if _jupyter_shell() is not None:
        return "jupyter"
    try:
        return "terminal" if sys.stdout.isatty() else "plain"
    except (AttributeError, ValueError):  # a replaced or closed stdout
        return "plain"


class ProgressLine:
    """One epoch's (or one evaluate/predict run's) progress line, shown where :func:`where` says.

    Args:
        title: what the line starts with (``"Epoch 1/3"``, ``"evaluate"``).
        total: the number of steps, or None when unknown.
        live: whether to show the line while it runs (``verbose=1``); otherwise only :meth:`finish` prints.
    """

    def __init__(self, title, total, live=True):
        self.title = title
        self.total = total
        self.place = where() if live else "plain"
        self.start = time.perf_counter()
        self._last_draw = 0.0
        self._width = 0
        self._handle = None

    def update(self, step, logs=None):
        """Redraws the line at ``step`` (a few times a second at most: formatting reads metrics from the device)."""
        if self.place == "plain":
            return
        now = time.perf_counter()
        if now - self._last_draw < (0.1 if self.place == "terminal" else 0.25):
            return
        self._last_draw = now
        self._show(progress_text(self.title, step, self.total, now - self.start, logs, final=False), final=False)

    def finish(self, step, logs=None):
        """Shows the finished line: the step count, the total time, the time per step and the metrics."""
        seconds = time.perf_counter() - self.start
        bar = self.place != "plain"
        self._show(progress_text(self.title, step, self.total or step, seconds, logs, final=True, bar=bar), True)

    def _show(self, text, final):
        if self.place == "terminal":
            if not final:
                columns = shutil.get_terminal_size((80, 24)).columns
                text = text[: max(columns - 1, 10)]
            pad = " " * max(self._width - len(text), 0)
            sys.stdout.write("\r" + text + pad + ("\n" if final else ""))
            sys.stdout.flush()
            self._width = len(text)
        elif self.place == "jupyter":
            bundle = {
                "text/plain": text,
                "text/html": f"<pre style='margin: 0'>{html.escape(text)}</pre>",
            }
            from IPython.display import display

            if self._handle is None:
                self._handle = display(bundle, raw=True, display_id=True)
            else:
                self._handle.update(bundle, raw=True)
        else:
            sys.stdout.write(text + "\n")  # one write: a notebook gets the line as one stream output
            sys.stdout.flush()
