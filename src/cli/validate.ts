/**
 * `pathlab validate FILE…`: checks candidate files (a miner's response, or a prediction-set record
 * with its prompt) as the network's validator checks a response, with its exact reasons, under the
 * format rule in force at each prompt's start (or at `--at`).
 */

import { Command } from "commander";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { CandidateFile } from "../jobs/score/candidate.ts";
import { validatorEraAt } from "../domain/eras.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import { EXIT_OK, EXIT_PARTIAL, EXIT_USAGE } from "./errors.ts";
import { isoTimeOption } from "./optionParsers.ts";
import type { ProgramIo, ProgramStatus } from "./io.ts";

interface ValidateCommandOptions {
  at?: string;
  json?: boolean;
}

const HELP = `
The check to run before deploying a miner: it answers as the validator would, with its exact
reason (first failure wins), e.g.
  BTC-2026-11-20T10-00.json  CORRECT  (BTC 1h prompt at 2026-11-20T10:00:00Z, format rule v1.10.3)
  ETH-2026-11-20T10-00.json  Price format is incorrect: too many digits 2631.123456  (ETH 1h …)

A file is either what a miner sends the validator, [start_time, time_increment, [p0, …], …]
(1000 paths; the asset is the file name up to its first "-": BTC-anything.json; 60 s steps make a
1h prompt of 61 points, 300 s a 24h prompt of 289), or the spec's prediction-set record plus
asset, time_increment and time_length (what score --candidate and baseline use). Numbers are read
as Python reads them: 1.0 is a float, 1 an int, true a bool.

The price rules changed with validator v1.10.3 (2026-07-16): before, str(price) without its "."
must have at most 8 characters (0.51234567 fails, 1e39 passes); from then on a price must be an
int or float (not a bool), finite, within float32, and equal to its 8-significant-digit form.
A price the validator accepts but that cannot be scored (zero or negative: -1 on the network)
is reported too.

Exit codes: 0 every file passes, 1 some file fails or cannot be read, 2 bad usage.`;

/**
 * The `validate` command of the program (`buildProgram`): one line per file (or JSON), and exit
 * code 1 when any file fails.
 * @example buildProgram(io, status).addCommand(validateCommand(io, status));
 */
export function validateCommand(io: ProgramIo, status: ProgramStatus): Command {
  const command: Command = new Command("validate")
    .description(
      "check miner responses exactly as the network's validator does, before deploying a miner",
    )
    .argument("<files...>", "response or prediction-set files (JSON), or folders of *.json files")
    .option(
      "--at <time>",
      "validate under the rules in force at this time, ISO 8601 (default: each file's prompt start)",
      isoTimeOption("--at"),
    )
    .option("--json", "print one JSON object per file, as an array")
    .addHelpText("after", HELP)
    .action(async (files: string[], options: ValidateCommandOptions) => {
      const atUnix = options.at === undefined ? undefined : parseIsoTimeMs(options.at) / 1000;
      const given = files;
      files = (await Promise.all(given.map(filesOf))).flat();
      if (files.length === 0) {
        command.error(`error: validate: no *.json files in ${given.join(", ")}`, {
          exitCode: EXIT_USAGE,
          code: "pathlab.usage",
        });
      }
      // Loaded on use: the validator's rules are not needed to build the program.
      const { readCandidateFile } = await import("../jobs/score/candidate.ts");
      const checked: CandidateFile[] = [];
      for (const file of files) checked.push(await readCandidateFile(file, { atUnix }));
      const results = checked.map((file, index) => result(files[index], file, atUnix));
      if (options.json === true) {
        io.stdout(`${JSON.stringify(results, null, 2)}\n`);
      } else {
        const width = Math.max(...results.map((entry) => entry.file.length));
        for (const entry of results) io.stdout(`${line(entry, width)}\n`);
      }
      status.exitCode = results.every((entry) => entry.ok) ? EXIT_OK : EXIT_PARTIAL;
    });
  return command;
}

/** What `validate --json` prints for one file. */
interface ValidateResult {
  /** The path as given. */
  readonly file: string;
  readonly layout: CandidateFile["layout"] | null;
  readonly asset: string | null;
  readonly timeIncrement: number | null;
  readonly timeLength: number | null;
  readonly startTime: string | null;
  /** The format rule applied (`legacy` or `v1.10.3`); null when the prompt is unknown. */
  readonly formatRule: string | null;
  /** The validator's verdict: `CORRECT` or its reason; null when it could not be asked. */
  readonly validation: string | null;
  /** Why the file fails (the validator's reason, or what else is wrong); null when it passes. */
  readonly reason: string | null;
  readonly ok: boolean;
}

function result(path: string, file: CandidateFile, atUnix: number | undefined): ValidateResult {
  const at = atUnix ?? file.startTimeUnix;
  return {
    file: path,
    layout: file.layout ?? null,
    asset: file.asset ?? null,
    timeIncrement: file.timeIncrement ?? null,
    timeLength: file.timeLength ?? null,
    startTime:
      file.startTimeUnix === undefined
        ? null
        : new Date(file.startTimeUnix * 1000).toISOString().replace(".000Z", "Z"),
    formatRule:
      file.validation === undefined || at === undefined ? null : validatorEraAt(at).responseFormat,
    validation: file.validation ?? null,
    reason: file.reason ?? null,
    ok: file.reason === undefined,
  };
}

function line(entry: ValidateResult, width: number): string {
  const verdict =
    entry.reason === null
      ? "CORRECT"
      : entry.validation === "CORRECT"
        ? `CORRECT for the validator, but it cannot be scored: ${entry.reason}`
        : entry.reason;
  const horizon = entry.timeLength === 3600 ? "1h" : entry.timeLength === 86400 ? "24h" : undefined;
  const prompt =
    entry.asset === null || entry.startTime === null || horizon === undefined
      ? ""
      : `  (${entry.asset} ${horizon} prompt at ${entry.startTime}${entry.formatRule === null ? "" : `, format rule ${entry.formatRule}`})`;
  return `${entry.file.padEnd(width)}  ${verdict}${prompt}`;
}

/** A folder's `*.json` files (sorted by name), or the path itself when it is not a folder. */
async function filesOf(path: string): Promise<string[]> {
  const entries = await readdir(path).catch(() => undefined);
  if (entries === undefined) return [path];
  return entries
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => join(path, name));
}
