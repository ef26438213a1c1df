/**
 * The request rate that the workers of a queue share, on a real `redis-server`: three worker
 * processes score units against one service whose per-key rate limit is small, and the service's
 * own count of requests per key and window never passes its limit. Skipped without redis-server
 * unless PATHLAB_REQUIRE_REDIS=1 (CI), as queueWorkers.test.ts.
 */

import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { expect, it } from "vitest";
import { startSandbox } from "../../../src/sandbox/startSandbox.ts";
import { runPathlab } from "../../cli/runPathlab.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";
import { describeWithRedis, NOW, RANGE, rows, startWorker } from "./queueHelpers.ts";

const LIMIT = 10; // the service's: requests per key per second
const PACE = 6; // the workers': requests per second, together

describeWithRedis("one request rate for every worker", ({ directory, url: redisUrl }) => {
  it("three workers against a service limited per key stay within its limit", async () => {
    const url = redisUrl();
    const key = "the-service-key";
    const sandbox = await startSandbox({
      ...SMALL_WORLD,
      seed: 42,
      now: NOW,
      apiKeys: [key],
      rateLimit: { requests: LIMIT, windowMs: 1000 },
    });
    const port = new URL(sandbox.url).port;
    // What the service answered, and when each request reached it.
    const statuses = new Map<number, number>();
    const arrivals: number[] = [];
    const ours = (message: unknown) =>
      String((message as { request: IncomingMessage }).request.socket.localPort) === port;
    const arrived = (message: unknown) => {
      if (ours(message)) arrivals.push(performance.now());
    };
    const answered = (message: unknown) => {
      if (!ours(message)) return;
      const { statusCode } = (message as { response: ServerResponse }).response;
      statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    };
    const listen = (on: typeof subscribe) => {
      on("http.server.request.start", arrived);
      on("http.server.response.finish", answered);
    };
    try {
      const queueName = ["--queue", "rate"];
      const enqueued = await runPathlab(
        [
          "enqueue",
          "score",
          "--redis",
          url,
          ...queueName,
          // nine units (a BTC 24h prompt every 30 minutes): three for each worker
          "--from",
          "2026-11-19T06:00:00Z",
          "--to",
          "2026-11-19T10:00:00Z",
          ...RANGE.slice(6),
          "--base-url",
          sandbox.url,
          "--no-own-only",
        ],
        { env: { PATHLAB_API_KEY: key } },
      );
      expect(enqueued.stderr).toBe("");
      const units = Number(/enqueued: (\d+) of/.exec(enqueued.stdout)?.[1]);
      expect(units).toBeGreaterThan(8);
      // The enqueuer's own requests are not paced; its window closes before the workers start.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      listen(subscribe);
      const lake = join(directory, "rate-lake");
      const pace = [...queueName, "--until-idle", "--requests-per-second", String(PACE)];
      const workers = [0, 1, 2].map(() => startWorker(url, lake, pace, { PATHLAB_API_KEY: key }));
      expect(await Promise.all(workers.map((worker) => worker.done))).toEqual([0, 0, 0]);
      listen(unsubscribe);

      expect(await rows(["--lake", lake], "prompts")).toHaveLength(units);
      expect(arrivals.length).toBeGreaterThan(3 * units);
      expect(statuses.get(429), "requests the service refused for its rate limit").toBeUndefined();
      // The most requests in any one second (stricter than the service's own windows, which
      // start at a window's first request): within the limit, and about the pace, so the
      // workers did press against it.
      const busiest = Math.max(
        ...arrivals.map((at) => arrivals.filter((t) => t >= at && t < at + 1000).length),
      );
      expect(busiest).toBeLessThanOrEqual(LIMIT);
      expect(busiest).toBeGreaterThanOrEqual(PACE - 1);
      const status = await runPathlab(["queue", "status", "--redis", url, ...queueName]);
      expect(status.stdout).toContain(`requests: at most ${PACE} per second to each service\n`);
    } finally {
      listen(unsubscribe);
      await sandbox.close();
    }
  }, 180_000);
});
