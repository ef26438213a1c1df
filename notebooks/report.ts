/**
 * Text results of the notebooks' cells: Markdown, with a plain-text copy for viewers that do not
 * render Markdown. End a cell with `report(text)`: the kernel sends a cell's result in order, where
 * `console.log` output travels separately and can reach nbconvert after the cell is reported done.
 */

/**
 * Markdown text as the cell's result.
 * @example report(`**86** resolved markets`);
 */
export function report(markdown: string): Deno.jupyter.Displayable {
  return {
    [Deno.jupyter.$display]: () => ({ "text/markdown": markdown, "text/plain": markdown }),
  };
}

/**
 * Rows of objects as a Markdown table, one column per key of the first row.
 * @example markdownTable([{ miner: 150, reward: "0.23324" }]) // => "| miner | reward |\n| --- | --- |\n| 150 | 0.23324 |"
 */
export function markdownTable(rows: readonly Record<string, unknown>[]): string {
  if (rows.length === 0) return "(no rows)";
  const columns = Object.keys(rows[0]);
  const line = (cells: readonly unknown[]) => `| ${cells.map(String).join(" | ")} |`;
  return [
    line(columns),
    line(columns.map(() => "---")),
    ...rows.map((row) => line(columns.map((column) => row[column]))),
  ].join("\n");
}
