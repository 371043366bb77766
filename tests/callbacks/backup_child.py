"""A training script for test_backup_and_restore: run in a child process that the test kills with SIGKILL.

Usage: ``python backup_child.py OUT.npz [BACKUP_DIR [REFERENCE.npz]]`` (the backend comes from
``HIGHLEVEL_BACKEND``). With a BACKUP_DIR it trains with ``BackupAndRestore`` (resuming from what is there);
without, uninterrupted. It prints ``batch <epoch> <step>`` after every batch and, when
``BACKUP_CHILD_SLOW_SAVE`` holds a number of seconds, ``saving`` each time a backup file is about to be fsynced,
then sleeps that long — so the test can kill it while a backup is half written. At the end it writes every model
and optimizer variable to OUT.npz and prints ``done``. With a REFERENCE.npz it then trains a fresh model from the
same seed, uninterrupted and without backups, writes its variables there and prints ``reference done``: the
process that finishes an interrupted run also makes the run it must equal, which saves starting (and importing
the framework in) one more process.
"""

import os
import stat
import sys
import time

import numpy as np

import highlevel as hl

EPOCHS, BATCH_SIZE, SAVE_FREQ = 3, 4, 3  # 8 batches per epoch


def slow_fsync(delay):
    real_fsync = os.fsync

    def fsync(fd):
        if stat.S_ISREG(os.fstat(fd).st_mode):  # the backup's temporary file (not its folder)
            print("saving", flush=True)
            time.sleep(delay)
        real_fsync(fd)

    return fsync


class PrintBatches(hl.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        print(f"batch {self.epoch} {batch}", flush=True)


def main(out, backup_dir=None, reference_out=None):
    delay = os.environ.get("BACKUP_CHILD_SLOW_SAVE")
    if delay:
        os.fsync = slow_fsync(float(delay))
    run(out, backup_dir, verbose=True)
    print("done", flush=True)
    if reference_out is not None:
        run(reference_out, None, verbose=False)
        print("reference done", flush=True)


def run(out, backup_dir, verbose):
    hl.utils.set_random_seed(11)
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 5)).astype("float32")
    y = rng.normal(size=(32, 2)).astype("float32")
    model = hl.Sequential(
        [hl.Input((5,)), hl.layers.Dense(8, activation="relu"), hl.layers.Dropout(0.25), hl.layers.Dense(2)]
    )
    model.compile(optimizer=hl.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    callbacks = [PrintBatches()] if verbose else []
    if backup_dir is not None:
        callbacks.append(hl.callbacks.BackupAndRestore(backup_dir, save_freq=SAVE_FREQ))
    model.fit(x, y, batch_size=BATCH_SIZE, epochs=EPOCHS, shuffle=True, verbose=0, callbacks=callbacks)
    state = model.variables + model.optimizer.variables
    np.savez(out, *[hl.ops.convert_to_numpy(v.value) for v in state])


if __name__ == "__main__":
    main(*sys.argv[1:])
