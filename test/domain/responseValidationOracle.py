"""The validator's response checks, restated in Python from its published rules (synth
`response_validation_v2.py`: legacy at mode-network/synth-subnet 22fe852, v1.10.3 at
synthdataco/synth-subnet 6bbb152), as the oracle of test/domain/responseValidation.test.ts.

Reads JSON on stdin: {"cases": [{"text": <a response as JSON text>, "start": int, "increment": int,
"length": int, "paths": int}, ...]}; each text is parsed with json.loads, so ints, floats and bools
are what the validator would see. Prints [[legacy reason, v1.10.3 reason], ...].
"""

import json
import math
import sys

import numpy as np


def price_reason(point, rule):
    if rule == "legacy":
        if not isinstance(point, (int, float)):
            return f"Price format is incorrect: expected int or float, got {type(point)}"
        if len(str(point).replace(".", "")) > 8:
            return f"Price format is incorrect: too many digits {point}"
        return None
    if isinstance(point, bool) or not isinstance(point, (int, float)):
        return f"Price format is incorrect: expected int or float, got {type(point)}"
    try:
        value = float(point)
    except OverflowError:
        return f"Price format is incorrect: too many digits {point}"
    if not math.isfinite(value):
        return f"Price format is incorrect: non-finite value {point}"
    with np.errstate(over="ignore", under="ignore"):
        single = np.float32(value)
    if math.isinf(single):
        return f"Price format is incorrect: exceeds float32 range {point}"
    if single == 0 and value != 0:
        return f"Price format is incorrect: underflows float32 {point}"
    if float("%.7e" % value) != value:
        return f"Price format is incorrect: too many digits {point}"
    return None


def shape_reason(path, points):
    if not isinstance(path, list):
        return f"Path format is incorrect: expected list, got {type(path)}"
    if len(path) != points:
        return f"Number of time points is incorrect: expected {points}, got {len(path)}"
    return None


def response_reason(response, case, rule):
    if response is None:
        return "Response is empty"
    if not isinstance(response, (tuple, list)):
        return f"Response format is incorrect: expected tuple or list, got {type(response)}"
    if len(response) == 0:
        return "Response is empty"
    if not isinstance(response[0], int):
        return f"Start time format is incorrect: expected int, got {type(response[0])}"
    if len(response) < 2:
        return "error during validation"
    if not isinstance(response[1], int):
        return f"Time increment format is incorrect: expected int, got {type(response[1])}"
    if response[0] != case["start"]:
        return f"Start time timestamp is incorrect: expected {case['start']}, got {response[0]}"
    if response[1] != case["increment"]:
        return f"Time increment is incorrect: expected {case['increment']}, got {response[1]}"
    paths = response[2:]
    if len(paths) != case["paths"]:
        return f"Number of paths is incorrect: expected {case['paths']}, got {len(paths)}"
    points = case["length"] // case["increment"] + 1
    if rule == "legacy":
        for path in paths:
            reason = shape_reason(path, points)
            if reason:
                return reason
            for point in path:
                reason = price_reason(point, rule)
                if reason:
                    return reason
        return "CORRECT"
    for path in paths:
        reason = shape_reason(path, points)
        if reason:
            return reason
    for path in paths:
        for point in path:
            reason = price_reason(point, rule)
            if reason:
                return reason
    return "CORRECT"


cases = json.load(sys.stdin)["cases"]
results = []
for case in cases:
    response = json.loads(case["text"])
    results.append([response_reason(response, case, rule) for rule in ("legacy", "v1.10.3")])
print(json.dumps(results))
