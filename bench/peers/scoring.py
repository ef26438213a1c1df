"""numpy peer of bench/suites/scoring.ts: the validator's prompt CRPS for 250 miners, one miner at a
time as the validator's worker does, with properscoring's algorithm written in numpy (properscoring
itself cannot be installed here); for 1h prompts also with the volatility CRPS of crypto-1h.

properscoring's compiled CRPS integrates (F - H)^2 over the gaps between the sorted members, F the
ensemble CDF (i/M on the gap after the i-th member) and H the step at the observation y. Vectorized
over the terms of an interval: sort the members along the paths axis, then each gap
[x(i-1), x(i)] contributes F^2 (clip(y) - x(i-1)) + (F - 1)^2 (x(i) - clip(y)) with clip(y) the
observation clipped to the gap, plus the tails x(1) - y when y is below every member and
y - x(M) when above.
"""

import numpy as np

from common import main

INTERVALS_24H = {"5min": 300, "30min": 1800, "3hour": 10800, "24hour_abs": 86400}
INTERVALS_1H = {
    "1min": 60,
    "2min": 120,
    "5min": 300,
    "15min": 900,
    "30min": 1800,
    "60min_abs": 3600,
    **{f"0_{minutes}min_gaps": minutes * 60 for minutes in range(5, 65, 5)},
}
PROMPT_MINERS = 250
HOUR_POINTS = 61


def crps_properscoring(sorted_members, observations):
    """properscoring's CRPS of each column of ascending members (M, T) against observations (T,)."""
    m = sorted_members.shape[0]
    lower, upper = sorted_members[:-1], sorted_members[1:]
    cdf = (np.arange(1, m) / m)[:, None]
    clipped = np.clip(observations[None, :], lower, upper)
    gaps = cdf**2 * (clipped - lower) + (cdf - 1) ** 2 * (upper - clipped)
    tails = np.maximum(sorted_members[0] - observations, 0) + np.maximum(
        observations - sorted_members[-1], 0
    )
    return gaps.sum(axis=0) + tails


def changes(prices, k, absolute, gap):
    grid = prices[..., ::k]
    if gap:
        grid = grid[..., :2]
    if absolute:
        return grid[..., 1:]
    return np.diff(grid, axis=-1) / grid[..., :-1] * 10000


def prompt_crps(simulations, realized, increment, intervals):
    """The validator's calculate_crps_for_miner for one miner (paths, points)."""
    if np.any(simulations == 0) or not np.all(np.isfinite(simulations)):
        return -1.0
    total = 0.0
    for name, seconds in intervals.items():
        k = int(seconds / increment)
        absolute, gap = name.endswith("_abs"), name.endswith("_gaps")
        observed = changes(realized, k, absolute, gap)
        mask = ~np.isnan(observed)
        if not mask.any():
            continue
        simulated = changes(simulations, k, absolute, gap)[:, mask]
        terms = crps_properscoring(np.sort(simulated, axis=0), observed[mask])
        if absolute:
            terms = terms / realized[-1] * 10000
        total += terms.sum()
    return total if np.isfinite(total) else -1.0


VOLATILITY_BLOCKS_1H = [(3600, 5.25 / 3), (900, 5.25 / 12), (300, 5.25 / 36)]


def block_volatilities(paths, k):
    """The validator's block_volatilities: nanstd (ddof 1) of each block's 1-step bp returns."""
    returns = np.diff(paths, axis=-1) / paths[..., :-1] * 10000
    n = returns.shape[-1] // k
    blocks = returns[..., : n * k].reshape(*returns.shape[:-1], n, k)
    scorable = np.sum(~np.isnan(blocks), axis=-1) >= 2
    out = np.full(scorable.shape, np.nan)
    out[scorable] = np.nanstd(blocks[scorable], axis=-1, ddof=1)
    return out


def volatility_crps(simulations, realized, increment):
    """The validator's calculate_vol_crps_for_miner (synthdataco/synth-subnet #323)."""
    total = 0.0
    for seconds, weight in VOLATILITY_BLOCKS_1H:
        k = int(seconds / increment)
        realized_vol = block_volatilities(realized, k)
        observed = ~np.isnan(realized_vol)
        if not observed.any():
            continue
        simulated = block_volatilities(simulations, k)[:, observed]
        terms = crps_properscoring(np.sort(simulated, axis=0), realized_vol[observed])
        total += weight * terms.sum()
    return total


def prompt_crps_with_volatility(simulations, realized, increment, intervals):
    """calculate_total_score_for_miner: the price CRPS plus the volatility CRPS."""
    price = prompt_crps(simulations, realized, increment, intervals)
    if price == -1:
        return price
    total = price + volatility_crps(simulations, realized, increment)
    return total if np.isfinite(total) else -1.0


def miners_of(data, points):
    per_miner = data.paths_per_miner
    return [
        np.ascontiguousarray(data.pooled[index * per_miner : (index + 1) * per_miner, :points])
        for index in range(data.miners)
    ]


def validator(points, increment, intervals, miner_count, score=prompt_crps):
    def setup(data):
        miners = miners_of(data, points)
        realized = data.realized[:points]

        def run():
            return [
                score(miners[uid % len(miners)], realized, increment, intervals)
                for uid in range(miner_count)
            ]

        return run

    return setup


CASES = {
    "validator_24h_250": validator(289, 300, INTERVALS_24H, PROMPT_MINERS),
    "validator_1h_250": validator(HOUR_POINTS, 60, INTERVALS_1H, PROMPT_MINERS),
    "validator_24h_1": validator(289, 300, INTERVALS_24H, 1),
    "validator_1h_1": validator(HOUR_POINTS, 60, INTERVALS_1H, 1),
    "validator_1h_vol_250": validator(
        HOUR_POINTS, 60, INTERVALS_1H, PROMPT_MINERS, prompt_crps_with_volatility
    ),
    "validator_1h_vol_1": validator(HOUR_POINTS, 60, INTERVALS_1H, 1, prompt_crps_with_volatility),
}

if __name__ == "__main__":
    main(CASES)
