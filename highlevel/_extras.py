"""The command that installs an optional part of highlevel (an extra of pyproject.toml), for error messages.

highlevel is not published on a package index, so ``pip install "highlevel[h5]"`` finds nothing: an extra is
installed from a checkout of the repository, in its folder. An extra that brings torch also names PyTorch's CPU
index, which holds the CPU build CI tests with (on Linux, PyPI's torch wheel is the CUDA build).

>>> install_command("h5")
'pip install -e ".[h5]" (in a checkout of highlevel)'
>>> install_command("torch")
'pip install -e ".[torch]" --extra-index-url https://download.pytorch.org/whl/cpu (in a checkout of highlevel)'
"""

TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
EXTRAS_WITH_TORCH = ("torch", "test", "all")  # tests/test_packaging.py checks these against pyproject.toml


def install_command(extra):
    """The pip command that installs the extra ``extra`` from a checkout of highlevel, for an error message.

    Args:
        extra: the name of an extra of ``pyproject.toml`` (``"h5"``, ``"jax"``, ``"onnx"``...).

    Returns:
        The command and where to run it, as one string.

    >>> install_command("onnx")
    'pip install -e ".[onnx]" (in a checkout of highlevel)'
    """
    index = f" --extra-index-url {TORCH_CPU_INDEX}" if extra in EXTRAS_WITH_TORCH else ""
    return f'pip install -e ".[{extra}]"{index} (in a checkout of highlevel)'
