/** The TypeScript files of src/, for the tests of the house rules. */

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The absolute path of src/. */
export const srcRoot = fileURLToPath(new URL("../../src", import.meta.url));

/** Every `.ts` file under `folder` (src/ by default), as absolute paths. */
export function sourceFiles(folder: string = srcRoot): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(folder, entry.name)]
        : [],
  );
}
