/**
 * The options every job command shares: which service to talk to, or how to run the sandbox, and
 * the deployment's naming and paths.
 *
 * Over 300 lines because the options the job commands share are declared here once, with their
 * help text and, where a value is checked, its check, beside the functions that read them (the
 * API key, the service request, where the job writes).
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { readFileSync } from "node:fs";
import { UsageError } from "../service/usageError.ts";
import { liveNaming } from "../domain/naming.ts";
import type { Naming } from "../domain/operation.ts";
import { DEFAULT_SANDBOX_SEED, SANDBOX_NETWORK_MINERS } from "../sandbox/sandboxDefaults.ts";
import {
  BREAKER_UNITS,
  DEFAULT_JOB_DEADLINE_MS,
  DEFAULT_UNIT_DEADLINE_MS,
} from "../jobs/harness/defaults.ts";
import { EXIT_USAGE } from "./errors.ts";
import { integerOption, isoTimeOption } from "./optionParsers.ts";

/**
 * The options {@link addServiceOptions} adds, as commander parses them.
 * @example interface SyncCommandOptions extends ServiceCommandOptions { db: string }
 */
export interface ServiceCommandOptions {
  baseUrl?: string;
  apiKey?: string;
  apiKeyFile?: string;
  now?: string;
  seed?: number;
  sandboxMiners?: number;
}

/**
 * The options {@link addDeploymentOptions} adds, as commander parses them.
 * @example interface ScoreCommandOptions extends ServiceCommandOptions, DeploymentCommandOptions {}
 */
export interface DeploymentCommandOptions {
  naming?: string;
  paths?: Record<string, string>;
}

/**
 * Adds `--base-url` (env `PATHLAB_BASE_URL`), `--api-key` (env `PATHLAB_API_KEY`), `--api-key-file`,
 * and the embedded sandbox's `--now`, `--seed` and `--sandbox-miners` to `command`, and returns it. Read the key back
 * with {@link apiKeyOption}.
 * @example const command = addServiceOptions(new Command("sync").option("--db <path>", "…"));
 */
export function addServiceOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--base-url <url>", "the service (default: start the embedded sandbox)").env(
        "PATHLAB_BASE_URL",
      ),
    )
    .addOption(
      new Option(
        "--api-key <key>",
        "API key of the service (never printed or stored; on a shared machine prefer PATHLAB_API_KEY or --api-key-file: arguments show in ps)",
      ).env("PATHLAB_API_KEY"),
    )
    .option("--api-key-file <path>", "read the API key from this file (its first line)")
    .option(
      "--now <time>",
      "the embedded sandbox's clock, ISO 8601 (default: the current minute)",
      isoTimeOption("--now"),
    )
    .option(
      "--seed <integer>",
      `the embedded sandbox's seed (default ${DEFAULT_SANDBOX_SEED})`,
      integerOption("--seed", -(2 ** 31), 2 ** 32 - 1),
    )
    .option(
      "--sandbox-miners <count>",
      `the embedded sandbox's network: its first N miners, the nine that answer every competition first (default all ${SANDBOX_NETWORK_MINERS}; fewer is lighter)`,
      integerOption("--sandbox-miners", 1, SANDBOX_NETWORK_MINERS),
    );
}

/**
 * Adds `--naming neutral|live` (env `PATHLAB_NAMING`) and `--paths <json|file>` (env
 * `PATHLAB_PATHS`: the deployment's paths for operations whose path differs from the spec's) to
 * `command`, and returns it. `pathlab.config.json` may set both (`applyConfig`). Read them back
 * with {@link deploymentOf}.
 * @example const command = addDeploymentOptions(new Command("score"));
 */
export function addDeploymentOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--naming <words>",
        "venue and model names in paths and fields (live: polymarket and synth, and the smoothed scores at /rewards/scores; auto: ask the service once which it speaks)",
      )
        .choices(["neutral", "live", "auto"])
        .default("neutral")
        .env("PATHLAB_NAMING"),
    )
    .addOption(
      new Option(
        "--paths <json|file>",
        'paths of the deployment by spec path, as JSON or a JSON file, e.g. \'{"/validation/smoothed-scores": "/rewards/scores"}\'',
      )
        .argParser(pathsOption)
        .env("PATHLAB_PATHS"),
    );
}

/**
 * The job's deployment from the options {@link addDeploymentOptions} added: the client's `naming`
 * and `paths`, and `namingAuto` for `--naming auto` (the job asks the service once).
 * @param options - `--naming` (`neutral`, `live` or `auto`) and `--paths` as commander parsed them.
 * @example await runSync({ ...deploymentOf(options), assets });
 */
export function deploymentOf(options: {
  readonly naming?: string;
  readonly paths?: Record<string, string>;
}): {
  client: { naming?: Naming; paths?: Record<string, string> };
  namingAuto?: boolean;
} {
  return {
    client: {
      ...(options.naming === "live" && { naming: liveNaming }),
      ...(options.paths !== undefined && { paths: options.paths }),
    },
    ...(options.naming === "auto" && { namingAuto: true }),
  };
}

function pathsOption(text: string): Record<string, string> {
  let json = text;
  if (!text.trimStart().startsWith("{")) {
    try {
      json = readFileSync(text, "utf8");
    } catch (error) {
      throw new InvalidArgumentError(
        `--paths: expected a JSON object or a readable JSON file, got ${JSON.stringify(text)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new InvalidArgumentError(`--paths: expected JSON, got ${(error as Error).message}`);
  }
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) ||
    Object.values(value).some((path) => typeof path !== "string" || !path.startsWith("/"))
  ) {
    throw new InvalidArgumentError(
      `--paths: expected an object of spec path → path strings starting with "/", got ${JSON.stringify(value)}`,
    );
  }
  // That each key is a spec path is checked when the command runs (`applyProjectSettings`): the
  // spec's operations are not loaded to build the program.
  return value as Record<string, string>;
}

/**
 * Adds what `sync` and `score` share beyond the service: `--unit-deadline` (the longest one
 * `unit` may take; a sync unit, a score prompt), `--deadline` (the longest the whole job may
 * take), `--record DIR` and `--replay DIR`, to `command`, and returns it.
 * @example const command = addJobOptions("unit", new Command("sync"));
 */
export function addJobOptions(unit: "unit" | "prompt", command: Command): Command {
  return command
    .option(
      "--unit-deadline <seconds>",
      `the longest one ${unit} may take; past it, its requests stop and it is a failure`,
      integerOption("--unit-deadline", 1, 86_400),
      DEFAULT_UNIT_DEADLINE_MS / 1000,
    )
    .option(
      "--deadline <seconds>",
      `the longest the whole job may take (${DEFAULT_JOB_DEADLINE_MS / 3_600_000} hours by default); past it, the ${unit}s in flight stop, those stored are kept, and it exits 1. It also stops after ${BREAKER_UNITS} ${unit}s in a row fail the same way (the same HTTP status, the same deadline)`,
      integerOption("--deadline", 1, 7 * 86_400),
      DEFAULT_JOB_DEADLINE_MS / 1000,
    )
    .option(
      "--record <dir>",
      "save every raw response into this directory (new or empty; no request header, so never the key), to replay later",
    )
    .option(
      "--replay <dir>",
      "answer from a recording made with --record instead of the network (no sandbox; the recording's clock, naming and paths)",
    );
}

/**
 * Adds `--from` and `--to` (ISO 8601: the prompts, or `what`, starting in that range) to
 * `command`, required unless `required` is false (`score --watch` has no range), and returns it.
 * @example const command = addPromptRangeOptions(new Command("baseline"));
 */
export function addPromptRangeOptions(
  command: Command,
  required = true,
  what = "prompts",
): Command {
  const option = (required ? command.requiredOption : command.option).bind(command);
  option("--from <time>", `${what} starting from this time, ISO 8601`, isoTimeOption("--from"));
  return option("--to <time>", `${what} starting up to this time, ISO 8601`, isoTimeOption("--to"));
}

/**
 * Adds a watch's cadence to `command`: `--every <seconds>` between ticks (default 60) and
 * `--lookback <hours>` of prompt starts each tick looks over (default 2). `condition` opens their
 * help (`with --watch: `), where the options only count beside another.
 * @example const command = addWatchCadenceOptions(new Command("watch"));
 */
export function addWatchCadenceOptions(command: Command, condition = ""): Command {
  return command
    .option(
      "--every <seconds>",
      `${condition}seconds between ticks`,
      integerOption("--every", 1, 86_400),
      60,
    )
    .option(
      "--lookback <hours>",
      `${condition}hours of prompt starts each tick looks back over (a watch down for less leaves no gap)`,
      integerOption("--lookback", 1, 240),
      2,
    );
}

/**
 * Rethrows `error` from a job's run: a `UsageError` (options that cannot work together) as
 * `command`'s usage error (exit 2), anything else as it is.
 * @example try { … } catch (error) { rethrowAsUsage(command, error); }
 */
export function rethrowAsUsage(command: Command, error: unknown): never {
  if (error instanceof UsageError) {
    command.error(`error: ${error.message}`, { exitCode: EXIT_USAGE, code: "pathlab.usage" });
  }
  throw error;
}

/**
 * The API key the options of {@link addServiceOptions} give: from `--api-key-file` (its first
 * line, without surrounding whitespace), else `--api-key` or `PATHLAB_API_KEY` (trimmed);
 * `undefined` when none or empty. A key typed as `--api-key` on the command line is visible to
 * other users of the machine (`ps`): a warning on `stderr` says so. An unreadable key file is a
 * usage error naming it.
 * @example const apiKey = apiKeyOption(command, options, io.stderr);
 */
export function apiKeyOption(
  command: Command,
  options: { readonly apiKey?: string; readonly apiKeyFile?: string },
  stderr: (text: string) => void,
): string | undefined {
  let key = options.apiKey;
  if (options.apiKeyFile !== undefined) {
    try {
      key = readFileSync(options.apiKeyFile, "utf8").split(/\r?\n/)[0];
    } catch (error) {
      command.error(
        `error: --api-key-file: cannot read ${JSON.stringify(options.apiKeyFile)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        { exitCode: EXIT_USAGE, code: "pathlab.usage" },
      );
    }
  } else if (command.getOptionValueSource("apiKey") === "cli") {
    stderr(
      "pathlab: warning: --api-key on the command line is visible to other users of this machine (ps); prefer PATHLAB_API_KEY or --api-key-file\n",
    );
  }
  const trimmed = key?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/**
 * The service part of a job's options from what {@link addServiceOptions} added: `baseUrl` (an
 * empty one is none), the API key ({@link apiKeyOption}, with its warning), and the embedded
 * sandbox's `now`, `seed` and miners; only those given.
 * @example await runSync({ ...serviceRequest(command, options, io.stderr), assets });
 */
export function serviceRequest(
  command: Command,
  options: {
    readonly baseUrl?: string;
    readonly apiKey?: string;
    readonly apiKeyFile?: string;
    readonly now?: string;
    readonly seed?: number;
    readonly sandboxMiners?: number;
  },
  stderr: (text: string) => void,
): { baseUrl?: string; apiKey?: string; now?: string; seed?: number; sandboxMiners?: number } {
  const apiKey = apiKeyOption(command, options, stderr);
  return {
    ...(options.baseUrl !== undefined && options.baseUrl !== "" && { baseUrl: options.baseUrl }),
    ...(apiKey !== undefined && { apiKey }),
    ...(options.now !== undefined && { now: options.now }),
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.sandboxMiners !== undefined && { sandboxMiners: options.sandboxMiners }),
  };
}

/**
 * Where a job writes, from `--db` and `--lake`: the database, or the lake (with `--db` too when the
 * user gave it, a mistake the job names).
 * @example runSync({ ...storeTargetOf(command, options), … });
 */
export function storeTargetOf(
  command: Command,
  options: { db: string; lake?: string },
): { database: string } | { lake: string; database?: string } {
  if (options.lake === undefined) return { database: options.db };
  return {
    lake: options.lake,
    ...(command.getOptionValueSource("db") === "cli" && { database: options.db }),
  };
}
