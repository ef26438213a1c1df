"""numpy peer of bench/suites/insights.ts: the full insight set of one asset (seven records and the
daily venue model sides) from the 10 x 1,000 x 289 ensemble, vectorized as a numpy user would write
it (values only, no standard errors). The constants are the suite's."""

import numpy as np

from common import main

START_UNIX = 1772063100  # 2026-02-25 23:45 UTC
CURRENT_PRICE = 68000.0
PREVIOUS_PRICE = 67500.0
PERCENTS = np.array([0.5, 5, 20, 35, 50, 65, 80, 95, 99.5])
SCENARIOS = np.arange(1, 11) / 100
WINDOW_ENDS = [72, 144, 216, 288]  # 6, 12, 18, 24 h of 5-minute steps
WIDTHS = np.arange(1, 17) / 100
STRIKES = 65000.0 + 1000.0 * np.arange(7)  # BTC grid around 68,000
EXPIRY_STEP = 99  # 23:45 -> 08:00
EVENT_END_STEP = 207  # 23:45 -> 17:00
BLOCK = 3  # 15-minute blocks of 5-minute steps
SCALE_BLOCK = np.sqrt(525600 / 15) * 100
SCALE_MINUTE = np.sqrt(525600) * 100


def minute_closes(first_minute, count):
    minutes = first_minute + np.arange(count)
    return CURRENT_PRICE * np.exp(0.002 * np.sin(minutes / 420) + 0.0007 * np.sin(minutes / 37))


def liquidation(paths):
    longs = CURRENT_PRICE * (1 - SCENARIOS)
    shorts = CURRENT_PRICE * (1 + SCENARIOS)
    out = []
    for end in WINDOW_ENDS:
        window = paths[:, : end + 1]
        minimum = window.min(axis=1)
        maximum = window.max(axis=1)
        out.append(((minimum[:, None] <= longs).mean(axis=0), (maximum[:, None] >= shorts).mean(axis=0)))
    return out


def impermanent_loss(lower, upper, price):
    sqrt_start, sqrt_lower, sqrt_upper = np.sqrt(CURRENT_PRICE), np.sqrt(lower), np.sqrt(upper)
    hold = (1 / sqrt_start - 1 / sqrt_upper) * price + sqrt_start - sqrt_lower
    position = np.where(
        price < lower,
        price * (1 / sqrt_lower - 1 / sqrt_upper),
        np.where(price > upper, sqrt_upper - sqrt_lower, 2 * np.sqrt(price) - price / sqrt_upper - sqrt_lower),
    )
    return 1 - position / hold


def lp_bounds(paths):
    out = []
    for width in WIDTHS:
        lower, upper = CURRENT_PRICE * (1 - width / 2), CURRENT_PRICE * (1 + width / 2)
        inside = (paths > lower) & (paths < upper)
        out.append((inside.all(axis=1).mean(), 5.0 * inside[:, 1:].sum(axis=1).mean(),
                    impermanent_loss(lower, upper, paths[:, -1]).mean()))
    return out


def lp_probabilities(paths):
    terminal = paths[:, -1]
    levels = np.linspace(terminal.min(), terminal.max(), 11)
    return (terminal[:, None] > levels).mean(axis=0), (terminal[:, None] < levels).mean(axis=0)


def option_pricing(paths):
    at_expiry = paths[:, EXPIRY_STEP]
    calls = np.maximum(at_expiry[:, None] - STRIKES, 0).mean(axis=0)
    puts = np.maximum(STRIKES - at_expiry[:, None], 0).mean(axis=0)
    return calls, puts


def block_returns(paths):
    return np.log(paths[:, BLOCK::BLOCK] / paths[:, :-1:BLOCK])


def realized():
    last = START_UNIX // 60
    listed = minute_closes(last - 1439, 1440)
    returns = listed[1:] / listed[:-1] - 1
    closes = minute_closes(last - 1440, 1441)
    volatility = np.log(closes[1:] / closes[:-1]).reshape(96, 15).std(axis=1, ddof=1) * SCALE_MINUTE
    return listed, returns, volatility, volatility.mean()


def volatility(paths, previous):
    future = block_returns(paths).std(axis=0, ddof=1) * SCALE_BLOCK
    past = block_returns(previous).std(axis=0, ddof=1) * SCALE_BLOCK
    return realized(), np.round(future, 2), future.mean(), np.round(past, 2), past.mean()


# A start 7 minutes past a quarter hour: the points follow the UTC clock blocks, so point 0 is one
# step and the last two (the suite's case of the same name).
INSIDE_BOUNDS = np.array([0, 1, *range(4, 288, 3), 288])
SCALE_INSIDE = np.sqrt(525600 / (np.diff(INSIDE_BOUNDS) * 5)) * 100


def inside_points(paths):
    edges = paths[:, INSIDE_BOUNDS]
    return np.log(edges[:, 1:] / edges[:, :-1]).std(axis=0, ddof=1) * SCALE_INSIDE


def volatility_inside_block(paths, previous):
    future = inside_points(paths)
    past = np.append(inside_points(previous)[1:], future[1])
    return realized(), np.round(future, 2), future.mean(), np.round(past, 2), past.mean()


def volatility_percentiles(paths, previous):
    future = np.percentile(np.abs(block_returns(paths)) * SCALE_BLOCK, PERCENTS, axis=0)
    past = np.percentile(np.abs(block_returns(previous)) * SCALE_BLOCK, PERCENTS, axis=0)
    return realized()[0], np.round(future, 2), np.round(past, 2)


def prediction_percentiles(paths):
    return np.round(np.percentile(paths, PERCENTS, axis=0), 2)


def venues(paths):
    at_end = paths[:, EVENT_END_STEP]
    up = (at_end >= 67900).mean()
    bounds = 60000.0 + 2000.0 * np.arange(10)
    below = (at_end < 60000).mean()
    ranges = ((at_end[:, None] >= bounds[:-1]) & (at_end[:, None] <= bounds[1:])).mean(axis=0)
    above_last = (at_end > 78000).mean()
    above = (at_end[:, None] > 60000.0 + 2000.0 * np.arange(11)).mean(axis=0)
    window = paths[:, : EVENT_END_STEP + 1]
    minimum, maximum = window.min(axis=1), window.max(axis=1)
    downs = (minimum[:, None] <= np.array([58000.0, 60000, 62000, 64000, 66000])).mean(axis=0)
    ups = (maximum[:, None] >= np.array([70000.0, 72000, 74000, 76000, 78000])).mean(axis=0)
    venue_b = (at_end >= 67900).mean()
    return up, below, ranges, above_last, above, downs, ups, venue_b


def terminal_and_venues(paths):
    return lp_probabilities(paths), option_pricing(paths), venues(paths)


def setup(compute, with_previous=False):
    def make(data):
        paths = data.pooled
        previous = data.pooled - CURRENT_PRICE + PREVIOUS_PRICE
        if with_previous:
            return lambda: compute(paths, previous)
        return lambda: compute(paths)

    return make


def full_set(paths, previous):
    return (
        liquidation(paths),
        lp_bounds(paths),
        lp_probabilities(paths),
        option_pricing(paths),
        volatility(paths, previous),
        volatility_percentiles(paths, previous),
        prediction_percentiles(paths),
        venues(paths),
    )


CASES = {
    "full_set": setup(full_set, with_previous=True),
    "liquidation": setup(liquidation),
    "lp_bounds": setup(lp_bounds),
    "prediction_percentiles": setup(prediction_percentiles),
    "volatility": setup(volatility, with_previous=True),
    "volatility_inside_block": setup(volatility_inside_block, with_previous=True),
    "volatility_percentiles": setup(volatility_percentiles, with_previous=True),
    "terminal_and_venues": setup(terminal_and_venues),
}

if __name__ == "__main__":
    main(CASES)
