/**
 * Charts to SVG and PNG without a browser: vega-lite compiles the chart, vega's headless view
 * (`renderer: "none"`, no DOM, no canvas) lays it out with the font's own text widths
 * (`textWidth.ts`) and draws it as SVG, and resvg (WebAssembly, no native build) rasterizes the
 * SVG with that TrueType font. The three packages are optional peer dependencies, loaded on the
 * first render (`chartPackages.ts`): importing pathlab costs nothing for them, and a user who does
 * not draw charts does not install them.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type * as ResvgModule from "@resvg/resvg-wasm";
import type { TopLevelSpec } from "vega-lite";
import type { Chart } from "./chart.ts";
import { importChartPackage } from "./chartPackages.ts";
import { fontWidths } from "./textWidth.ts";

/**
 * The font drawn into PNGs (Debian's `fonts-dejavu-core`); `PATHLAB_CHART_FONT` names another
 * TrueType file.
 * @example DEFAULT_CHART_FONT // => "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" (unless PATHLAB_CHART_FONT is set)
 */
export const DEFAULT_CHART_FONT =
  process.env.PATHLAB_CHART_FONT ?? "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/** The family the charts' text is set in; the PNG's font file is registered under it. */
const FONT_FAMILY = "DejaVu Sans";

/**
 * Options of {@link renderSvg}.
 * @example const options: SvgOptions = { onWarning: (message) => console.warn(message) };
 */
export interface SvgOptions {
  /** Receives vega-lite's and vega's warnings (a field that is not in the data, say); default: none. */
  readonly onWarning?: (message: string) => void;
  /**
   * The TrueType font of the text (default {@link DEFAULT_CHART_FONT}): its widths lay out the
   * chart, and a PNG is drawn with it. An SVG whose font cannot be read is laid out with vega's
   * estimate instead.
   */
  readonly fontFile?: string;
}

/**
 * Options of {@link renderPng}.
 * @example const options: PngOptions = { scale: 1, fontFile: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" };
 */
export interface PngOptions extends SvgOptions {
  /** Pixels per chart pixel (default 2, so that text stays sharp). */
  readonly scale?: number;
}

/**
 * Renders a chart to an SVG document.
 * @param chart - the chart, as one of this entry's chart functions makes it.
 * @param options - the font file (default {@link DEFAULT_CHART_FONT}) and a receiver of vega's
 *   warnings (none by default).
 * @example
 * const svg = await renderSvg(rewardWeightsChart({ competition: "crypto-24h", miners }));
 * svg.startsWith("<svg") // => true
 */
export function renderSvg(chart: Chart, options: SvgOptions = {}): Promise<string> {
  // One render at a time: vega's text measure is module-wide state (see below).
  const result = rendering.then(() => renderSvgNow(chart, options));
  rendering = result.catch(() => undefined);
  return result;
}

/** The queue of renders: the promise of the last one. */
let rendering: Promise<unknown> = Promise.resolve();

async function renderSvgNow(chart: Chart, options: SvgOptions): Promise<string> {
  const [vega, vegaLite] = await Promise.all([
    importChartPackage("renderSvg", "vega", () => import("vega")),
    importChartPackage("renderSvg", "vega-lite", () => import("vega-lite")),
  ]);
  const warn = (...parts: unknown[]) => options.onWarning?.(parts.map(String).join(" "));
  const logger = {
    level: (() => logger) as never,
    error: (...parts: unknown[]) => {
      throw new Error(`renderSvg: ${parts.map(String).join(" ")}`);
    },
    warn: (...parts: unknown[]) => (warn(...parts), logger),
    info: () => logger,
    debug: () => logger,
  };
  const spec = {
    ...chart,
    config: { font: FONT_FAMILY, ...(chart.config as object | undefined) },
  } as unknown as TopLevelSpec;
  let compiled;
  try {
    compiled = vegaLite.compile(spec, { logger: logger as never }).spec;
  } catch (error) {
    throw new Error(
      `renderSvg: the chart ${JSON.stringify(titleOf(chart))} does not compile: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const font = await loadFont(options.fontFile).catch(() => undefined);
  // vega's layout reads this module-wide measure (absent from vega's typings): set for this
  // render (renders run one at a time), and restored after it
  const { textMetrics } = vega as unknown as { textMetrics: TextMetrics };
  const previousWidth = textMetrics.width;
  textMetrics.width =
    font === undefined
      ? textMetrics.estimateWidth
      : (item: { fontSize?: number }, text: unknown) =>
          font.widths(String(text ?? "").trim(), item.fontSize ?? 11);
  let view: InstanceType<typeof vega.View> | undefined;
  try {
    view = new vega.View(vega.parse(compiled), { renderer: "none" });
    view.logger({ ...logger, level: () => logger } as never);
    view.logLevel(vega.Warn);
    return await view.toSVG();
  } finally {
    view?.finalize();
    // other users of vega in the process get their measure back
    textMetrics.width = previousWidth;
  }
}

/** vega-scenegraph's text measure, which vega re-exports. */
interface TextMetrics {
  width: (item: { fontSize?: number }, text: unknown) => number;
  readonly estimateWidth: (item: { fontSize?: number }, text: unknown) => number;
}

let resvgReady: Promise<typeof ResvgModule> | undefined;
const fonts = new Map<
  string,
  Promise<{ bytes: Uint8Array; widths: (text: string, size: number) => number }>
>();

/** resvg, its WebAssembly initialized (once). */
function loadResvg(): Promise<typeof ResvgModule> {
  resvgReady ??= (async () => {
    const resvg = await importChartPackage(
      "renderPng",
      "@resvg/resvg-wasm",
      () => import("@resvg/resvg-wasm"),
    );
    const require = createRequire(import.meta.url);
    const wasm = await readFile(require.resolve("@resvg/resvg-wasm/index_bg.wasm"));
    // the module is initialized once per process: the caller may have done it already
    await resvg.initWasm(wasm).catch((error: Error) => {
      if (!/already initialized/i.test(error.message)) throw error;
    });
    return resvg;
  })();
  return resvgReady;
}

/** A font file's bytes and text widths, read once per file; rejects naming the file. */
function loadFont(file = DEFAULT_CHART_FONT) {
  let font = fonts.get(file);
  if (font === undefined) {
    font = (async () => {
      const resvg = await loadResvg();
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await readFile(file));
      } catch (error) {
        fonts.delete(file);
        throw new Error(
          `renderPng: cannot read the chart font ${file} (${(error as Error).message}); install fonts-dejavu-core, pass fontFile, or set PATHLAB_CHART_FONT to a .ttf file`,
          { cause: error },
        );
      }
      return { bytes, widths: fontWidths(resvg.Resvg, bytes, FONT_FAMILY) };
    })();
    fonts.set(file, font);
  }
  return font;
}

/**
 * Renders a chart to PNG bytes, at `scale` pixels per chart pixel (default 2).
 * @param chart - the chart, as one of this entry's chart functions makes it.
 * @param options - the pixels per chart pixel (2 by default), the font file and a receiver of
 *   vega's warnings.
 * @example
 * const png = await renderPng(crpsByHourChart(rows));
 * png.subarray(1, 4).toString() // => "80,78,71" ("PNG")
 */
export async function renderPng(chart: Chart, options: PngOptions = {}): Promise<Uint8Array> {
  const font = await loadFont(options.fontFile);
  const svg = await renderSvg(chart, options);
  const resvg = await loadResvg();
  const rasterizer = new resvg.Resvg(svg, {
    fitTo: { mode: "zoom", value: options.scale ?? 2 },
    font: {
      fontBuffers: [font.bytes],
      loadSystemFonts: false,
      defaultFontFamily: FONT_FAMILY,
      sansSerifFamily: FONT_FAMILY,
    },
  });
  try {
    const image = rasterizer.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    rasterizer.free();
  }
}

/**
 * The chart's title text (a title with a subtitle gives its text).
 * @param chart - a chart, as one of this entry's chart functions makes it.
 * @example titleOf(brierChart([])) // => "No resolved market: nothing to score yet"
 */
export function titleOf(chart: Chart): string {
  return typeof chart.title === "string" ? chart.title : chart.title.text;
}
