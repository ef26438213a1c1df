/** `pathlab serve`: runs the offline sandbox until SIGINT or SIGTERM. */
import { Command, InvalidArgumentError } from "commander";
import { InvalidParamsError } from "../domain/errors.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import { FAULTS_FORMAT, parseFaults } from "../sandbox/server/parseFaults.ts";
import { DEFAULT_SANDBOX_SEED, SANDBOX_NETWORK_MINERS } from "../sandbox/sandboxDefaults.ts";
import { isSendableKey } from "../sandbox/server/accessControl.ts";
import { counted } from "../domain/counted.ts";
import type { ProgramIo } from "./io.ts";
import { addDeploymentOptions } from "./serviceOptions.ts";

/**
 * Default port of `pathlab serve`.
 * @example DEFAULT_SERVE_PORT // => 8787
 */
export const DEFAULT_SERVE_PORT = 8787;

interface ServeOptions {
  port: number;
  host: string;
  seed: number;
  sandboxMiners?: number;
  now?: string;
  faults?: string;
  naming: "neutral" | "live";
  paths?: Record<string, string>;
  apiKey?: string[];
  basicKey?: string[];
  credits?: number;
  computeThreads: number;
}

function integerIn(name: string, minimum: number, maximum: number) {
  return (text: string): number => {
    const value = /^[+-]?\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
    if (!(value >= minimum && value <= maximum)) {
      throw new InvalidArgumentError(
        `${name} must be a whole number from ${minimum} to ${maximum}, got ${JSON.stringify(text)}`,
      );
    }
    return value;
  };
}

/**
 * Resolves on the first SIGINT or SIGTERM.
 * @example await untilSignal();
 */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/**
 * Builds the `serve` command: starts the sandbox, prints its URL and the API key to use, and runs
 * until SIGINT or SIGTERM, then closes every connection and returns (exit code 0).
 * @example
 * program.addCommand(serveCommand(io));
 */
export function serveCommand(io: ProgramIo): Command {
  return addDeploymentOptions(new Command("serve"))
    .description(
      "run the offline sandbox: a deterministic implementation of the whole interface on a local port",
    )
    .option(
      "--port <number>",
      "port to listen on (0: any free port)",
      integerIn("--port", 0, 65535),
      DEFAULT_SERVE_PORT,
    )
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option(
      "--seed <integer>",
      "seed of the world and of the faults",
      integerIn("--seed", -(2 ** 31), 2 ** 32 - 1),
      DEFAULT_SANDBOX_SEED,
    )
    .option(
      "--sandbox-miners <count>",
      `the network: its first N miners, the nine that answer every competition first (default all ${SANDBOX_NETWORK_MINERS}; fewer is lighter)`,
      integerIn("--sandbox-miners", 1, SANDBOX_NETWORK_MINERS),
    )
    .option(
      "--now <time>",
      "the sandbox's clock, ISO 8601 (default: the current time floored to the minute)",
      (text: string) => {
        if (Number.isNaN(parseIsoTimeMs(text))) {
          throw new InvalidArgumentError(
            `--now must be an ISO 8601 time such as 2026-02-25T23:45:00Z, got ${JSON.stringify(text)}`,
          );
        }
        return text;
      },
    )
    .option("--faults <rules>", "fault injection rules (see below)", (text: string) => {
      try {
        parseFaults(text);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
      return text;
    })
    .option(
      "--api-key <key>",
      "an accepted API key (repeatable; default: one derived from the seed)",
      (key: string, previous: string[] | undefined) => [...(previous ?? []), key],
    )
    .option(
      "--basic-key <key>",
      "a key with basic access: raw prediction paths answer it 401, as the live service's default tier (repeatable)",
      (key: string, previous: string[] | undefined) => [...(previous ?? []), key],
    )
    .option(
      "--credits <number>",
      "credits per key, one per insights request",
      integerIn("--credits", 0, Number.MAX_SAFE_INTEGER),
    )
    .option(
      "--compute-threads <number>",
      "threads that compute the answers, by asset, while the main thread serves (0: the main thread computes them)",
      integerIn("--compute-threads", 0, 64),
      0,
    )
    .addHelpText("after", `\nFaults (--faults): ${FAULTS_FORMAT}`)
    .action(async (options: ServeOptions) => {
      // Loaded on use: the sandbox's modules are not needed by the other commands.
      const { startSandbox } = await import("../sandbox/startSandbox.ts");
      const sandbox = await startSandbox({
        port: options.port,
        host: options.host,
        seed: options.seed,
        naming: options.naming,
        computeThreads: options.computeThreads,
        ...(options.paths !== undefined && { paths: options.paths }),
        ...(options.now !== undefined && { now: options.now }),
        ...(options.sandboxMiners !== undefined && { miners: options.sandboxMiners }),
        ...(options.faults !== undefined && { faults: options.faults }),
        ...(options.apiKey !== undefined && { apiKeys: options.apiKey.map(sandboxKey) }),
        ...(options.credits !== undefined && { credits: options.credits }),
        ...(options.basicKey !== undefined && { basicKeys: options.basicKey.map(sandboxKey) }),
      });
      io.stdout(
        `pathlab sandbox listening on ${sandbox.url} (seed ${sandbox.seed}, now ${sandbox.now}, naming ${options.naming})\n` +
          `API key: ${sandbox.apiKey}\n` +
          `  export PATHLAB_BASE_URL=${sandbox.url} PATHLAB_API_KEY=${sandbox.apiKey}\n` +
          (options.faults === undefined ? "" : `faults: ${options.faults}\n`) +
          "Press Ctrl+C to stop.\n",
      );
      const signal = await untilSignal();
      await sandbox.close();
      io.stdout(`pathlab sandbox stopped (${signal})\n`);
    });
}

/**
 * A key `serve` accepts, as clients send it: trimmed (they trim what they read, so a key given
 * with a trailing space or `\r` would never match), and printable without spaces, so that the
 * line that shows it is the key. Throws an `InvalidParamsError` (exit 2) that does not show the
 * key (commander's own argument errors would).
 * @example sandboxKey("sk-local-1\r") // => "sk-local-1"
 */
export function sandboxKey(key: string): string {
  const trimmed = key.trim();
  if (!isSendableKey(trimmed)) {
    throw new InvalidParamsError(
      "serve",
      "--api-key",
      "printable ASCII without spaces (after trimming)",
      trimmed === ""
        ? "an empty key"
        : `a key of ${counted(trimmed.length, "character")} with others`,
    );
  }
  return trimmed;
}
