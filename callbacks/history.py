"""``History``: the per-epoch metrics of ``fit`` (``fit`` returns it), with a plot.

>>> h = History()
>>> h.on_train_begin(); h.on_epoch_end(0, {"loss": 1.0}); h.on_epoch_end(1, {"loss": 0.5})
>>> h.history, h.epoch
({'loss': [1.0, 0.5]}, [0, 1])
"""

from .callback import Callback


class History(Callback):
    """Records ``logs`` at the end of every epoch into ``history`` (a dict of lists) and ``epoch``.

    >>> import numpy as np
    >>> import highlevel as hl
    >>> model = hl.Sequential([hl.Input((2,)), hl.layers.Dense(1)])
    >>> model.compile(optimizer="sgd", loss="mse")
    >>> history = model.fit(np.ones((4, 2)), np.ones((4, 1)), epochs=2, verbose=0)
    >>> history.epoch, sorted(history.history), len(history.history["loss"])
    ([0, 1], ['loss'], 2)
    """

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)

    def plot(self, metrics=None, ax=None):
        """Draws the loss and metric curves (training and validation) with matplotlib.

        Args:
            metrics: a name or names to draw (default: every recorded metric without the ``val_`` prefix);
                each is drawn with its ``val_`` curve when there is one.
            ax: matplotlib axes to draw on; by default a new figure with one panel per metric.

        Returns:
            The matplotlib axes (a list of them when several panels were drawn). The epoch axis is numbered
            from 1 and has whole-number ticks only.

        Raises:
            ImportError: when matplotlib is not installed.
            ValueError: for a metric name that fit did not record.
        """
        try:
            import matplotlib.pyplot as plt
            from matplotlib.ticker import MaxNLocator
        except ImportError:
            from highlevel._extras import install_command

            raise ImportError(
                f"History.plot() needs matplotlib: `pip install matplotlib`, or {install_command('notebooks')}"
            ) from None
        names = [metrics] if isinstance(metrics, str) else list(metrics or [])
        names = names or [k for k in self.history if not k.startswith("val_")]
        unknown = [n for n in names if n not in self.history]
        if unknown:
            raise ValueError(
                f"History.plot got metrics={unknown!r}, which fit did not record; the recorded ones are "
                f"{sorted(self.history)}. Pass some of those (without the 'val_' prefix: the validation curve "
                "is drawn with its metric)."
            )
        if ax is None:
            _, axes = plt.subplots(1, len(names), figsize=(4 * len(names), 3), squeeze=False)
            axes = list(axes[0])
        else:
            axes = [ax] * len(names)
        for a, name in zip(axes, names):
            epochs = [e + 1 for e in self.epoch]
            a.plot(epochs, self.history[name], label=name)
            if f"val_{name}" in self.history:
                a.plot(epochs, self.history[f"val_{name}"], label=f"val_{name}")
            a.set_xlabel("epoch")
            a.xaxis.set_major_locator(MaxNLocator(integer=True))  # epochs are whole numbers: no 1.5 tick
            a.set_title(name)
            a.legend()
        return axes[0] if len(axes) == 1 else axes
