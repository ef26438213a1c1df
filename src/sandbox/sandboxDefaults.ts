/** The sandbox's defaults that callers show before starting it (the CLI's help, tests). */
import { createRandom } from "../reference/random.ts";
import { MINER_SLOTS } from "./world/minerProfiles.ts";

/**
 * Default seed of the sandbox.
 * @example DEFAULT_SANDBOX_SEED // => 42
 */
export const DEFAULT_SANDBOX_SEED = 42;

/**
 * How many miners the sandbox's whole network has; a sandbox may run the first few of them only
 * (`--sandbox-miners`), the nine that answer every competition first.
 * @example SANDBOX_NETWORK_MINERS // => 36
 */
export const SANDBOX_NETWORK_MINERS = MINER_SLOTS.length;

/**
 * The API key a sandbox accepts when none is configured: `sk-sandbox-` and 16 hexadecimal digits
 * derived from the seed (the same seed always gives the same key).
 * @param seed - the sandbox's seed; a fraction is dropped.
 * @example defaultSandboxApiKey(42) // => "sk-sandbox-…" (16 hex digits, fixed for seed 42)
 */
export function defaultSandboxApiKey(seed: number): string {
  const random = createRandom((Math.trunc(seed) ^ 0x5eed_ca11) >>> 0);
  const hex = () =>
    Math.floor(random.uniform() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  return `sk-sandbox-${hex()}${hex()}`;
}
