/**
 * What the sync tests share: the sandbox's clock and the units they sync, fast retries, and an
 * embedded sandbox (in its worker thread, as the sync's own: its scoring and reference insights run
 * beside the job) with a temporary folder, made before the file's tests and removed after them.
 */

import { afterAll, beforeAll } from "vitest";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { temporaryFolder } from "../store/helpers.ts";

export const SYNC_NOW = "2026-02-25T23:47:00Z";
export const SYNC_SELECTION = { assets: ["BTC", "ETH"], horizons: ["24h", "1h"] };
/** Fast retries: the sandbox's faults are immediate. */
export const FAST_RETRIES = { retryBaseMs: 10, retryMaxMs: 200 };

/** The sandbox (seed 42, clock `SYNC_NOW`, accepting `apiKey`) and the folder of a test file. */
export interface SyncFixture {
  readonly sandbox: EmbeddedSandbox;
  readonly folder: string;
}

/**
 * Registers the hooks that make and remove the file's {@link SyncFixture}; read it in the tests.
 * `world` sets the sandbox world's size (`{ miners }`, e.g. `SMALL_WORLD`); default the whole
 * network.
 * @example const fixture = syncFixture("sk-test", SMALL_WORLD); it("…", () => fixture.sandbox.url);
 */
export function syncFixture(apiKey: string, world: { readonly miners?: number } = {}): SyncFixture {
  const fixture = {} as { sandbox: EmbeddedSandbox; folder: string; remove?: () => void };
  beforeAll(async () => {
    fixture.sandbox = await startEmbeddedSandbox({
      ...world,
      seed: 42,
      now: SYNC_NOW,
      apiKey,
    });
    const made = temporaryFolder();
    fixture.folder = made.folder;
    fixture.remove = made.remove;
  });
  afterAll(async () => {
    await fixture.sandbox?.close();
    fixture.remove?.();
  });
  return fixture;
}
