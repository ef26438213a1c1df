import { describe, expect, it } from "vitest";
import { counted, noun } from "../../src/domain/counted.ts";

describe("counted", () => {
  it("puts the noun in the singular for 1 only, as its examples say", () => {
    expect(noun(1, "prompt")).toBe("prompt");
    expect(noun(0, "entry", "entries")).toBe("entries");
    expect(counted(1, "prompt")).toBe("1 prompt");
    expect(counted(3, "path set")).toBe("3 path sets");
    expect(counted(0, "unit")).toBe("0 units");
    expect(counted(-1, "unit")).toBe("-1 units");
  });
});
