/** `pathlab sync`: the main job (see `src/jobs/sync/sync.ts`) with progress and a summary. */
import { Command } from "commander";
import {
  BREAKER_UNITS,
  DEFAULT_DATABASE,
  DEFAULT_SYNC_ASSETS,
  DEFAULT_SYNC_CONCURRENCY,
} from "../jobs/harness/defaults.ts";
import { UsageError } from "../service/usageError.ts";
import { HORIZONS } from "../domain/assets.ts";
import { integerOption, listOption } from "./optionParsers.ts";
import {
  addDeploymentOptions,
  addJobOptions,
  addPromptRangeOptions,
  addServiceOptions,
  deploymentOf,
  rethrowAsUsage,
  serviceRequest,
  storeTargetOf,
  type ServiceCommandOptions,
  type DeploymentCommandOptions,
} from "./serviceOptions.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";
import { onInterrupt } from "./interrupt.ts";
import { syncWatchCommand } from "./syncWatch.ts";

interface SyncCommandOptions extends ServiceCommandOptions, DeploymentCommandOptions {
  assets?: string[];
  horizons?: string[];
  db: string;
  lake?: string;
  concurrency: number;
  threads?: number;
  unitDeadline: number;
  deadline: number;
  json?: boolean;
  record?: string;
  replay?: string;
  watch?: boolean;
  every: number;
  from?: string;
  to?: string;
  skipStored?: boolean;
}

/**
 * Adds the units' selection of `sync` to `command` (`sync`, `enqueue sync`): `--assets` and
 * `--horizons`.
 * @example const command = addSyncSelectionOptions(new Command("sync"));
 */
export function addSyncSelectionOptions(command: Command): Command {
  return command
    .option(
      "--assets <list>",
      `comma-separated assets (default: every asset with path sets: ${DEFAULT_SYNC_ASSETS.join(",")})`,
      listOption("--assets", (asset) => asset),
    )
    .option(
      "--horizons <list>",
      `comma-separated horizons (default: ${HORIZONS.join(",")})`,
      listOption("--horizons", (horizon) => horizon),
    );
}

/**
 * Builds the `sync` command: checks the options (bad values are usage errors, exit code 2), runs
 * the sync with progress on stderr (a bar on a terminal, plain lines otherwise), then prints the
 * summary table (or, with `--json`, the summary as JSON) on stdout and sets the exit code: 0
 * without failures, 1 with any (the rest is stored).
 * @example program.addCommand(syncCommand(io, status));
 */
export function syncCommand(io: ProgramIo, status: ProgramStatus): Command {
  const command = addJobOptions(
    "unit",
    addDeploymentOptions(
      addServiceOptions(
        addSyncSelectionOptions(addPromptRangeOptions(new Command("sync"), false, "forecasts"))
          .description(
            "pull path sets from the service (default: the embedded sandbox), recompute and cross-check every insight, store it all in DuckDB",
          )

          .option("--db <path>", "the DuckDB file to write", DEFAULT_DATABASE)
          .option(
            "--lake <dir>",
            "write each unit into a Parquet lake instead (readable with `query --lake` and the notebooks while the sync goes on)",
          ),
      ),
    )
      .option(
        "--concurrency <n>",
        "units worked on at once",
        integerOption("--concurrency", 1, 64),
        DEFAULT_SYNC_CONCURRENCY,
      )
      .option(
        "--threads <n>",
        "worker threads that fetch, check and recompute whole units, the main thread storing them (default: none with the embedded sandbox, which uses the cores itself; the machine's cores but one with --base-url or --replay; 0: all on the main thread; not with --record)",
        integerOption("--threads", 0, 256),
      )
      .option(
        "--skip-stored",
        "leave out the units whose forecast start the database or lake holds already (a range's are not fetched at all): a backfill that resumes",
      )
      .option("--json", "print the summary as JSON instead of a table")
      .option(
        "--watch",
        "keep syncing every --every seconds until SIGINT/SIGTERM, one line per tick (units whose forecast start is stored already are not fetched again)",
      )
      .option(
        "--every <seconds>",
        "with --watch: seconds between ticks",
        integerOption("--every", 1, 86_400),
        60,
      )
      .addHelpText(
        "after",
        "\nExit codes: 0 no failure, 1 some failures (the rest is stored; see the summary and\n" +
          "the runs table), 2 bad usage, 130 interrupted (Ctrl-C). A unit is one asset × horizon at\n" +
          "the service's latest forecast start, or with --from/--to at each forecast start of the\n" +
          "range (the service's historical data); it is written in one transaction, so an interrupted\n" +
          "sync leaves no partial unit and a rerun completes it. A request that succeeds on a retry\n" +
          "is no failure; the summary counts retries apart. A sync stops early, exit 1, when --deadline\n" +
          `passes or ${BREAKER_UNITS} units in a row fail the same way (the same HTTP status, the same deadline):\n` +
          "the units stored are kept, the run is partial (failed when none was stored).",
      ),
  );
  return command.action(async (options: SyncCommandOptions) => {
    const service = serviceRequest(command, options, io.stderr);
    // Loaded on use: the progress bar and the tables are not needed to build the program.
    const [{ createSyncProgress }, { formatSyncReport }] = await Promise.all([
      import("./syncProgress.ts"),
      import("./syncReport.ts"),
    ]);
    const progress = createSyncProgress(io.stderr, io.stderrTerminal);
    const interruption = onInterrupt("sync", io.stderr);
    let summary;
    let endLine: string | undefined;
    const common = {
      ...(options.assets !== undefined && { assets: options.assets }),
      ...(options.horizons !== undefined && { horizons: options.horizons }),
      ...storeTargetOf(command, options),
      ...service,
      ...deploymentOf(options),
      concurrency: options.concurrency,
      ...(options.threads !== undefined && { threads: options.threads }),
      unitDeadlineMs: options.unitDeadline * 1000,
      deadlineMs: options.deadline * 1000,
      onEvent: progress.onEvent,
      signal: interruption.signal,
    };
    try {
      if (options.watch === true) {
        if (options.from !== undefined || options.to !== undefined) {
          throw new UsageError(
            "sync: --watch follows the latest forecasts; --from/--to sync a range of the past: give one",
          );
        }
        await syncWatchCommand(io, options, common);
        return;
      }
      // Loaded on use: the job's modules are not needed by the other commands.
      const { runSync } = await import("../jobs/sync/sync.ts");
      summary = await runSync({
        ...common,
        ...(options.from !== undefined && { from: options.from }),
        ...(options.to !== undefined && { to: options.to }),
        ...(options.skipStored === true && { skipStored: true }),
        ...(options.record !== undefined && { record: options.record }),
        ...(options.replay !== undefined && { replay: options.replay }),
      });
      const { recordReplayLine } = await import("../service/recordReplay.ts");
      endLine = recordReplayLine("sync", summary);
    } catch (error) {
      rethrowAsUsage(command, error);
    } finally {
      interruption.dispose();
      progress.stop();
    }
    const databaseFlag =
      options.lake !== undefined
        ? ` --lake ${shellWord(options.lake)}`
        : options.db === DEFAULT_DATABASE
          ? ""
          : ` --db ${shellWord(options.db)}`;
    io.stdout(
      options.json
        ? `${JSON.stringify(summary, null, 2)}\n`
        : formatSyncReport(summary, databaseFlag, io.stdoutColors === true),
    );
    if (endLine !== undefined) io.stderr(`${endLine}\n`);
    if (summary.stopped !== undefined) io.stderr(`pathlab ${summary.stopped}\n`);
    status.exitCode = summary.exitCode;
  });
}

/** `text` quoted for a POSIX shell when it holds anything but safe characters. */
function shellWord(text: string): string {
  return /^[\w./:@=+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
