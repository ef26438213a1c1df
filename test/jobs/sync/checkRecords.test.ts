import { describe, expect, it, vi } from "vitest";
import { checkRecords } from "../../../src/jobs/sync/checkRecords.ts";
import { recompute, RECOMPUTABLE_PATHS } from "../../../src/insights/recompute.ts";
import type { RecomputablePath } from "../../../src/insights/recompute.ts";
import { InsightSession } from "../../../src/insights/session.ts";
import type { PathPassRequest } from "../../../src/insights/sessionParts.ts";
import { ensembleWithContext } from "../../insights/gbmEnsembles.ts";

/** Whether `later` asks only for intermediates that `first` already computed (a pass-free call). */
function coveredBy(first: PathPassRequest, later: PathPassRequest): boolean {
  const steps = new Set(first.extremeSteps ?? []);
  return (
    (later.extremeSteps ?? []).every((step) => steps.has(step)) &&
    (later.blockSteps === undefined || later.blockSteps === first.blockSteps) &&
    (later.intervals === undefined ||
      (first.intervals !== undefined &&
        String(later.intervals.lowers) === String(first.intervals.lowers) &&
        String(later.intervals.uppers) === String(first.intervals.uppers)))
  );
}

describe("checkRecords", () => {
  it("computes the records' per-path intermediates in one pass over the paths, with the same cross-checks as without it", () => {
    const { ensemble, context } = ensembleWithContext("24h", 61);
    // The service side: every record as an unprepared session computes it.
    const alone = new InsightSession(ensemble, context);
    const records = new Map<RecomputablePath, unknown>(
      RECOMPUTABLE_PATHS.map((path) => [path, recompute(path, alone, context).record]),
    );
    const session = new InsightSession(ensemble, context);
    const prepare = vi.spyOn(session, "prepare");
    const checked = checkRecords(records, session, context);

    // One pass: the liquidation windows' ends, the hit markets' event end (now = 05:45 UTC, the
    // daily event ends at 17:00, step 207), the 16 LP bounds and the volatility blocks together;
    // the records' own calls afterwards find everything computed.
    const [first, ...later] = prepare.mock.calls.map((call) => call[0]);
    expect([...(first.extremeSteps ?? [])].sort((a, b) => a - b)).toEqual([72, 144, 207, 216, 288]);
    expect(first.intervals?.lowers.length).toBe(16);
    expect(first.blockSteps).toBe(3);
    for (const request of later) expect(coveredBy(first, request)).toBe(true);

    // Without the shared pass (it fails), each record computes its own: the same rows.
    const unshared = new InsightSession(ensemble, context);
    vi.spyOn(unshared, "prepare").mockImplementationOnce(() => {
      throw new Error("no shared pass");
    });
    const expected = checkRecords(records, unshared, context);
    expect(checked.crossChecked).toBe(RECOMPUTABLE_PATHS.length);
    expect(checked.failures).toEqual([]);
    expect(checked.crosschecks).toEqual(expected.crosschecks);
    expect(checked.insights).toEqual(expected.insights);
    expect(checked.verdicts).toEqual(expected.verdicts);
  });

  it("records known to be unavailable are kept as failures and left out of the shared pass", () => {
    const { ensemble, context } = ensembleWithContext("1h", 63);
    const alone = new InsightSession(ensemble, context);
    const records = new Map<RecomputablePath, unknown>([
      ["/insights/liquidation", recompute("/insights/liquidation", alone, context).record],
      ["/insights/lp-bounds", recompute("/insights/lp-bounds", alone, context).record],
    ]);
    const session = new InsightSession(ensemble, context);
    const prepare = vi.spyOn(session, "prepare");
    const checked = checkRecords(
      records,
      session,
      context,
      new Map([["/insights/lp-bounds", "no LP bounds today"]]),
    );
    expect(checked.failures).toEqual([
      { stage: "recompute", operation: "/insights/lp-bounds", reason: "no LP bounds today" },
    ]);
    expect(checked.crossChecked).toBe(1);
    expect(checked.verdicts.exact).toBeGreaterThan(0);
    expect(prepare.mock.calls[0][0].intervals).toBeUndefined();
    expect(prepare.mock.calls[0][0].extremeSteps?.length).toBeGreaterThan(0);
  });
});
