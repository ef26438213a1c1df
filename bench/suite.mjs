// Entry of one bench suite's process (bench/run.ts starts one per suite with plain `node`).
// Loads the TypeScript like the `pathlab` command does, so that the kernels run with V8's
// ArrayBufferDetaching protector intact, as they do for users (bench/README.md, "the tsx penalty").
import { loadTypeScript } from "../bin/loadTypeScript.js";

await loadTypeScript(new URL("./run.ts", import.meta.url).href);
