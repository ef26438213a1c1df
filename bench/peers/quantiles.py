"""numpy peer of bench/suites/quantiles.ts: np.percentile(paths, q, axis=0) of path-major arrays."""

import numpy as np

from common import main

PERCENTS = np.array([0.5, 5, 20, 35, 50, 65, 80, 95, 99.5])


def percentile(attribute):
    def setup(data):
        paths = getattr(data, attribute)
        return lambda: np.percentile(paths, PERCENTS, axis=0)

    return setup


CASES = {"percentile_10k": percentile("pooled"), "percentile_1k": percentile("miner0")}

if __name__ == "__main__":
    main(CASES)
