/** The schema's tables and views for the commands' help (`query`, `export`). */
import { migratedTables } from "../store/schemaTables.ts";

/**
 * `Tables: runs, path_sets, …. Views: path_points.`, wrapped at 96 columns: from the schema as
 * `schema.ts` states it, since help opens no database.
 * @example command.addHelpText("after", `\n${tablesHelp()}`);
 */
export function tablesHelp(): string {
  const tables = migratedTables();
  const names = (kind: string) =>
    tables
      .filter((table) => table.kind === kind)
      .map((table) => table.name)
      .join(", ");
  return wrap(`Tables: ${names("table")}. Views: ${names("view")}.`, 96);
}

/** `text` broken at spaces into lines of at most `width` characters. */
function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line].join("\n");
}
