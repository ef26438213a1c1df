/**
 * The outputs of `pathlab query`, each written while the rows stream in: a table for people (the
 * first rows, then a count of the rest), or every row at full precision as one JSON array, JSON
 * lines or CSV.
 */
import Table from "cli-table3";
import type { RowStream } from "../store/queryRows.ts";
import { counted } from "../domain/counted.ts";
import type { StdoutWrite } from "./stdoutWriter.ts";
import { tableStyle } from "./tableStyle.ts";

/**
 * Writes every row as a JSON object keyed by column on a line of its own (NDJSON), one chunk of
 * rows per write; stops when `write` says stdout is closed.
 * @example await writeNdjson(stream, stdoutWriter(io)); // {"asset":"BTC","n":10}\n…
 */
export async function writeNdjson(stream: RowStream, write: StdoutWrite): Promise<void> {
  const keys = objectKeys(stream.columns);
  for (let rows = await stream.nextRows(); rows !== null; rows = await stream.nextRows()) {
    if (!(await write(`${objectTexts(rows, keys).join("\n")}\n`))) return;
  }
}

/**
 * Writes every row as one JSON document, an array of objects keyed by column (one object a line),
 * `[]` for no rows; valid JSON once it has been written to its end.
 * @example await writeJsonArray(stream, stdoutWriter(io)); // [\n{"asset":"BTC","n":10}\n]\n
 */
export async function writeJsonArray(stream: RowStream, write: StdoutWrite): Promise<void> {
  const keys = objectKeys(stream.columns);
  let opening = "[\n";
  for (let rows = await stream.nextRows(); rows !== null; rows = await stream.nextRows()) {
    if (!(await write(opening + objectTexts(rows, keys).join(",\n")))) return;
    opening = ",\n";
  }
  await write(opening === "[\n" ? "[]\n" : "\n]\n");
}

/**
 * Writes every row as CSV: a header line of the column names, then a line per row, one chunk of
 * rows per write; stops when `write` says stdout is closed. Fields are quoted as RFC 4180 quotes
 * them, when they hold a comma, a double quote or a line break (quotes doubled); NULL is an empty
 * field and an empty string `""`. Values are the JSON values of the rows (see `queryRows`): numbers
 * at full precision, lists and structs as their JSON text. Lines end with `\n`.
 * @example await writeCsv(stream, stdoutWriter(io)); // asset,n\nBTC,10\n
 */
export async function writeCsv(stream: RowStream, write: StdoutWrite): Promise<void> {
  if (!(await write(`${csvLine(stream.columns)}\n`))) return;
  for (let rows = await stream.nextRows(); rows !== null; rows = await stream.nextRows()) {
    let text = "";
    for (let index = 0; index < rows.length; index++) text += `${csvLine(rows[index])}\n`;
    if (!(await write(text))) return;
  }
}

/**
 * Writes a table of the first `maxRows` rows as soon as it has them, then reads the rest without
 * keeping it and writes the row count, with how many rows were not shown and how to see them.
 * Doubles are shown to 6 significant digits ({@link significantText}); other values as they are.
 * `colors` colors the head and borders (see `tableStyle`).
 * @example await writeTable(stream, stdoutWriter(io), 100, false); // the table, then "1 row"
 */
export async function writeTable(
  stream: RowStream,
  write: StdoutWrite,
  maxRows: number,
  colors: boolean,
): Promise<void> {
  const shown: (readonly unknown[])[] = [];
  let total = 0;
  while (shown.length < maxRows) {
    const rows = await stream.nextRows();
    if (rows === null) break;
    total += rows.length;
    for (let index = 0; index < rows.length && shown.length < maxRows; index++) {
      shown.push(rows[index]);
    }
  }
  const table = new Table({
    head: [...stream.columns],
    style: tableStyle(colors),
  });
  const doubles = stream.columnTypes.map((type) => /^(DOUBLE|FLOAT)$/.test(type));
  const holdsDoubles = stream.columnTypes.map((type) => /\b(DOUBLE|FLOAT)\b/.test(type));
  for (const row of shown) {
    const cells = row.map((value, column) =>
      cellText(value, doubles[column], holdsDoubles[column]),
    );
    table.push(...lineRows(cells));
  }
  if (!(await write(`${table.toString()}\n`))) return;
  if (shown.length === maxRows) total += await stream.skipRows();
  const more = total - shown.length;
  await write(
    counted(total, "row") +
      (more > 0
        ? `, ${more} more not shown: --ndjson, --json or --csv prints every row; LIMIT or --max-rows chooses what the table shows`
        : "") +
      "\n",
  );
}

/**
 * A row whose cells hold line breaks as one row per line, each cell's lines in its column and ""
 * below a cell that has fewer: in a compact table (no lines between rows) they are drawn exactly as
 * the row itself. cli-table3 draws a cell of many lines in time that grows with the square of its
 * length (the text of an `EXPLAIN ANALYZE` took 5 s), a row of one line each at once.
 * @example lineRows(["plan", "a\nb"]) // => [["plan", "a"], ["", "b"]]
 */
export function lineRows(cells: readonly string[]): string[][] {
  const lines = cells.map((cell) => cell.split("\n"));
  const height = Math.max(...lines.map((cellLines) => cellLines.length));
  if (height === 1) return [[...cells]];
  return Array.from({ length: height }, (_, line) =>
    lines.map((cellLines) => cellLines[line] ?? ""),
  );
}

/** `"name":` for each column, ready to be followed by a value. */
function objectKeys(columns: readonly string[]): string[] {
  return columns.map((column) => `${JSON.stringify(column)}:`);
}

/** Each row as the text of a JSON object keyed by `keys`. */
function objectTexts(rows: readonly (readonly unknown[])[], keys: readonly string[]): string[] {
  const texts = new Array<string>(rows.length);
  const columnCount = keys.length;
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index];
    let text = "{";
    for (let column = 0; column < columnCount; column++) {
      text += (column === 0 ? "" : ",") + keys[column] + JSON.stringify(row[column]);
    }
    texts[index] = `${text}}`;
  }
  return texts;
}

/**
 * `value` to `digits` significant digits, as printf's `%g` shows it: no trailing zeros, and an
 * exponent for magnitudes below 1e-6 or from 10^digits up (`toPrecision`'s choice).
 * @example significantText(0.004207000000000019) // => "0.004207"
 * @example significantText(1234567.5) // => "1.23457e+6"
 */
export function significantText(value: number, digits = 6): string {
  if (!Number.isFinite(value)) return String(value);
  return value
    .toPrecision(digits)
    .replace(/(\.\d*?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}

/**
 * A cell of the table: NULL, text as it is, a number of a DOUBLE or FLOAT column (`double`) to 6
 * significant digits, other numbers (integers) in full; a list or struct as JSON, its fractional
 * numbers to 6 significant digits when its type holds doubles (`holdsDoubles`).
 */
function cellText(value: unknown, double: boolean, holdsDoubles: boolean): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return value;
  if (typeof value === "number") return double ? significantText(value) : String(value);
  if (typeof value === "boolean") return String(value);
  return JSON.stringify(
    value,
    holdsDoubles
      ? (_key, item: unknown) =>
          typeof item === "number" && !Number.isInteger(item) ? Number(significantText(item)) : item
      : undefined,
  );
}

/** A CSV line of `values`, without its line break. */
function csvLine(values: readonly unknown[]): string {
  let line = "";
  for (let index = 0; index < values.length; index++) {
    line += (index === 0 ? "" : ",") + csvField(values[index]);
  }
  return line;
}

/** One CSV field: NULL empty; quoted when empty text or when it holds `,`, `"` or a line break. */
function csvField(value: unknown): string {
  if (value === null) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text === "" || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
