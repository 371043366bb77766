"""``audio_dataset_from_directory``: batches of audio clips (and labels) from a directory of ``.wav`` files.

WAV files are read here, with no dependency: PCM of 8, 16, 24 or 32 bits and 32/64-bit float, scaled to
float32 in ``[-1, 1]`` as ``tf.audio.decode_wav`` scales 16-bit PCM (``value / 32768``). A clip has the shape
``(samples, channels)``. ``sampling_rate`` resamples each clip with a band-limited (FFT) resampler, where
Keras needs the ``tensorflow-io`` package. The dataset is a ``tf.data.Dataset`` when TensorFlow is installed,
otherwise a ``hl.utils.PyDataset`` with the same batches (see :mod:`highlevel.utils.dataset_output`).

>>> import os, tempfile, wave
>>> import numpy as np
>>> root = tempfile.mkdtemp()
>>> for label, n in (("no", 3), ("yes", 5)):
...     os.makedirs(os.path.join(root, label))
...     with wave.open(os.path.join(root, label, "a.wav"), "wb") as f:
...         f.setnchannels(1); f.setsampwidth(2); f.setframerate(8000)
...         f.writeframes(np.full(n, 16384, "<i2").tobytes())
>>> ds = audio_dataset_from_directory(root, shuffle=False, format="pydataset", verbose=False)
>>> clips, labels = ds[0]
>>> clips.shape, clips[0, :, 0].tolist(), labels.tolist()
((2, 5, 1), [0.5, 0.5, 0.5, 0.0, 0.0], [0, 1])
"""

import struct

import numpy as np

from . import dataset_output, directory_index

ALLOWED_FORMATS = (".wav",)


def read_wav(path):
    """Reads a WAV file: returns ``(float32 samples of shape (frames, channels), sample rate)``."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 12 or data[:4] not in (b"RIFF", b"RIFX") or data[8:12] != b"WAVE":
        raise ValueError(f"{path!r} is not a WAV file (no RIFF/WAVE header).")
    if data[:4] == b"RIFX":
        raise ValueError(f"{path!r} is a big-endian (RIFX) WAV file, which is not supported; convert it to RIFF.")
    fmt, payload, offset = None, None, 12
    while offset + 8 <= len(data):
        chunk_id, size = data[offset : offset + 4], struct.unpack("<I", data[offset + 4 : offset + 8])[0]
        body = data[offset + 8 : offset + 8 + size]
        if chunk_id == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
            if fmt[0] == 0xFFFE and len(body) >= 26:  # WAVE_FORMAT_EXTENSIBLE: the real format is in the GUID
                fmt = (struct.unpack("<H", body[24:26])[0],) + fmt[1:]
        elif chunk_id == b"data":
            payload = body
        offset += 8 + size + (size & 1)
    if fmt is None or payload is None:
        raise ValueError(f"{path!r} is not a valid WAV file: it has no 'fmt ' or no 'data' chunk.")
    kind, channels, rate, _, block, bits = fmt
    if channels < 1 or block < 1:
        raise ValueError(f"{path!r}: invalid WAV header (channels={channels}, block size={block}).")
    frames = len(payload) // block
    payload = payload[: frames * block]
    if kind == 1 and bits == 8:
        values = (np.frombuffer(payload, dtype="uint8").astype("float32") - 128.0) / 128.0
    elif kind == 1 and bits == 16:
        values = np.frombuffer(payload, dtype="<i2").astype("float32") / 32768.0
    elif kind == 1 and bits == 24:
        raw = np.frombuffer(payload, dtype="uint8").reshape(-1, 3).astype("int32")
        ints = raw[:, 0] | (raw[:, 1] << 8) | (raw[:, 2] << 16)
        ints = np.where(ints >= 1 << 23, ints - (1 << 24), ints)
        values = ints.astype("float32") / float(1 << 23)
    elif kind == 1 and bits == 32:
        values = (np.frombuffer(payload, dtype="<i4").astype("float64") / float(1 << 31)).astype("float32")
    elif kind == 3 and bits in (32, 64):
        values = np.frombuffer(payload, dtype="<f4" if bits == 32 else "<f8").astype("float32")
    else:
        raise ValueError(
            f"{path!r}: unsupported WAV encoding (format tag {kind}, {bits} bits). Supported: PCM of 8, 16, 24 or "
            "32 bits, and 32/64-bit float."
        )
    return values.reshape(frames, channels), rate


def resample(clip, rate_in, rate_out):
    """Resamples ``clip`` (``(frames, channels)``) from ``rate_in`` to ``rate_out`` Hz by trimming or
    zero-padding its spectrum (band-limited; the clip is treated as periodic)."""
    if rate_in == rate_out or len(clip) == 0:
        return clip
    frames = len(clip)
    new_frames = max(int(round(frames * rate_out / rate_in)), 1)
    spectrum = np.fft.rfft(clip.astype("float64"), axis=0)
    keep = new_frames // 2 + 1
    if keep <= spectrum.shape[0]:
        spectrum = spectrum[:keep]
    else:
        spectrum = np.concatenate([spectrum, np.zeros((keep - spectrum.shape[0], clip.shape[1]), spectrum.dtype)])
    out = np.fft.irfft(spectrum, n=new_frames, axis=0) * (new_frames / frames)
    return out.astype("float32")


def load_audio(path, sampling_rate=None, output_sequence_length=None):
    """One clip as the dataset yields it: read, cut or zero-padded to ``output_sequence_length`` frames, then
    resampled to ``sampling_rate`` (in that order, as Keras does)."""
    clip, rate = read_wav(path)
    if output_sequence_length is not None:
        if len(clip) >= output_sequence_length:
            clip = clip[:output_sequence_length]
        else:
            clip = np.concatenate([clip, np.zeros((output_sequence_length - len(clip), clip.shape[1]), "float32")])
    if sampling_rate is not None:
        clip = resample(clip, rate, sampling_rate)
    return np.ascontiguousarray(clip, dtype="float32")


def audio_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    batch_size=32,
    sampling_rate=None,
    output_sequence_length=None,
    ragged=False,
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    follow_links=False,
    verbose=True,
    format="tf",
):
    """Makes a dataset of audio clips (and their labels) from the ``.wav`` files under ``directory``.

    With ``labels="inferred"``, ``directory`` holds one subdirectory per class (``main/no/*.wav``,
    ``main/yes/*.wav``); the classes are numbered in alphanumeric order of their names (or in the order of
    ``class_names``).

    Args:
        directory: the folder to read.
        labels: ``"inferred"`` (from the subdirectories), None (clips only), or a list of integer labels,
            one per audio file in alphanumeric order of their paths.
        label_mode: ``"int"`` (int32 class indices), ``"categorical"`` (float32 one-hot rows), ``"binary"``
            (float32 0/1 of shape ``(batch, 1)``; exactly two classes) or None (no labels).
        class_names: with ``labels="inferred"``, the subdirectories to use, in this order.
        batch_size: clips per batch; None for single clips.
        sampling_rate: resample every clip to this rate (Hz), after cutting it to ``output_sequence_length``.
        output_sequence_length: cut or zero-pad every clip to this many frames; when None, the clips of a
            batch are zero-padded to the longest of them (or kept ragged with ``ragged=True``).
        ragged: batch clips of different lengths without padding: a ``tf.RaggedTensor`` in ``tf.data``, a list
            of arrays in the ``PyDataset``. Not with ``output_sequence_length``.
        shuffle: shuffle the files (and draw a new order every epoch); False keeps alphanumeric order.
        seed: the shuffling seed; required with ``validation_split`` and ``shuffle``.
        validation_split: the fraction of the files kept for validation (the last ones after shuffling).
        subset: ``"training"``, ``"validation"`` or ``"both"`` (returns ``(train, validation)``); only with
            ``validation_split``.
        follow_links: walk into subdirectories that are symbolic links.
        verbose: print how many files and classes were found.
        format: ``"tf"`` (a ``tf.data.Dataset`` when TensorFlow is installed, else a ``hl.utils.PyDataset``)
            or ``"pydataset"`` (always a ``PyDataset``). Keras's function has no such argument; it always
            returns a ``tf.data.Dataset``.

    Returns:
        A dataset yielding float32 clips ``(batch, frames, channels)``, or ``(clips, labels)`` pairs; with
        ``subset="both"``, a pair of them. A ``tf.data.Dataset`` when TensorFlow is installed, otherwise a
        ``hl.utils.PyDataset``. Its ``class_names`` attribute lists the classes.

    Raises:
        ValueError: if ``ragged`` and ``output_sequence_length`` are combined, ``sampling_rate`` is not a positive int,
            another argument is out of its range, or no audio file is found.

    >>> import os, tempfile, wave
    >>> import numpy as np
    >>> import highlevel as hl
    >>> root = tempfile.mkdtemp()
    >>> for label in ("no", "yes"):  # one sub-folder per class, 0.1 s of 8 kHz silence each
    ...     os.makedirs(os.path.join(root, label))
    ...     with wave.open(os.path.join(root, label, "clip.wav"), "wb") as f:
    ...         f.setnchannels(1)
    ...         f.setsampwidth(2)
    ...         f.setframerate(8000)
    ...         f.writeframes(np.zeros(800, "<i2").tobytes())
    >>> clips = hl.utils.audio_dataset_from_directory(root, batch_size=2, shuffle=False)
    Found 2 files belonging to 2 classes.
    >>> [(tuple(x.shape), y.numpy().tolist()) for x, y in clips]  # (batch, samples, channels)
    [((2, 800, 1), [0, 1])]
    """
    labels, label_mode = directory_index.check_label_arguments(labels, label_mode, class_names, "audio")
    if ragged and output_sequence_length is not None:
        raise ValueError("`ragged=True` and `output_sequence_length` cannot be used together: pick one.")
    if output_sequence_length is not None and (
        isinstance(output_sequence_length, bool)
        or not isinstance(output_sequence_length, (int, np.integer))
        or output_sequence_length < 1
    ):
        raise ValueError(
            f"`output_sequence_length` must be a positive int or None; received {output_sequence_length!r}."
        )
    if sampling_rate is not None:
        if isinstance(sampling_rate, bool) or not isinstance(sampling_rate, (int, np.integer)):
            raise ValueError(f"`sampling_rate` must be an int (Hz); received sampling_rate={sampling_rate!r}.")
        if sampling_rate <= 0:
            raise ValueError(f"`sampling_rate` must be greater than 0; received sampling_rate={sampling_rate}.")
    dataset_output.check_format(format)
    directory_index.check_validation_split(validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(1_000_000)
    paths, all_labels, class_names = directory_index.index_directory(
        directory,
        labels,
        ALLOWED_FORMATS,
        class_names=class_names,
        shuffle=shuffle,
        seed=seed,
        follow_links=follow_links,
        verbose=verbose,
    )
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(
            f'label_mode="binary" needs exactly 2 classes; found {len(class_names)}: {class_names}. Use '
            '"categorical" or "int" for more classes.'
        )
    num_classes = len(class_names) if class_names else 0
    frames = output_sequence_length if sampling_rate is None else None
    clip_spec = dataset_output.SampleSpec((frames, None), "float32")

    def build(subset_name, shuffle_subset):
        files, subset_labels = directory_index.split(paths, all_labels, validation_split, subset_name, verbose)
        if not files:
            where = f"{subset_name} " if subset_name else ""
            raise ValueError(
                f"No {where}audio files found in directory {directory!r}. Allowed format(s): {ALLOWED_FORMATS}."
            )

        def load(i):
            clip = load_audio(files[i], sampling_rate, output_sequence_length)
            if label_mode is None:
                return clip
            return clip, directory_index.encode_label(subset_labels[i], label_mode, num_classes)

        spec = clip_spec if label_mode is None else (clip_spec, directory_index.label_spec(label_mode, num_classes))
        host = dataset_output.HostDataset(
            len(files),
            load,
            spec,
            batch_size=batch_size,
            shuffle=shuffle_subset,
            seed=seed,
            batching="ragged" if ragged else "pad",
        )
        host.class_names = class_names
        host.file_paths = list(files)
        return dataset_output.finish(host, format)

    if subset == "both":
        return build("training", shuffle), build("validation", False)
    return build(subset, shuffle)
