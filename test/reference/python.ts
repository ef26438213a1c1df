/**
 * Runs python3 (with numpy) from the tests, so expected values come from an independent
 * implementation. Data goes in as JSON on stdin (NaN as null; `np.array(x, dtype=float)` turns null
 * back into nan) and comes back as JSON on stdout (non-finite numbers must be mapped to null).
 */

import { execFileSync } from "node:child_process";

function probeNumpy(): boolean {
  try {
    execFileSync("python3", ["-c", "import numpy"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Whether python3 with numpy can run; tests that need it use `it.skipIf(!numpyAvailable)`. */
export const numpyAvailable = probeNumpy();

if (!numpyAvailable) {
  console.warn(
    "\n*** python3 with numpy is NOT available: every numpy cross-check (test/reference, test/core) is SKIPPED ***\n",
  );
}

/**
 * Runs `script` with `data` readable as `data = json.load(sys.stdin)`; the script must print one
 * JSON value, which is returned.
 */
export function runPython(script: string, data: unknown = null): unknown {
  const program = `import sys, json\nimport numpy as np\ndata = json.load(sys.stdin)\n${script}`;
  const stdout = execFileSync("python3", ["-c", program], {
    input: JSON.stringify(data),
    encoding: "utf8",
  });
  return JSON.parse(stdout);
}

/** NaN/±Infinity → null, the JSON stand-in that numpy reads back as nan. */
export function toJsonNumbers(values: readonly number[]): (number | null)[] {
  return values.map((value) => (Number.isFinite(value) ? value : null));
}
