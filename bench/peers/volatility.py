"""numpy peer of bench/suites/volatility.ts: per-step std (ddof 1) of log returns across paths,
and realized volatility per block of 15 finite log returns."""

import numpy as np

from common import main


def forecast(data):
    paths = data.pooled
    return lambda: np.std(np.diff(np.log(paths), axis=1), axis=0, ddof=1) * np.sqrt(525600 / 5) * 100


def realized(data):
    prices = data.realized

    def run():
        returns = np.log(prices[1:] / prices[:-1])
        out = []
        for start in range(0, len(returns), 15):
            block = returns[start : start + 15]
            block = block[np.isfinite(block)]
            out.append(np.std(block, ddof=1) * np.sqrt(525600) * 100 if len(block) >= 2 else np.nan)
        return out

    return run


CASES = {"forecast": forecast, "realized": realized}

if __name__ == "__main__":
    main(CASES)
