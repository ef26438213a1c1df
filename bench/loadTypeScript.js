// Loads a TypeScript entry module of the bench with tsx, keeping the numeric core at full speed, as
// it runs in the compiled package (which needs no loader at all).
//
// The CommonJS packages are loaded by plain Node before tsx registers its loader: a `require()`
// made through tsx's off-thread loader detaches an ArrayBuffer in this isolate, which invalidates
// V8's ArrayBufferDetaching protector and makes every typed-array loop of the numeric core up to
// 2× slower for the rest of the process (bench/NOTES.md, "the tsx penalty"). Loaded first, they
// are cached and never pass through the loader. tsx is registered through its API, not with
// `--import tsx` or the `tsx` command: their loader detaches a buffer as it starts, even for an
// empty module. Check with `node --trace-protector-invalidation`.

/** Preloads the CommonJS packages, registers tsx, then imports `entry` (a URL or path). */
export async function loadTypeScript(entry) {
  await Promise.all([
    import("apache-arrow"),
    import("undici"),
    import("commander"),
    import("cli-table3"),
    import("cli-progress"),
    import("@duckdb/node-api"),
    import("simple-statistics"),
    import("piscina"),
  ]);
  const { register } = await import("tsx/esm/api");
  register();
  return import(entry);
}
