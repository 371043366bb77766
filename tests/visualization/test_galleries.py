"""The galleries: a figure with one axis per cell, titles from the label map, boxes and masks drawn in."""

import numpy as np
import pytest

import highlevel as hl


def test_image_gallery_titles_and_grid(backend, plt):
    images = hl.ops.convert_to_tensor(np.random.default_rng(0).uniform(0, 1, (5, 8, 8, 3)).astype("float32"))
    hl.visualization.plot_image_gallery(
        images,
        y_true=np.array([0, 1, 0, 1, 2]),
        y_pred=np.array([0, 0, 0, 1, 1]),
        label_map={0: "cat", 1: "dog"},
        value_range=(0, 1),
        show=False,
    )
    axes = plt.gcf().axes
    assert len(axes) == 6  # 3 x 2: every image has a cell, the last cell is empty
    assert [a.get_title() for a in axes[:5]] == [
        "Label: cat  Pred: cat",
        "Label: dog  Pred: cat",
        "Label: cat  Pred: cat",
        "Label: dog  Pred: dog",
        "Label: Unknown  Pred: dog",
    ]
    assert not axes[5].images
    shown = axes[1].images[0].get_array()
    np.testing.assert_array_equal(shown, (hl.ops.convert_to_numpy(images)[1] * 255).astype("uint8"))


def test_image_gallery_saves_a_png(tmp_path, plt):
    path = tmp_path / "gallery.png"
    hl.visualization.plot_image_gallery(np.zeros((4, 8, 8, 3)), path=str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="either saves the figure"):
        hl.visualization.plot_image_gallery(np.zeros((4, 8, 8, 3)), path=str(path), show=True)
    with pytest.raises(ValueError, match="label_map"):
        hl.visualization.plot_image_gallery(np.zeros((4, 8, 8, 3)), y_true=[0, 1, 0, 1], show=False)


def test_bounding_box_gallery_draws_both_kinds(backend, plt):
    images = np.zeros((2, 16, 16, 3), "float32")
    true = {"boxes": np.array([[[1, 1, 8, 8]], [[2, 2, 9, 9]]], "float32"), "labels": np.array([[0], [1]])}
    pred = {"boxes": np.array([[[4, 4, 12, 12]], [[5, 5, 13, 13]]], "float32"), "labels": np.array([[0], [1]])}
    hl.visualization.plot_bounding_box_gallery(
        images, "xyxy", y_true=true, y_pred=pred, line_thickness=1, legend=True, show=False
    )
    fig = plt.gcf()
    assert len(fig.axes) == 2 and len(fig.legends) == 1
    shown = np.asarray(fig.axes[0].images[0].get_array())
    assert shown[1, 1].tolist() == [0, 188, 212] and shown[12, 12].tolist() == [255, 235, 59]


def test_segmentation_gallery_rows_of_image_truth_prediction(backend, plt):
    images = np.full((3, 4, 4, 3), 200, "uint8")
    masks = np.ones((3, 4, 4, 1), "int32")
    hl.visualization.plot_segmentation_mask_gallery(
        images,
        num_classes=2,
        y_true=masks,
        y_pred=masks * 0,
        color_mapping={0: (0, 0, 0), 1: (255, 0, 0)},
        alpha=1.0,
        show=False,
    )
    axes = plt.gcf().axes
    assert len(axes) == 9
    pixels = [np.asarray(a.images[0].get_array())[0, 0].tolist() for a in axes[:3]]
    assert pixels == [[200, 200, 200], [255, 0, 0], [0, 0, 0]]
