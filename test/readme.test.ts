import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");

describe("README", () => {
  it("shows every example of examples/ verbatim (tsc checks them there)", () => {
    const readme = read("README.md");
    for (const file of readdirSync(new URL("../examples", import.meta.url))) {
      const body = read(`examples/${file}`).split("\n").slice(1).join("\n"); // minus the note
      expect(readme, file).toContain("```ts\n" + body + "```");
    }
  });

  it("documents the two quick-start commands and the configuration variables", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm install && npm start");
    expect(readme).toContain("npm test");
    expect(readme).toContain("PATHLAB_BASE_URL");
    expect(readme).toContain("PATHLAB_API_KEY");
  });

  it("computes what the numeric-core example says, checked by hand", async () => {
    const { results } = await import("../examples/core.ts");
    // re-based terminal prices: miner 7 → 103, 97, 102; miner 9 (−1) → 103, 98, 95
    // median (R-7, h = 2.5 over 95 97 98 102 103 103) = 98 + 0.5·(102 − 98) = 100
    expect(results.medianAtEnd).toBe(100);
    expect(results.touchDown97).toBeCloseTo(2 / 6, 15); // paths reaching ≤ 97: 2 of 6
    expect(results.touchUp103).toBeCloseTo(2 / 6, 15); // paths reaching ≥ 103: 2 of 6
    expect(results.touchUp103StandardError).toBeCloseTo(Math.sqrt(((1 / 3) * (2 / 3)) / 6), 15);
    expect(results.arrowRows).toBe(3);
  });

  it("the candidate example shows the validator's verdicts", async () => {
    const { results } = await import("../examples/candidate.ts");
    // path 0 at step 1: 98941.903 · (1 − 3e-5) = 98938.93474291, 13 significant digits
    expect(results.unrounded).toBe("Price format is incorrect: too many digits 98938.93474291");
    expect(results.fixed).toBe("CORRECT");
    expect(results.rule).toBe("current");
    expect(results.era).toMatch(/^since 2026-09-08: crypto-1h, crypto-24h, com-equ-24h × 1\/3; /);
  });
});
