/**
 * Child process of the lock tests: opens the store at argv[2] (read-only when argv[3] is "read"),
 * prints "ready" and holds it until killed.
 */
import { openStore } from "../../../src/store/openStore.ts";

const [path, mode] = process.argv.slice(2);
await openStore(path, { readOnly: mode === "read" });
console.log("ready");
setInterval(() => undefined, 60_000);
