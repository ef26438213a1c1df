/**
 * The text widths that lay the charts out: each character's advance as DejaVu Sans's own metrics
 * give it (its hmtx table, in units of 2,048 per em), measured through resvg; and a chart laid
 * out with them against one laid out with vega's estimate of 0.8 em per character.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHART_FONT, renderSvg } from "../../src/plots/index.ts";
import { fontWidths } from "../../src/plots/textWidth.ts";
import { sampleCharts } from "./sampleCharts.ts";

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  await initWasm(readFile(require.resolve("@resvg/resvg-wasm/index_bg.wasm"))).catch(
    (error: Error) => {
      if (!/already initialized/i.test(error.message)) throw error;
    },
  );
});

describe("fontWidths", () => {
  it("gives DejaVu Sans's advances (hmtx, 2,048 units per em), spaces and non-ASCII included", async () => {
    const font = new Uint8Array(await readFile(DEFAULT_CHART_FONT));
    const width = fontWidths(Resvg, font, "DejaVu Sans");
    const advances = { a: 1255, b: 1300, c: 1126, " ": 651, M: 1767, i: 569, "0": 1303, "−": 1716 };
    for (const [character, units] of Object.entries(advances)) {
      expect(width(character, 2048), JSON.stringify(character)).toBeCloseTo(units, 6);
    }
    // a text is the sum of its characters, scaled to its size
    expect(width("abc", 11)).toBeCloseTo(((1255 + 1300 + 1126) / 2048) * 11, 9);
  });
});

describe("renderSvg's layout", () => {
  it("gives vega its own measure back after each render, and renders one at a time", async () => {
    const vega = (await import("vega")) as unknown as { textMetrics: { width: unknown } };
    const before = vega.textMetrics.width;
    const chart = sampleCharts().crpsByHourChart;
    const alone = [
      await renderSvg(chart),
      await renderSvg(chart, { fontFile: "/nonexistent/font.ttf" }),
    ];
    expect(vega.textMetrics.width).toBe(before);
    // two renders started together, each with its own measure, draw what each draws alone
    const together = await Promise.all([
      renderSvg(chart),
      renderSvg(chart, { fontFile: "/nonexistent/font.ttf" }),
    ]);
    expect(together).toEqual(alone);
    expect(vega.textMetrics.width).toBe(before);
  });

  it("is tighter with the font's widths than with vega's estimate (a font it cannot read)", async () => {
    const chart = sampleCharts().crpsByHourChart;
    const widthOf = (svg: string) => Number(/^<svg[^>]* width="(\d+(?:\.\d+)?)"/.exec(svg)![1]);
    const measured = widthOf(await renderSvg(chart));
    const estimated = widthOf(await renderSvg(chart, { fontFile: "/nonexistent/font.ttf" }));
    // the estimate (0.8 em a character) is wider than DejaVu Sans (about 0.6 em)
    expect(measured).toBeLessThan(estimated);
    // and the font's layout is kept for the next chart: the measure is set per render
    expect(widthOf(await renderSvg(chart))).toBe(measured);
  });
});
