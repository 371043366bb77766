"""History.plot: one panel per metric with its validation curve, epochs numbered from 1 with whole-number ticks."""

import numpy as np
import pytest

import highlevel as hl

plt = pytest.importorskip("matplotlib.pyplot")


def _history(epochs):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 3)).astype("float32")
    y = (x[:, 0] > 0).astype("int32")
    model = hl.Sequential([hl.layers.Input((3,)), hl.layers.Dense(2, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    return model.fit(x, y, epochs=epochs, batch_size=16, validation_split=0.25, verbose=0)


def test_plot_draws_each_metric_with_its_validation_curve_on_whole_epochs(backend):
    history = _history(epochs=3)
    try:
        axes = history.plot()
        assert [a.get_title() for a in axes] == ["loss", "accuracy"]
        loss = axes[0]
        lines = {line.get_label(): line for line in loss.get_lines()}
        assert sorted(lines) == ["loss", "val_loss"]
        assert list(lines["loss"].get_xdata()) == [1, 2, 3]
        np.testing.assert_allclose(lines["val_loss"].get_ydata(), history.history["val_loss"])
        for a in axes:
            ticks = [t for t in a.get_xticks() if a.get_xlim()[0] <= t <= a.get_xlim()[1]]
            assert ticks and all(float(t).is_integer() for t in ticks), ticks  # no 1.5, 2.5 ticks
    finally:
        plt.close("all")


def test_plot_of_one_named_metric_and_an_unknown_name():
    history = hl.callbacks.History()
    history.on_train_begin()
    for epoch, loss in enumerate([1.0, 0.6]):
        history.on_epoch_end(epoch, {"loss": loss, "accuracy": 0.5})
    try:
        ax = history.plot("loss")
        assert ax.get_title() == "loss" and [line.get_label() for line in ax.get_lines()] == ["loss"]
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert [float(t) for t in ticks] == [1.0, 2.0]
    finally:
        plt.close("all")
    with pytest.raises(ValueError, match=r"metrics=\['val_acc'\].*recorded ones are \['accuracy', 'loss'\]"):
        history.plot(["val_acc"])
