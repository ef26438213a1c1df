/**
 * A candidate folder as users leave them: special entries are reported by name and never opened
 * (a named pipe would hang a read), and the path sets are read again only when scored.
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCandidatePathSet, readCandidateFolder } from "../../../src/jobs/score/candidate.ts";
import { temporaryFolder } from "../../store/helpers.ts";

let folder: string;
let remove: () => void;
const start = Date.parse("2026-11-21T09:20:00Z") / 1000;

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
  const paths = Array.from({ length: 1000 }, () =>
    Array.from({ length: 61 }, (_, step) => 98941.9 + step),
  );
  writeFileSync(join(folder, "BTC-good.json"), JSON.stringify([start, 60, ...paths]));
  mkdirSync(join(folder, "a-folder.json"));
  symlinkSync(join(folder, "nowhere.json"), join(folder, "dangling.json"));
  symlinkSync(join(folder, "loop-b.json"), join(folder, "loop-a.json"));
  symlinkSync(join(folder, "loop-a.json"), join(folder, "loop-b.json"));
  execFileSync("mkfifo", [join(folder, "pipe.json")]);
});

afterAll(() => remove?.());

describe("readCandidateFolder", () => {
  it("names every entry it cannot use, opens no special file, and keeps no path set in memory", async () => {
    const files = await readCandidateFolder(folder);
    const reasons = Object.fromEntries(files.map((file) => [file.file, file.reason]));
    expect(reasons).toEqual({
      "BTC-good.json": undefined,
      "a-folder.json": "not a regular file (a folder): skipped",
      "dangling.json": "cannot read the file: ENOENT, a dangling symlink?",
      "loop-a.json": "cannot read the file: ELOOP, a symlink loop",
      "loop-b.json": "cannot read the file: ELOOP, a symlink loop",
      "pipe.json": "not a regular file (a named pipe): skipped",
    });
    const good = files.find((file) => file.file === "BTC-good.json")!;
    expect(good).toMatchObject({
      valid: true,
      asset: "BTC",
      startTimeUnix: start,
      timeLength: 3600,
    });
    expect(good.pathSet).toBeUndefined();
    const pathSet = await loadCandidatePathSet(good);
    expect(pathSet?.nPaths).toBe(1000);
    expect(pathSet?.values[60]).toBe(98941.9 + 60);
    expect(await loadCandidatePathSet(files.find((file) => file.file === "pipe.json")!)).toBe(
      undefined,
    );
  });
});
