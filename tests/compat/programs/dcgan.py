"""A small DCGAN-style GAN: a convolutional discriminator and a transposed-convolution generator, trained in a
custom train_step with one optimizer each, passed to an overridden compile().

Real images are 8x8 with a bright centre square; the generator must learn to make the discriminator say "real".
"""

import numpy as np

import highlevel as keras
from highlevel import layers, ops


class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.seed_generator = keras.random.SeedGenerator(1337)
        self.d_loss_metric = keras.metrics.Mean(name="d_loss")
        self.g_loss_metric = keras.metrics.Mean(name="g_loss")

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn
        # Built here, before the first step is compiled, so that their slots are part of the step's state.
        self.d_optimizer.build(self.discriminator.trainable_variables)
        self.g_optimizer.build(self.generator.trainable_variables)

    @property
    def metrics(self):
        return [self.d_loss_metric, self.g_loss_metric]

    def call(self, images):
        # fit() builds the model by calling it on a batch of real images: the GAN's own output is the
        # discriminator's verdict on them.
        return self.discriminator(images)

    def train_step(self, real_images):
        grad = keras.config.current_backend().variables_value_and_grad
        batch_size = ops.shape(real_images)[0]

        # The discriminator: real images are labelled 0, generated ones 1 (with a little label noise).
        z = keras.random.normal((batch_size, self.latent_dim), seed=self.seed_generator)
        fakes = self.generator(z)
        combined = ops.concatenate([fakes, real_images], axis=0)
        labels = ops.concatenate([ops.ones((batch_size, 1)), ops.zeros((batch_size, 1))], axis=0)
        labels = 0.95 * labels + 0.05 * keras.random.uniform(ops.shape(labels), seed=self.seed_generator)

        def d_loss_fn():
            return self.loss_fn(labels, self.discriminator(combined, training=True)), None

        (d_loss, _), d_grads = grad(d_loss_fn, self.discriminator.trainable_weights)
        self.d_optimizer.apply(d_grads, self.discriminator.trainable_weights)

        # The generator: it wants its images labelled "real" (0); only its weights move.
        z = keras.random.normal((batch_size, self.latent_dim), seed=self.seed_generator)
        misleading = ops.zeros((batch_size, 1))

        def g_loss_fn():
            return self.loss_fn(misleading, self.discriminator(self.generator(z, training=True))), None

        (g_loss, _), g_grads = grad(g_loss_fn, self.generator.trainable_weights)
        self.g_optimizer.apply(g_grads, self.generator.trainable_weights)

        self.d_loss_metric.update_state(d_loss)
        self.g_loss_metric.update_state(g_loss)
        return {"d_loss": self.d_loss_metric.result(), "g_loss": self.g_loss_metric.result()}


def main():
    keras.utils.set_random_seed(19)
    rng = np.random.default_rng(19)
    real = (0.1 * rng.random((256, 8, 8, 1))).astype("float32")
    real[:, 2:6, 2:6, :] += 0.8
    latent_dim = 8

    discriminator = keras.Sequential(
        [
            keras.Input(shape=(8, 8, 1)),
            layers.Conv2D(8, kernel_size=3, strides=2, padding="same"),
            layers.LeakyReLU(negative_slope=0.2),
            layers.Flatten(),
            layers.Dense(1, activation="sigmoid"),
        ],
        name="discriminator",
    )
    generator = keras.Sequential(
        [
            keras.Input(shape=(latent_dim,)),
            layers.Dense(4 * 4 * 8),
            layers.LeakyReLU(negative_slope=0.2),
            layers.Reshape((4, 4, 8)),
            layers.Conv2DTranspose(8, kernel_size=3, strides=2, padding="same"),
            layers.LeakyReLU(negative_slope=0.2),
            layers.Conv2D(1, kernel_size=3, padding="same", activation="sigmoid"),
        ],
        name="generator",
    )

    gan = GAN(discriminator=discriminator, generator=generator, latent_dim=latent_dim)
    gan.compile(
        d_optimizer=keras.optimizers.Adam(learning_rate=0.01),
        g_optimizer=keras.optimizers.Adam(learning_rate=0.01),
        loss_fn=keras.losses.BinaryCrossentropy(),
    )

    def centre_contrast(images):
        images = np.asarray(images)[..., 0]
        return float(images[:, 2:6, 2:6].mean() - np.concatenate([images[:, :2], images[:, 6:]], 1).mean())

    z = np.random.default_rng(0).normal(size=(64, latent_dim)).astype("float32")
    before = centre_contrast(generator.predict(z, verbose=0))
    history = gan.fit(real, epochs=10, batch_size=32, verbose=0)
    after = centre_contrast(generator.predict(z, verbose=0))

    assert set(history.history) == {"d_loss", "g_loss"}
    assert all(np.isfinite(history.history["d_loss"] + history.history["g_loss"]))
    # The generated images moved toward the real ones: a bright centre on a dark border.
    assert after > 0.3 and after > before + 0.25, (before, after)
    return {"d_loss": history.history["d_loss"][-1], "g_loss": history.history["g_loss"][-1], "centre_contrast": after}
