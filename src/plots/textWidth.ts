/**
 * Text widths from the chart font itself, for vega's layout. Without a canvas, vega estimates a
 * text's width as 0.8 em per character, about 40 % wider than DejaVu Sans: a long rotated axis
 * title then pushes its chart down under a band of white, and legends sit too far out. vega lets a
 * renderer supply the measure instead (`textMetrics.width`, as vl-convert does); this one asks resvg
 * for the advance of each character once, from the same font file the PNG is drawn with.
 */
import type { Resvg } from "@resvg/resvg-wasm";

/** The size the advances are measured at, px. */
const MEASURED_SIZE = 100;

/**
 * A width function for `font` (TrueType bytes, its family `family`): width in px of `text` set at
 * `size` px, the sum of its characters' advances (no kerning). `ResvgClass` must be initialized.
 */
export function fontWidths(
  ResvgClass: typeof Resvg,
  font: Uint8Array,
  family: string,
): (text: string, size: number) => number {
  const advances = new Map<string, number>();
  const inkWidth = (text: string) => {
    const escaped = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${MEASURED_SIZE * 60}" height="${2 * MEASURED_SIZE}"><text x="0" y="${MEASURED_SIZE}" font-family="${family}" font-size="${MEASURED_SIZE}" xml:space="preserve">${escaped}</text></svg>`;
    const measured = new ResvgClass(svg, {
      font: { fontBuffers: [font], loadSystemFonts: false, defaultFontFamily: family },
    });
    try {
      return measured.getBBox()?.width ?? 0;
    } finally {
      measured.free();
    }
  };
  /** One character's advance in em: ten more of it between two marks, a tenth of the growth. */
  const advance = (character: string) => {
    let em = advances.get(character);
    if (em === undefined) {
      const wide = inkWidth(`x${character.repeat(20)}x`);
      const narrow = inkWidth(`x${character.repeat(10)}x`);
      em = Math.max(0, (wide - narrow) / 10 / MEASURED_SIZE);
      advances.set(character, em);
    }
    return em;
  };
  return (text, size) => {
    let em = 0;
    for (const character of text) em += advance(character);
    return em * size;
  };
}
