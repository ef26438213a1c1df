"""numpy peer of bench/suites/touch.ts: running extremes with np.maximum/minimum.accumulate,
the Brownian-bridge correction vectorized over paths and steps, the pooled log-return variance."""

import numpy as np

from common import main

START_PRICE = 68000.0
ENDS = np.array([72, 144, 216, 288])
LONG_LEVELS = START_PRICE * (1 - np.arange(1, 11) / 100)
ALL_LEVELS = np.concatenate([LONG_LEVELS, START_PRICE * (1 + np.arange(1, 11) / 100)])


def touch(levels):
    def setup(data):
        paths = data.pooled

        def run():
            maxima = np.maximum.accumulate(paths, axis=1)[:, ENDS]  # (paths, windows)
            minima = np.minimum.accumulate(paths, axis=1)[:, ENDS]
            up = (maxima[:, :, None] >= levels).mean(axis=0)  # (windows, levels)
            down = (minima[:, :, None] <= levels).mean(axis=0)
            return up, down

        return run

    return setup


def bridge(levels):
    def setup(data):
        paths = data.pooled
        logs = np.log(paths)
        variance = np.var(np.diff(logs, axis=1), ddof=1)

        def run():
            maxima = np.maximum.accumulate(paths, axis=1)
            minima = np.minimum.accumulate(paths, axis=1)
            a, b = logs[:, :-1], logs[:, 1:]
            up = np.empty((len(ENDS), len(levels)))
            down = np.empty((len(ENDS), len(levels)))
            for index, level in enumerate(levels):
                ell = np.log(level)
                survive_up = 1 - np.exp(-2 * np.maximum(ell - a, 0) * np.maximum(ell - b, 0) / variance)
                survive_down = 1 - np.exp(-2 * np.maximum(a - ell, 0) * np.maximum(b - ell, 0) / variance)
                survival_up = np.cumprod(survive_up, axis=1)[:, ENDS - 1]
                survival_down = np.cumprod(survive_down, axis=1)[:, ENDS - 1]
                up[:, index] = np.where(maxima[:, ENDS] >= level, 1, 1 - survival_up).mean(axis=0)
                down[:, index] = np.where(minima[:, ENDS] <= level, 1, 1 - survival_down).mean(axis=0)
            return up, down

        return run

    return setup


def pooled_variance(data):
    return lambda: np.var(np.diff(np.log(data.pooled), axis=1), ddof=1)


CASES = {
    "touch_10": touch(LONG_LEVELS),
    "touch_20": touch(ALL_LEVELS),
    "bridge_10": bridge(LONG_LEVELS),
    "pooled_variance": pooled_variance,
}

if __name__ == "__main__":
    main(CASES)
