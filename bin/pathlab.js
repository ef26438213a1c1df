#!/usr/bin/env node
// The `pathlab` command. pathlab ships its TypeScript sources; tsx compiles them on load.
//
// The CommonJS packages are loaded by plain Node before tsx registers its loader: a `require()`
// made through tsx's off-thread loader detaches an ArrayBuffer in this isolate, which invalidates
// V8's ArrayBufferDetaching protector and makes every typed-array loop of the numeric core up to
// 2× slower for the rest of the process (bench/README.md, "the tsx penalty"). Loaded first, they
// are cached and never pass through the loader. Check with `node --trace-protector-invalidation`.
await Promise.all([
  import("apache-arrow"),
  import("undici"),
  import("commander"),
  import("cli-table3"),
  import("cli-progress"),
  import("@duckdb/node-api"),
  import("simple-statistics"),
]);
const { register } = await import("tsx/esm/api");
register();
await import("../src/cli/main.ts");
