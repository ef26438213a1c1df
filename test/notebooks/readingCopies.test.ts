/// <reference lib="dom" />
/**
 * The notebooks' reading copies (`<name>.reading.html`, the executed notebook without its code,
 * which `npm run notebooks` writes) rendered by a real headless Chromium (Debian's `chromium`,
 * driven through puppeteer-core): each page shows no code, holds one image per chart output of the
 * executed notebook, and every image is decoded and drawn (not blank: inked pixels and several
 * colours), and each section (an h2) shows its first picture whole on the screen that opens with
 * its heading. A full-page PNG of each copy is written beside it (`<name>.reading.png`) to look at.
 *
 * Skipped, with the reason, without Chromium or the executed copies, unless
 * PATHLAB_REQUIRE_NOTEBOOKS=1 (CI), which turns either absence into a failure.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { launch, type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const executedDirectory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../notebooks/.executed",
);
const CHROMIUM = process.env.PATHLAB_CHROMIUM ?? "/usr/bin/chromium";
const required = process.env.PATHLAB_REQUIRE_NOTEBOOKS === "1";
const names = ["insights", "miners", "venues"];
/** The screen the copies are read on: a laptop's browser window. */
const SCREEN = { width: 1280, height: 900 };

function reasonToSkip(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
  const missing = names.filter(
    (name) => !existsSync(path.join(executedDirectory, `${name}.reading.html`)),
  );
  if (missing.length > 0)
    return `no reading copies of ${missing.join(", ")}: run \`npm run notebooks\``;
  return undefined;
}

/** The chart images of the executed notebook: one per PNG output. */
function chartsOf(name: string): number {
  const notebook = JSON.parse(
    readFileSync(path.join(executedDirectory, `${name}.ipynb`), "utf8"),
  ) as {
    cells: { outputs?: { data?: Record<string, unknown> }[] }[];
  };
  return notebook.cells
    .flatMap((cell) => cell.outputs ?? [])
    .filter((output) => typeof output.data?.["image/png"] === "string").length;
}

const reason = reasonToSkip();
if (reason !== undefined && !required)
  console.warn(`notebooks: reading copies not rendered: ${reason}`);
const skip = reason !== undefined && !required;

describe.skipIf(skip)(
  `the reading copies in Chromium${skip ? ` (skipped: ${reason})` : ""}`,
  () => {
    let browser: Browser;
    beforeAll(async () => {
      expect(reason, "set by PATHLAB_REQUIRE_NOTEBOOKS=1 (CI)").toBeUndefined();
      browser = await launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
    }, 60_000);
    afterAll(async () => browser?.close());

    for (const name of names) {
      it(`${name}: no code, and every chart present and drawn`, async () => {
        const page = await browser.newPage();
        try {
          await page.setViewport(SCREEN);
          const file = path.join(executedDirectory, `${name}.reading.html`);
          await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
          const rendered = await page.evaluate(async () => {
            const images = Array.from(document.querySelectorAll("img"));
            await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
            const code = document.querySelectorAll(
              ".jp-CodeMirrorEditor, .CodeMirror, .jp-InputPrompt, .input_prompt",
            ).length;
            return {
              code,
              images: images.map((image) => {
                const canvas = document.createElement("canvas");
                canvas.width = image.naturalWidth;
                canvas.height = image.naturalHeight;
                const context = canvas.getContext("2d")!;
                if (image.naturalWidth === 0) return { width: 0, height: 0, inked: 0, colours: 0 };
                context.drawImage(image, 0, 0);
                const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
                let inked = 0;
                const colours = new Set<number>();
                for (let index = 0; index < data.length; index += 4) {
                  const [red, green, blue, alpha] = data.subarray(index, index + 4);
                  if (alpha > 0 && red + green + blue < 600) inked += 1;
                  if (colours.size < 64) colours.add((red << 16) | (green << 8) | blue);
                }
                return {
                  width: image.naturalWidth,
                  height: image.naturalHeight,
                  inked: inked / (data.length / 4),
                  colours: colours.size,
                };
              }),
            };
          });
          expect(rendered.code, "code on the reading copy").toBe(0);
          expect(rendered.images.length).toBe(chartsOf(name));
          for (const [index, image] of rendered.images.entries()) {
            const label = `${name} image ${index + 1}`;
            expect(image.width, label).toBeGreaterThan(200);
            expect(image.height, label).toBeGreaterThan(100);
            // axes, labels and marks: some ink, several colours; a blank chart has neither
            expect(image.inked, label).toBeGreaterThan(0.01);
            expect(image.colours, label).toBeGreaterThan(3);
          }
          // Pictures first: a section's first picture lies wholly on the screen that opens with the
          // section's heading.
          const sections = await page.evaluate(() => {
            const top = (element: Element) => element.getBoundingClientRect().top + window.scrollY;
            const headings = Array.from(document.querySelectorAll("h2"));
            const images = Array.from(document.querySelectorAll("img"));
            return headings.map((heading, index) => {
              const end = index + 1 < headings.length ? top(headings[index + 1]) : Infinity;
              const first = images.find((image) => top(image) > top(heading) && top(image) < end);
              return {
                heading: heading.textContent?.replace("¶", "").trim() ?? "",
                bottom:
                  first === undefined
                    ? null
                    : first.getBoundingClientRect().bottom + window.scrollY - top(heading),
                right: first?.getBoundingClientRect().right ?? null,
              };
            });
          });
          expect(sections.length, `${name}: its sections`).toBeGreaterThan(2);
          for (const section of sections) {
            const label = `${name}: "${section.heading}": its first picture's bottom, px below the heading`;
            expect(section.bottom, label).not.toBeNull();
            expect(section.bottom!, label).toBeLessThanOrEqual(SCREEN.height);
            expect(
              section.right!,
              `${name}: "${section.heading}": its first picture's right edge`,
            ).toBeLessThanOrEqual(SCREEN.width);
          }
          await page.screenshot({
            path: path.join(executedDirectory, `${name}.reading.png`) as `${string}.png`,
            fullPage: true,
          });
          expect(readdirSync(executedDirectory)).toContain(`${name}.reading.png`);
        } finally {
          await page.close();
        }
      }, 120_000);
    }
  },
);
