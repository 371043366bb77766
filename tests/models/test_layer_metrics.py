"""``Layer.metrics`` / ``metrics_variables``: metrics a layer holds are found, and a model's fit reports them."""

import numpy as np

import highlevel as hl


class MeanActivation(hl.layers.Layer):
    """Passes its input through and keeps the running mean of what it saw."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seen = hl.metrics.Mean(name="mean_activation")

    def call(self, x):
        self.seen.update_state(x)
        return x


def test_layer_metrics_are_found_and_fit_reports_them(backend):
    layer = MeanActivation()
    assert layer.metrics == [layer.seen]
    layer(np.full((2, 3), 4.0, "float32"))
    assert [float(hl.ops.convert_to_numpy(v)) for v in layer.metrics_variables] == [
        8.0,
        2.0,
    ]  # per sample, as Keras's Mean
    block = hl.Sequential([hl.Input((3,)), hl.layers.Dense(3), MeanActivation()])
    assert [m.name for m in block.layers[-1].metrics] == ["mean_activation"]
    outer = hl.layers.Layer()
    outer.inner = layer
    assert outer.metrics == [layer.seen]

    x = np.ones((8, 3), "float32")
    block.compile(hl.optimizers.SGD(0.5), "mse", run_eagerly=True)
    expected = []  # the mean each epoch should report: one batch per epoch, seen with the weights at its start
    record = hl.callbacks.LambdaCallback(
        on_epoch_begin=lambda epoch, logs: expected.append(float(np.mean(hl.ops.convert_to_numpy(block.layers[0](x)))))
    )
    logs = block.fit(x, x * 3.0, epochs=2, verbose=0, callbacks=[record]).history
    assert "mean_activation" in logs and len(logs["mean_activation"]) == 2
    assert abs(expected[0] - expected[1]) > 1e-3  # the weights moved between the epochs
    np.testing.assert_allclose(logs["mean_activation"], expected, rtol=1e-5)  # reset at each epoch's start
