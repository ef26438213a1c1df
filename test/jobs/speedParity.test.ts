/**
 * Speed changes no result: a sync and a score on the embedded sandbox store exactly the rows of
 * test/jobs/fixtures/speedParity.json, table by table, which `scripts/speedParityFixture.mts` made
 * by running the jobs of the commit it names. It covers what the sandbox serves; bodies the
 * sandbox never sends (whole floats written `80000.0`, Python's NaN) are covered by
 * test/jobs/minerPathSetBytes.test.ts.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../store/helpers.ts";
import {
  SPEED_PARITY_FIXTURE,
  runSpeedParity,
  type SpeedParityDigests,
} from "./speedParityRuns.ts";

const fixture = JSON.parse(readFileSync(SPEED_PARITY_FIXTURE, "utf8")) as SpeedParityDigests & {
  madeBy: string;
};

describe(`stored rows against those of ${fixture.madeBy}`, () => {
  let folder: string;
  let remove: () => void;
  let digests: SpeedParityDigests;

  beforeAll(async () => {
    ({ folder, remove } = temporaryFolder());
    digests = await runSpeedParity(join(import.meta.dirname, "..", ".."), folder);
  }, 180_000);
  afterAll(() => remove?.());

  it("the sync stores the same rows in every table", () => {
    expect(fixture.sync.insight_values.rows).toBeGreaterThan(10_000);
    expect(digests.sync).toEqual(fixture.sync);
  });

  it("the score stores the same rows in every table, the service's scores included", () => {
    expect(fixture.score.miner_scores.rows).toBeGreaterThan(0);
    expect(fixture.score.service_scores.rows).toBeGreaterThan(0);
    expect(digests.score).toEqual(fixture.score);
  });
});
