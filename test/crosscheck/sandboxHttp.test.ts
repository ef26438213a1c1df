/**
 * Issue 5 against the sandbox over real HTTP (127.0.0.1): for every asset and horizon whose paths
 * the spec's prediction operations serve, fetch the insight records, fetch the top-10 path sets at
 * their `forecast_start_time` (in the small world: its nine miners, less those without a valid
 * set), recompute with the fast core and cross-check: every field `exact`; one miner swapped:
 * `within-mc`, never `mismatch`; a sandbox reporting hours or re-basing multiplicatively: the
 * diagnosis names it; the network's cadence: a 24h forecast starting inside a quarter hour.
 */

import type { World } from "../../src/sandbox/world/world.ts";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crossCheck } from "../../src/crosscheck/crossCheck.ts";
import type { CrossCheckRow } from "../../src/crosscheck/verdicts.ts";
import type { InsightContext } from "../../src/insights/context.ts";
import { contextFromServiceRecord } from "../../src/insights/contextFromServiceRecord.ts";
import { recompute, type RecomputablePath } from "../../src/insights/recompute.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { ensembleOf, type Ensemble } from "../../src/paths/ensemble.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { createSandboxServer } from "../../src/sandbox/server/createSandboxServer.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/startSandbox.ts";
import { SMALL_WORLD } from "../smallWorld.ts";
import type { Horizon } from "../../src/domain/assets.ts";
import { HORIZON_LAYOUTS } from "../../src/domain/insightConventions.ts";
import { operationByPath } from "../../src/domain/operations.ts";
import {
  fetchEnsemble,
  minuteClosesOf,
  fetchRecord,
  rankedMiners,
  unixOf,
  type SandboxAddress,
} from "./sandboxEnsembles.ts";

const NOW = "2026-02-25T23:47:00Z";
const SEED = 42;

const INSIGHTS: readonly RecomputablePath[] = [
  "/insights/liquidation",
  "/insights/lp-bounds",
  "/insights/lp-probabilities",
  "/insights/lp-bounds-chart",
  "/insights/option-pricing",
  "/insights/volatility",
  "/insights/volatility-percentiles",
  "/insights/prediction-percentiles",
];
const VENUES_24H: readonly RecomputablePath[] = [
  "/insights/venuea/up-down/daily",
  "/insights/venuea/range",
  "/insights/venuea/range/daily",
  "/insights/venuea/above/daily",
  "/insights/venuea/hit/daily",
  "/insights/venueb/daily",
];
const VENUES_1H: readonly RecomputablePath[] = [
  "/insights/venuea/up-down/hourly",
  "/insights/venuea/up-down/15min",
  "/insights/venuea/up-down/5min",
  "/insights/venueb/hourly",
  "/insights/venueb/15min",
];

/**
 * Assets whose paths `/v2/prediction/historical` serves (spec), with the horizons they are prompted
 * at. XRP, HYPE, WTIOIL and SPCX have insights but no prediction operation in the spec, so their
 * ensembles cannot be fetched. Each case costs a few seconds (twenty path sets of 3 MB fetched and
 * parsed, the sandbox's reference computations), so by default a representative subset runs (two
 * crypto assets, gold and one equity at 24h; two crypto assets at 1h; the others share every code
 * path); `PATHLAB_FULL_SANDBOX=1` runs all twelve.
 */
const ALL_CASES: readonly (readonly [string, Horizon])[] = [
  ["BTC", "24h"],
  ["ETH", "24h"],
  ["SOL", "24h"],
  ["XAU", "24h"],
  ["SPYX", "24h"],
  ["NVDAX", "24h"],
  ["TSLAX", "24h"],
  ["AAPLX", "24h"],
  ["GOOGLX", "24h"],
  ["BTC", "1h"],
  ["ETH", "1h"],
  ["SOL", "1h"],
];
const DEFAULT_CASES = new Set(["BTC 24h", "ETH 24h", "XAU 24h", "SPYX 24h", "BTC 1h", "SOL 1h"]);
const CASES =
  process.env.PATHLAB_FULL_SANDBOX === "1"
    ? ALL_CASES
    : ALL_CASES.filter(([asset, horizon]) => DEFAULT_CASES.has(`${asset} ${horizon}`));

/** The operations of `horizon` that serve `asset` (the operation's asset list, spec). */
function operationsFor(asset: string, horizon: Horizon): RecomputablePath[] {
  const venues = horizon === "24h" ? VENUES_24H : VENUES_1H;
  return [...INSIGHTS, ...venues].filter((path) => {
    if (asset === "XAU" && path === "/insights/option-pricing") return false;
    const allowed = operationByPath(path).params.find((param) => param.name === "asset")?.allowed;
    return allowed === undefined || allowed.includes(asset);
  });
}

/** Everything fetched for one asset and horizon. */
interface Fetched {
  readonly members: PathSet[];
  readonly ensemble: Ensemble;
  readonly base: InsightContext;
  readonly records: Map<RecomputablePath, unknown>;
  readonly ranked: readonly number[];
  readonly startUnix: number;
}

async function fetchAll(
  sandbox: SandboxAddress & { readonly world: Pick<World, "minuteClose"> },
  asset: string,
  horizon: Horizon,
  paths: readonly RecomputablePath[],
): Promise<Fetched> {
  const records = new Map<RecomputablePath, unknown>();
  for (const path of paths) records.set(path, await fetchRecord(sandbox, path, { asset, horizon }));
  const first = records.get("/insights/liquidation") as {
    forecast_start_time: string;
    current_price: number;
  };
  const startUnix = unixOf(first.forecast_start_time);
  const horizonSeconds = HORIZON_LAYOUTS[horizon].horizonMinutes * 60;
  const ranked = await rankedMiners(sandbox, asset, horizon);
  const members = await fetchEnsemble(sandbox, asset, horizon, startUnix, ranked, 10);
  const previous = ensembleOf(
    await fetchEnsemble(sandbox, asset, horizon, startUnix - horizonSeconds, ranked, 10),
  );
  const { minuteClose, priceAt } = minuteClosesOf(
    sandbox.world,
    asset,
    startUnix - horizonSeconds - 3 * 3600,
    startUnix,
  );
  return {
    members,
    ensemble: ensembleOf(members),
    records,
    ranked,
    startUnix,
    base: {
      asset,
      horizon,
      currentPrice: first.current_price,
      forecastStartTime: first.forecast_start_time,
      minuteClose,
      priceAt,
      previous: { ensemble: previous, currentPrice: priceAt(startUnix - horizonSeconds) },
    },
  };
}

/**
 * The ensemble with its first member's paths replaced by another draw of the same miner: its
 * submission for the previous prompt (fetched over HTTP), relabelled to the forecast start (the
 * additive re-base puts it at the current price). Same miner, same law, other paths: the two
 * ensembles differ by Monte-Carlo error only. (Swapping in a different miner is not that here: the
 * sandbox's miners differ on purpose, and even its "calibrated" ones simulate visibly different
 * volatilities, so a cross-check rightly calls some of those differences mismatches.)
 * Undefined when no member has a valid submission for the previous prompt.
 */
async function redrawnEnsemble(
  sandbox: SandboxAddress,
  fetched: Fetched,
  asset: string,
  horizon: Horizon,
): Promise<Ensemble | undefined> {
  const { timeIncrement, horizonMinutes } = HORIZON_LAYOUTS[horizon];
  const iso = (unix: number) => new Date(unix * 1000).toISOString();
  const prompts = (await fetchRecord(sandbox, "/validation/prompts", {
    asset,
    from: iso(fetched.startUnix - 12 * 3600),
    to: iso(fetched.startUnix),
    time_increment: timeIncrement,
    time_length: horizonMinutes * 60,
  })) as { start_times: string[] };
  const earlier = prompts.start_times.map(unixOf).filter((unix) => unix < fetched.startUnix);
  if (earlier.length === 0) return undefined;
  const previousStart = Math.max(...earlier);
  for (let index = 0; index < fetched.members.length; index++) {
    const uid = fetched.members[index].minerUid;
    const [set] = await fetchEnsemble(sandbox, asset, horizon, previousStart, [uid], 1);
    if (set === undefined) continue;
    const members = [...fetched.members];
    members[index] = { ...set, startTime: fetched.startUnix };
    return ensembleOf(members);
  }
  return undefined;
}

function checkAll(fetched: Fetched, ensemble: Ensemble) {
  const session = new InsightSession(ensemble, fetched.base);
  return [...fetched.records].map(([path, service]) => {
    const context = { ...fetched.base, ...contextFromServiceRecord(path, service) };
    const { record, standardErrors } = recompute(path, session, context);
    return {
      path,
      check: crossCheck(path, service, record, { nPaths: ensemble.nPaths, standardErrors }),
    };
  });
}

function describeRows(rows: readonly CrossCheckRow[]): string {
  return JSON.stringify(rows.slice(0, 3));
}

let sandbox: RunningSandbox;
/** What each case fetched, for the diagnosis tests to reuse. */
const fetchedCases = new Map<string, Fetched>();

beforeAll(async () => {
  sandbox = await startSandbox({ ...SMALL_WORLD, seed: SEED, now: NOW });
});
afterAll(async () => {
  await sandbox?.close();
});

describe("cross-check against the sandbox over HTTP", () => {
  for (const [asset, horizon] of CASES) {
    it(`recomputing ${asset} ${horizon} from the fetched top-10 path sets: every field exact; one miner's paths swapped for another draw: within-mc, never mismatch`, async () => {
      const fetched = await fetchAll(sandbox, asset, horizon, operationsFor(asset, horizon));
      fetchedCases.set(`${asset} ${horizon}`, fetched);
      // the service's own ensemble: the top-10 (here every) miners with a valid, positive set
      expect(fetched.members.map((member) => member.minerUid)).toEqual(
        sandbox.world.ensemble(asset, horizon, fetched.startUnix).minerUids,
      );
      for (const { path, check } of checkAll(fetched, fetched.ensemble)) {
        const notExact = check.rows.filter((row) => row.verdict !== "exact");
        expect(notExact, `${asset} ${horizon} ${path}: ${describeRows(notExact)}`).toEqual([]);
        expect(check.rows.length).toBeGreaterThan(0);
      }
      const swapped = await redrawnEnsemble(sandbox, fetched, asset, horizon);
      expect(
        swapped,
        `${asset} ${horizon}: a member with a submission for the previous prompt`,
      ).toBeDefined();
      if (swapped === undefined) return;
      let withinMonteCarlo = 0;
      for (const { path, check } of checkAll(fetched, swapped)) {
        const bad = check.rows.filter(
          (row) => row.verdict === "mismatch" || row.verdict === "missing",
        );
        expect(bad, `${asset} ${horizon} ${path} swapped: ${describeRows(bad)}`).toEqual([]);
        withinMonteCarlo += check.summary.counts["within-mc"];
      }
      expect(withinMonteCarlo).toBeGreaterThan(0);
    });
  }
});

describe("the network's cadence over HTTP: a 24h forecast that starts inside a quarter hour", () => {
  let real: RunningSandbox;

  beforeAll(async () => {
    // BTC 24h prompts every 4 minutes: the latest by 23:55 starts at 23:52.
    real = await startSandbox({
      ...SMALL_WORLD,
      seed: SEED,
      now: "2026-02-25T23:55:00Z",
      cadence: "real",
    });
  });
  afterAll(async () => {
    await real?.close();
  });

  it("the volatility record's point 0 covers 23:52–23:57 (the step before the quarter hour ends): a number, and the recompute agrees exactly", async () => {
    const paths = ["/insights/liquidation", "/insights/volatility"] as const;
    const fetched = await fetchAll(real, "BTC", "24h", paths);
    expect(fetched.startUnix).toBe(unixOf("2026-02-25T23:52:00Z"));
    const service = fetched.records.get("/insights/volatility") as {
      forecast_future: { volatility: (number | null)[] };
    };
    expect(service.forecast_future.volatility).toHaveLength(97);
    expect(typeof service.forecast_future.volatility[0]).toBe("number");
    const [, volatility] = checkAll(fetched, fetched.ensemble);
    const notExact = volatility.check.rows.filter((row) => row.verdict !== "exact");
    expect(notExact, describeRows(notExact)).toEqual([]);
    const first = volatility.check.rows.find((row) => row.path === "forecast_future.volatility[0]");
    // Point 0 is compared, not skipped: the recomputed value is the service's, to the rounding.
    expect(first?.recomputedValue).toBe(service.forecast_future.volatility[0]);
  });
});

describe("diagnosis of a sandbox in another mode, over HTTP", () => {
  let fetched: Fetched;

  beforeAll(async () => {
    fetched =
      fetchedCases.get("BTC 24h") ??
      (await fetchAll(sandbox, "BTC", "24h", ["/insights/liquidation"]));
  });

  for (const [mode, path, kind, field] of [
    [
      { timeInIntervalUnit: "hours" },
      "/insights/lp-bounds",
      "unit",
      "data[].expected_time_in_interval",
    ],
    [
      { rebase: "multiplicative" },
      "/insights/prediction-percentiles",
      "rebase",
      "forecast_future.percentiles[]{}",
    ],
  ] as const) {
    it(`crossCheck names a sandbox with ${JSON.stringify(mode)}: ${kind} on ${field}`, async () => {
      // A second server over the same (already warmed) world, its "service" in the other mode.
      const other = createSandboxServer({
        world: sandbox.world,
        access: { apiKeys: [sandbox.apiKey] },
        insightOptions: mode,
      });
      await new Promise<void>((resolve) => other.server.listen(0, "127.0.0.1", resolve));
      try {
        const { port } = other.server.address() as AddressInfo;
        const address = { url: `http://127.0.0.1:${port}`, apiKey: sandbox.apiKey };
        const service = await fetchRecord(address, path, { asset: "BTC", horizon: "24h" });
        const context = { ...fetched.base, ...contextFromServiceRecord(path, service) };
        const { record, standardErrors } = recompute(path, fetched.ensemble, context);
        const check = crossCheck(path, service, record, {
          nPaths: fetched.ensemble.nPaths,
          standardErrors,
        });
        const diagnosis = check.diagnoses.find((candidate) => candidate.kind === kind);
        expect(diagnosis?.field, JSON.stringify(check.diagnoses)).toBe(field);
        if (kind === "unit") expect(diagnosis?.value).toBe(1 / 60);
      } finally {
        other.server.closeAllConnections();
        await new Promise<void>((resolve) => other.server.close(() => resolve()));
      }
    });
  }
});
