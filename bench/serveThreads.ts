/**
 * The serve suite of `npm run bench` (filter `serve`): how fast `pathlab serve` answers the
 * requests of `npm start` (a sync of every asset and horizon at the end-to-end suite's clock), by
 * its number of compute threads. The requests are recorded once (`sync --record`), then sent again
 * to a fresh `pathlab serve --compute-threads N` at the same seed and clock, 8 in flight as the
 * sync's client sends them, in the recorded order; every body is read to its end. Per case: wall
 * time from the first request to the last body, the server's CPU time (every thread) and peak
 * resident memory (`measureProcess.mjs`), and the client's CPU time (this process). Medians of SANDBOX_REPEATS runs (default 1).
 */

import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measuredEnv, measuredRun, median, readUsage } from "./measuredRun.ts";

const REPEATS = Number(process.env.SANDBOX_REPEATS ?? 1);
const CLI = join(import.meta.dirname, "..", "dist", "cli", "main.js");
const NOW = "2026-11-20T12:00:00Z";
const IN_FLIGHT = 8;

/** A case's medians. */
export interface SandboxRow {
  readonly computeThreads: number;
  readonly requests: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** CPU time of the bench's own process (the client) during the requests. */
  readonly clientCpuMs: number;
  readonly peakRssBytes: number;
  readonly bytes: number;
}

/** The recorded requests (path and query), in the order their answers arrived. */
function recordedRequests(directory: string): string[] {
  const head = Buffer.alloc(4096);
  return readdirSync(directory)
    .filter((name) => /^\d{6}-/.test(name))
    .sort()
    .map((name) => {
      const descriptor = openSync(join(directory, name), "r");
      const read = readSync(descriptor, head, 0, head.length, 0);
      closeSync(descriptor);
      const text = head.toString("utf8", 0, read);
      const path = JSON.parse(/"path": ("[^"]*")/.exec(text)![1]) as string;
      const query = JSON.parse(/"query": ("[^"]*")/.exec(text)![1]) as string;
      return query === "" ? path : `${path}?${query}`;
    });
}

/** Starts `pathlab serve` measured; resolves with its URL, key and a stop that ends the measure. */
async function startServe(threads: number, directory: string) {
  const usageFile = join(directory, `serve-${threads}.json`);
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--port", "0", "--now", NOW, "--compute-threads", String(threads)],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: measuredEnv(usageFile),
    },
  );
  const closed = new Promise((resolve) => child.once("close", resolve));
  const banner = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("Press Ctrl+C")) resolve(output);
    });
    child.on("exit", (code) => reject(new Error(`pathlab serve exited (${code}): ${output}`)));
  });
  const url = /listening on (\S+)/.exec(banner)![1];
  const apiKey = /API key: (\S+)/.exec(banner)![1];
  const stop = async () => {
    child.kill("SIGTERM");
    await closed;
    return readUsage(usageFile);
  };
  return { url, apiKey, stop };
}

async function once(threads: number, requests: readonly string[], directory: string) {
  const serve = await startServe(threads, directory);
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  const client = process.cpuUsage();
  const lane = async () => {
    while (next < requests.length) {
      const target = requests[next++];
      const response = await fetch(`${serve.url}${target}`, {
        headers: { authorization: `Apikey ${serve.apiKey}` },
        signal: AbortSignal.timeout(120_000),
      });
      const body = await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${target}: ${response.status}`);
      bytes += body.byteLength;
    }
  };
  let failed: unknown;
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane)).catch((error: unknown) => {
    failed = error;
  });
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(client);
  const usage = await serve.stop();
  if (failed !== undefined) throw failed;
  return { wallMs, bytes, clientCpuMs: (user + system) / 1000, ...usage };
}

/**
 * Records `npm start`'s requests, then answers them with 0, 1 and 2 compute threads.
 * @example printSandbox(await runSandbox());
 */
export async function runSandbox(): Promise<SandboxRow[]> {
  const directory = mkdtempSync(join(tmpdir(), "pathlab-sandbox-"));
  try {
    process.stderr.write("  sandbox: recording npm start's requests\n");
    await measuredRun(
      CLI,
      ["sync", "--now", NOW, "--record", "recording", "--db", "recorded.duckdb"],
      directory,
      join(directory, "record.json"),
    );
    const requests = recordedRequests(join(directory, "recording"));
    const rows: SandboxRow[] = [];
    for (const threads of [0, 1, 2]) {
      const runs = [];
      for (let run = 0; run < REPEATS; run++) {
        process.stderr.write(
          `  sandbox: --compute-threads ${threads} (run ${run + 1}/${REPEATS})\n`,
        );
        runs.push(await once(threads, requests, directory));
      }
      rows.push({
        computeThreads: threads,
        requests: requests.length,
        wallMs: median(runs.map((run) => run.wallMs)),
        cpuMs: median(runs.map((run) => run.cpuMs)),
        clientCpuMs: median(runs.map((run) => run.clientCpuMs)),
        peakRssBytes: median(runs.map((run) => run.peakRssBytes)),
        bytes: runs[0].bytes,
      });
      if (runs.some((run) => run.bytes !== rows[0].bytes)) {
        throw new Error(`--compute-threads ${threads} answered other bytes than 0 threads`);
      }
    }
    return rows;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * The rows as a table.
 * @example printSandbox(rows);
 */
export function printSandbox(rows: readonly SandboxRow[]): void {
  console.log("\npathlab serve answering npm start's requests (8 in flight)");
  for (const row of rows) {
    console.log(
      `  --compute-threads ${row.computeThreads}  ${row.requests} requests  ${(row.bytes / 2 ** 20).toFixed(0)} MiB  ` +
        `wall ${(row.wallMs / 1000).toFixed(1).padStart(5)} s  CPU ${(row.cpuMs / 1000).toFixed(1).padStart(5)} s  ` +
        `client CPU ${(row.clientCpuMs / 1000).toFixed(1).padStart(4)} s  ` +
        `peak ${Math.round(row.peakRssBytes / 2 ** 20)} MiB`,
    );
  }
}
