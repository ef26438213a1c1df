/**
 * `pathlab audit` as a real child process: on the captured live responses it prints the four
 * parity findings of BTC, exits 1 and stores them in `audit_findings`; on the sandbox (a small
 * world in the test's process, which the sync talks to as well) it finds only BTC's monthly option
 * expiry beyond the 24 h simulation, and exits 1.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { capturedExists, capturedFolder } from "../domain/captured.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";
import { smallSandbox } from "./smallSandbox.ts";

let folder: string;
let remove: () => void;
beforeAll(() => ({ folder, remove } = temporaryFolder()));
afterAll(() => remove?.());

const service = smallSandbox("2026-02-25T23:47:00Z", "sk-test-audit-0d5c37e9");
const needs = capturedExists ? "" : " [SKIPPED: captured fixtures missing]";

describe("pathlab audit", () => {
  it.skipIf(!capturedExists)(
    `on the captured live responses: four findings, printed and stored (exit 1)${needs}`,
    async () => {
      const database = join(folder, "captured.duckdb");
      const run = await runPathlab([
        ...["audit", "--dir", capturedFolder, "--naming", "live", "--db", database],
      ]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toContain("  BTC     2623 comparisons, 4 findings\n");
      expect(run.stdout).toContain(
        'BTC /insights/option-pricing call_options["68000"]: put-call parity: C − P + K the same at every strike: off by 7 (tolerance 2); C − P + K = 71217 against 71224 at the other strikes',
      );
      const store = await openStore(database, { readOnly: true });
      try {
        const { rows } = await queryRows(
          store,
          "select asset, operation, field, size from audit_findings order by field",
        );
        expect(rows).toEqual(
          [
            ['call_options["68000"]', 7],
            ['call_options["69000"]', 3],
            ['call_options["71000"]', 4],
            ['call_options["73000"]', 3],
          ].map(([field, size]) => ["BTC", "/insights/option-pricing", field, size]),
        );
        const runs = await queryRows(store, "select command, status from runs");
        expect(runs.rows).toEqual([["audit", "ok"]]);
      } finally {
        await store.close();
      }
    },
    60_000,
  );

  it("--stored audits what a sync stored, with its forecast start: every check, nothing found", async () => {
    const database = join(folder, "synced.duckdb");
    const sync = await service.pathlab(
      // ETH: BTC options expire monthly (as live), beyond the 24 h the forward check needs.
      ["sync", "--assets", "ETH", "--horizons", "24h", "--db", database],
    );
    expect(sync.code, sync.stderr).toBe(0);
    const run = await runPathlab(["audit", "--stored", "--db", database, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as {
      source: string;
      findings: number;
      reports: { asset: string; forecastStartTime: string; compared: number; skipped: string[] }[];
    };
    expect(summary.source).toBe(`the records stored in ${database}`);
    expect(
      summary.reports.map(({ asset, forecastStartTime, skipped }) => ({
        asset,
        forecastStartTime,
        skipped,
      })),
    ).toEqual([{ asset: "ETH", forecastStartTime: "2026-02-25T22:00:00Z", skipped: [] }]);
    expect(summary.reports[0].compared).toBeGreaterThan(2500);
    expect(summary.findings).toBe(0);
    const both = await runPathlab(["audit", "--stored", "--dir", folder, "--db", database]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("pathlab: audit: --stored and --dir name two sources; give one");
  }, 120_000);

  it("on the sandbox: only BTC's option expiry beyond the 24 h simulation (exit 1)", async () => {
    const database = join(folder, "sandbox.duckdb");
    const run = await service.pathlab(["audit", "--assets", "BTC,ETH", "--db", database, "--json"]);
    expect(run.code, run.stderr).toBe(1);
    const summary = JSON.parse(run.stdout) as {
      findings: number;
      reports: { skipped: string[] }[];
    };
    expect(summary.findings).toBe(1);
    const store = await openStore(database, { readOnly: true });
    try {
      const { rows } = await queryRows(store, "select asset, field from audit_findings");
      expect(rows).toEqual([["BTC", "expiry_time"]]);
    } finally {
      await store.close();
    }
    // Only BTC's forward check cannot run: its options expire monthly, beyond the 24 h percentiles.
    expect(summary.reports.flatMap((report) => report.skipped)).toEqual([
      expect.stringMatching(
        /^the options' forward against the percentiles: the expiry 2026-03-27 08:00:00Z is not within the percentiles' 24 h/,
      ),
    ]);
  }, 120_000);
});
