/**
 * The tools of `pathlab mcp` that run pathlab's engine rather than one SQL statement: `audit` (the
 * consistency checks of the service's records the store holds, read-only) and `score_candidate`
 * (a candidate folder, such as a backtest's answers, scored among the miners over a range by the
 * score job, which writes its run to the store). A long tool reports progress and stops when the
 * call is cancelled.
 */
import { COMPETITIONS } from "../../domain/assets.ts";
import type { Naming } from "../../domain/operation.ts";
import { auditStoredRecords } from "../../jobs/audit/audit.ts";
import { candidateCompetitions, EMISSION_FACTOR } from "../../jobs/backtest/backtest.ts";
import { openQuerySource, queryError } from "../queryRun.ts";
import type { McpToolDeclaration } from "./tools.ts";

/**
 * Where the server reads and what its job tools talk to: the store (a database file, or a lake,
 * which wins), the service (the embedded sandbox unless a base URL is given) and its naming.
 * @example const context: McpContext = { source: { db: "./pathlab.duckdb" }, service: {} };
 */
export interface McpContext {
  readonly source: { readonly db: string; readonly lake?: string };
  readonly service: {
    readonly baseUrl?: string;
    readonly apiKey?: string;
    readonly now?: string;
    readonly seed?: number;
    readonly sandboxMiners?: number;
  };
  /** `--naming` and `--paths`: the deployment's words and paths. */
  readonly client?: { readonly naming?: Naming; readonly paths?: Readonly<Record<string, string>> };
  /** `--naming auto`: the job tools ask the service once which naming it speaks. */
  readonly namingAuto?: boolean;
}

/**
 * One call of a job tool: its cancellation, and where it reports progress.
 * @example const call: McpCall = { signal: new AbortController().signal, progress: () => {} };
 */
export interface McpCall {
  readonly signal: AbortSignal;
  readonly progress: (done: number, total: number, message: string) => void;
}

/**
 * A tool that runs pathlab's engine; its answer is a JSON object.
 * @example const audit = MCP_JOB_TOOLS.find((tool) => tool.name === "audit");
 */
export interface McpJobTool extends McpToolDeclaration {
  readonly run: (
    context: McpContext,
    args: Readonly<Record<string, unknown>>,
    call: McpCall,
  ) => Promise<Record<string, unknown>>;
}

const TIME = { type: "string", description: "ISO 8601, e.g. 2026-11-21T08:00:00Z" } as const;

/**
 * The job tools, in the order a client lists them (after the SQL tools).
 * @example MCP_JOB_TOOLS.map((tool) => tool.name) // => ["audit", "score_candidate"]
 */
export const MCP_JOB_TOOLS: readonly McpJobTool[] = [
  {
    name: "audit",
    description:
      "Consistency checks of the service's latest 24h insight records held in the store, each against the others: probabilities monotone and within [0, 1], percentiles ordered, option prices convex with put-call parity, LP probabilities against the percentiles. Each finding names its check and values; reads only.",
    inputSchema: {
      type: "object",
      properties: { asset: { type: "string", description: "only this asset (default every one)" } },
    },
    run: async (context, args) => {
      let store;
      try {
        store = await openQuerySource(context.source, "select * from insights");
      } catch (error) {
        throw queryError(error);
      }
      try {
        const assets = typeof args.asset === "string" ? [args.asset] : undefined;
        const reports = await auditStoredRecords(store, assets);
        return {
          findings: reports.reduce((sum, report) => sum + report.findings.length, 0),
          reports: reports.map((report) => ({
            asset: report.asset,
            forecast_start_time: report.forecastStartTime ?? null,
            compared: report.compared,
            findings: report.findings,
            skipped: report.skipped,
          })),
        };
      } finally {
        await store.close();
      }
    },
  },
  {
    name: "score_candidate",
    description:
      "Scores a candidate folder (files named as `pathlab baseline` or `pathlab backtest` write them) among the network's miners for one competition over a range, exactly as the validator does, and stores the run: the candidate's prompts, valid answers, mean CRPS, smoothed rank, score and reward weight at the end and at every validator update. Reports progress per prompt; cancelling stops the run and keeps the prompts scored.",
    inputSchema: {
      type: "object",
      properties: {
        candidate: { type: "string", description: "the folder of the candidate's answers" },
        competition: { type: "string", enum: [...COMPETITIONS] },
        from: TIME,
        to: TIME,
      },
      required: ["candidate", "competition", "from", "to"],
    },
    run: async (context, args, call) => {
      const { runScore } = await import("../../jobs/score/score.ts");
      const summary = await runScore({
        candidate: String(args.candidate),
        competition: args.competition as (typeof COMPETITIONS)[number],
        from: String(args.from),
        to: String(args.to),
        ...(context.source.lake !== undefined
          ? { lake: context.source.lake }
          : { database: context.source.db }),
        ...context.service,
        ...(context.client !== undefined && { client: context.client }),
        ...(context.namingAuto === true && { namingAuto: true }),
        signal: call.signal,
        onEvent: (event) => {
          if (event.type === "prompt") {
            call.progress(event.done, event.of, `${event.asset} ${event.startTime}`);
          }
        },
      });
      return {
        run_id: summary.runId,
        competitions: candidateCompetitions(summary, null, EMISSION_FACTOR).map(
          ({ estimated_usd_per_day: _none, updates, ...competition }) => ({
            ...competition,
            updates: updates.map(({ estimated_usd_per_day: _no, ...update }) => update),
          }),
        ),
        rejected_files: summary.rejectedCandidateFiles,
        unmatched_files: summary.unmatchedCandidateFiles,
        failures: summary.failures,
      };
    },
  },
];
