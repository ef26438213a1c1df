import { describe, expect, it } from "vitest";
import { decode, encode } from "../../../src/domain/codec.ts";
import { liveNaming } from "../../../src/domain/naming.ts";
import { operationTable, type OperationPath } from "../../../src/domain/operations.ts";
import {
  SANDBOX_INSIGHT_PATHS,
  buildInsightResponse,
} from "../../../src/sandbox/insights/buildInsightResponse.ts";
import { syntheticInputs } from "./syntheticInputs.ts";

const insightPaths = [
  ...Object.values(operationTable.insights),
  ...Object.values(operationTable.venueA),
  ...Object.values(operationTable.venueB),
].map((operation) => operation.path as OperationPath);

const ensembles = {
  "24h": syntheticInputs({ horizon: "24h", pathsPerMiner: 20, startSpread: 0.001 }),
  "1h": syntheticInputs({ horizon: "1h", pathsPerMiner: 20, startSpread: 0.001 }),
};

describe("buildInsightResponse", () => {
  it("answers exactly the insight and venue operations of the spec", () => {
    expect([...SANDBOX_INSIGHT_PATHS].sort()).toEqual([...insightPaths].sort());
  });

  for (const path of insightPaths) {
    for (const horizon of ["24h", "1h"] as const) {
      it(`${path} (${horizon}) is accepted by the spec's decoder and survives live naming`, () => {
        const body = buildInsightResponse({ ...ensembles[horizon], operationPath: path });
        const record = decode(path, body);
        expect(record).toEqual(body);
        const wire = JSON.parse(
          JSON.stringify(encode(path, record as never, { naming: liveNaming })),
        );
        expect(decode(path, wire, { naming: liveNaming })).toEqual(record);
      });
    }
  }

  it("is deterministic: equal inputs give byte-identical bodies", () => {
    for (const path of insightPaths) {
      const first = buildInsightResponse({
        ...syntheticInputs({ pathsPerMiner: 5 }),
        operationPath: path,
      });
      const second = buildInsightResponse({
        ...syntheticInputs({ pathsPerMiner: 5 }),
        operationPath: path,
      });
      expect(JSON.stringify(first)).toBe(JSON.stringify(second));
    }
  });

  it("another seed moves the venue side only, never the model side", () => {
    const inputs = { ...ensembles["24h"], operationPath: "/insights/venuea/range/daily" };
    const base = buildInsightResponse(inputs) as {
      model_probability: number;
      venuea_probability: number;
    }[];
    const other = buildInsightResponse({ ...inputs, seed: 7 }) as typeof base;
    expect(other.map((record) => record.model_probability)).toEqual(
      base.map((record) => record.model_probability),
    );
    expect(other.map((record) => record.venuea_probability)).not.toEqual(
      base.map((record) => record.venuea_probability),
    );
  });

  it("writes every record's times as ISO 8601 with +00:00 and the expiry as the live form", () => {
    const inputs = ensembles["24h"];
    const liquidation = buildInsightResponse({
      ...inputs,
      operationPath: "/insights/liquidation",
    }) as {
      forecast_start_time: string;
    };
    expect(liquidation.forecast_start_time).toBe("2026-02-25T23:44:00+00:00");
    const options = buildInsightResponse({
      ...inputs,
      operationPath: "/insights/option-pricing",
    }) as {
      expiry_time: string;
    };
    // BTC: the monthly expiry, as the live record captured at this time (2026-03-27).
    expect(options.expiry_time).toBe("2026-03-27 08:00:00Z");
  });

  it("rejects a path that is not an insight or venue operation, naming it", () => {
    expect(() =>
      buildInsightResponse({ ...ensembles["24h"], operationPath: "/insights/polymarket/range" }),
    ).toThrow(
      /^buildInsightResponse: "\/insights\/polymarket\/range" is not an insight or venue operation; expected one of \/insights\/liquidation, /,
    );
  });

  it("names the operation and the field when the inputs cannot make the record", () => {
    const inputs = ensembles["24h"];
    expect(() =>
      buildInsightResponse({
        ...inputs,
        operationPath: "/insights/volatility",
        previousPaths: undefined,
      }),
    ).toThrow(
      `/insights/volatility: forecast_past needs inputs.previousPaths, the ensemble of the prompt at ${inputs.forecastStartUnix - 86400}; got none`,
    );
    expect(() =>
      buildInsightResponse({
        ...inputs,
        operationPath: "/insights/liquidation",
        paths: [inputs.paths[0], Array.from(inputs.paths[1]).slice(1)],
      }),
    ).toThrow(
      "/insights/liquidation: inputs.paths: PreparedEnsemble requires paths of equal length: paths[0] has 289 points, paths[1] has 288",
    );
    expect(() =>
      buildInsightResponse({ ...inputs, operationPath: "/insights/lp-bounds", currentPrice: NaN }),
    ).toThrow("/insights/lp-bounds: inputs.currentPrice must be a finite positive price, got NaN");
    expect(() =>
      buildInsightResponse({
        ...inputs,
        operationPath: "/insights/venuea/up-down/daily",
        priceAt: () => NaN,
      }),
    ).toThrow(
      /^\/insights\/venuea\/up-down\/daily: start_price needs the market price at \d+, got NaN$/,
    );
  });
});
