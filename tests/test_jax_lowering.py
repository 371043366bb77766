"""The test processes' shared MLIR contexts (``tests/jax_lowering.py``): shared per thread, renewed after a bound,
and the programs lowered into them compute what they should."""

import threading

import numpy as np
import pytest

from tests import jax_lowering


@pytest.mark.backends("jax")
def test_lowerings_share_a_context_per_thread_and_renew_it(backend, monkeypatch):
    import jax
    from jax._src.interpreters import mlir

    assert jax_lowering.install()
    assert mlir.make_ir_context._highlevel_shared
    first = mlir.make_ir_context()
    assert mlir.make_ir_context() is first  # the same thread reuses its context

    other = []
    thread = threading.Thread(target=lambda: other.append(mlir.make_ir_context()))
    thread.start()
    thread.join()
    assert other[0] is not first  # another thread gets its own

    monkeypatch.setattr(jax_lowering, "LOWERINGS_PER_CONTEXT", 1)
    assert mlir.make_ir_context() is not first  # past the bound, a fresh context

    # programs lowered one after another into shared contexts still compute their own results
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    monkeypatch.setattr(jax_lowering, "LOWERINGS_PER_CONTEXT", 512)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a: a * 2.0 + 1.0)(x)), x * 2.0 + 1.0)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a: a.sum(axis=0))(x)), x.sum(axis=0))
    assert jax_lowering.install()  # a second install keeps the installed function
