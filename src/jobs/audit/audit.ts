/**
 * The audit job: the insight records of each asset, from the service (or the embedded sandbox)
 * or from a folder of saved responses, checked against themselves (`auditSnapshot`), the report
 * stored as a run with its findings (`audit_findings`).
 */

import { serviceText } from "../../service/serviceInfo.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientOptions } from "../../client/options.ts";
import { auditSnapshot, type AuditReport, type AuditSnapshot } from "../../crosscheck/audit.ts";
import { OPTION_PRICING_ASSETS } from "../../domain/assets.ts";
import { decode } from "../../domain/codec.ts";
import { AUDITED_RECORDS } from "../../domain/insightKindLists.ts";
import { neutralNaming } from "../../domain/naming.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import { writeAuditFindings } from "../../store/auditFindings.ts";
import type { Store } from "../../store/openStore.ts";
import { latestServiceRecords, serviceRecordAssets } from "../../store/insights.ts";
import type { ServiceRequest } from "../../service/resolveService.ts";
import { DEFAULT_AUDIT_ASSETS } from "../harness/defaults.ts";
import { runJob, type Job } from "../harness/runJob.ts";

/** The records of a snapshot (the audited kinds): the operation, the file of a saved folder, the key. */
const RECORDS = AUDITED_RECORDS.map(
  ({ path, savedFile, snapshotKey }) => [path, savedFile, snapshotKey] as const,
);

/**
 * What to audit and where the report goes.
 * @example const options: AuditOptions = { dir: "./saved", client: { naming: liveNaming } };
 */
export interface AuditOptions extends ServiceRequest {
  /** A folder of saved responses (`<operation>/<ASSET>.json`) instead of the service. */
  readonly dir?: string;
  /**
   * Audit what `database` holds instead of the service: for each asset (default: every asset with
   * stored 24h records), the service's records of its latest stored 24h forecast start.
   */
  readonly stored?: boolean;
  /** Only these assets (default `DEFAULT_AUDIT_ASSETS`; with `stored`, see there). */
  readonly assets?: readonly string[];
  /** The database the report is stored in; default `DEFAULT_DATABASE`. */
  readonly database?: string;
  readonly client?: Pick<ClientOptions, "naming" | "paths">;
}

/**
 * The audit's report: one per asset, with what could not be read; exit code 0 without findings,
 * 1 with.
 * @example const { reports, findings, exitCode } = await runAudit({ dir });
 */
export interface AuditSummary {
  readonly source: string;
  readonly runId: number;
  readonly database: string;
  readonly reports: readonly AuditReport[];
  readonly findings: number;
  readonly exitCode: 0 | 1;
}

/**
 * Runs the audit: reads each asset's five records (a record that cannot be fetched, read or
 * decoded is a skipped check, with the reason; option pricing is not asked for an asset the
 * operation does not take), audits them, stores the run and its findings.
 * @param options - where the records come from (the service, a saved folder or the database), which
 *   assets, and the database the report goes to; see each field's default.
 * @example const summary = await runAudit({ assets: ["BTC"] }); // the embedded sandbox
 */
export async function runAudit(options: AuditOptions): Promise<AuditSummary> {
  const definition = {
    command: "audit",
    check: () => undefined,
    talks: () => options.stored !== true && options.dir === undefined,
  };
  return runJob(definition, options, async (job) => {
    const { source, assets, read } = await auditSource(job, options);
    const run = await job.startRun({ source, assets, database: job.database });
    const reports = await auditAssets(assets, read);
    const startOf = (report: AuditReport) =>
      report.forecastStartTime === undefined
        ? undefined
        : parseIsoTimeMs(report.forecastStartTime) / 1000;
    await writeAuditFindings(
      job.store,
      run.id,
      reports.flatMap((report) =>
        report.findings.map((finding) => ({
          asset: report.asset,
          forecastStartUnix: startOf(report),
          ...finding,
        })),
      ),
    );
    const findings = reports.reduce((sum, report) => sum + report.findings.length, 0);
    await job.finishRun({ status: "ok" });
    const database = job.database;
    return { source, runId: run.id, database, reports, findings, exitCode: findings > 0 ? 1 : 0 };
  });
}

/** Each asset's records read with `read` and audited; what could not be read is skipped. */
async function auditAssets(
  assets: readonly string[],
  read: (asset: string) => Promise<{ snapshot: AuditSnapshot; missing: string[] }>,
): Promise<AuditReport[]> {
  const reports: AuditReport[] = [];
  for (const asset of assets) {
    const { snapshot, missing } = await read(asset);
    const report = auditSnapshot(snapshot);
    reports.push({ ...report, skipped: [...missing, ...report.skipped] });
  }
  return reports;
}

/**
 * The audit of the service's records stored in `store`, as `runAudit` with `stored` makes it,
 * without storing a run: for each asset (default: every asset with stored 24h records), its
 * records of the latest stored 24h forecast start. Reads only.
 * @param store - the store to read (a read-only one will do).
 * @param assets - only these assets.
 * @example const reports = await auditStoredRecords(store, ["BTC"]);
 */
export async function auditStoredRecords(
  store: Store,
  assets?: readonly string[],
): Promise<AuditReport[]> {
  return auditAssets(assets ?? (await storedAssets(store)), (asset) =>
    storedSnapshot(store, asset),
  );
}

/** Where the audit reads each asset's records (see {@link AuditOptions}), and which assets. */
async function auditSource(
  job: Job<undefined>,
  options: AuditOptions,
): Promise<{
  source: string;
  assets: readonly string[];
  read: (asset: string) => Promise<{ snapshot: AuditSnapshot; missing: string[] }>;
}> {
  const naming = options.client?.naming ?? neutralNaming;
  if (options.stored === true) {
    return {
      source: `the records stored in ${job.database}`,
      assets: options.assets ?? (await storedAssets(job.store)),
      read: (asset) => storedSnapshot(job.store, asset),
    };
  }
  const assets = options.assets ?? DEFAULT_AUDIT_ASSETS;
  const dir = options.dir;
  if (dir !== undefined) {
    const read = (asset: string) =>
      gather(asset, async ([operation, file]) => {
        const path = join(dir, file.replace("{asset}", asset));
        const json = JSON.parse(readFileSync(path, "utf8")) as unknown;
        return decode(operation, json, { naming });
      });
    return { source: `the folder ${dir}`, assets, read };
  }
  const { service, client } = job;
  const source =
    service.kind === "service" ? `the service at ${serviceText(service)}` : serviceText(service);
  const read = (asset: string) =>
    gather(asset, ([operation]) =>
      operation === "/insights/option-pricing" &&
      !(OPTION_PRICING_ASSETS as readonly string[]).includes(asset)
        ? Promise.resolve(undefined)
        : client.request(operation as "/insights/liquidation", {
            asset: asset as "BTC",
            ...(operation === "/insights/prediction-percentiles" && { horizon: "24h" as const }),
          }),
    );
  return { source, assets, read };
}

/** The assets with the service's 24h records in `store`, in order. */
async function storedAssets(store: Store): Promise<string[]> {
  return serviceRecordAssets(store, "24h");
}

/** The service's 24h records of `asset` at its latest stored forecast start, as a snapshot. */
async function storedSnapshot(
  store: Store,
  asset: string,
): Promise<{ snapshot: AuditSnapshot; missing: string[] }> {
  const rows = await latestServiceRecords(store, asset, "24h");
  const byOperation = new Map(rows.map((row) => [row.operation, row.record]));
  const found = await gather(asset, async ([operation]) => byOperation.get(operation));
  const start = rows[0]?.forecastStartTime;
  if (rows.length === 0) found.missing.push(`no 24h records of ${asset} are stored`);
  return {
    snapshot: { ...found.snapshot, ...(start !== undefined && { forecastStartTime: start }) },
    missing: found.missing,
  };
}

/** Reads the five records of `asset` with `fetch`; each that fails is named in `missing`. */
async function gather(
  asset: string,
  fetch: (record: (typeof RECORDS)[number]) => Promise<unknown>,
): Promise<{ snapshot: AuditSnapshot; missing: string[] }> {
  const records: Record<string, unknown> = {};
  const missing: string[] = [];
  const answers = await Promise.allSettled(RECORDS.map((record) => fetch(record)));
  answers.forEach((answer, index) => {
    const [operation, , key] = RECORDS[index];
    if (answer.status === "fulfilled") {
      if (answer.value !== undefined) records[key] = answer.value;
    } else
      missing.push(`${operation}: ${(answer.reason as Error).message ?? String(answer.reason)}`);
  });
  const start = Object.values(records)
    .map((record) => (record as { forecast_start_time?: string }).forecast_start_time)
    .find((time) => time !== undefined);
  return {
    snapshot: {
      asset,
      ...(start !== undefined && { forecastStartTime: start }),
      records: records as AuditSnapshot["records"],
    },
    missing,
  };
}
