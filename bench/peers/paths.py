"""numpy peer of bench/suites/paths.ts: JSON → float64 array, pooling with re-basing, transpose."""

import json

import numpy as np

from common import main


def check(values, paths, points):
    if values.shape != (paths, points) or not (np.isfinite(values).all() and (values > 0).all()):
        raise ValueError("bad prediction set")
    return values


def json_to_array(data):
    return lambda: check(
        np.asarray(json.loads(data.prediction_json)[0]["predictions"], dtype=np.float64),
        data.paths_per_miner,
        data.points,
    )


def lists_to_array(data):
    predictions = json.loads(data.prediction_json)[0]["predictions"]
    return lambda: check(np.asarray(predictions, dtype=np.float64), data.paths_per_miner, data.points)


def ensemble(data):
    miners = np.split(data.pooled, data.miners)
    current_price = 68250.0

    def run():
        pooled = np.concatenate(miners)
        return pooled - pooled[:, :1] + current_price

    return run


def transpose(data):
    return lambda: np.ascontiguousarray(data.pooled.T)


CASES = {
    "json_to_array": json_to_array,
    "lists_to_array": lists_to_array,
    "ensemble": ensemble,
    "transpose": transpose,
}

if __name__ == "__main__":
    main(CASES)
