"""One worker of a two-worker TensorFlow run (``MultiWorkerMirroredStrategy``; the test sets ``TF_CONFIG``).

Usage: ``tf_multiworker_job.py OUT_DIR``. The distribution is set first, before TensorFlow starts (a
multi-worker strategy must exist before then). Trains the test MLP with a checkpoint and a CSV log (only worker 0
may write them) and writes ``result<index>.json``.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ["HIGHLEVEL_BACKEND"] = "tensorflow"

import jobs  # noqa: E402

import highlevel as hl  # noqa: E402


def main(out):
    jobs.desync_host_stream(hl, json.loads(os.environ["TF_CONFIG"])["task"]["index"])
    hl.distribution.set_distribution(hl.distribution.DataParallel())
    draw = jobs.host_draw(hl)  # the same in both workers: worker 0's stream is shared
    index, workers = hl.distribution.process_index(), hl.distribution.num_processes()
    assert workers == 2 and hl.distribution.list_devices() == ["cpu:0", "cpu:1"], hl.distribution.list_devices()
    callbacks = [
        hl.callbacks.ModelCheckpoint(os.path.join(out, f"ckpt{index}.keras"), monitor="loss"),
        hl.callbacks.CSVLogger(os.path.join(out, f"log{index}.csv")),
    ]
    model, history, logs = jobs.train(hl, callbacks=callbacks, validation=False)
    jobs.write_json(os.path.join(out, f"result{index}.json"), dict(jobs.summary(model, history, logs), host_draw=draw))


if __name__ == "__main__":
    main(sys.argv[1])
