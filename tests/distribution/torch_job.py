"""One process of a two-process PyTorch data-parallel run (the test starts two, as ``torchrun`` would).

Usage: ``torch_job.py OUT_DIR MODE`` with RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT set. MODE ``fit`` trains
the test MLP with a checkpoint and a CSV log (only rank 0 may write them) and writes ``result<rank>.json``;
MODE ``die`` makes rank 1 kill itself during the first epoch and MODE ``hang`` makes it stop (SIGSTOP), so that rank 0
must stop with an error. MODE ``fit`` also checks that the gradients went through ``DistributedDataParallel`` and
that a batch smaller than the process count is refused with a clear error.
"""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ["HIGHLEVEL_BACKEND"] = "torch"

import jobs  # noqa: E402

import highlevel as hl  # noqa: E402


def main(out, mode):
    jobs.desync_host_stream(hl, int(os.environ["RANK"]))
    hl.distribution.set_distribution(hl.distribution.DataParallel())  # joins the process group (gloo)
    draw = jobs.host_draw(hl)  # the same in both processes: process 0's stream is shared
    rank, world = hl.distribution.process_index(), hl.distribution.num_processes()
    assert world == 2 and hl.distribution.list_devices() == ["cpu:0", "cpu:1"], (world, hl.distribution.list_devices())
    callbacks = [
        hl.callbacks.ModelCheckpoint(os.path.join(out, f"ckpt{rank}.keras"), monitor="loss"),
        hl.callbacks.CSVLogger(os.path.join(out, f"log{rank}.csv")),
    ]
    if mode in ("die", "hang") and rank == 1:
        # "die": killed outright (its sockets close); "hang": stopped, alive but silent (only a timeout tells).
        sig = signal.SIGKILL if mode == "die" else signal.SIGSTOP
        callbacks.append(
            hl.callbacks.LambdaCallback(on_train_batch_end=lambda batch, logs: batch == 1 and os.kill(os.getpid(), sig))
        )
    model, history, logs = jobs.train(hl, callbacks=callbacks)
    # The gradients went through torch's own DistributedDataParallel (not a hand-made all-reduce).
    import torch

    ddp = hl.config.current_backend()._ddp[1]
    assert isinstance(ddp, torch.nn.parallel.DistributedDataParallel), type(ddp)
    assert ddp.find_unused_parameters and len(list(ddp.parameters())) == len(model.trainable_variables)
    jobs.write_json(os.path.join(out, f"result{rank}.json"), dict(jobs.summary(model, history, logs), host_draw=draw))
    # A batch smaller than the process count cannot be split: a clear error on every process, not NaN weights.
    x, y = jobs.data()
    try:
        model.fit(x[:1], y[:1], batch_size=1, verbose=0)
    except ValueError as e:
        assert "cannot be split across 2 processes" in str(e), e
    else:
        raise AssertionError("a batch of 1 example on 2 processes should be refused")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
