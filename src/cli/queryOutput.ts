/**
 * The three outputs of `pathlab query`, each written while the rows stream in: a table for people
 * (the first rows, then a count of the rest), one JSON array, or JSON lines.
 */
import Table from "cli-table3";
import type { RowStream } from "../store/queryRows.ts";
import type { StdoutWrite } from "./stdoutWriter.ts";
import { tableStyle } from "./tableStyle.ts";

/**
 * Writes every row as a JSON object keyed by column on a line of its own (NDJSON), one chunk of
 * rows per write; stops when `write` says stdout is closed.
 * @example await writeNdjson(stream, stdoutWriter(io)); // {"asset":"BTC","n":"10"}\n…
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
 * @example await writeJsonArray(stream, stdoutWriter(io)); // [\n{"asset":"BTC","n":"10"}\n]\n
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
 * Writes a table of the first `maxRows` rows as soon as it has them, then reads the rest without
 * keeping it and writes the row count, with how many rows were not shown and how to see them.
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
  for (const row of shown) table.push(row.map(cellText));
  if (!(await write(`${table.toString()}\n`))) return;
  if (shown.length === maxRows) total += await stream.skipRows();
  const more = total - shown.length;
  await write(
    `${total} row${total === 1 ? "" : "s"}` +
      (more > 0
        ? `, ${more} more not shown: --ndjson or --json prints every row; LIMIT or --max-rows chooses what the table shows`
        : "") +
      "\n",
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

function cellText(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}
