/**
 * The charts of src/plots: each one compiles without a warning, renders to SVG and PNG without a
 * browser, and tells the truth by construction (a title, every axis titled, a legend wherever
 * colour or shape encodes data); the numbers the builders derive (means, counts, excesses,
 * totals) against hand computations.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { compile, type TopLevelSpec } from "vega-lite";
import { beforeAll, describe, expect, it } from "vitest";
import * as plots from "../../src/plots/index.ts";
import { sampleCharts } from "./sampleCharts.ts";

const charts = sampleCharts();

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  // this test rasterizes SVGs itself, to read their pixels (renderPng accepts resvg initialized)
  await initWasm(readFile(require.resolve("@resvg/resvg-wasm/index_bg.wasm"))).catch(
    (error: Error) => {
      if (!/already initialized/i.test(error.message)) throw error;
    },
  );
});

/** Every object in a JSON tree. */
function* objects(node: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(node)) for (const item of node) yield* objects(item);
  else if (node !== null && typeof node === "object") {
    yield node as Record<string, unknown>;
    for (const value of Object.values(node)) yield* objects(value);
  }
}

/** The compiled Vega specification of a chart. */
function vegaOf(chart: plots.Chart): Record<string, unknown> {
  return compile(chart as unknown as TopLevelSpec).spec as unknown as Record<string, unknown>;
}

/** Whether a Vega-Lite chart encodes data by colour or shape (a field or a datum, not a constant). */
function encodesByColourOrShape(chart: plots.Chart): boolean {
  for (const node of objects(chart)) {
    const encoding = node.encoding as Record<string, Record<string, unknown>> | undefined;
    if (encoding === undefined) continue;
    for (const channel of ["color", "shape"]) {
      const definition = encoding[channel];
      if (definition !== undefined && ("field" in definition || "datum" in definition)) return true;
    }
  }
  return false;
}

/** The share of pixels that are not white and the count of distinct colours of an SVG, drawn. */
async function ink(svg: string): Promise<{ inked: number; colours: number }> {
  const font = await readFile(plots.DEFAULT_CHART_FONT);
  const image = new Resvg(svg, { font: { fontBuffers: [font], loadSystemFonts: false } }).render();
  const pixels = image.pixels;
  let inked = 0;
  const colours = new Set<number>();
  for (let index = 0; index < pixels.length; index += 4) {
    const [red, green, blue, alpha] = pixels.subarray(index, index + 4);
    if (alpha > 0 && red + green + blue < 3 * 250) inked++;
    colours.add((red << 16) | (green << 8) | blue);
  }
  return { inked: inked / (pixels.length / 4), colours: colours.size };
}

describe("every chart", () => {
  it("is one of the sample charts (each builder is tested)", () => {
    const builders = Object.entries(plots)
      .filter(([name, value]) => typeof value === "function" && name.endsWith("Chart"))
      .map(([name]) => name)
      .sort();
    expect(Object.keys(charts).sort()).toEqual(builders);
  });

  for (const [name, chart] of Object.entries(charts)) {
    it(`${name}: compiles and renders without a warning, its title in the SVG`, async () => {
      const warnings: string[] = [];
      const svg = await plots.renderSvg(chart, { onWarning: (message) => warnings.push(message) });
      expect(warnings).toEqual([]);
      expect(svg).toMatch(/^<svg/);
      const title = plots.titleOf(chart);
      expect(title.length).toBeGreaterThan(10);
      const escaped = title.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
      expect(svg.includes(`>${escaped}</text>`), title).toBe(true);
      const drawn = await ink(svg);
      expect(drawn.inked).toBeGreaterThan(0.02);
      expect(drawn.colours).toBeGreaterThan(8);
    });

    it(`${name}: every axis has a title, and a legend where colour or shape carries data`, () => {
      const compiled = vegaOf(chart);
      // vega-lite draws a grid as an axis of its own, without labels: not an axis to title
      const axes = [...objects(compiled)]
        .flatMap((node) =>
          Array.isArray(node.axes) ? (node.axes as Record<string, unknown>[]) : [],
        )
        .filter((axis) => !(axis.grid === true && axis.labels === false));
      expect(axes.length).toBeGreaterThan(0);
      for (const axis of axes) {
        expect(
          axis.title,
          `${name}: the ${String(axis.orient)} axis of ${String(axis.scale)}`,
        ).toBeTruthy();
      }
      const legends = [...objects(compiled)].flatMap((node) =>
        Array.isArray(node.legends) ? node.legends : [],
      );
      if (encodesByColourOrShape(chart)) expect(legends.length, name).toBeGreaterThan(0);
    });
  }
});

describe("renderPng", () => {
  it("draws at twice the chart's size by default, and at the scale asked", async () => {
    const svg = await plots.renderSvg(charts.optionPricesChart);
    const [, width, height] = /width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"/
      .exec(svg)!
      .map(Number);
    for (const scale of [undefined, 1]) {
      const png = await plots.renderPng(
        charts.optionPricesChart,
        scale === undefined ? {} : { scale },
      );
      expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
      const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
      // the IHDR chunk: width and height at bytes 16 and 20
      expect(view.getUint32(16)).toBe(Math.round(width * (scale ?? 2)));
      expect(view.getUint32(20)).toBe(Math.round(height * (scale ?? 2)));
    }
  });

  it("names the font file it cannot read", async () => {
    await expect(
      plots.renderPng(charts.brierChart, { fontFile: "/nonexistent/font.ttf" }),
    ).rejects.toThrow(/renderPng: cannot read the chart font \/nonexistent\/font\.ttf/);
  });

  it("reports vega-lite's warnings (the check can fail)", async () => {
    const warnings: string[] = [];
    const chart = {
      ...charts.optionPricesChart,
      mark: "bar",
      encoding: {
        ...(charts.optionPricesChart.encoding as object),
        shape: { field: "option", type: "nominal" },
      },
    };
    await plots.renderSvg(chart, { onWarning: (message) => warnings.push(message) });
    expect(warnings.join("\n")).toMatch(/shape/);
  });
});
