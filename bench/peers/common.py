"""Shared by the numpy peers of bench/: loads the bench data and times cases like bench/harness.ts.

A peer script defines CASES = {"case name": setup} where setup(data) returns a zero-argument
function to time, then calls main(CASES). It is run as
    python3 bench/peers/<script>.py --data DIR --cases a,b --repeats N --warmup W
and prints a JSON array of {"case", "medianMs", "minMs", "repeats"} (warm medians, perf_counter).
"""

import argparse
import json
import os
import statistics
import time

import numpy as np


class Data:
    """The bench data of bench/harness.ts, read from its raw float64 files."""

    def __init__(self, directory):
        self.directory = directory
        with open(os.path.join(directory, "shape.json")) as handle:
            shape = json.load(handle)
        self.miners = shape["miners"]
        self.paths_per_miner = shape["pathsPerMiner"]
        self.points = shape["points"]
        load = lambda name: np.fromfile(os.path.join(directory, name + ".f64"), dtype="<f8")
        # path-major arrays, shape (paths, points)
        self.pooled = load("pooled").reshape(self.miners * self.paths_per_miner, self.points)
        self.miner0 = load("miner0").reshape(self.paths_per_miner, self.points)
        self.realized = load("realized")
        with open(os.path.join(directory, "prediction.json")) as handle:
            self.prediction_json = handle.read()


WARMUP_MS = 200  # as bench/harness.ts: at least `warmup` runs and 200 ms, at most 5,000 runs


def time_warm(function, repeats, warmup):
    warm_start = time.perf_counter()
    run = 0
    while run < 5000 and (run < warmup or (time.perf_counter() - warm_start) * 1000 < WARMUP_MS):
        function()
        run += 1
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return {"medianMs": statistics.median(times), "minMs": min(times), "repeats": repeats}


def main(cases):
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--cases", required=True)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--warmup", type=int, default=3)
    arguments = parser.parse_args()
    data = Data(arguments.data)
    results = []
    for name in arguments.cases.split(","):
        if name not in cases:
            raise SystemExit(f"unknown case {name!r}; this peer has {sorted(cases)}")
        timing = time_warm(cases[name](data), arguments.repeats, arguments.warmup)
        results.append({"case": name, **timing})
    print(json.dumps(results))
