/**
 * Charts for the notebooks: a Vega-Lite specification, compiled by vega-lite, rendered to SVG by
 * vega's headless renderer (no browser, no DOM), rasterized by resvg (WebAssembly) and returned as
 * the cell's `image/png` result.
 *
 * PNG rather than SVG: Debian's nbconvert 6.5 passes SVG outputs through lxml's `clean_html` in the
 * static HTML export, which drops every SVG element but the text; a PNG shows the same in Jupyter,
 * in the HTML export and in a code-hosting site's notebook viewer.
 */
import { Buffer } from "node:buffer";
import { createRequire } from "node:module";
import { initWasm, Resvg } from "npm:@resvg/resvg-wasm";
import * as vega from "npm:vega";
import { compile, type TopLevelSpec } from "npm:vega-lite";

/**
 * The font drawn into the charts (Debian's `fonts-dejavu-core`); `PATHLAB_NOTEBOOK_FONT` names
 * another TrueType file.
 */
export const CHART_FONT_FILE =
  Deno.env.get("PATHLAB_NOTEBOOK_FONT") ?? "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/** Pixels per chart pixel: charts are drawn at twice their size, so that text stays sharp. */
const PIXEL_RATIO = 2;

let ready: Promise<Uint8Array> | undefined;

/** Loads resvg's WebAssembly module and the font, once; resolves with the font's bytes. */
function loadRasterizer(): Promise<Uint8Array> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    await initWasm(await Deno.readFile(require.resolve("@resvg/resvg-wasm/index_bg.wasm")));
    try {
      return await Deno.readFile(CHART_FONT_FILE);
    } catch (error) {
      throw new Error(
        `renderChart: cannot read the chart font ${CHART_FONT_FILE} (${(error as Error).message}); install fonts-dejavu-core or set PATHLAB_NOTEBOOK_FONT to a .ttf file`,
      );
    }
  })();
  return ready;
}

/**
 * Renders a Vega-Lite specification to PNG bytes (at twice its size).
 * @example const png = await renderChart({ data: { values: [{ x: 1, y: 2 }] }, mark: "point", encoding: { x: { field: "x" }, y: { field: "y" } } });
 */
export async function renderChart(spec: TopLevelSpec): Promise<Uint8Array> {
  const font = await loadRasterizer();
  const withFont: TopLevelSpec = {
    ...spec,
    config: { font: "DejaVu Sans", ...spec.config },
  } as TopLevelSpec;
  const view = new vega.View(vega.parse(compile(withFont).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  const rasterizer = new Resvg(svg, {
    fitTo: { mode: "zoom", value: PIXEL_RATIO },
    font: {
      fontBuffers: [font],
      loadSystemFonts: false,
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
  });
  try {
    return rasterizer.render().asPng();
  } finally {
    rasterizer.free();
  }
}

/**
 * A Vega-Lite chart as the cell's result: end a cell with `await chart(spec)` and Jupyter shows it as
 * an `image/png` output (with the title as its text form). A result rather than a
 * `Deno.jupyter.display` call, because the kernel sends a cell's result in order, before it reports
 * the cell done, while a display message can reach nbconvert after that and be dropped.
 * @example await chart({ title: "Two points", data: { values: [{ x: 1, y: 2 }, { x: 2, y: 3 }] }, mark: "line", encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } });
 */
export async function chart(spec: TopLevelSpec): Promise<Deno.jupyter.Displayable> {
  const png = Buffer.from(await renderChart(spec)).toString("base64");
  const title = typeof spec.title === "string" ? spec.title : JSON.stringify(spec.title ?? "chart");
  return {
    [Deno.jupyter.$display]: () => ({ "image/png": png, "text/plain": `[chart] ${title}` }),
  };
}
