// Entry of one bench suite's process (bench/run.ts starts one per suite with plain `node`).
// Loads the TypeScript sources so that the kernels run with V8's ArrayBufferDetaching protector
// intact, as they do in the compiled package (bench/NOTES.md, "the tsx penalty").
import { loadTypeScript } from "./loadTypeScript.js";

await loadTypeScript(new URL("./run.ts", import.meta.url).href);
