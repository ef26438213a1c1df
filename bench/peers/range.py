"""numpy peer of bench/suites/range.ts: per interval, a boolean inside-mask over all points
(stay = all inside, time = inside count after point 0), impermanent loss at the terminal price."""

import numpy as np

from common import main

START_PRICE = 68000.0
LOWERS = START_PRICE * (1 - np.arange(1, 17) / 200)
UPPERS = START_PRICE * (1 + np.arange(1, 17) / 200)


def impermanent_loss(lower, upper, price):
    sqrt_start, sqrt_lower, sqrt_upper = np.sqrt(START_PRICE), np.sqrt(lower), np.sqrt(upper)
    hold = (1 / sqrt_start - 1 / sqrt_upper) * price + sqrt_start - sqrt_lower
    position = np.where(
        price < lower,
        price * (1 / sqrt_lower - 1 / sqrt_upper),
        np.where(price > upper, sqrt_upper - sqrt_lower, 2 * np.sqrt(price) - price / sqrt_upper - sqrt_lower),
    )
    return 1 - position / hold


def range_16(data):
    paths = data.pooled

    def run():
        results = []
        for lower, upper in zip(LOWERS, UPPERS):
            inside = (paths > lower) & (paths < upper)
            stay = inside.all(axis=1).mean()
            minutes = 5.0 * inside[:, 1:].sum(axis=1).mean()
            loss = impermanent_loss(lower, upper, paths[:, -1]).mean()
            results.append((stay, minutes, loss))
        return results

    return run


CASES = {"range_16": range_16}

if __name__ == "__main__":
    main(CASES)
