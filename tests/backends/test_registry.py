"""The backend registry: built-ins, third-party entry points, lazy import, the contract being complete."""

import sys
import textwrap

import pytest

import highlevel as hl
from highlevel.backends import registry
from highlevel.backends.contract import Backend


def test_known_lists_the_four_engines_in_order():
    assert registry.known()[:4] == ["native", "jax", "torch", "tensorflow"]


@pytest.mark.parametrize("name", ["native", "jax", "torch", "tensorflow"])
def test_each_engine_implements_the_whole_contract(name):
    inst = registry.get(name)
    assert isinstance(inst, Backend)
    assert inst.name == name
    assert not type(inst).__abstractmethods__


def test_third_party_backend_through_entry_point(tmp_path, monkeypatch):
    # A real installed distribution's metadata, found by importlib.metadata on sys.path.
    dist = tmp_path / "fakeengine-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fakeengine\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[highlevel.backends]\nfake = fakeengine_mod:FakeBackend\n")
    (tmp_path / "fakeengine_mod.py").write_text(
        textwrap.dedent("""
        from highlevel.backends.native import NativeBackend

        class FakeBackend(NativeBackend):
            name = "fake"
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_extra_targets", None)
    try:
        assert "fake" in registry.known()
        assert "fake" in registry.installed()
        with hl.config.backend_scope("fake"):
            assert hl.config.backend() == "fake"
            assert hl.ops.convert_to_numpy(hl.ops.add(1.0, 2.0)) == 3.0
    finally:
        registry._instances.pop("fake", None)
        sys.modules.pop("fakeengine_mod", None)
    registry._extra_targets = None


def test_register_at_run_time():
    from highlevel.backends.native import NativeBackend

    class Mine(NativeBackend):
        name = "mine"

    registry.register("mine", Mine)
    try:
        with hl.config.backend_scope("mine") as b:
            assert isinstance(b, Mine)
    finally:
        registry._entry_point_targets().pop("mine")
        registry._instances.pop("mine", None)


def test_an_incomplete_backend_cannot_be_instantiated():
    class Half(Backend):
        name = "half"

    with pytest.raises(TypeError, match="abstract"):
        Half()


def test_pipeline_owner_finds_the_engine_of_a_traced_tensor_and_nothing_else():
    import numpy as np

    from highlevel.backends import registry

    assert registry.pipeline_owner([np.ones(2), [1.0, 2.0], 3, "text", None]) is None
    tf = pytest.importorskip("tensorflow")
    assert registry.pipeline_owner([tf.ones(2)]) is None  # an eager tensor belongs to no pipeline
    found = []
    tf.function(lambda x: found.append(registry.pipeline_owner([np.ones(1), x])) or x, autograph=False)(tf.ones(2))
    assert [b.name for b in found] == ["tensorflow"]
    # The engine that runs now is not reported: its own tensors need no switch.
    found.clear()
    tf.function(
        lambda x: found.append(registry.pipeline_owner([x], current=registry.get("tensorflow"))) or x, autograph=False
    )(tf.ones(2))
    assert found == [None]
