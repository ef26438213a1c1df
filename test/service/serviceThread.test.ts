/**
 * A server on a thread of its own (`startServiceThread`, under the embedded sandbox and a job's
 * replay): a thread that cannot start rejects with what and why, and a closed one refuses requests
 * with a message that says so. Real worker threads; the embedded sandbox over real HTTP on
 * 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import { startEmbeddedSandbox } from "../../src/service/embeddedSandbox.ts";
import { startServiceThread } from "../../src/service/serviceThread.ts";

describe("a server's thread", () => {
  it("that cannot start rejects, naming the server and the cause", async () => {
    await expect(startEmbeddedSandbox({ now: "not a time" })).rejects.toThrow(
      /^the embedded sandbox did not start: startSandbox: now must be an ISO 8601 time/,
    );
    const missing = new URL("../../src/service/noSuchThread.ts", import.meta.url).href;
    await expect(
      startServiceThread(missing, "noSuchThread", {}, "the missing server"),
    ).rejects.toThrow(/^the missing server did not start: /);
  });

  it("once closed, refuses a request, saying it was closed; closing again does nothing", async () => {
    const sandbox = await startEmbeddedSandbox({ miners: 9 });
    await sandbox.setFaults("5xx=every:3");
    await sandbox.close();
    await sandbox.close();
    await expect(sandbox.setFaults("")).rejects.toThrow("the embedded sandbox was closed");
  });
});
