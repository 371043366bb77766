"""``im2col.conv_input_grad`` (a one-group convolution's input gradient in the input's frame) equals the
adjoint of the forward im2col product, ``<conv(x, w), g> == <x, conv_input_grad(g, w)>``, for every padding,
stride, dilation and rank, including windows that skip input rows and a centre tap that covers the input."""

import numpy as np
import pytest

from highlevel.backends.native import im2col as im


@pytest.mark.parametrize(
    "size, kernel, strides, dilation, padding",
    [
        ((7, 6), (3, 3), (1, 1), (1, 1), "same"),  # the centre tap is written first
        ((8, 8), (3, 3), (2, 2), (1, 1), "same"),
        ((9, 7), (3, 2), (2, 3), (1, 1), "valid"),  # rows past the span are never read
        ((10, 9), (3, 3), (1, 2), (2, 1), "same"),
        ((6, 6), (4, 4), (1, 1), (1, 1), "same"),  # even kernel: no tap covers the input
        ((6, 6), (1, 1), (2, 2), (1, 1), "same"),
        ((11,), (5,), (3,), (1,), "same"),
        ((4, 5, 3), (3, 2, 1), (1, 2, 1), (1, 1, 1), "same"),
    ],
)
def test_input_grad_is_the_adjoint_of_the_convolution(size, kernel, strides, dilation, padding):
    rng = np.random.default_rng(0)
    c, f, n = 3, 4, 2
    win = im.conv_window(size, kernel, strides, dilation, padding)
    x = rng.normal(size=(n,) + size + (c,))
    w = rng.normal(size=kernel + (c, f))
    g = rng.normal(size=(n,) + win.out_size + (f,))
    cols = im.im2col(np, im.pad_to_span(np, x, win), win)[0]
    y = (cols @ w.reshape(-1, f)).reshape(g.shape)
    dx = im.conv_input_grad(np, g, w.reshape(win.taps, c, f).transpose(0, 2, 1), win)
    assert dx.shape == x.shape
    np.testing.assert_allclose(np.sum(y * g), np.sum(x * dx), rtol=1e-10)
    # and per element, against the span-frame path it replaces
    want = im.crop_from_span(
        np, im.col2im_matmul(np, g.reshape(1, -1, f), w.reshape(win.taps, c, 1, f).transpose(0, 2, 3, 1), win, n), win
    )
    np.testing.assert_allclose(dx, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "size, kernel, dilation, padding",
    [
        ((7, 6), (3, 3), (1, 1), "same"),
        ((9, 7), (3, 2), (1, 1), "valid"),
        ((10, 9), (3, 3), (2, 1), "same"),
        ((6, 6), (4, 4), (1, 1), "same"),  # even kernel: the odd padding row goes after the input
        ((11,), (5,), (1,), "same"),
        ((4, 5, 3), (3, 2, 1), (1, 1, 1), "same"),
    ],
)
def test_stride_one_input_grad_as_one_gemm_matches_the_tapwise_one(size, kernel, dilation, padding):
    rng = np.random.default_rng(1)
    c, f, n = 4, 3, 2
    win = im.conv_window(size, kernel, (1,) * len(size), dilation, padding)
    w = rng.normal(size=kernel + (c, f))
    g = rng.normal(size=(n,) + win.out_size + (f,))
    got = im.conv_input_grad_cols(np, g, w, win)
    want = im.conv_input_grad(np, g, w.reshape(win.taps, c, f).transpose(0, 2, 1), win)
    assert got.shape == (n,) + size + (c,)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_input_grad_as_one_gemm_refuses_strides():
    win = im.conv_window((8, 8), (3, 3), (2, 2), (1, 1), "same")
    with pytest.raises(ValueError, match="stride 1"):
        im.conv_input_grad_cols(np, np.zeros((1, 4, 4, 2)), np.zeros((3, 3, 2, 2)), win)
