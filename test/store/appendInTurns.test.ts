/**
 * `flushInTurn` flushes, then lets the event loop run before the writer goes on: what was
 * scheduled meanwhile (a pool thread's message, a timer) runs between two parts of a write. The
 * appender is a stand-in that records its flush; the rows a write stores in parts are the same as
 * before (the speed-parity and store tests write real DuckDB files).
 */
import { describe, expect, it } from "vitest";
import { flushInTurn } from "../../src/store/appendInTurns.ts";

describe("flushInTurn", () => {
  it("flushes, then waits for the event loop's next turn", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("scheduled before"));
    await flushInTurn({ flushSync: () => void order.push("flush") });
    order.push("writer goes on");
    expect(order).toEqual(["flush", "scheduled before", "writer goes on"]);
  });
});
