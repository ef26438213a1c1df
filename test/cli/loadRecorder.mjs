// Preloaded (`node --import ./test/cli/loadRecorder.mjs …`) into a command that test/cli/help.test.ts
// starts: appends to the file named by PATHLAB_LOADS_FILE every module the process loads, one
// URL or path a line: each ESM resolution (a hook on the module loader's thread,
// loadRecorderHooks.mjs), and at exit every CommonJS module in require's cache (those that
// CommonJS packages require() do not pass through the ESM hook on Node 20). The command itself
// runs unchanged.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const target = process.env.PATHLAB_LOADS_FILE;
if (target) {
  register(new URL("./loadRecorderHooks.mjs", import.meta.url));
  const cache = createRequire(import.meta.url).cache;
  process.on("exit", () => {
    const paths = Object.keys(cache);
    if (paths.length > 0) appendFileSync(target, `${paths.join("\n")}\n`);
  });
}
