"""Interrupts ``fit``, ``evaluate`` and ``predict`` at random points and checks that nothing was lost.

Run as ``python -m tests.reliability.interrupt_harness ROUNDS SEED`` with ``HIGHLEVEL_BACKEND`` set. A
reference run first records the weights after every step of an uninterrupted ``fit`` (plain SGD, no shuffling:
the weights after step k depend only on k). Then, on one model reused throughout, each round starts from the
initial weights and interrupts the call:

* ``signal``: a helper thread sends SIGINT to the process after a random delay (as Ctrl-C would);
* ``callback``: a callback raises KeyboardInterrupt at a random batch of a random hook.

After each interrupt the weights must be finite and equal to the reference weights of some completed step
(never a mix of two steps, never lost), ``predict`` must give the reference predictions for those weights, and
the next round must train. Prints one JSON line with the rounds' outcomes.

With ``undeferred`` the steps run without :func:`highlevel.trainers.interrupts.deferred_interrupt`: the control
that shows what an interrupt inside a step does without it.
"""

import json
import os
import random
import signal
import sys
import threading
import time

import numpy as np

import highlevel as hl

EPOCHS, BATCH = 20, 8


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype("float32")
    return x, (x @ np.array([[1.0], [-2.0], [0.5], [1.5]], "float32")).astype("float32")


def _model():
    hl.utils.set_random_seed(0)
    model = hl.Sequential([hl.Input((4,)), hl.layers.Dense(8, activation="tanh"), hl.layers.Dense(1)])
    model.compile(optimizer=hl.optimizers.SGD(0.02), loss="mse")
    return model


class _Record(hl.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.states = []

    def on_train_batch_end(self, batch, logs=None):
        self.states.append(self.model.get_weights())


class _Raise(hl.callbacks.Callback):
    def __init__(self, hook, at):
        super().__init__()
        self.hook, self.at = hook, at

    def _maybe(self, hook, batch):
        if hook == self.hook and batch == self.at:
            raise KeyboardInterrupt

    def on_train_batch_begin(self, batch, logs=None):
        self._maybe("train_batch_begin", batch)

    def on_train_batch_end(self, batch, logs=None):
        self._maybe("train_batch_end", batch)

    def on_test_batch_end(self, batch, logs=None):
        self._maybe("test_batch_end", batch)

    def on_predict_batch_end(self, batch, logs=None):
        self._maybe("predict_batch_end", batch)


def _match(weights, states):
    """The index of the reference state ``weights`` equal (``-1``: the initial weights), or None."""
    for k in range(len(states) - 1, -2, -1):
        ref = states[k] if k >= 0 else states_initial
        if all(np.allclose(a, b, rtol=0, atol=1e-6) for a, b in zip(weights, ref)):
            return k
    return None


def _kill_later(delay):
    def fire():
        time.sleep(delay)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=fire, daemon=True)
    thread.start()
    return thread


def main(rounds, seed):
    global states_initial
    rng = random.Random(seed)
    x, y = _data()
    model = _model()
    states_initial = model.get_weights()
    record = _Record()
    model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, shuffle=False, verbose=0, callbacks=[record])
    states = record.states
    durations = []
    for _ in range(2):  # a compiled fit's duration (the second: the first may still compile): delays fall within it
        model.set_weights(states_initial)
        start = time.perf_counter()
        model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, shuffle=False, verbose=0)
        durations.append(time.perf_counter() - start)
    duration = durations[-1]
    out = []
    for r in range(rounds):
        model.set_weights(states_initial)
        kind = rng.choice(["signal", "signal", "callback"])
        call = rng.choice(["fit", "fit", "evaluate", "predict"])
        outcome = {"kind": kind, "call": call}
        thread = None
        callbacks = []
        if kind == "signal":
            delay = rng.uniform(0, duration if call == "fit" else 0.05)
            outcome["delay"] = round(delay, 4)
        else:
            hook = {"fit": rng.choice(["train_batch_begin", "train_batch_end"]), "evaluate": "test_batch_end"}.get(
                call, "predict_batch_end"
            )
            callbacks = [_Raise(hook, rng.randrange(1, 8))]
            outcome["hook"] = hook
        interrupted = False
        try:
            if kind == "signal":
                thread = _kill_later(delay)  # inside the try: a short delay may strike before the call starts
            if call == "fit":
                model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, shuffle=False, verbose=0, callbacks=callbacks)
            elif call == "evaluate":
                for _ in range(20 if kind == "signal" else 1):
                    model.evaluate(x, y, batch_size=BATCH, verbose=0, callbacks=callbacks)
            else:
                for _ in range(20 if kind == "signal" else 1):
                    model.predict(x, batch_size=BATCH, verbose=0, callbacks=callbacks)
            if thread is not None:
                thread.join()  # the signal may come after the call: wait for it here
                time.sleep(0.01)
        except KeyboardInterrupt:
            interrupted = True
        if thread is not None:
            thread.join()
        outcome["interrupted"] = interrupted
        try:
            weights = model.get_weights()
        except Exception as e:  # the weights are gone (a donated buffer consumed, never replaced)
            outcome["lost"] = f"{type(e).__name__}: {e}"[:300]
            out.append(outcome)
            model = _model()
            continue
        outcome["lost"] = None
        outcome["finite"] = bool(all(np.isfinite(w).all() for w in weights))
        outcome["step"] = _match(weights, states) if outcome["finite"] else None
        if call != "fit":
            outcome["unchanged"] = outcome["step"] == -1
        # usable: predicts what the matched weights predict, and trains on
        try:
            pred = model.predict(x[:8], verbose=0)
            probe = _model()
            probe.set_weights(weights)
            outcome["predicts"] = bool(np.allclose(pred, probe.predict(x[:8], verbose=0), atol=1e-5))
            before = model.evaluate(x, y, verbose=0)
            model.fit(x, y, batch_size=BATCH, epochs=2, shuffle=False, verbose=0)
            outcome["trains"] = bool(model.evaluate(x, y, verbose=0) < before)
            outcome["error"] = None
        except Exception as e:  # recorded, not raised: the test reports every round
            outcome["error"] = f"{type(e).__name__}: {e}"[:300]
        out.append(outcome)
    print(json.dumps({"duration": duration, "rounds": out}))


states_initial = None

if __name__ == "__main__":
    if "undeferred" in sys.argv[3:]:
        import contextlib

        from highlevel.trainers import trainer

        trainer.deferred_interrupt = contextlib.nullcontext
    main(int(sys.argv[1]), int(sys.argv[2]))
