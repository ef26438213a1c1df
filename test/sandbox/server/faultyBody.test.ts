import { describe, expect, it } from "vitest";
import { faultyBody } from "../../../src/sandbox/server/faultyBody.ts";

describe("faultyBody", () => {
  const record = {
    forecast_start_time: "2026-02-25T23:00:00Z",
    current_price: 67676.6,
    data: [{ x: 1 }],
  };

  it("drops the first field of the first record", () => {
    expect(JSON.parse(faultyBody(record, "missingField"))).toEqual({
      current_price: 67676.6,
      data: [{ x: 1 }],
    });
    expect(
      JSON.parse(
        faultyBody(
          [
            { a: 1, b: 2 },
            { a: 3, b: 4 },
          ],
          "missingField",
        ),
      ),
    ).toEqual([{ b: 2 }, { a: 3, b: 4 }]);
    expect(faultyBody([], "missingField")).toBe("[{}]");
  });

  it("writes the first number as the literal NaN, which JSON.parse rejects", () => {
    const text = faultyBody(record, "nanPrice");
    expect(text).toBe(
      '{"forecast_start_time":"2026-02-25T23:00:00Z","current_price":NaN,"data":[{"x":1}]}',
    );
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(faultyBody({ a: "no numbers" }, "nanPrice")).toBe('{"a":"no numbers"}');
  });

  it("leaves bodies without paths unchanged for shortPaths, and never modifies its input", () => {
    const copy = structuredClone(record);
    expect(faultyBody(record, "shortPaths")).toBe(JSON.stringify(record));
    faultyBody(record, "missingField");
    faultyBody(record, "nanPrice");
    expect(record).toEqual(copy);
  });
});
