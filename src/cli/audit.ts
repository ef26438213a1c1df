/** `pathlab audit`: the service's insight records checked against themselves (`src/jobs/audit/audit.ts`). */
import { Command } from "commander";
import type { AuditSummary } from "../jobs/audit/audit.ts";
import { DEFAULT_AUDIT_ASSETS, DEFAULT_DATABASE } from "../jobs/harness/defaults.ts";
import { counted, noun } from "../domain/counted.ts";
import { listOption } from "./optionParsers.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";
import {
  addDeploymentOptions,
  addServiceOptions,
  deploymentOf,
  rethrowAsUsage,
  serviceRequest,
  type ServiceCommandOptions,
  type DeploymentCommandOptions,
} from "./serviceOptions.ts";

interface AuditCommandOptions extends ServiceCommandOptions, DeploymentCommandOptions {
  dir?: string;
  stored?: boolean;
  assets?: string[];
  db: string;
  json?: boolean;
}

/**
 * The `audit` command of the program: prints one line per asset and one per finding (or JSON),
 * stores the run and its findings, and sets the exit code (0 no finding, 1 findings, 2 usage).
 * @example buildProgram(io, status).addCommand(auditCommand(io, status));
 */
export function auditCommand(io: ProgramIo, status: ProgramStatus): Command {
  const command = addDeploymentOptions(
    addServiceOptions(
      new Command("audit")
        .description(
          "check the service's insight records against themselves: monotone, bounded, convex, put-call parity, LP probabilities against the percentiles",
        )
        .option(
          "--dir <folder>",
          "audit saved responses (<operation>/<ASSET>.json, as fixtures/captured) instead of the service",
        )
        .option(
          "--stored",
          "audit the service's records stored in --db (each asset's latest 24h forecast start) instead of the service",
        )
        .option(
          "--assets <list>",
          `comma-separated assets (default ${DEFAULT_AUDIT_ASSETS.join(",")})`,
          listOption("--assets", (asset) => asset),
        )
        .option("--db <path>", "the DuckDB file the report is stored in", DEFAULT_DATABASE)
        .option("--json", "print the report as JSON"),
    ),
  );
  return command.action(async (options: AuditCommandOptions) => {
    if (options.stored === true && options.dir !== undefined) {
      command.error("error: audit: --stored and --dir name two sources; give one", {
        exitCode: 2,
        code: "pathlab.usage",
      });
    }
    let summary: AuditSummary;
    try {
      // Loaded on use: the job's modules are not needed by the other commands.
      const { runAudit } = await import("../jobs/audit/audit.ts");
      summary = await runAudit({
        ...(options.stored === true
          ? { stored: true }
          : options.dir !== undefined
            ? { dir: options.dir }
            : serviceRequest(command, options, io.stderr)),
        ...(options.assets !== undefined && { assets: options.assets }),
        database: options.db,
        ...deploymentOf(options),
      });
    } catch (error) {
      rethrowAsUsage(command, error);
    }
    io.stdout(options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatAudit(summary));
    status.exitCode = summary.exitCode;
  });
}

/**
 * The report as text: the source, one line per asset (comparisons, findings, checks not made and
 * why), then each finding with its record, field, size and tolerance.
 * @example io.stdout(formatAudit(summary));
 */
export function formatAudit(summary: AuditSummary): string {
  const lines = [`audit of ${summary.source} (run ${summary.runId} in ${summary.database})`];
  for (const report of summary.reports) {
    lines.push(
      `  ${report.asset.padEnd(6)} ${String(report.compared).padStart(5)} ${noun(report.compared, "comparison")}, ${counted(report.findings.length, "finding")}`,
    );
    for (const skipped of report.skipped) lines.push(`         not checked: ${skipped}`);
  }
  const findings = summary.reports.flatMap((report) =>
    report.findings.map((finding) => ({ asset: report.asset, ...finding })),
  );
  if (findings.length > 0) lines.push("", `${counted(findings.length, "finding")}:`);
  for (const finding of findings) {
    lines.push(
      `  ${finding.asset} ${finding.operation} ${finding.field}: ${finding.check}: off by ${round(finding.size)} (tolerance ${round(finding.tolerance)}); ${finding.detail}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function round(value: number): string {
  return Number(value.toPrecision(4)).toString();
}
