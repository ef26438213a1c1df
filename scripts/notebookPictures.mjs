// The first picture of each section of an executed notebook: what docs/notebooks.md shows from
// docs/img/, and what test/notebooks/pictures.test.ts compares with docs/img/ (the same seed and
// clocks draw the same pictures, byte for byte). `npm run notebooks` writes them
// (`writeNotebookPictures`) after it executed the notebooks on their first database.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The sections of an executed notebook (`## ` headings of its markdown cells) in order, each with
 * the first PNG a cell after its heading drew: `{ file, title, png }`, `file` being
 * `<notebook>-<section number>.png`. A section without a picture is left out.
 */
export function notebookPictures(executedFile) {
  const name = path.basename(executedFile, ".ipynb");
  const notebook = JSON.parse(readFileSync(executedFile, "utf8"));
  const pictures = [];
  let section = 0;
  let title;
  let found = true;
  for (const cell of notebook.cells) {
    const source = Array.isArray(cell.source) ? cell.source.join("") : cell.source;
    if (cell.cell_type === "markdown") {
      const heading = /^## (.+)$/m.exec(source);
      if (heading !== null) {
        section += 1;
        title = heading[1].trim();
        found = false;
      }
      continue;
    }
    if (found || title === undefined) continue;
    const png = (cell.outputs ?? []).map((output) => output.data?.["image/png"]).find(Boolean);
    if (png === undefined) continue;
    const base64 = Array.isArray(png) ? png.join("") : png;
    pictures.push({ file: `${name}-${section}.png`, title, png: Buffer.from(base64, "base64") });
    found = true;
  }
  return pictures;
}

/**
 * Writes the pictures of the executed notebooks `names` (in `executedDirectory`) to `imageDirectory`,
 * after removing the pictures of those notebooks it held; returns the files written.
 */
export function writeNotebookPictures(names, executedDirectory, imageDirectory) {
  mkdirSync(imageDirectory, { recursive: true });
  const written = [];
  for (const name of names) {
    const stem = path.basename(name, ".ipynb");
    for (const old of readdirSync(imageDirectory)) {
      if (new RegExp(`^${stem}-\\d+\\.png$`).test(old)) rmSync(path.join(imageDirectory, old));
    }
    for (const picture of notebookPictures(path.join(executedDirectory, name))) {
      writeFileSync(path.join(imageDirectory, picture.file), picture.png);
      written.push(picture.file);
    }
  }
  return written;
}
