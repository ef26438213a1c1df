"""numpy peer of bench/suites/crps.ts: vectorized ensemble CRPS (sort along paths, closed form)."""

import numpy as np

from common import main

INTERVALS_24H = [(1, False), (6, False), (36, False), (288, True)]


def crps_sorted_columns(sorted_members, observations):
    """CRPS of each column of ascending members (M, T) against observations (T,)."""
    m = sorted_members.shape[0]
    weights = (2 * np.arange(m) + 1 - m)[:, None]
    difference = sorted_members - observations[None, :]
    return np.abs(difference).mean(axis=0) - (weights * difference).sum(axis=0) / (m * m)


def validator_24h(data):
    paths, realized = data.miner0, data.realized

    def run():
        total = 0.0
        for steps, absolute in INTERVALS_24H:
            grid, real_grid = paths[:, ::steps], realized[::steps]
            if absolute:
                simulated, observed = grid[:, 1:], real_grid[1:]
            else:
                simulated = np.diff(grid, axis=1) / grid[:, :-1] * 10000
                observed = np.diff(real_grid) / real_grid[:-1] * 10000
            crps = crps_sorted_columns(np.sort(simulated, axis=0), observed)
            if absolute:
                crps = crps / realized[-1] * 10000
            total += np.nansum(crps)
        return total

    return run


def prepared(data):
    members = data.miner0[:, -1].copy()
    observations = data.realized

    def run():
        sorted_members = np.sort(members)
        m = sorted_members.size
        prefix = np.concatenate(([0.0], np.cumsum(sorted_members)))
        pair_term = np.dot(2 * np.arange(m) + 1 - m, sorted_members)
        below = np.searchsorted(sorted_members, observations, side="left")
        absolute = below * observations - prefix[below] + (prefix[-1] - prefix[below]) - (m - below) * observations
        return absolute / m - pair_term / (m * m)

    return run


CASES = {"validator_24h": validator_24h, "prepared": prepared}

if __name__ == "__main__":
    main(CASES)
