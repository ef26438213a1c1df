/**
 * The runs whose stored rows a speed change must leave as they are: one sync of BTC at both
 * horizons, and a score of the top 5 on the six hours of BTC crypto-24h prompts up to a day before
 * the clock (the last of them scored by the sandbox's validator), on the embedded sandbox at a
 * fixed seed and clock. `runSpeedParity` runs them with the jobs of `root` (this repository, or a
 * checkout of an older commit when the fixture is made: `scripts/speedParityFixture.mts`) and
 * returns the digests of what they stored.
 */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as ScoreJob from "../../src/jobs/score/score.ts";
import type * as SyncJob from "../../src/jobs/sync/sync.ts";
import { openStore } from "../../src/store/openStore.ts";
import { digestRows, scoreRows, syncRows } from "./storedRows.ts";

/** The fixture file, made by the code before a speed change. */
export const SPEED_PARITY_FIXTURE = join(import.meta.dirname, "fixtures", "speedParity.json");

const NOW = "2026-11-20T12:00:00Z";

/** The digests of one sync and one score (see the module comment). */
export interface SpeedParityDigests {
  readonly sync: Record<string, { rows: number; sha256: string }>;
  readonly score: Record<string, { rows: number; sha256: string }>;
}

/** Runs the sync and the score with the jobs under `root`, into databases in `folder`. */
export async function runSpeedParity(root: string, folder: string): Promise<SpeedParityDigests> {
  // A job's module is src/jobs/<job>/<job>.ts, or src/jobs/<job>.ts in older checkouts.
  const jobs = (name: string) => {
    const inFolder = join(root, "src", "jobs", name, `${name}.ts`);
    const file = existsSync(inFolder) ? inFolder : join(root, "src", "jobs", `${name}.ts`);
    return pathToFileURL(file).href;
  };
  const { runSync } = (await import(jobs("sync"))) as typeof SyncJob;
  const { runScore } = (await import(jobs("score"))) as typeof ScoreJob;
  const syncDatabase = join(folder, "parity-sync.duckdb");
  await runSync({
    assets: ["BTC"],
    horizons: ["24h", "1h"],
    database: syncDatabase,
    now: NOW,
    seed: 42,
  });
  const scoreDatabase = join(folder, "parity-score.duckdb");
  await runScore({
    from: "2026-11-19T06:00:00Z",
    to: "2026-11-19T12:00:00Z",
    competition: "crypto-24h",
    assets: ["BTC"],
    miners: { top: 5 },
    ownOnly: false,
    database: scoreDatabase,
    now: NOW,
    seed: 42,
  });
  // An older checkout's jobs leave an older schema: opened once for writing, it is migrated to
  // this one (columns added, none changed) and read by this checkout's readers like any other.
  for (const database of [syncDatabase, scoreDatabase]) await (await openStore(database)).close();
  return {
    sync: digestRows(await syncRows(syncDatabase)),
    score: digestRows(await scoreRows(scoreDatabase)),
  };
}
