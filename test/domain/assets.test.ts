import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ASSET_REMAP,
  COMPETITION_ASSETS,
  CROSS_LISTED_ASSETS,
  FULL_ASSETS,
  INSIGHT_ASSETS,
  OPT_ASSETS,
  PREDICTION_ASSETS,
  VALIDATION_ASSETS,
  canonicalAsset,
  canonicalCompetition,
} from "../../src/domain/assets.ts";
import { capturedFolder } from "./captured.ts";

const sharedFolder = path.resolve(capturedFolder, "../..");

/** The backticked symbols of the first line of `text` that starts with `prefix`. */
function symbolsOfLine(text: string, prefix: string): string[] {
  const line = text.split("\n").find((candidate) => candidate.startsWith(prefix));
  if (line === undefined) throw new Error(`no line starting with ${prefix}`);
  return [...line.matchAll(/`([A-Z0-9]+)`/g)].map((match) => match[1]);
}

describe("assets", () => {
  it("OPT is FULL without XAU", () => {
    expect([...OPT_ASSETS]).toEqual(FULL_ASSETS.filter((asset) => asset !== "XAU"));
  });

  it("the insights assets are FULL plus every remap target", () => {
    expect([...CROSS_LISTED_ASSETS].sort()).toEqual(Object.values(ASSET_REMAP).sort());
    expect([...INSIGHT_ASSETS]).toEqual([...FULL_ASSETS, ...CROSS_LISTED_ASSETS]);
  });

  it("canonicalAsset remaps the five short symbols, case-sensitively, and keeps the rest", () => {
    expect(
      ["SPY", "NVDA", "GOOGL", "TSLA", "AAPL"].map((symbol) => canonicalAsset(symbol)),
    ).toEqual(["SPYX", "NVDAX", "GOOGLX", "TSLAX", "AAPLX"]);
    expect(canonicalAsset("BTC")).toBe("BTC");
    expect(canonicalAsset("spy")).toBe("spy");
    expect(canonicalAsset("toString")).toBe("toString");
  });

  it("canonicalCompetition resolves low and high", () => {
    expect(canonicalCompetition("low")).toBe("crypto-24h");
    expect(canonicalCompetition("high")).toBe("crypto-1h");
    expect(canonicalCompetition("com-equ-24h")).toBe("com-equ-24h");
  });

  it("the asset lists match the spec's text", () => {
    const specFile = path.join(sharedFolder, "spec/interface.md");
    if (!existsSync(specFile)) {
      console.warn(`spec/interface.md missing at ${specFile}: cross-check skipped`);
      return;
    }
    const spec = readFileSync(specFile, "utf8");
    // The FULL line names SPCX twice ("one description omits `SPCX`"): compare the distinct symbols.
    expect([...new Set(symbolsOfLine(spec, "- FULL = "))]).toEqual([...FULL_ASSETS]);
    expect(symbolsOfLine(spec, "Asset values in validation operations").sort()).toEqual(
      [...VALIDATION_ASSETS].sort(),
    );
    expect(symbolsOfLine(spec, "| `asset` | string | yes |").sort()).toEqual(
      [...PREDICTION_ASSETS].sort(),
    );
  });

  it("the competition assets match DOMAIN.md", () => {
    const domainFile = path.join(sharedFolder, "DOMAIN.md");
    if (!existsSync(domainFile)) {
      console.warn(`DOMAIN.md missing at ${domainFile}: cross-check skipped`);
      return;
    }
    const domain = readFileSync(domainFile, "utf8");
    const line = domain
      .split("\n")
      .find((candidate) => candidate.includes("Competitions (current)"));
    const next = domain.split("\n")[domain.split("\n").indexOf(line as string) + 1];
    const text = `${line} ${next}`;
    const listOf = (name: string) => {
      const match = new RegExp("`" + name + "` \\(([^;)]+)").exec(text);
      return match === null
        ? []
        : match[1]
            .replace(/,? earlier/, "")
            .split(/\s+/)
            .filter(Boolean);
    };
    expect(listOf("crypto-1h")).toEqual([...COMPETITION_ASSETS["crypto-1h"]]);
    expect(listOf("com-equ-24h")).toEqual([...COMPETITION_ASSETS["com-equ-24h"]]);
  });
});
