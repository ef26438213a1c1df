/**
 * Runs of pathlab's jobs in the store: when, which command, its arguments without secrets, how it
 * ended and which units failed why.
 */

import { hostname } from "node:os";
import type { Store } from "./openStore.ts";
import { timestampOfUnix } from "./timestamps.ts";
import { withoutSecrets } from "./withoutSecrets.ts";
import { processAlive } from "./processAlive.ts";
import { tableDefinition } from "./schema.ts";
import { sqlIdentifier } from "./sqlText.ts";

/**
 * How a run ended: `ok`, `partial` (some units failed, the rest stored), `failed`,
 * `interrupted` (stopped by the user, e.g. Ctrl-C or SIGTERM; what it stored until then is kept),
 * or `abandoned` (its process ended without finishing it, e.g. SIGKILL: a later run says so).
 * @example const status: RunStatus = failures.length === 0 ? "ok" : "partial";
 */
export type RunStatus = "ok" | "partial" | "failed" | "interrupted" | "abandoned";

/**
 * A started run: its id (for `runId` of the units it writes) and the secrets to keep out of what it
 * records.
 * @example const run: Run = await startRun(store, { command: "sync", args, secrets: [apiKey] });
 */
export interface Run {
  readonly id: number;
  readonly secrets: readonly string[];
}

/**
 * What {@link startRun} records.
 * @example const start: RunStart = { command: "sync", args: options, secrets: [apiKey] };
 */
export interface RunStart {
  /** The command (`sync`, `score`, `export`). */
  readonly command: string;
  /** The parsed options or the argv; stored as JSON without secrets (see {@link withoutSecrets}). */
  readonly args: unknown;
  /** Values that must never be stored (the API key), searched for in every string. */
  readonly secrets?: readonly string[];
  /** Start time, Unix seconds; now by default. */
  readonly startedAtUnix?: number;
}

/**
 * What {@link finishRun} records.
 * @example const end: RunEnd = { status: "ok" };
 */
export interface RunEnd {
  readonly status: RunStatus;
  /** One entry per failure, e.g. `{ unit: "BTC 24h 2026-02-25T23:45Z", reason: "…" }`; stored without secrets. */
  readonly failures?: readonly unknown[];
  /** End time, Unix seconds; now by default. */
  readonly finishedAtUnix?: number;
}

const INSERT_RUN = `
INSERT INTO runs (started_at, command, args, status, failures, pid, host)
VALUES ($started_at, $command, $args, 'running', '[]', $pid, $host)
RETURNING id`;

const SELECT_RUNNING = `SELECT id, pid, host FROM runs WHERE status = 'running'`;

const ABANDON_RUN = `
UPDATE runs SET status = 'abandoned', finished_at = $finished_at, failures = $failures
WHERE id = $id AND status = 'running'`;

const UPDATE_RUN = `
UPDATE runs SET finished_at = $finished_at, status = $status, failures = $failures
WHERE id = $id`;

/**
 * Records the start of a run (status `running`, with this process's id and host) and returns it.
 * The arguments are stored as JSON with secrets removed: secret-named properties and flags, and
 * every occurrence of `secrets`. Runs left `running` by a process of this machine that no longer
 * exists (or whose process was not recorded) are marked `abandoned` first.
 * @example
 * const run = await startRun(store, { command: "sync", args: { assets: ["BTC"], apiKey }, secrets: [apiKey] });
 */
export async function startRun(store: Store, start: RunStart): Promise<Run> {
  const secrets = start.secrets ?? [];
  const args = JSON.stringify(withoutSecrets(start.args ?? null, secrets)) ?? "null";
  const id = await store.withTransaction(async (connection) => {
    // Runs left `running` by a process that is gone (on this machine, or without a recorded
    // process) ended without finishing: they are `abandoned`. A live one is left alone.
    const running = (await connection.runAndReadAll(SELECT_RUNNING)).getRowsJS();
    for (const [runId, pid, host] of running) {
      if (host !== null && host !== hostname()) continue;
      if (pid !== null && processAlive(Number(pid))) continue;
      await connection.run(ABANDON_RUN, {
        id: runId as bigint,
        finished_at: timestampOfUnix(Date.now() / 1000),
        failures: JSON.stringify([
          {
            reason:
              pid === null
                ? "abandoned: its process is not recorded and no longer holds the database"
                : `abandoned: its process ${pid} on ${host} ended without finishing the run (killed?)`,
          },
        ]),
      });
    }
    const reader = await connection.runAndReadAll(INSERT_RUN, {
      started_at: timestampOfUnix(start.startedAtUnix ?? Date.now() / 1000),
      command: start.command,
      args,
      pid: process.pid,
      host: hostname(),
    });
    return Number(reader.getRowsJS()[0][0]);
  });
  return { id, secrets };
}

/**
 * Records how `run` ended: its status, finish time and failures (JSON, secrets removed as for the
 * arguments).
 * @example await finishRun(store, run, { status: "partial", failures: [{ unit: "ETH 1h", reason: "HTTP 503" }] });
 */
export async function finishRun(store: Store, run: Run, end: RunEnd): Promise<void> {
  const failures = JSON.stringify(withoutSecrets(end.failures ?? [], run.secrets));
  await store.withTransaction(async (connection) => {
    await connection.run(UPDATE_RUN, {
      finished_at: timestampOfUnix(end.finishedAtUnix ?? Date.now() / 1000),
      status: end.status,
      failures,
      id: run.id,
    });
  });
}

/**
 * Removes the run from every row of `tables` that keeps one (a unit's rows on their way into the
 * lake, where runs are not kept: they are a database's bookkeeping); tables without a `run_id`
 * column are left as they are.
 * @example await clearRunIds(unitStore, ["path_sets", "path_values", "insights"]);
 */
export async function clearRunIds(store: Store, tables: readonly string[]): Promise<void> {
  const withRuns = tables.filter((table) =>
    tableDefinition(table).columns.some(([column]) => column === "run_id"),
  );
  await store.withConnection(async (connection) => {
    for (const table of withRuns) {
      await connection.run(`UPDATE ${sqlIdentifier(table)} SET run_id = NULL`);
    }
  });
}
