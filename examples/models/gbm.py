#!/usr/bin/env python3
"""A model for `pathlab backtest --model "python3 examples/models/gbm.py"`, standard library only.

pathlab writes one prompt per line on stdin, as JSON:
  {"asset": "BTC", "start_time": "2026-11-21T09:00:00Z", "time_increment": 60,
   "time_length": 3600, "num_simulations": 1000, "history": [[unix_seconds, price], ...]}
`history` holds realized prices strictly before start_time, oldest first, on the prompt's grid.
The model answers each with one line on stdout: {"predictions": [[price, ...], ...]}, one list of
time_length / time_increment + 1 prices per simulation. Anything it prints to stderr shows in
pathlab's output; stdout carries the answers only.

This one is zero-drift geometric Brownian motion from the last price of the history, with the
standard deviation of the history's log returns per step.
"""
import json
import math
import random
import sys


def simulate(prompt):
    prices = [price for _, price in prompt["history"] if price > 0]
    returns = [math.log(b / a) for a, b in zip(prices, prices[1:])]
    mean = sum(returns) / len(returns) if returns else 0.0
    variance = sum((r - mean) ** 2 for r in returns) / max(1, len(returns) - 1)
    sigma = math.sqrt(variance)
    steps = prompt["time_length"] // prompt["time_increment"]
    start = prices[-1]
    # the same prompt gets the same paths
    rng = random.Random(f"{prompt['asset']} {prompt['start_time']}")
    paths = []
    for _ in range(prompt["num_simulations"]):
        price = start
        path = [float(f"{price:.8g}")]
        for _ in range(steps):
            price *= math.exp(-0.5 * sigma * sigma + sigma * rng.gauss(0.0, 1.0))
            path.append(float(f"{price:.8g}"))
        paths.append(path)
    return paths


for line in sys.stdin:
    if line.strip():
        print(json.dumps({"predictions": simulate(json.loads(line))}), flush=True)
