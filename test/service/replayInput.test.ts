/**
 * A recording is input like any other: `--replay` reads only the regular files of its folder, and
 * checks every exchange before it serves one. A real recording is made once; each case spoils a
 * copy of it and replays it with the command (a real child process, with a time limit so that a
 * hang fails the test instead of stalling it).
 */
import { execFile, execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSync } from "../../src/jobs/sync/sync.ts";
import { startEmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { RECORDING_FILE } from "../../src/service/record.ts";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { SMALL_WORLD } from "../smallWorld.ts";
import { temporaryFolder } from "../store/helpers.ts";

const KEY = "sk-test-replay-input-4c1e";
const NOW = "2026-02-25T23:47:00Z";
const main = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

let folder: string;
let remove: () => void;
const recording = () => join(folder, "recording");

beforeAll(async () => {
  ({ folder, remove } = temporaryFolder());
  const sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now: NOW, apiKey: KEY });
  try {
    const summary = await runSync({
      assets: ["BTC"],
      horizons: ["1h"],
      database: join(folder, "recorded.duckdb"),
      baseUrl: sandbox.url,
      apiKey: KEY,
      record: recording(),
    });
    expect(summary.failures).toEqual([]);
  } finally {
    await sandbox.close();
  }
}, 120_000);
afterAll(() => remove?.());

/** A copy of the recording, spoilt by `spoil` (given the copy's folder and an exchange file). */
function spoiltCopy(
  name: string,
  spoil: (directory: string, exchangeFile: string) => void,
): string {
  const directory = join(folder, name);
  cpSync(recording(), directory, { recursive: true });
  const exchangeFile = readdirSync(directory)
    .filter((file) => file !== RECORDING_FILE && file.endsWith(".json"))
    .sort()[0];
  spoil(directory, exchangeFile);
  return directory;
}

/** `pathlab sync --replay <directory>`, killed after 60 s. */
function replay(directory: string, database: string) {
  return new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [
        main,
        "sync",
        "--assets",
        "BTC",
        "--horizons",
        "1h",
        "--replay",
        directory,
        "--db",
        database,
      ],
      { timeout: 60_000, killSignal: "SIGKILL" },
      (error, _stdout, stderr) => {
        const failure = error as (Error & { code?: number; signal?: string }) | null;
        resolve({
          code: failure === null ? 0 : (failure.code ?? null),
          signal: failure?.signal ?? null,
          stderr,
        });
      },
    );
  });
}

/** Replays `directory` and expects a usage error (exit 2) of one line that names `file`, with no run left running. */
async function expectRefused(directory: string, file: string, detail: string) {
  const database = join(folder, `${directory.split("/").at(-1)}.duckdb`);
  const result = await replay(directory, database);
  expect(result.signal).toBeNull();
  expect(result.code, result.stderr).toBe(2);
  const line = result.stderr.trim().split("\n")[0];
  expect(line).toContain(`sync: --replay: ${JSON.stringify(join(directory, file))}`);
  expect(line).toContain(detail);
  if (existsSync(database)) {
    const store = await openStore(database, { readOnly: true });
    try {
      const { rows } = await queryRows(store, "select status from runs where status = 'running'");
      expect(rows).toEqual([]);
    } finally {
      await store.close();
    }
  }
}

describe("--replay of a spoilt recording", () => {
  it("a FIFO in place of an exchange file is refused at once, not read", async () => {
    let fifo = "";
    const directory = spoiltCopy("fifo", (copy, file) => {
      fifo = file;
      rmSync(join(copy, file));
      execFileSync("mkfifo", [join(copy, file)]);
    });
    await expectRefused(directory, fifo, "is not a regular file (a link, FIFO or device)");
  }, 90_000);

  it("a link to a file outside the recording is refused, and the file is not served", async () => {
    const outside = join(folder, "outside.json");
    let linked = "";
    const directory = spoiltCopy("link", (copy, file) => {
      linked = file;
      writeFileSync(outside, readFileSync(join(copy, file)));
      rmSync(join(copy, file));
      symlinkSync(outside, join(copy, file));
    });
    await expectRefused(directory, linked, "is not a regular file (a link, FIFO or device)");
    const linkedInfo = spoiltCopy("linked-info", (copy) => {
      const info = join(folder, "outside-recording.json");
      writeFileSync(info, readFileSync(join(copy, RECORDING_FILE)));
      rmSync(join(copy, RECORDING_FILE));
      symlinkSync(info, join(copy, RECORDING_FILE));
    });
    await expectRefused(linkedInfo, RECORDING_FILE, "is not a regular file");
  }, 90_000);

  it("a body file that is a link or a FIFO, or not of its recorded length, is refused by name", async () => {
    const bodyOf = (file: string) => file.replace(/\.json$/, ".body");
    let linked = "";
    const link = spoiltCopy("body-link", (copy, file) => {
      linked = bodyOf(file);
      const outside = join(folder, "outside.body");
      writeFileSync(outside, readFileSync(join(copy, linked)));
      rmSync(join(copy, linked));
      symlinkSync(outside, join(copy, linked));
    });
    await expectRefused(link, linked, "is not a regular file (a link, FIFO or device)");
    let fifo = "";
    const piped = spoiltCopy("body-fifo", (copy, file) => {
      fifo = bodyOf(file);
      rmSync(join(copy, fifo));
      execFileSync("mkfifo", [join(copy, fifo)]);
    });
    await expectRefused(piped, fifo, "is not a regular file (a link, FIFO or device)");
    let cut = "";
    const truncated = spoiltCopy("body-cut", (copy, file) => {
      cut = bodyOf(file);
      const bytes = readFileSync(join(copy, cut));
      writeFileSync(join(copy, cut), bytes.subarray(0, bytes.length - 7));
    });
    await expectRefused(truncated, cut, "bytes (bodyBytes of");
  }, 120_000);

  it("a status outside 100–599 is named, not sent", async () => {
    let spoilt = "";
    const directory = spoiltCopy("status", (copy, file) => {
      spoilt = file;
      const exchange = JSON.parse(readFileSync(join(copy, file), "utf8"));
      writeFileSync(join(copy, file), JSON.stringify({ ...exchange, status: 1000 }));
    });
    await expectRefused(
      directory,
      spoilt,
      "status: expected an HTTP status from 100 to 599, got 1000",
    );
  }, 90_000);

  it("a header value with a line break, an illegal header name, or a framing header is named, not sent", async () => {
    for (const [name, headers] of [
      ["header-value", { "content-type": "application/json\r\nx-injected: 1" }],
      ["header-name", { "content type": "application/json" }],
      ["header-framing", { "Content-Length": "5" }],
      ["header-chunked", { "transfer-encoding": "chunked" }],
    ] as const) {
      let spoilt = "";
      const directory = spoiltCopy(name, (copy, file) => {
        spoilt = file;
        const exchange = JSON.parse(readFileSync(join(copy, file), "utf8"));
        writeFileSync(join(copy, file), JSON.stringify({ ...exchange, headers }));
      });
      await expectRefused(
        directory,
        spoilt,
        "headers: expected an object of legal header names and values (no line breaks, no framing header such as content-length)",
      );
    }
  }, 120_000);
});
