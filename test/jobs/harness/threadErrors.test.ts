/**
 * A task's error crosses a real MessagePort (structured clone, as piscina sends results) with its
 * name and its HTTP fields; a result that is not an error passes as it is.
 */
import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { AuthenticationError, isAuthenticationError } from "../../../src/client/errors.ts";
import { resultOfThread, threadError } from "../../../src/jobs/harness/threadErrors.ts";

/** `value` after a trip through a MessagePort. */
function cloned(value: unknown): Promise<unknown> {
  const { port1, port2 } = new MessageChannel();
  return new Promise((resolve) => {
    port2.once("message", (message) => {
      port1.close();
      port2.close();
      resolve(message);
    });
    port1.postMessage(value);
  });
}

describe("errors across the unit pool's threads", () => {
  it("a thrown error loses its name and fields on its own (why threadError exists)", async () => {
    const error = new AuthenticationError("/v2/prediction/historical: HTTP 401", {
      operation: "/v2/prediction/historical",
      status: 401,
    });
    const received = (await cloned(error)) as Error & { status?: number };
    expect(received.name).toBe("Error");
    expect(received.status).toBeUndefined();
  });

  it("threadError and resultOfThread keep the name, the message, the status and the operation", async () => {
    const error = new AuthenticationError("/v2/prediction/historical: HTTP 401 (refused)", {
      operation: "/v2/prediction/historical",
      status: 401,
    });
    const received = await cloned(threadError(error));
    let thrown: (Error & { status?: number; operation?: string }) | undefined;
    try {
      resultOfThread(received);
    } catch (caught) {
      thrown = caught as typeof thrown;
    }
    expect(thrown?.name).toBe("AuthenticationError");
    expect(thrown?.message).toBe("/v2/prediction/historical: HTTP 401 (refused)");
    expect(thrown?.status).toBe(401);
    expect(thrown?.operation).toBe("/v2/prediction/historical");
    expect(isAuthenticationError(thrown)).toBe(true);
    expect(isAuthenticationError(new Error("HTTP 401"))).toBe(false);
  });

  it("a result passes as it is, and a thrown non-Error becomes an Error with its text", async () => {
    const result = { kind: "score prompt", values: [1, 2, 3] };
    expect(resultOfThread(await cloned(result))).toEqual(result);
    expect(() => resultOfThread(threadError("plain text"))).toThrow("plain text");
  });
});
