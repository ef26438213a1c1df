"""numpy peer of bench/suites/ingest.ts: a prediction-set body's bytes → float64 array."""

import json
import os

import numpy as np

from common import main

MIXED_BODY_FILE = "ingest-mixed.json"  # written by bench/suites/ingest.ts


def check(values, paths, points):
    if values.shape != (paths, points) or not (np.isfinite(values).all() and (values > 0).all()):
        raise ValueError("bad prediction set")
    return values


def parse(body, data):
    return check(
        np.asarray(json.loads(body)[0]["predictions"], dtype=np.float64),
        data.paths_per_miner,
        data.points,
    )


def bytes_to_array(data):
    body = data.prediction_json.encode("utf-8")
    return lambda: parse(body, data)


def mixed_bytes_to_array(data):
    with open(os.path.join(data.directory, MIXED_BODY_FILE), "rb") as handle:
        body = handle.read()
    return lambda: parse(body, data)


CASES = {
    "bytes_to_array": bytes_to_array,
    "mixed_bytes_to_array": mixed_bytes_to_array,
}

if __name__ == "__main__":
    main(CASES)
