/**
 * Which client options can cross to the unit pool's threads, and when a run uses the pool at all.
 */

import { describe, expect, it } from "vitest";
import { dataOf, isData, unitPoolThreads } from "../../src/service/clientData.ts";
import { liveNaming } from "../../src/domain/naming.ts";

describe("the client options a pool thread can be given", () => {
  it("takes primitives, arrays and plain objects of data, looking inside them", () => {
    expect(isData({ naming: liveNaming, paths: { "/a": "/b" }, retries: [1, 2] })).toBe(true);
    expect(isData({ nested: { onEvent: () => undefined } })).toBe(false);
    expect(isData(new Map())).toBe(false);
  });

  it("keeps only the entries that are data", () => {
    expect(dataOf({ concurrency: 4, onEvent: () => undefined })).toEqual({ concurrency: 4 });
  });
});

describe("unitPoolThreads", () => {
  it("gives the threads asked for when nothing keeps the run on the job's thread", () => {
    expect(unitPoolThreads(2, undefined, false)).toBe(2);
    expect(unitPoolThreads(3, { concurrency: 4, naming: liveNaming }, false)).toBe(3);
  });

  it("gives none while recording, or with client options that hold functions", () => {
    expect(unitPoolThreads(2, undefined, true)).toBe(0);
    expect(unitPoolThreads(2, { onExchange: () => undefined }, false)).toBe(0);
    expect(unitPoolThreads(2, { paths: { throttle: () => undefined } }, false)).toBe(0);
  });
});
