/**
 * The key acceptance test: over real HTTP, with pathlab's own client (which decodes every body with
 * the spec's decoders and throws on the first problem), every operation answers for every
 * supported asset and horizon. Cheap operations are asked for every asset; the heavy ones
 * (insights and venues, one ensemble per asset and horizon) for every asset at each horizon at
 * least once, and every operation at each horizon at least once.
 */
import { liveOmittedFields } from "../../../src/sandbox/server/liveFields.ts";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PathlabClient } from "../../../src/client/pathlab-client.ts";
import { buildInsightResponse } from "../../../src/sandbox/insights/buildInsightResponse.ts";
import { createSandboxServer } from "../../../src/sandbox/server/createSandboxServer.ts";
import type { RunningSandbox } from "../../../src/sandbox/startSandbox.ts";
import {
  canonicalAsset,
  COMPETITIONS,
  HORIZONS,
  PREDICTION_ASSETS,
  PROMPT_NAMES,
  VALIDATION_ASSETS,
  type Horizon,
} from "../../../src/domain/assets.ts";
import { liveNaming, neutralNaming } from "../../../src/domain/naming.ts";
import type { Operation } from "../../../src/domain/operation.ts";
import { operations, operationTable, type OperationPath } from "../../../src/domain/operations.ts";
import type { PredictionSet } from "../../../src/domain/records/prediction-set.ts";
import { openSandbox, rawGet } from "./sandboxSetup.ts";
import { SMALL_WORLD } from "../../smallWorld.ts";

type UntypedOperation = Operation<string, unknown, unknown>;

/** One request of the sweep; `params` is built once the sandbox (and its world) exists. */
interface PlannedRequest {
  readonly path: OperationPath;
  readonly label: string;
  readonly params: (sandbox: RunningSandbox) => Record<string, unknown>;
  /** Extra checks on the decoded response. */
  readonly check?: (result: unknown, sandbox: RunningSandbox) => void;
}

const HEAVY_SECTIONS = new Set(["insights", "venueA", "venueB"]);
const heavyOperations = operations.filter((operation) =>
  HEAVY_SECTIONS.has(operation.section),
) as UntypedOperation[];

function allowedAssets(operation: UntypedOperation): readonly string[] {
  return (operation.params.find((param) => param.name === "asset")?.allowed ?? []) as string[];
}

const hoursAgo = (sandbox: RunningSandbox, hours: number) =>
  new Date(Date.parse(sandbox.now) - hours * 3_600_000);

const GRID = {
  "24h": { time_increment: 300, time_length: 86400 },
  "1h": { time_increment: 60, time_length: 3600 },
} as const;

/** `forecast_start_time` of the first record (when it has one) is the world's latest prompt start. */
function forecastStartCheck(asset: string, horizon: Horizon) {
  return (result: unknown, sandbox: RunningSandbox) => {
    const record = (Array.isArray(result) ? result[0] : result) as
      { forecast_start_time?: string } | undefined;
    if (record?.forecast_start_time === undefined) return;
    const expected = sandbox.world.latestPromptStart(canonicalAsset(asset), horizon);
    expect(Date.parse(record.forecast_start_time) / 1000).toBe(expected);
  };
}

/**
 * Insights and venues: asset j (each symbol, short and cross-listed) is asked at one horizon
 * (24h for even j, 1h for odd j) by the operations i with i ≡ j (mod 6) that support it, so that
 * every asset is asked several times and every operation for several assets; then every operation
 * not yet asked at a horizon is asked for its first asset at that horizon.
 */
function heavyPlan(): PlannedRequest[] {
  const pairs: { operation: UntypedOperation; asset: string; horizon: Horizon }[] = [];
  const allAssets = [...new Set(heavyOperations.flatMap(allowedAssets))];
  allAssets.forEach((asset, assetIndex) => {
    const horizon: Horizon = assetIndex % 2 === 0 ? "24h" : "1h";
    heavyOperations.forEach((operation, operationIndex) => {
      if (operationIndex % 6 === assetIndex % 6 && allowedAssets(operation).includes(asset)) {
        pairs.push({ operation, asset, horizon });
      }
    });
  });
  for (const horizon of HORIZONS) {
    for (const operation of heavyOperations) {
      if (!pairs.some((pair) => pair.operation === operation && pair.horizon === horizon)) {
        pairs.push({ operation, asset: allowedAssets(operation)[0], horizon });
      }
    }
  }
  // Grouped by ensemble (canonical asset and horizon), so that each ensemble is built once.
  pairs.sort((a, b) =>
    `${canonicalAsset(a.asset)}|${a.horizon}`.localeCompare(
      `${canonicalAsset(b.asset)}|${b.horizon}`,
    ),
  );
  return pairs.map(({ operation, asset, horizon }) => ({
    path: operation.path as OperationPath,
    label: `${asset} ${horizon}`,
    params: () => ({ asset, horizon }),
    check: forecastStartCheck(asset, horizon),
  }));
}

function predictionPlan(): PlannedRequest[] {
  const plan: PlannedRequest[] = [];
  const setsCheck = (horizon: Horizon, minimum: number) => (result: unknown) => {
    const sets = result as PredictionSet[];
    expect(sets.length).toBeGreaterThanOrEqual(minimum);
    for (const set of sets) {
      expect(set.predictions).toHaveLength(1000);
      expect(set.predictions[0]).toHaveLength(horizon === "24h" ? 289 : 61);
    }
  };
  const topThree = (sandbox: RunningSandbox, asset: string, horizon: Horizon) =>
    sandbox.world.topMiners(
      sandbox.world.competitionFor(asset, horizon),
      sandbox.world.nowUnix,
      3,
      14,
    );
  PREDICTION_ASSETS.forEach((asset, index) => {
    for (const horizon of HORIZONS) {
      const grid = { asset, ...GRID[horizon] };
      const latestStart = (sandbox: RunningSandbox) =>
        new Date((sandbox.world.latestPromptStart(asset, horizon) as number) * 1000);
      plan.push(
        {
          path: "/v2/prediction/best",
          label: `${asset} ${horizon}`,
          params: () => grid,
          check: setsCheck(horizon, 1),
        },
        {
          path: "/v2/prediction/latest",
          label: `${asset} ${horizon}`,
          params: (sandbox) => ({ ...grid, miner: topThree(sandbox, asset, horizon) }),
          check: setsCheck(horizon, 1),
        },
        {
          path: "/v2/prediction/historical",
          label: `${asset} ${horizon}`,
          params: (sandbox) => ({
            ...grid,
            miner: topThree(sandbox, asset, horizon),
            start_time: latestStart(sandbox),
          }),
          check: (result, sandbox) => {
            setsCheck(horizon, 0)(result);
            for (const set of result as PredictionSet[]) {
              expect(set.start_time).toBe(sandbox.world.latestPromptStart(asset, horizon));
            }
          },
        },
      );
      // The metamodel pools an ensemble: each asset once, alternating horizons.
      if ((index % 2 === 0) === (horizon === "24h")) {
        plan.push(
          {
            path: "/v2/prediction/metamodel",
            label: `${asset} ${horizon}`,
            params: () => grid,
            check: setsCheck(horizon, 1),
          },
          {
            path: "/v2/prediction/metamodel/historical",
            label: `${asset} ${horizon}`,
            params: (sandbox) => ({ ...grid, start_time: latestStart(sandbox) }),
            check: setsCheck(horizon, 1),
          },
        );
      }
    }
  });
  return plan;
}

function leaderboardPlan(): PlannedRequest[] {
  const plan: PlannedRequest[] = [
    {
      path: "/leaderboard/latest",
      label: "",
      params: () => ({}),
      check: (rows) => expect((rows as unknown[]).length).toBeGreaterThan(0),
    },
    {
      path: "/leaderboard/historical",
      label: "last 2 hours",
      params: (sandbox) => ({ start_time: hoursAgo(sandbox, 2), end_time: hoursAgo(sandbox, 0) }),
    },
  ];
  for (const prompt_name of PROMPT_NAMES) {
    plan.push(
      { path: "/v2/leaderboard/latest", label: prompt_name, params: () => ({ prompt_name }) },
      {
        path: "/v2/leaderboard/historical",
        label: prompt_name,
        params: (sandbox) => ({
          start_time: hoursAgo(sandbox, 1),
          end_time: hoursAgo(sandbox, 0),
          prompt_name,
        }),
      },
      {
        path: "/v2/meta-leaderboard/latest",
        label: prompt_name,
        params: () => ({ prompt_name, days: 3 }),
      },
      {
        path: "/v2/meta-leaderboard/historical",
        label: prompt_name,
        params: (sandbox) => ({ start_time: hoursAgo(sandbox, 1), prompt_name }),
      },
    );
  }
  return plan;
}

function validationPlan(): PlannedRequest[] {
  const plan: PlannedRequest[] = [
    {
      path: "/validation/miner",
      label: "first uid",
      params: (sandbox) => ({ uid: sandbox.world.minerUids[0] }),
    },
    {
      path: "/validation/uid-holders",
      label: "30 days",
      params: (sandbox) => ({ from: hoursAgo(sandbox, 24 * 30), to: hoursAgo(sandbox, 0) }),
    },
    {
      path: "/validation/smoothed-scores",
      label: "all competitions",
      params: (sandbox) => ({ from: hoursAgo(sandbox, 2), to: hoursAgo(sandbox, 0) }),
    },
    {
      path: "/validation/smoothed-scores",
      label: "prompt_name low (deprecated alias)",
      params: (sandbox) => ({
        from: hoursAgo(sandbox, 2),
        to: hoursAgo(sandbox, 0),
        prompt_name: "low",
      }),
    },
  ];
  for (const competition of COMPETITIONS) {
    plan.push({
      path: "/validation/smoothed-scores",
      label: competition,
      params: (sandbox) => ({ from: hoursAgo(sandbox, 2), to: hoursAgo(sandbox, 0), competition }),
    });
  }
  for (const time_length of [86400, 3600]) {
    plan.push({
      path: "/validation/multi-asset-minutes",
      label: `time_length ${time_length}`,
      params: (sandbox) => ({ from: hoursAgo(sandbox, 24), to: hoursAgo(sandbox, 0), time_length }),
    });
  }
  for (const asset of VALIDATION_ASSETS) {
    for (const horizon of HORIZONS) {
      const grid = { asset, ...GRID[horizon] };
      plan.push(
        { path: "/validation/scores/latest", label: `${asset} ${horizon}`, params: () => grid },
        {
          path: "/validation/scores/historical",
          label: `${asset} ${horizon}`,
          params: (sandbox) => ({ ...grid, from: hoursAgo(sandbox, 2), to: hoursAgo(sandbox, 0) }),
        },
        {
          path: "/validation/prompts",
          label: `${asset} ${horizon}`,
          params: (sandbox) => ({ ...grid, from: hoursAgo(sandbox, 3), to: hoursAgo(sandbox, 0) }),
          check: (result) =>
            expect((result as { start_times: string[] }).start_times.length).toBeGreaterThan(0),
        },
        {
          path: "/validation/realized-path",
          label: `${asset} ${horizon}`,
          // The latest prompt start a whole horizon ago: realized paths start at prompt starts only.
          params: (sandbox) => ({
            ...grid,
            start_time: new Date(
              (sandbox.world.latestPromptStart(
                asset,
                horizon,
                Date.parse(hoursAgo(sandbox, horizon === "24h" ? 25 : 2).toISOString()) / 1000,
              ) as number) * 1000,
            ),
          }),
          check: (result) =>
            expect((result as { real_prices: unknown[] }).real_prices).toHaveLength(
              horizon === "24h" ? 289 : 61,
            ),
        },
      );
    }
  }
  return plan;
}

const plan: PlannedRequest[] = [
  ...leaderboardPlan(),
  ...validationPlan(),
  ...predictionPlan(),
  ...heavyPlan(),
];

let sandbox: RunningSandbox;
let client: PathlabClient;
let connect: Awaited<ReturnType<typeof openSandbox>>["connect"];

beforeAll(async () => {
  // The small world: every operation, asset and horizon is served whatever the miners' number.
  const opened = await openSandbox(SMALL_WORLD);
  sandbox = opened.sandbox;
  connect = opened.connect;
  client = connect({ maxRetries: 0 }).client;
}, 60_000);

describe("every operation over real HTTP", () => {
  it("the sweep asks every operation, every asset of the heavy ones, each at both horizons", () => {
    const asked = new Set(plan.map((request) => request.path));
    expect([...asked].sort()).toEqual(operations.map((operation) => operation.path).sort());
    const heavy = plan.filter((request) =>
      heavyOperations.some((operation) => operation.path === request.path),
    );
    const heavyAssets = new Set(heavyOperations.flatMap(allowedAssets));
    const askedAssets = new Set(heavy.map((request) => request.label.split(" ")[0]));
    expect([...heavyAssets].filter((asset) => !askedAssets.has(asset))).toEqual([]);
    for (const horizon of HORIZONS) {
      const askedAtHorizon = new Set<string>(
        heavy
          .filter((request) => request.label.endsWith(` ${horizon}`))
          .map((request) => request.path),
      );
      expect(heavyOperations.filter((operation) => !askedAtHorizon.has(operation.path))).toEqual(
        [],
      );
    }
  });

  it.each(plan.map((request) => [request.path, request.label, request] as const))(
    "%s %s answers with a body the spec's decoder accepts",
    async (path, _label, request) => {
      const result = await client.request(path, request.params(sandbox) as never);
      request.check?.(result, sandbox);
    },
    30_000,
  );
});

describe("live naming: /insights/polymarket/…, polymarket_ and synth_ fields", () => {
  let liveUrl: string;
  let closeLive: () => Promise<void>;

  beforeAll(async () => {
    // A second server on the same (already warm) world, speaking the live deployment's naming.
    const { server } = createSandboxServer({
      world: sandbox.world,
      naming: liveNaming,
      access: { apiKeys: [sandbox.apiKey] },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    liveUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeLive = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
  });

  afterAll(() => closeLive());

  it("serves venue A under /insights/polymarket with polymarket_ and synth_ fields", async () => {
    const raw = await rawGet(`${liveUrl}/insights/polymarket/up-down/5min?asset=ETH`, {
      authorization: `Apikey ${sandbox.apiKey}`,
    });
    expect(raw.status, raw.body.toString()).toBe(200);
    const body = JSON.parse(raw.body.toString()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining([
        "synth_probability_up",
        "synth_outcome",
        "polymarket_probability_up",
      ]),
    );
    expect(Object.keys(body).some((key) => /^(model|venuea)_/.test(key))).toBe(false);
    // pathlab's client with the live naming decodes it back to the spec's neutral names.
    const { client: liveClient } = connect({ baseUrl: liveUrl, naming: liveNaming, maxRetries: 0 });
    const record = await liveClient.venueA.upDownFiveMinute({ asset: "ETH" });
    expect(record.model_probability_up).toBe(body.synth_probability_up);
    expect(record.venuea_probability_up).toBe(body.polymarket_probability_up);
    // The same record as the neutral server's, but for the fields the live records leave out,
    // with the live spelling on the wire.
    const neutral = await client.venueA.upDownFiveMinute({ asset: "ETH" });
    const omitted = liveOmittedFields("/insights/venuea/up-down/5min");
    expect(omitted).toEqual([
      "forecast_start_time",
      "market_probability_up",
      "market_outcome",
      "event_creation_time",
    ]);
    expect(record).toEqual(
      Object.fromEntries(Object.entries(neutral).filter(([field]) => !omitted.includes(field))),
    );
    for (const field of omitted) expect(body).not.toHaveProperty(field);
    expect(body.synth_outcome).toBe(neutral.model_outcome === "UP" ? "Up" : "Down");
  });

  it("spells range-family comparison types as the live deployment: lower, between, higher", async () => {
    const raw = await rawGet(`${liveUrl}/insights/polymarket/range/daily?asset=BTC`, {
      authorization: `Apikey ${sandbox.apiKey}`,
    });
    expect(raw.status, raw.body.toString()).toBe(200);
    const markets = JSON.parse(raw.body.toString()) as { cmp_type: string }[];
    const neutral = await client.venueA.rangeDaily({ asset: "BTC" });
    const live = { range: "between", above: "higher", below: "lower", hit: "hit" } as const;
    expect(markets.map((market) => market.cmp_type)).toEqual(
      neutral.map((market) => live[market.cmp_type]),
    );
    expect(new Set(markets.map((market) => market.cmp_type)).size).toBeGreaterThan(1);
  });

  it("answers 404 at the neutral venue paths, pointing to the live ones", async () => {
    const raw = await rawGet(`${liveUrl}/insights/venuea/up-down/5min?asset=ETH`);
    expect(raw.status).toBe(404);
    expect(raw.body.toString()).toContain("use /insights/polymarket/up-down/5min");
  });
});

describe("insight requests", () => {
  it("start_time answers the historical snapshot: that time's price and latest prompt", async () => {
    const atUnix = sandbox.world.nowUnix - 3 * 3600 - 7 * 60;
    const snapshot = await client.insights.lpProbabilities({
      asset: "ETH",
      horizon: "1h",
      start_time: new Date(atUnix * 1000),
    });
    expect(Date.parse(snapshot.forecast_start_time as string) / 1000).toBe(
      sandbox.world.latestPromptStart("ETH", "1h", atUnix),
    );
    expect(snapshot.current_price).toBe(sandbox.world.priceAt("ETH", atUnix));
    const latest = await client.insights.lpProbabilities({ asset: "ETH", horizon: "1h" });
    expect(latest.current_price).toBe(sandbox.world.priceAt("ETH", sandbox.world.nowUnix));
    expect(latest.forecast_start_time).not.toBe(snapshot.forecast_start_time);
  });

  it("the earlier limit and days pool the first `limit` valid miners of the `days` meta-leaderboard", async () => {
    const world = sandbox.world;
    const start = world.latestPromptStart("SOL", "1h") as number;
    const ranking = world.topMiners("crypto-1h", world.nowUnix, world.minerUids.length, 7);
    const minerUids: number[] = [];
    const paths: number[][] = [];
    for (const uid of ranking) {
      const submission = world.predictionSet(uid, "SOL", start, 60, 3600);
      if (submission.status !== "valid" || !submission.values?.every((price) => price > 0))
        continue;
      minerUids.push(uid);
      for (let path = 0; path < submission.pathCount; ++path) {
        const from = path * submission.pointCount;
        paths.push(Array.from(submission.values.subarray(from, from + submission.pointCount)));
      }
      if (minerUids.length === 3) break;
    }
    const expected = operationTable.insights.lpProbabilities.decode(
      buildInsightResponse({
        operationPath: "/insights/lp-probabilities",
        asset: "SOL",
        horizon: "1h",
        nowUnix: world.nowUnix,
        currentPrice: world.priceAt("SOL", world.nowUnix),
        forecastStartUnix: start,
        timeIncrement: 60,
        minerUids,
        paths,
        previousPaths: undefined,
        minuteClose: (minuteUnix) => world.minuteClose("SOL", minuteUnix),
        priceAt: (unix) => world.priceAt("SOL", unix),
        seed: world.seed,
      }),
      { naming: neutralNaming },
    );
    const served = await client.insights.lpProbabilities({
      asset: "SOL",
      horizon: "1h",
      limit: 3,
      days: 7,
    });
    expect(served).toEqual(expected);
    const pooledTen = await client.insights.lpProbabilities({ asset: "SOL", horizon: "1h" });
    expect(pooledTen).not.toEqual(served);
  });

  it("refuses a limit or days beyond what the sandbox pools, and a start_time after its clock", async () => {
    const headers = { authorization: `Apikey ${sandbox.apiKey}` };
    const tooMany = await rawGet(`${sandbox.url}/insights/liquidation?limit=33`, headers);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.toString()).toBe(
      '/insights/liquidation: parameter "limit": expected an integer from 1 to 32, got 33',
    );
    const tooLong = await rawGet(`${sandbox.url}/insights/liquidation?days=31`, headers);
    expect(tooLong.body.toString()).toContain('parameter "days": expected an integer from 1 to 30');
    const future = new Date((sandbox.world.nowUnix + 60) * 1000).toISOString();
    const late = await rawGet(`${sandbox.url}/insights/liquidation?start_time=${future}`, headers);
    expect(late.status).toBe(400);
    expect(late.body.toString()).toContain("expected a time not after the sandbox's clock");
  });
});
