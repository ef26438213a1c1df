import { describe, expect, it } from "vitest";
import { createLruCache } from "../../../src/sandbox/server/lruCache.ts";

describe("createLruCache", () => {
  it("evicts the least recently used entry first when over maxEntries", () => {
    const cache = createLruCache<string, number>({ maxEntries: 2 });
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // "a" is now the most recently used
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  it("keeps the total weight within maxWeight and refuses an entry heavier than it", () => {
    const cache = createLruCache<string, string>({
      maxEntries: 100,
      maxWeight: 10,
      weigh: (text) => text.length,
    });
    cache.set("a", "1234");
    cache.set("b", "1234");
    cache.set("c", "1234"); // 12 > 10: "a" goes
    expect(cache.get("a")).toBeUndefined();
    expect(cache.weight).toBe(8);
    cache.set("huge", "12345678901");
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.weight).toBe(8);
    cache.set("b", "1"); // replacing an entry replaces its weight
    expect(cache.weight).toBe(5);
  });

  it("computes a missing value once in getOrCompute", () => {
    const cache = createLruCache<string, number>({ maxEntries: 4 });
    let calls = 0;
    const compute = () => ++calls;
    expect(cache.getOrCompute("k", compute)).toBe(1);
    expect(cache.getOrCompute("k", compute)).toBe(1);
    expect(calls).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.getOrCompute("k", compute)).toBe(2);
  });

  it("rejects bounds that cannot hold anything", () => {
    expect(() => createLruCache({ maxEntries: 0 })).toThrow(/maxEntries ≥ 1, got 0/);
    expect(() => createLruCache({ maxEntries: 1, maxWeight: -1 })).toThrow(/maxWeight ≥ 0/);
  });
});
