"""Reads exported Parquet folders with pandas over pyarrow, as a notebook would, and prints each
folder's row count and columns (the partition columns restored from the hive folder names).

Usage: python3 read_parquet_pandas.py TABLE=FOLDER...   prints one JSON object keyed by TABLE.
"""

import json
import sys

import pandas

result = {}
for argument in sys.argv[1:]:
    table, folder = argument.split("=", 1)
    frame = pandas.read_parquet(folder, engine="pyarrow")
    result[table] = {"rows": len(frame), "columns": [str(column) for column in frame.columns]}
print(json.dumps(result))
