/**
 * A chart as a Jupyter cell's result: end a cell with `await chart(plots.someChart(rows))` and
 * Jupyter shows it as an `image/png` output, with its title as the text form. The chart is drawn
 * by pathlab's plots layer (`pathlab/plots`: Vega-Lite to SVG to PNG, no browser).
 *
 * PNG rather than SVG: Debian's nbconvert 6.5 passes SVG outputs through lxml's `clean_html` in the
 * static HTML export, which drops every SVG element but the text; a PNG shows the same in Jupyter,
 * in the HTML export and in a code-hosting site's notebook viewer. A result rather than a
 * `Deno.jupyter.display` call, because the kernel sends a cell's result in order, before it reports
 * the cell done, while a display message can reach nbconvert after that and be dropped.
 */
import { Buffer } from "node:buffer";
import { renderPng, titleOf, type Chart } from "../src/plots/index.ts";

/** Pixels per chart pixel: drawn at twice its size, so that text stays sharp. */
const SCALE = 2;

/**
 * The width to show the PNG at, in CSS pixels. The Deno kernel sends no output metadata, so the
 * chart states it as data of its own, and `npm run notebooks` (scripts/notebooks_execute.py) moves
 * it into the output's `image/png` metadata, where Jupyter and nbconvert read an image's width.
 */
const DISPLAY_SIZE = "application/vnd.pathlab.display-size+json";

/**
 * The chart as the cell's result: a PNG at twice its size, shown at its size
 * (`PATHLAB_CHART_FONT` names the font).
 * @example await chart(rewardWeightsChart({ competition: "crypto-24h", miners }));
 */
export async function chart(spec: Chart): Promise<Deno.jupyter.Displayable> {
  const bytes = await renderPng(spec, { scale: SCALE });
  const png = Buffer.from(bytes).toString("base64");
  // the PNG's width, from its IHDR chunk, at the chart's own size
  const width = new DataView(bytes.buffer, bytes.byteOffset).getUint32(16) / SCALE;
  return {
    [Deno.jupyter.$display]: () => ({
      "image/png": png,
      "text/plain": `[chart] ${titleOf(spec)}`,
      [DISPLAY_SIZE]: { width },
    }),
  };
}
