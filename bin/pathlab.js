#!/usr/bin/env node
// The `pathlab` command. pathlab ships its TypeScript sources; tsx compiles them on load, in a way
// that keeps V8's ArrayBufferDetaching protector intact (see loadTypeScript.js).
import { loadTypeScript } from "./loadTypeScript.js";

await loadTypeScript(new URL("../src/cli/main.ts", import.meta.url).href);
