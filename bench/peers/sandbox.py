"""numpy peer of bench/suites/sandbox.ts: a 24h set of log-normal paths rounded to 8 significant
digits (what the sandbox's world simulates per miner and prompt), and one column of 10,000 prices
sorted."""

import numpy as np

from common import main

PATHS, POINTS = 1000, 289
STEP_YEARS = 5 / 525600
VOLATILITY = 0.5


def simulate(_data):
    generator = np.random.default_rng(7)
    deviation = VOLATILITY * np.sqrt(STEP_YEARS)
    mean = -(VOLATILITY**2) / 2 * STEP_YEARS

    def run():
        shocks = generator.standard_normal((PATHS, POINTS - 1))
        log_prices = np.cumsum(mean + deviation * shocks, axis=1)
        prices = np.empty((PATHS, POINTS))
        prices[:, 0] = 80000.0
        prices[:, 1:] = 80000.0 * np.exp(log_prices)
        scale = 10.0 ** (7 - np.floor(np.log10(prices)))
        return np.round(prices * scale) / scale

    return run


def sort_column(data):
    column = np.ascontiguousarray(data.pooled[:, -1])
    return lambda: np.sort(column)


CASES = {"simulate": simulate, "sort_column": sort_column}

if __name__ == "__main__":
    main(CASES)
