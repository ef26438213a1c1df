/**
 * A queue worker's services: an embedded sandbox per seed and clock its units name, of which it
 * keeps the last two once no unit holds them (a watch names a new clock every tick), closing the
 * others; a named service needs the worker's own key.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SANDBOXES_KEPT, ServiceCache } from "../../../src/jobs/queue/serviceCache.ts";
import type { UnitService } from "../../../src/jobs/score/queueUnit.ts";

const noPacing = { throttle: () => async () => {} };
const sandboxAt = (now: string): UnitService => ({ kind: "sandbox", seed: 42, now });
const CLOCKS = ["2026-11-20T10:00:00Z", "2026-11-20T10:01:00Z", "2026-11-20T10:02:00Z"];

/** Whether a sandbox still answers at `url`. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(
      `${url}/validation/realized-path?asset=BTC&start_time=2026-11-20T09:00:00Z&time_increment=60&time_length=3600`,
    );
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

let cache: ServiceCache | undefined;
afterEach(async () => {
  await cache?.close();
  cache = undefined;
});

describe("ServiceCache", () => {
  it("keeps the last two sandboxes and closes the least recently used one", async () => {
    cache = new ServiceCache(undefined, noPacing);
    const urls: string[] = [];
    for (const clock of CLOCKS) {
      urls.push(await cache.use(sandboxAt(clock), async (client) => client.baseUrl));
    }
    expect(SANDBOXES_KEPT).toBe(2);
    expect(cache.sandboxes).toBe(2);
    expect(await answers(urls[0])).toBe(false);
    expect(await answers(urls[1])).toBe(true);
    expect(await answers(urls[2])).toBe(true);
    // the same service again is the same sandbox, not a new one
    expect(await cache.use(sandboxAt(CLOCKS[2]), async (client) => client.baseUrl)).toBe(urls[2]);
    expect(cache.sandboxes).toBe(2);
  }, 60_000);

  it("never closes a sandbox that a running unit holds", async () => {
    cache = new ServiceCache(undefined, noPacing);
    const active = cache;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let heldUrl = "";
    const first = active.use(sandboxAt(CLOCKS[0]), async (client) => {
      heldUrl = client.baseUrl;
      await held;
      return answers(client.baseUrl);
    });
    // however long the sandbox takes to start
    await expect.poll(() => heldUrl, { timeout: 60_000 }).not.toBe("");
    for (const clock of CLOCKS.slice(1)) await active.use(sandboxAt(clock), async () => {});
    await active.use(sandboxAt("2026-11-20T10:03:00Z"), async () => {});
    // the others came and went around it: the held one is never the one closed
    expect(active.sandboxes).toBe(2);
    release();
    expect(await first).toBe(true);
    // released, it is the least recently used: the next new clock closes it
    await active.use(sandboxAt("2026-11-20T10:04:00Z"), async () => {});
    expect(active.sandboxes).toBe(2);
    expect(await answers(heldUrl)).toBe(false);
  }, 60_000);

  it("refuses a named service to a worker without a key, and keeps nothing of it", async () => {
    cache = new ServiceCache(undefined, noPacing);
    const service: UnitService = { kind: "service", baseUrl: "http://127.0.0.1:9" };
    await expect(cache.use(service, async () => 1)).rejects.toThrow(
      "unit for http://127.0.0.1:9: this worker has no API key (set PATHLAB_API_KEY); units never carry one",
    );
    cache = new ServiceCache("sk-worker", noPacing);
    expect(await cache.use(service, async (client) => client.baseUrl)).toBe("http://127.0.0.1:9");
  });
});
