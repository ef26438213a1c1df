import { describe, expect, it } from "vitest";
import { createSemaphore } from "../../src/client/semaphore.ts";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("createSemaphore", () => {
  it("createSemaphore runs at most limit tasks at once, first come first served", async () => {
    const semaphore = createSemaphore(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let inFlight = 0;
    let maximum = 0;
    const runs = gates.map((gate, index) =>
      semaphore.run(async () => {
        started.push(index);
        inFlight += 1;
        maximum = Math.max(maximum, inFlight);
        await gate.promise;
        inFlight -= 1;
        return index * 10;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(semaphore.active).toBe(2);
    expect(semaphore.waiting).toBe(2);
    gates[1].resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    gates[0].resolve();
    gates[2].resolve();
    gates[3].resolve();
    expect(await Promise.all(runs)).toEqual([0, 10, 20, 30]);
    expect(maximum).toBe(2);
    expect(semaphore.active).toBe(0);
    expect(semaphore.waiting).toBe(0);
  });

  it("createSemaphore releases the slot when a task throws", async () => {
    const semaphore = createSemaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error("task failed")))).rejects.toThrow(
      "task failed",
    );
    expect(semaphore.active).toBe(0);
    expect(await semaphore.run(async () => "next")).toBe("next");
  });

  it("createSemaphore rejects a limit that is not an integer ≥ 1", () => {
    expect(() => createSemaphore(0)).toThrow(
      "createSemaphore requires an integer limit ≥ 1, got 0",
    );
    expect(() => createSemaphore(1.5)).toThrow(RangeError);
  });
});
