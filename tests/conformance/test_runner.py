"""The conformance runner itself: which runs it skips on an engine that declares a dtype unsupported."""

import types

import pytest

from . import runner


def _engine(bfloat16):
    caps = types.SimpleNamespace(supports_bfloat16=bfloat16, supports_float64=True)
    return types.SimpleNamespace(name="an-engine", capabilities=caps)


def test_a_dtype_the_case_asks_for_is_checked_like_an_input_dtype():
    # cast(x, "bfloat16") on float32 inputs: the engine without bfloat16 (native on CuPy) skips it, with why.
    to_bfloat16 = types.SimpleNamespace(kwargs={"dtype": "bfloat16"})
    with pytest.raises(pytest.skip.Exception, match="supports_bfloat16 is False"):
        runner.skip_unsupported(_engine(False), "float32", to_bfloat16)
    runner.skip_unsupported(_engine(True), "float32", to_bfloat16)  # runs where bfloat16 exists
    runner.skip_unsupported(_engine(False), "float32", types.SimpleNamespace(kwargs={"dtype": "float32"}))


def test_a_case_can_name_an_op_of_a_namespace():
    import highlevel as hl

    assert runner.resolve_op("add") is hl.ops.add
    assert runner.resolve_op("image.resize") is hl.ops.image.resize
    with pytest.raises(AttributeError):
        runner.resolve_op("image.no_such_op")
