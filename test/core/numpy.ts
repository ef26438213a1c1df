/**
 * Runs numpy from the core tests on raw float64 data: inputs are written to a temp folder as
 * little-endian float64 files, the script reads them with `np.fromfile`, and writes its `result`
 * back the same way, so no number passes through text.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export { numpyAvailable } from "../reference/python.ts";

/**
 * Runs `script` with each input bound to a float64 numpy array of its name (and `np` imported);
 * the script must assign `result` (anything `np.asarray(..., dtype='<f8')` accepts), which is
 * returned as a Float64Array.
 */
export function runNumpy(script: string, inputs: Record<string, Float64Array>): Float64Array {
  const folder = mkdtempSync(join(tmpdir(), "pathlab-numpy-"));
  try {
    const loads = Object.entries(inputs).map(([name, values]) => {
      const file = join(folder, `${name}.f64`);
      writeFileSync(file, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
      return `${name} = np.fromfile(${JSON.stringify(file)}, dtype="<f8")`;
    });
    const output = join(folder, "result.f64");
    const program = [
      "import numpy as np",
      ...loads,
      script,
      `np.ascontiguousarray(np.asarray(result, dtype="<f8")).ravel().tofile(${JSON.stringify(output)})`,
    ].join("\n");
    execFileSync("python3", ["-c", program], { stdio: ["ignore", "ignore", "pipe"] });
    const bytes = readFileSync(output);
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    return new Float64Array(copy.buffer);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
