/**
 * The replay server of a job runs on a thread of its own (`startReplayThread`): it answers while
 * the job's thread is held by synchronous work (a store's flush, here a child process waited for
 * with `execFileSync`), as a service over the network would; repeated requests get the recorded
 * responses in order; the report comes from the thread. Real files in a temp folder, real HTTP on
 * 127.0.0.1, a real child process.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRecording } from "../../src/service/replay.ts";
import { startReplayThread } from "../../src/service/replayOnThread.ts";
import { resolveService } from "../../src/service/resolveService.ts";
import { temporaryFolder } from "../store/helpers.ts";
import { writeHandRecording } from "./handRecording.ts";

let folder: string;
let remove: () => void;

beforeAll(() => {
  ({ folder, remove } = temporaryFolder());
  writeHandRecording(
    folder,
    [1, 2].map((answer) => ({
      name: "a",
      path: "/a",
      query: "x=1",
      body: JSON.stringify({ answer }),
    })),
  );
});
afterAll(() => remove?.());

/** A GET of `url` by a child process, waited for synchronously: this thread is held meanwhile. */
function fetchFromChild(url: string): string {
  const script = `fetch(${JSON.stringify(url)}).then(async (r) => process.stdout.write(r.status + " " + (await r.text())))`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 20_000 });
}

describe("the replay server on a thread of its own", () => {
  it("answers while the job's thread is held, in the recorded order, and reports what it answered", async () => {
    const server = await startReplayThread(await loadRecording(folder, "sync"));
    try {
      expect(fetchFromChild(`${server.url}/a?x=1`)).toBe('200 {"answer":1}');
      expect(fetchFromChild(`${server.url}/a?x=1`)).toBe('200 {"answer":2}');
      // the last recorded response repeats
      expect(await (await fetch(`${server.url}/a?x=1`)).json()).toEqual({ answer: 2 });
      const missing = await fetch(`${server.url}/b`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe("not in the recording: GET /b");
      expect(await server.report()).toEqual({
        directory: folder,
        exchanges: 2,
        answered: 3,
        unanswered: ["GET /b"],
      });
    } finally {
      await server.close();
      await server.close();
    }
    await expect(fetch(`${server.url}/a?x=1`)).rejects.toThrow();
    await expect(server.report()).rejects.toThrow("the replay server was closed");
  });

  it("is what a job's replay is served from (resolveService)", async () => {
    const resolved = await resolveService({}, [], await loadRecording(folder, "sync"));
    try {
      expect(fetchFromChild(`${resolved.service.baseUrl}/a?x=1`)).toBe('200 {"answer":1}');
      expect(await resolved.replay?.report()).toMatchObject({ answered: 1, unanswered: [] });
    } finally {
      await resolved.replay?.close();
    }
  });
});
