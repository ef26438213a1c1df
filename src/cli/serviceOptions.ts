/** The options every job command shares: which service to talk to, or how to run the sandbox. */
import { Option, type Command } from "commander";
import { DEFAULT_SANDBOX_SEED } from "../sandbox/sandboxDefaults.ts";
import { integerOption, isoTimeOption } from "./optionParsers.ts";

/**
 * Adds `--base-url` (env `PATHLAB_BASE_URL`), `--api-key` (env `PATHLAB_API_KEY`), and the embedded
 * sandbox's `--now` and `--seed` to `command`, and returns it.
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
      new Option("--api-key <key>", "API key of the service (never printed or stored)").env(
        "PATHLAB_API_KEY",
      ),
    )
    .option(
      "--now <time>",
      "the embedded sandbox's clock, ISO 8601 (default: the current minute)",
      isoTimeOption("--now"),
    )
    .option(
      "--seed <integer>",
      `the embedded sandbox's seed (default ${DEFAULT_SANDBOX_SEED})`,
      integerOption("--seed", -(2 ** 31), 2 ** 32 - 1),
    );
}
