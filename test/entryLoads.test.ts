/**
 * A library user who imports `pathlab/core`, `pathlab/paths` or `pathlab/domain` gets no native
 * module and none of DuckDB, BullMQ (with ioredis and msgpackr) or the chart libraries: checked on
 * the compiled entries (`dist/`) in a fresh `node`, with the preload of test/cli/loadRecorder.mjs
 * that records every module the process loads, ESM and CommonJS.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { modulesLoaded } from "./modulesLoaded.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "pathlab-entry-loads-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Packages and files that a light entry must not load. */
const HEAVY = /node_modules\/(@duckdb|bullmq|ioredis|msgpackr|vega|@resvg)|\.node$/;

/** Every module a fresh `node` loads to import the compiled `entry` (`core/index.js`, …). */
async function modulesOf(entry: string): Promise<string[]> {
  const url = pathToFileURL(join(repoRoot, "dist", entry)).href;
  const { code, stderr, loaded } = await modulesLoaded(
    ["--input-type=module", "-e", `await import(${JSON.stringify(url)});`],
    join(folder, `${entry.replaceAll("/", "-")}.txt`),
  );
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  return loaded;
}

describe("what importing an entry loads", () => {
  it.each(["core/index.js", "paths/index.js", "domain/index.js"])(
    "%s loads no native module, no DuckDB, no queue and no charts",
    async (entry) => {
      const loaded = await modulesOf(entry);
      expect(loaded.some((module) => module.includes(`/dist/${entry}`))).toBe(true);
      expect(loaded.filter((module) => HEAVY.test(module))).toEqual([]);
    },
  );

  it("sees them where they are loaded: the root entry loads DuckDB and BullMQ (the check can fail)", async () => {
    const loaded = await modulesOf("index.js");
    expect(loaded.some((module) => module.includes("node_modules/@duckdb"))).toBe(true);
    expect(loaded.some((module) => module.includes("node_modules/bullmq"))).toBe(true);
  });
});
