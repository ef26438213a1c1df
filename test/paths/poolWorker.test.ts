import { MessageChannel } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { waitForMessages } from "../../src/paths/poolWorker.ts";

describe("waitForMessages", () => {
  it("delivers the messages waiting on each port, and returns once done", () => {
    const channels = [new MessageChannel(), new MessageChannel()];
    const signal = new Int32Array(new SharedArrayBuffer(4));
    channels[0].port2.postMessage("a");
    channels[1].port2.postMessage("b");
    channels[0].port2.postMessage("c");
    const delivered: [number, unknown][] = [];
    waitForMessages(
      "test",
      signal,
      channels.map((channel) => channel.port1),
      (index, message) => delivered.push([index, message]),
      () => delivered.length === 3,
      1000,
      () => {},
    );
    expect(delivered).toEqual([
      [0, "a"],
      [0, "c"],
      [1, "b"],
    ]);
    for (const channel of channels) channel.port1.close();
  });

  it("calls help between messages instead of sleeping, and its work counts as progress", () => {
    const channel = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    let helped = 0;
    // Each piece of help takes 20 ms; 10 pieces outlast the 50 ms idle limit without a message.
    waitForMessages(
      "test",
      signal,
      [channel.port1],
      () => {},
      () => helped === 10,
      50,
      () => {
        throw new Error("not idle: help made progress");
      },
      () => {
        const until = performance.now() + 20;
        while (performance.now() < until);
        helped += 1;
        return true;
      },
    );
    expect(helped).toBe(10);
    channel.port1.close();
  });

  it("without messages or help, gives up after the idle limit, naming the operation", () => {
    const channel = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    let idleError: Error | undefined;
    let helpCalls = 0;
    expect(() =>
      waitForMessages(
        "Pool.blockingCall",
        signal,
        [channel.port1],
        () => {},
        () => false,
        1000,
        (error) => (idleError = error),
        () => {
          helpCalls += 1;
          return false;
        },
      ),
    ).toThrow("Pool.blockingCall: no result from the workers for 1 s");
    expect(idleError?.message).toBe("Pool.blockingCall: no result from the workers for 1 s");
    expect(helpCalls).toBeGreaterThan(0);
    channel.port1.close();
  });
});
