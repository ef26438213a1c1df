/**
 * Where the API key may come from, and that no form of it is ever printed or stored: a key with
 * trailing whitespace (as pasted, or read with a `\r`) against the embedded sandbox, a key file
 * and a key typed on the command line (with its warning) against a service (a small-world sandbox
 * in the test's process, which accepts the key without the whitespace only), and the keys `serve`
 * accepts and shows.
 */

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";
import { smallSandbox } from "./smallSandbox.ts";

const NOW = "2026-11-21T10:49:00Z";
const KEY = "sk-test-apikey-9f3b2c71d0e4";
let folder: string;
let remove: () => void;
beforeAll(() => ({ folder, remove } = temporaryFolder()));
afterAll(() => remove?.());

const service = smallSandbox(NOW, KEY);

const scoreArgs = (database: string) => [
  ...["score", "--from", "2026-11-21T09:20:00Z", "--to", "2026-11-21T09:21:00Z"],
  ...["--competition", "crypto-1h", "--assets", "BTC", "--db", database, "--json"],
];

async function storedText(database: string): Promise<string> {
  const store = await openStore(database, { readOnly: true });
  try {
    return JSON.stringify((await queryRows(store, "select args, failures from runs")).rows);
  } finally {
    await store.close();
  }
}

describe("the API key", () => {
  // The embedded sandbox the command starts with the key is this test's point.
  it("with trailing whitespace, from the environment: used trimmed, never printed or stored", async () => {
    const database = join(folder, "env.duckdb");
    const run = await runPathlab([...scoreArgs(database), "--now", NOW], {
      env: { PATHLAB_API_KEY: `${KEY} \r` },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(await storedText(database)).not.toContain(KEY);
    expect(run.stderr).not.toContain("warning");
  }, 60_000);

  it("from --api-key-file; --api-key on the command line warns that ps shows it", async () => {
    const file = join(folder, "key.txt");
    writeFileSync(file, `${KEY}\r\n`);
    // the service's address from the environment, the key only from the option under test
    const env = { PATHLAB_BASE_URL: service.sandbox.url };
    const fromFile = await runPathlab(
      [...scoreArgs(join(folder, "file.duckdb")), "--api-key-file", file],
      { env },
    );
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout + fromFile.stderr).not.toContain(KEY);
    const typed = await runPathlab([...scoreArgs(join(folder, "typed.duckdb")), "--api-key", KEY], {
      env,
    });
    expect(typed.code, typed.stderr).toBe(0);
    expect(typed.stderr).toContain(
      "pathlab: warning: --api-key on the command line is visible to other users of this machine (ps)",
    );
    expect(typed.stdout + typed.stderr).not.toContain(KEY);
    const missing = await runPathlab(
      [...scoreArgs(join(folder, "missing.duckdb")), "--api-key-file", join(folder, "no-such-key")],
      { env },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--api-key-file: cannot read ".*no-such-key" \(ENOENT\)/);
  }, 60_000);
});

describe("serve's keys", () => {
  it("a key with trailing whitespace is accepted and shown trimmed, as clients send it", async () => {
    const child = spawn(
      process.execPath,
      ["dist/cli/main.js", "serve", "--port", "0", "--api-key", `${KEY} \r`],
      { cwd: new URL("../..", import.meta.url), stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let stdout = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (data: Buffer) => {
          stdout += String(data);
          if (stdout.includes("Ctrl+C")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const lines = stdout.split("\n");
      expect(lines[1]).toBe(`API key: ${KEY}`);
      expect(stdout).not.toContain("\r");
      const url = /listening on (\S+)/.exec(stdout)![1];
      const answer = await fetch(
        `${url}/v2/meta-leaderboard/latest?prompt_name=crypto-1h&days=14`,
        {
          headers: { Authorization: `Apikey ${KEY}` },
        },
      );
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    } finally {
      child.kill("SIGINT");
    }
  }, 60_000);

  it("refuses a key that is empty or holds spaces, without showing it (exit 2)", async () => {
    for (const key of [" \r", "sk-one two"]) {
      const run = await runPathlab(["serve", "--port", "0", "--api-key", key]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        /serve: parameter "--api-key": expected printable ASCII without spaces/,
      );
      if (key.trim() !== "") expect(run.stderr).not.toContain(key.trim());
    }
  }, 60_000);
});
