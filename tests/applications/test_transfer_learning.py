"""Transfer learning as Keras's guide teaches it, with an application model as the base: a frozen base
(``base.trainable = False``, called with ``training=False``) keeps every weight, batch-norm statistics included,
while the head learns; unfrozen, with a low learning rate, the base then trains too, its batch norm still in
inference mode."""

import numpy as np

import highlevel as hl


def _data():
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (32, 32, 32, 3)).astype("float32")
    y = (x[..., 0].mean(axis=(1, 2)) > x[..., 1].mean(axis=(1, 2))).astype("int32")
    x[y == 1, :16] += 0.5  # a visible cue for the classes
    return x, y


def _calibrate(base, x):
    """Stands in for pretraining: sets every batch norm's moving statistics to those of ``x`` (one training-mode
    pass with momentum 0), so that the random base's features do not vanish in inference mode."""
    norms = [layer for layer in base.layers if isinstance(layer, hl.layers.BatchNormalization)]
    for layer in norms:
        layer.momentum = 0.0
    base(x, training=True)
    for layer in norms:
        layer.momentum = 0.99


def _snapshot(model):
    return {v.path: np.array(hl.ops.convert_to_numpy(v.value)) for v in model.weights}


def test_frozen_base_keeps_its_weights_then_fine_tuning_trains_it(backend):
    hl.utils.set_random_seed(0)
    base = hl.applications.MobileNet(
        weights=None, include_top=False, input_shape=(32, 32, 3), alpha=0.25, pooling="avg"
    )
    x, y = _data()
    _calibrate(base, x)
    base.trainable = False
    inputs = hl.Input((32, 32, 3))
    features = base(inputs, training=False)  # batch norm stays in inference mode, even when unfrozen later
    outputs = hl.layers.Dense(2, name="head")(features)
    model = hl.Model(inputs, outputs)
    assert model.trainable_weights == model.get_layer("head").trainable_weights

    loss = hl.losses.SparseCategoricalCrossentropy(from_logits=True)
    model.compile(optimizer=hl.optimizers.Adam(1e-2), loss=loss)
    frozen = _snapshot(base)
    start = model.evaluate(x, y, verbose=0)
    model.fit(x, y, epochs=12, batch_size=16, verbose=0)  # the head alone: loss to ~10% of its start
    after_head = model.evaluate(x, y, verbose=0)
    assert after_head < 0.5 * start, (start, after_head)
    moved = [p for p, v in _snapshot(base).items() if not np.array_equal(v, frozen[p])]
    assert not moved, f"frozen base weights changed: {moved[:5]}"
    assert any("moving_mean" in p for p in frozen)  # batch-norm statistics are among the weights checked

    base.trainable = True
    model.compile(optimizer=hl.optimizers.Adam(1e-4), loss=loss)  # recompile after changing trainable
    assert len(model.trainable_weights) > 2
    model.fit(x, y, epochs=2, batch_size=16, verbose=0)
    tuned = _snapshot(base)
    kernels = [p for p in frozen if p.endswith("kernel")]
    assert any(not np.array_equal(tuned[p], frozen[p]) for p in kernels), "the unfrozen base did not train"
    stats = [p for p in frozen if "moving_" in p]
    assert all(np.array_equal(tuned[p], frozen[p]) for p in stats), "batch norm left inference mode"
    assert model.evaluate(x, y, verbose=0) < start
