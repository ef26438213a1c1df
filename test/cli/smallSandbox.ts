/**
 * The service of the command tests whose point is not the embedded sandbox: one small-world
 * sandbox (`SMALL_WORLD`, seed 42) in the test's process, which every `pathlab` command of the
 * file talks to over real HTTP through `PATHLAB_BASE_URL` and `PATHLAB_API_KEY`, instead of each
 * command starting the whole network of 36 miners in its own process.
 */

import { afterAll, beforeAll } from "vitest";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { SMALL_WORLD } from "../smallWorld.ts";
import { runPathlab, type Finished } from "./runPathlab.ts";

/** A running sandbox and the environment that points the `pathlab` command at it. */
export interface SandboxService {
  readonly sandbox: EmbeddedSandbox;
  /** `PATHLAB_BASE_URL` and `PATHLAB_API_KEY` of the sandbox. */
  readonly env: Readonly<Record<string, string>>;
  /** `pathlab …args` as a child process talking to the sandbox, with `env` added to its environment. */
  pathlab(args: readonly string[], env?: Record<string, string>): Promise<Finished>;
}

/**
 * For the tests of one file: the small-world sandbox at `now` accepting `apiKey`, started before
 * they run and closed after them. Its fields are set once the tests run.
 * @example const service = smallSandbox("2026-11-21T10:00:00Z", "sk-test-1"); // then service.pathlab(args)
 */
export function smallSandbox(now: string, apiKey: string): SandboxService {
  let sandbox: EmbeddedSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startEmbeddedSandbox({ ...SMALL_WORLD, seed: 42, now, apiKey });
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
  });
  const running = () => {
    if (sandbox === undefined) throw new Error("smallSandbox: read it once the tests run");
    return sandbox;
  };
  const serviceEnv = () => ({ PATHLAB_BASE_URL: running().url, PATHLAB_API_KEY: apiKey });
  return {
    get sandbox() {
      return running();
    },
    get env() {
      return serviceEnv();
    },
    pathlab: (args, env = {}) => runPathlab(args, { env: { ...serviceEnv(), ...env } }),
  };
}
