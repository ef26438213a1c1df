"""numpy peer of bench/suites/terminal.ts: terminal probabilities by np.searchsorted on the sorted
terminal prices, option prices as payoff means over a strike grid."""

import numpy as np

from common import main

LEVELS = 62000 + 1200 * np.arange(11.0)
STRIKES = 58000 + 500 * np.arange(41.0)


def probabilities(data):
    paths = data.pooled

    def run():
        terminal = np.sort(paths[:, -1])
        n = len(terminal)
        above = (n - np.searchsorted(terminal, LEVELS, side="right")) / n
        below = np.searchsorted(terminal, LEVELS, side="left") / n
        return above, below

    return run


def options(data):
    paths = data.pooled

    def run():
        terminal = paths[:, -1]
        calls = np.maximum(terminal - STRIKES[:, None], 0).mean(axis=1)
        puts = np.maximum(STRIKES[:, None] - terminal, 0).mean(axis=1)
        return calls, puts

    return run


CASES = {"probabilities": probabilities, "options": options}

if __name__ == "__main__":
    main(CASES)
