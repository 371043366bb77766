"""What each teaching notebook claims, checked on the values it computed.

``test_notebooks.py`` runs a notebook, then, in the same kernel, ``check(name, globals())``: the checks below
read the notebook's own variables (models, histories, accuracies, arrays) and test every claim its prose and
comments make about them — an accuracy the text presents as a success, a loss that "falls", a parameter count
worked out by hand, an equality called "bitwise". When a lesson's code or prose changes, its checks change in
the same commit.

Bounds come from what the prose implies and sit a little below the figures every engine produces, a margin
for the differences between engines (dropout draws from each engine's own generator) and machines: a model
that does not train, or trains much worse, fails, and so does a claim its output contradicts. All failed
claims of a lesson are reported together.
"""

import numpy as np


class Claims:
    """Collects failed claims and the figures they were checked on."""

    def __init__(self, lesson):
        self.lesson = lesson
        self.failures = []
        self.figures = {}

    def figure(self, key, value):
        """Records ``value`` (shown with the test's result) and returns it."""
        self.figures[key] = (float(f"{float(value):.4g}") if np.ndim(value) == 0
                             else [float(f"{v:.4g}") for v in np.asarray(value, float).ravel()])
        return value

    def that(self, condition, claim):
        if not bool(condition):
            self.failures.append(claim)

    def at_least(self, value, bound, what):
        self.that(value >= bound, f"{what} is {value:.4g}, expected at least {bound}")

    def at_most(self, value, bound, what):
        self.that(value <= bound, f"{what} is {value:.4g}, expected at most {bound}")

    def equal(self, value, expected, what):
        self.that(value == expected, f"{what} is {value!r}, expected {expected!r}")

    def fell(self, values, factor, what):
        """``values`` (a per-epoch curve) ended at most ``factor`` times where it started."""
        self.that(values[-1] <= factor * values[0],
                  f"{what} went from {values[0]:.4g} to {values[-1]:.4g}: it should fall below "
                  f"{factor} times its start")

    def done(self):
        if self.failures:
            raise AssertionError(f"{self.lesson}: {len(self.failures)} claim(s) of the lesson do not hold:\n  - "
                                 + "\n  - ".join(self.failures))
        return self.figures


def params(layer_or_model):
    return int(layer_or_model.count_params())


# ------------------------------------------------------------------------------------------------ lessons
def lesson_01(ns, c):
    x_train, x_test, y_train = ns["x_train"], ns["x_test"], ns["y_train"]
    c.equal(x_train.shape, (1438, 8, 8), "x_train's shape")
    c.equal(x_test.shape, (359, 8, 8), "x_test's shape")
    c.equal(len(x_train) + len(x_test), 1797, "the number of digits (the prose says 1,797)")
    c.that(x_train.min() == 0 and x_train.max() == 16, "pixels should range from 0 to 16")
    c.equal(list(np.unique(y_train)), list(range(10)), "the labels")

    model = ns["model"]
    c.equal(params(model.layers[2]), 4160, "the hidden layer's parameters (the prose: 64 x 64 + 64 = 4,160)")
    c.equal(list(model.metrics_names), ["loss", "accuracy"], "model.metrics_names")
    h = ns["history"].history
    c.equal(len(h["loss"]), 15, "the number of epochs trained")
    c.fell(h["loss"], 0.3, "the training loss")
    c.fell(h["val_loss"], 0.3, "the validation loss (the curves 'fall together')")
    accuracy = c.figure("test_accuracy", ns["test_accuracy"])
    c.at_least(accuracy, 0.93, "the test accuracy")

    confusion, wrong = ns["confusion"], ns["wrong"]
    c.equal(int(confusion.sum()), len(x_test), "the confusion matrix's total")
    c.that(abs(np.trace(confusion) / len(x_test) - accuracy) < 1e-6,
           "the confusion matrix's diagonal should match the test accuracy")
    c.equal(len(wrong), len(x_test) - int(np.trace(confusion)), "the number of misclassified digits")

    # Solution 1: "Fewer parameters, similar accuracy".
    c.that(params(ns["deeper"]) < params(model), "two layers of 32 should have fewer parameters than one of 64")
    deeper = c.figure("deeper_accuracy", ns["deeper_accuracy"])
    c.at_most(abs(deeper - accuracy), 0.03, "the accuracy gap between the deeper and the wider model")
    # Solution 2: the most confused pair is off the diagonal.
    c.that(ns["true_digit"] != ns["predicted_digit"] and ns["off_diagonal"].max() > 0,
           "the most confused pair should be a real mistake")
    # Solution 3: the training loss falls towards zero, the validation loss levels off well above it, and the
    # test accuracy stays several points below the full-data model's.
    small = ns["small_history"].history
    c.at_most(small["loss"][-1], 0.1, "the final training loss on 200 images")
    c.at_least(small["accuracy"][-1], 0.99, "the final training accuracy on 200 images")
    c.that(small["val_loss"][-1] > 2 * small["loss"][-1],
           f"on 200 images the validation loss ({small['val_loss'][-1]:.3f}) should end well above the training "
           f"loss ({small['loss'][-1]:.3f})")
    c.at_least(accuracy - c.figure("small_accuracy", ns["small_accuracy"]), 0.02,
               "the accuracy lost by training on 200 images")


def lesson_02(ns, c):
    model, half_encoder = ns["model"], ns["half_encoder"]
    table = model.summary(return_string=True)
    for text in ("half_encoder[1][0]", "flatten[1][0]", "scale (Rescaling)"):
        c.that(text in table, f"summary() should show {text!r}, as the prose says")
    c.equal(table.count("half_encoder (Dense)"), 2, "the rows of half_encoder in summary() (one per call)")
    c.equal(params(half_encoder), 1056, "half_encoder's parameters (the prose: 32 x 32 + 32 = 1,056)")
    unique = sum(int(np.prod(w.shape)) for w in model.weights)
    c.equal(params(model), unique, "the model's parameter count (each shared weight counted once)")
    c.equal(params(model), 5931, "the model's parameter count")
    c.that(model.get_layer("half_encoder") is half_encoder, "get_layer should return the layer we created")

    h = ns["history"].history
    total = np.array(h["loss"])
    weighted = np.array(h["digit_loss"]) + 0.5 * np.array(h["parity_loss"])
    c.that(np.allclose(total, weighted, rtol=1e-4), "loss should equal digit_loss + 0.5 * parity_loss every epoch")
    c.fell(h["loss"], 0.3, "the training loss")
    results = ns["results"]
    c.at_least(c.figure("digit_accuracy", results["digit_accuracy"]), 0.9, "the test digit accuracy")
    c.at_least(c.figure("parity_accuracy", results["parity_accuracy"]), 0.85, "the test parity accuracy")
    c.equal({k: tuple(v.shape) for k, v in ns["predictions"].items()}, {"digit": (359, 10), "parity": (359, 1)},
            "the shapes of the predictions")
    c.at_least(c.figure("heads_agree", ns["agreement"]), 0.8, "the agreement of the two heads")

    # Solution 1: "One more Dense(32) adds 1,056 parameters. Accuracy is about the same."
    c.equal(params(ns["unshared"]) - params(model), 1056, "the parameters an unshared encoder adds")
    unshared = c.figure("unshared_accuracy", ns["unshared_accuracy"])
    c.at_most(abs(unshared - results["digit_accuracy"]), 0.03, "the accuracy gap, unshared vs shared")
    # Solution 2: with weight 0 the total is the digit loss, and parity stays near or below chance.
    logs = ns["logs"]
    c.that(np.allclose(logs["loss"], logs["digit_loss"], rtol=1e-5), "with weight 0, loss should equal digit_loss")
    c.at_most(max(logs["parity_accuracy"]), 0.6, "the untrained parity head's accuracy")
    # Solution 3: weighted, the ink head "beats the constant guess several times over".
    ink_var = float(np.var(ns["ink"](ns["x_test"])))
    c.at_most(c.figure("ink_mse", ns["three_results"]["ink_loss"]), 0.5 * ink_var,
              f"the ink head's test MSE (the constant guess scores {ink_var:.5f})")


def lesson_03(ns, c):
    layer = ns["layer"]
    c.that(not ns["built_before_call"] and layer.built, "Linear should be built by its first call, not before")
    c.equal([(w.name, tuple(w.shape), bool(w.trainable)) for w in layer.weights],
            [("kernel", (5, 3), True), ("bias", (3,), True), ("seen", (), False)], "Linear(3)'s weights on 5 inputs")

    model, epochs, n = ns["model"], ns["EPOCHS"], len(ns["x_train"])
    c.fell(ns["history"].history["loss"], 0.3, "the MLP's training loss")
    c.at_least(c.figure("mlp_accuracy", ns["mlp_accuracy"]), 0.93, "the MLP's test accuracy")
    seen = int(np.asarray(ns["ops"].convert_to_numpy(model.hidden.seen)))
    c.equal(seen, epochs * n, f"the samples counted by the hidden layer (printed as {epochs} epochs x {n})")
    c.equal(params(model), 4812, "the MLP's parameters (4,810 trainable + 2 counters)")

    h = ns["clipped_history"].history
    c.equal(sorted(h), ["accuracy", "grad_norm", "loss"], "the clipped model's logs")
    c.fell(h["loss"], 0.3, "the clipped model's training loss")
    c.that(h["grad_norm"][-1] < h["grad_norm"][0], "the gradient norm should fall as the model learns")
    c.at_most(abs(h["grad_norm"][0] - ns["clipped"].max_norm), 0.3,
              "the distance of the first epoch's norm from max_norm (it starts near it)")
    c.at_least(c.figure("clipped_accuracy", ns["clipped_accuracy"]), 0.93, "the clipped model's test accuracy")

    # Solution 1: no bias, 15 weights.
    no_bias = ns["no_bias"]
    c.equal([w.name for w in no_bias.trainable_weights], ["kernel"], "LinearNoBias's trainable weights")
    c.equal(sum(int(np.prod(w.shape)) for w in no_bias.trainable_weights), 15, "LinearNoBias's weight count")
    # Solution 2: the penalty raises the training loss.
    c.that(ns["final_loss"][1.0] > ns["final_loss"][0.0], "the activity penalty should raise the training loss")
    # Solution 3: clipping fires on some steps, less as training goes.
    fraction = c.figure("clipped_fraction", ns["clipped_fraction"])
    c.that(all(0 <= f <= 1 for f in fraction) and fraction[0] > 0, "clipping should fire in the first epoch")
    c.that(fraction[-1] < fraction[0], "clipping should fire less often as the norm falls")


def lesson_04(ns, c):
    hl, Tensor = ns["hl"], ns["Tensor"]
    c.equal(hl.config.backend(), "native", "the backend the lesson switched to")
    x, y = ns["x"], ns["y"]
    c.that(isinstance(y, Tensor), "y should be a native Tensor")
    graph = [line.split() for line in ns["graph"]]  # the printed graph (backward has released it since)
    c.equal([words[0] for words in graph], ["sum", "multiply", "tanh", "matmul", "leaf", "leaf",
                                            "tanh", "matmul", "leaf", "leaf"], "the printed graph's ops, from y down")
    c.equal([i for i, words in enumerate(graph) if words[-1] == "(h)"], [2, 6],
            "where h appears in the graph (twice, once per operand of the product)")
    c.that(x.is_leaf and not y.is_leaf, "x should be a leaf and y not")
    c.at_most(c.figure("engine_vs_hand", max(np.abs(ns["x_bar"] - ns["x_bar_by_hand"]).max(),
                                             np.abs(ns["W_bar"] - ns["W_bar_by_hand"]).max())),
              1e-12, "the largest difference, engine vs by hand")
    c.at_most(c.figure("engine_vs_fd", max(np.abs(ns["x_bar"] - ns["x_bar_fd"]).max(),
                                           np.abs(ns["W_bar"] - ns["W_bar_fd"]).max())),
              1e-8, "the largest difference, engine vs finite differences")
    c.that(ns["second_backward_error"] is not None and "already" in ns["second_backward_error"],
           f"a second backward should fail and say the graph was already run: {ns['second_backward_error']!r}")
    c.that(not ns["y3"].requires_grad, "nothing should be recorded under no_grad")
    c.that(ns["version_error"] is not None and "modified in place" in ns["version_error"],
           f"the in-place change should be caught by the version counter: {ns['version_error']!r}")
    c.equal(ns["version_when_saved"], 0, "W's version when saved")
    # Solutions: a custom VJP agrees with finite differences; .grad accumulates; 4 nodes.
    c.at_most(ns["sigmoid_error"], 1e-8, "my_sigmoid's gradient vs finite differences")
    c.that(np.allclose(x.grad, 4 * x.numpy()), f"two backward passes should give 4x: {x.grad}")
    c.equal(ns["n_nodes"], 4, "the node count of sum(exp(x) * exp(x))")


def lesson_05(ns, c):
    backends = ns["BACKENDS"]
    c.equal(ns["child_backend"], "torch", "the backend of the process started with HIGHLEVEL_BACKEND=torch")
    c.equal(ns["scoped_backend"], ns["other"], "the backend inside backend_scope")
    c.that(all(ns["same_initial"].values()) and len(ns["same_initial"]) == 3,
           f"initial weights should be bitwise equal on every engine: {ns['same_initial']}")
    gaps = {k: c.figure(f"loss_gap_{k}", v) for k, v in ns["loss_gaps"].items()}
    c.that(max(gaps.values()) < 1e-4, f"the loss curves should agree to float32 rounding: {gaps}")
    accuracies = {k: c.figure(f"accuracy_{k}", v) for k, v in ns["accuracies"].items()}
    c.that(min(accuracies.values()) >= 0.85, f"every engine should learn the digits: {accuracies}")
    c.at_most(max(accuracies.values()) - min(accuracies.values()), 0.01, "the spread of the four accuracies")
    for name in backends:
        c.fell(ns["histories"][name]["loss"], 0.5, f"{name}'s training loss")
    for name in ("jax", "tensorflow"):  # "compilation costs time once, at the first step"
        t = ns["timings"][name]
        c.that(t[0] > np.mean(t[1:]), f"{name}'s first epoch ({t[0]:.3f} s) should include compiling and take "
                                      f"longer than the later ones ({np.mean(t[1:]):.3f} s)")
    # Solutions.
    c.at_most(c.figure("logit_gap", ns["logit_gap"]), 1e-3, "the largest logit difference, native vs JAX")
    c.at_most(ns["classified_differently"], 1, "the test digits native and JAX classify differently")
    ms = ns["ms_per_step"]
    c.that(ms[False] < ms[True], f"a jitted JAX step should be faster than an eager one: {ms}")
    c.that(ns["seed1_identical"] and ns["seed1_differs"], "seed 1: identical across engines, different from seed 0")


def lesson_06(ns, c):
    h = ns["history"].history
    patience = ns["early_stopping"].patience
    best_epoch, ran = ns["best_epoch"], len(ns["history"].epoch)
    c.that(ran < 100, "early stopping should stop before 100 epochs")
    c.equal(ran, best_epoch + patience, "the epochs run (the prose: patience epochs after the best one)")
    c.that(h["loss"][-1] < h["loss"][best_epoch - 1] and h["loss"][-1] < 0.5 * h["val_loss"][-1],
           "the training loss should keep falling, below the validation loss")
    in_memory, loaded_back = ns["in_memory"], ns["loaded_back"]
    c.that(np.isclose(in_memory["loss"], min(h["val_loss"]), rtol=1e-4),
           f"the weights should be those of the best epoch: val loss {in_memory['loss']:.5f} vs best "
           f"{min(h['val_loss']):.5f}")
    c.equal(loaded_back, in_memory, "the checkpoint's scores ('exactly the same')")
    c.at_least(c.figure("best_val_accuracy", in_memory["accuracy"]), 0.9, "the best model's validation accuracy")

    rates, warmup = np.array(ns["rates"]), 3 * ns["steps_per_epoch"]
    c.that(rates[0] == 0 and np.all(np.diff(rates[:warmup + 1]) > 0), "the warm-up should rise from 0")
    c.that(np.isclose(rates[warmup], 3e-3), "the warm-up should end at warmup_target")
    c.that(np.all(np.diff(rates[warmup:]) <= 0) and rates[-1] < 0.02 * 3e-3,
           "the cosine should fall to about alpha x warmup_target")
    for label, run in ns["results"].items():
        c.at_most(c.figure(f"val_loss {label}", run["val_loss"][-1]), 0.3, f"the final val_loss ({label})")

    c.that(ns["crash"] is not None and "after epoch 3" in ns["crash"], "the simulated crash should happen")
    c.equal(ns["backup_files"], ["backup-000000001.hl.zip", "backup-000000002.hl.zip"],
            "the backups left by the crash (the two newest)")
    c.equal(ns["resumed_epochs"], [4, 5, 6, 7, 8], "the epochs run after the restart")
    c.that(not ns["os"].path.exists(ns["backup_dir"]), "the backup folder should be gone after a normal end")
    c.that(ns["exact_resume"], "the resumed run should end with bitwise identical weights")

    # Solution 1: "too little patience stops at the first bump; more costs epochs but rarely finds much better".
    runs = ns["patience_runs"]
    c.that(runs[1][0] < runs[5][0] < runs[15][0], f"more patience should run more epochs: {runs}")
    c.that(runs[1][1] > runs[5][1] >= runs[15][1] >= runs[5][1] - 0.02,
           f"patience 1 should stop worse; 15 should find little better than 5: {runs}")
    c.that(ns["rates_match"], "the recorded learning rates should match the plotted schedule")
    c.at_most(ns["plateau_history"]["val_loss"][-1], 0.3, "ReduceLROnPlateau's final val_loss")


def lesson_07(ns, c):
    cnn, rnn = ns["cnn"], ns["rnn"]
    c.equal([params(cnn.layers[i]) for i in (0, 2, 5)], [160, 4640, 1290], "the CNN's parameters per layer")
    c.equal(params(rnn.layers[0]), 5248, "the LSTM's parameters (4 x (8 + 32 + 1) x 32)")
    c.equal(ns["kernel"].shape, (3, 3, 1, 16), "the first kernel's shape")
    c.equal(ns["maps"].shape, (8, 8, 16), "the feature maps' shape")
    c.fell(ns["cnn_history"].history["loss"], 0.2, "the CNN's training loss")
    cnn_accuracy = c.figure("cnn_accuracy", ns["cnn_results"]["accuracy"])
    c.at_least(cnn_accuracy, 0.95, "the CNN's test accuracy")

    after = c.figure("lstm_accuracy_after_rows", ns["accuracy_after"])
    c.that(after[1] < 0.5, f"after two rows the LSTM should be right less than half the time: {after}")
    c.that(after[5] > after[1] + 0.3, f"the LSTM's accuracy should climb with the rows: {after}")
    c.at_most(abs(after[-1] - after[-3]), 0.03, "the change of the LSTM's accuracy over the last two rows (levels off)")
    c.at_least(after[-1], 0.8, "the LSTM's accuracy after 8 rows")
    c.that(cnn_accuracy > after[-1] + 0.05, "the CNN should do clearly better than the LSTM")
    c.that(0.8 < params(cnn) / params(rnn) < 1.25, "the CNN and the LSTM should have about as many parameters")

    # Solutions.
    c.figure("last_step_accuracy", ns["last_accuracy"])
    gru, last = ns["gru"], ns["last"]
    recurrent = params(gru.layers[0]) / params(last.layers[0])
    c.that(0.7 < recurrent < 0.8, f"the GRU should have about 3/4 of the LSTM's recurrent parameters: {recurrent:.2f}")
    gru_accuracy = c.figure("gru_accuracy", ns["gru_accuracy"])
    c.that(gru_accuracy > ns["last_accuracy"] + 0.02, "the GRU should end clearly more accurate after 12 epochs")
    c.equal(params(ns["gap"].layers[-1]), 330, "the dense layer after global pooling")
    c.that(c.figure("gap_accuracy", ns["gap_accuracy"]) < cnn_accuracy, "global pooling should cost accuracy")


def lesson_08(ns, c):
    c.fell(ns["history"].history["loss"], 0.2, "the training loss")
    c.at_least(c.figure("test_accuracy", ns["test_accuracy"]), 0.9, "the trained model's test accuracy")
    c.equal(ns["members"], ["config.json", "metadata.json", "model.weights.h5"], "the .keras archive's members")
    config = ns["config"]
    c.equal((config["module"], config["class_name"]), ("keras", "Sequential"), "the model class in config.json")
    c.that(all(layer["module"] == "keras.layers" for layer in config["config"]["layers"]),
           "every layer should be named by its Keras module ('module': 'keras.layers')")
    # "at the level of float32 rounding, and every predicted digit is the same" (three times)
    for key in ("keras_difference", "backend_difference", "onnx_difference"):
        c.at_most(c.figure(key, ns[key]), 1e-5, key)
    c.equal(ns["same_answers"], 1.0, "the share of digits Keras predicts as we do")
    c.that(ns["other_backend"] != ns["trained_on"], "the model should move to another backend")
    c.equal(ns["moved_iterations"], ns["original_iterations"], "the optimizer's step count after the move")
    c.that(ns["original_iterations"] > 0, "the optimizer should have taken steps")
    more = ns["more"].history["loss"]
    c.that(more[-1] < more[0], f"training should go on on the other backend (loss {more})")
    c.at_least(ns["moved_accuracy"], 0.9, "the accuracy after 3 more epochs on the other backend")
    c.equal(tuple(ns["one_image"].shape), (1, 10), "the ONNX file's answer for one image (an open batch size)")
    # Solutions.
    c.at_most(c.figure("weights_difference", ns["weights_difference"]), 1e-5, "Keras's load_weights difference")
    paths = list(ns["datasets"])
    c.that(any(p.startswith("layers/dense/vars") for p in paths) and any(p.startswith("optimizer/vars") for p in paths),
           f"the weights file should hold layers/dense/vars/... and optimizer/vars/...: {paths}")
    c.figure("predict_ms", 1e3 * ns["predict_s"])
    c.figure("onnx_ms", 1e3 * ns["onnx_s"])


def lesson_09(ns, c):
    c.equal(ns["x_source"].shape, (721, 32, 32, 3), "the source images' shape")
    c.equal(ns["x_target"].shape, (100, 32, 32, 3), "the target images' shape (20 per digit)")
    c.equal(ns["x_target_test"].shape, (179, 32, 32, 3), "the target test images' shape")
    base, pretrained, model = ns["base"], ns["pretrained"], ns["model"]
    c.equal(len(base.layers), 57, "the base's layers")
    c.equal(len(ns["batch_norms"]), 19, "the base's batch norms")
    c.equal(params(base), 17584, "the base's parameters")
    c.equal(tuple(base.output_shape), (None, 4, 4, 96), "the base's output (a 4x4 grid of 96 features)")
    c.at_least(ns["source_history"].history["accuracy"][-1], 0.9, "the source model's final training accuracy")
    # "Near chance (20%)" with stale statistics; refreshed, the source test accuracy is high.
    c.at_most(c.figure("stale_accuracy", ns["stale"]), 0.35, "the accuracy with stale moving statistics")
    c.at_least(c.figure("source_accuracy", ns["source_accuracy"]), 0.9, "the source test accuracy after the refresh")
    c.at_most(ns["reload_difference"], 1e-6, "the loaded base's difference from the saved one")
    # Step 1: only the head's 7,685 parameters are trainable; not one weight of the base moves.
    c.equal(params(model.get_layer("head")), 7685, "the head's parameters (1,536 x 5 + 5)")
    c.equal(params(model) - params(pretrained), 7685, "the parameters outside the base (the summary's trainable ones)")
    c.equal(ns["changed"], [], "the base weights changed while frozen")
    c.equal(len(ns["statistics"]), 38, "the batch norms' moving statistics among the weights checked")
    frozen = c.figure("frozen_accuracy", ns["frozen_accuracy"])
    c.at_least(frozen, 0.6, "the target test accuracy after training the head (chance is 20%)")
    # Step 2: everything trains, but not the moving statistics; the accuracy rises past the head's.
    c.equal(len(model.trainable_weights), 59, "the trainable weights after unfreezing")
    kernels = [p for p in ns["before"] if p.endswith("kernel")]
    c.that(kernels and all(p in ns["tuned"] for p in kernels), "fine-tuning should change every kernel of the base")
    c.equal(ns["statistics_moved"], [], "the moving statistics changed by fine-tuning")
    fine = c.figure("fine_accuracy", ns["fine_accuracy"])
    c.that(fine > frozen, f"fine-tuning should raise the target test accuracy ({frozen:.3f} -> {fine:.3f})")
    c.equal(len(ns["curves"]["val_accuracy"]), 10, "the epochs in the curves (6 frozen + 4 fine-tuning)")
    # Solutions: from scratch as good or better on this task; without training=False the statistics move.
    scratch = c.figure("scratch_accuracy", ns["scratch_accuracy"])
    c.at_least(scratch, fine - 0.03, "the from-scratch accuracy (as good as the transferred model or better)")
    c.equal(len(ns["careless_moved"]), 38, "the moving statistics changed without training=False")


def lesson_10(ns, c):
    # Pretraining works; the mirrored digits defeat the pretrained model.
    c.fell(ns["pretrain_history"].history["loss"], 0.2, "the pretraining loss")
    c.at_least(c.figure("pretrained_accuracy", ns["pretrained_accuracy"]), 0.9, "the upright test accuracy")
    before = c.figure("before_accuracy", ns["before_accuracy"])
    c.at_most(before, 0.6, "the pretrained model's accuracy on mirrored digits ('far fewer')")
    # LoRA: rank-4 factors of 64x256, 256x256 and 256x10 kernels, plus the biases; about 6% of the model.
    c.equal(ns["total_params"], 64 * 256 + 256 + 256 * 256 + 256 + 256 * 10 + 10, "the pretrained parameters")
    c.equal(ns["lora_params"], 4 * (64 + 256) + 4 * (256 + 256) + 4 * (256 + 10), "the LoRA factors' parameters")
    c.equal(ns["trainable"], ns["lora_params"] + 256 + 256 + 10, "the trainable parameters (factors + biases)")
    c.that(0.05 <= ns["trainable"] / ns["total_params"] <= 0.065, "the trainable share should be about 6%")
    c.equal(ns["unchanged"], ["hidden_1", "hidden_2", "logits"], "the frozen kernels unchanged bit for bit")
    c.fell(ns["lora_history"].history["loss"], 0.3, "the LoRA training loss")
    after = c.figure("after_accuracy", ns["after_accuracy"])
    c.at_least(after, 0.9, "the mirrored test accuracy after LoRA")
    c.that(after > before + 0.3, f"LoRA should raise the mirrored accuracy by far ({before:.3f} -> {after:.3f})")
    # Merged and saved: a plain model with the same predictions.
    c.at_most(c.figure("merge_difference", ns["merge_difference"]), 1e-5, "the merged model's difference")
    c.equal(ns["merged_params"], ns["total_params"], "the merged model's parameters (no factors)")
    # int8: kernels exactly 4x smaller, the whole model nearly so; accuracy within 2 points.
    c.equal(c.figure("kernel_ratio", ns["kernel_ratio"]), 4.0, "the float32 / int8 kernel bytes")
    (f_weights, f_file), (q_weights, q_file) = ns["sizes"]["float32"], ns["sizes"]["int8"]
    c.that(3.8 < f_weights / q_weights < 4.0, f"all weights should be a little under 4x smaller ({f_weights / q_weights:.3g})")
    c.that(3.0 < c.figure("file_ratio", f_file / q_file) < f_weights / q_weights, "the file a little less again")
    float_accuracy, int8_accuracy = ns["float_accuracy"], c.figure("int8_accuracy", ns["int8_accuracy"])
    c.at_most(abs(float_accuracy - after), 0.003, "the merged float model's accuracy's distance from the LoRA model's")
    c.at_least(int8_accuracy, float_accuracy - 0.01, "the int8 accuracy ('a fraction of a point' below float32's)")
    c.at_least(ns["agree"], 0.97, "the share of test digits where int8 and float32 agree")
    c.figure("float_ms", ns["float_ms"])
    c.figure("int8_ms", ns["int8_ms"])
    # Solutions: rank 1 trains about a quarter of rank 4's factors and recovers most; rank 16 a little more.
    (n1, acc1), (n16, acc16) = ns["rank_results"][1], ns["rank_results"][16]
    c.equal(n1, (64 + 256) + (256 + 256) + (256 + 10) + 522, "rank 1's trainable parameters")
    c.equal(n16, 16 * ((64 + 256) + (256 + 256) + (256 + 10)) + 522, "rank 16's trainable parameters")
    c.at_least(c.figure("rank_1_accuracy", acc1), before + 0.6 * (after - before),
               "rank 1's mirrored accuracy ('recovers most of what was lost')")
    c.at_least(c.figure("rank_16_accuracy", acc16), after - 0.02, "rank 16's mirrored accuracy")
    c.that(c.figure("int4_ratio", ns["sizes"]["float32"][0] / ns["int4_bytes"]) > 6, "int4 weights > 6x smaller")
    c.at_least(c.figure("int4_accuracy", ns["int4_accuracy"]), float_accuracy - 0.03,
               "the int4 accuracy ('drops by little, if at all')")


LESSONS = {"01": lesson_01, "02": lesson_02, "03": lesson_03, "04": lesson_04, "05": lesson_05, "06": lesson_06,
           "07": lesson_07, "08": lesson_08, "09": lesson_09,
           "10": lesson_10}


def check(name, namespace):
    """Checks the claims of notebook ``name`` (its file name) on ``namespace`` (its globals); returns the figures.

    Raises AssertionError listing every claim that does not hold.
    """
    claims = Claims(name)
    LESSONS[name[:2]](namespace, claims)
    return claims.done()
