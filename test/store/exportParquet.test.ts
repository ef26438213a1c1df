import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXPORTED_TABLES, exportParquet } from "../../src/store/exportParquet.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { schemaTables } from "../../src/store/schemaTables.ts";
import { startRun } from "../../src/store/runs.ts";
import { filledStore } from "./filledStore.ts";
import { temporaryFolder } from "./helpers.ts";
import { FORECAST_START } from "./units.ts";

/** Whether `python3 -c code` runs. */
function pythonRuns(code: string): boolean {
  try {
    execFileSync("python3", ["-c", code], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Whether python3 runs (the footer reader needs nothing else), and with pandas and pyarrow. */
const pythonAvailable = pythonRuns("pass");
const pyarrowAvailable = pythonAvailable && pythonRuns("import pandas, pyarrow");

/** Row count of every table the store holds. */
async function tableCounts(store: Store): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { name, kind } of await schemaTables(store)) {
    if (kind !== "table") continue;
    const { rows } = await queryRows(store, `select count(*) from ${name}`);
    counts[name] = Number(rows[0][0]);
  }
  return counts;
}

let folder: string;
let remove: () => void;

beforeEach(() => {
  ({ folder, remove } = temporaryFolder());
});
afterEach(() => remove());

describe("exportParquet", () => {
  it("exportParquet writes every table of the database as <table>/asset=…/date=…/*.parquet (date only without an asset)", async () => {
    const store = await filledStore(folder);
    const out = join(folder, "export");
    const written = await exportParquet(store, out);
    const tables = (await schemaTables(store)).filter((table) => table.kind === "table");
    await store.close();
    expect(written.map((table) => table.table)).toEqual(tables.map((table) => table.name));
    expect(written.map((table) => table.table)).toEqual(EXPORTED_TABLES);
    for (const table of written) expect(table.rows, table.table).toBeGreaterThan(0);
    const files = Object.fromEntries(written.map((table) => [table.table, table.files]));
    const partition = /^asset=(BTC|ETH)\/date=2026-02-2[56]\/data_\d+\.parquet$/;
    for (const table of [
      "path_sets",
      "path_values",
      "insights",
      "insight_values",
      "crosschecks",
      "venue_comparisons",
    ]) {
      expect(files[table].length, table).toBe(2);
      for (const file of files[table]) expect(file).toMatch(partition);
    }
    expect(files.path_sets).toEqual([
      expect.stringMatching(/^asset=BTC\/date=2026-02-25\//),
      expect.stringMatching(/^asset=ETH\/date=2026-02-26\//),
    ]);
    expect(files.runs).toEqual([expect.stringMatching(/^date=2026-02-25\/data_\d+\.parquet$/)]);
    // both units carry the same meta-leaderboard (as of the BTC unit's time): stored once
    expect(files.leaderboard_rows).toEqual([
      expect.stringMatching(/^date=2026-02-25\/data_\d+\.parquet$/),
    ]);
    // the scoring tables: by asset and the prompt's start date; smoothed scores by as_of's date
    const scoring = ["prompts", "realized_prices", "service_scores", "miner_scores", "calibration"];
    for (const table of scoring) {
      expect(files[table], table).toEqual([expect.stringMatching(/^asset=BTC\/date=2026-02-25\//)]);
    }
    expect(files.smoothed_scores).toEqual([
      expect.stringMatching(/^date=2026-02-26\/data_\d+\.parquet$/),
    ]);
    for (const table of written) {
      for (const file of table.files) expect(existsSync(join(table.directory, file))).toBe(true);
    }
  });

  it("DuckDB reads the export back as it is: same rows, equal prices, partition columns restored", async () => {
    const store = await filledStore(folder);
    const counts = await tableCounts(store);
    const out = join(folder, "export");
    const written = await exportParquet(store, out);
    expect(Object.keys(counts)).toEqual(written.map((table) => table.table));
    for (const table of written) expect(table.rows, table.table).toBe(counts[table.table]);
    for (const table of Object.keys(counts)) {
      const { rows } = await queryRows(
        store,
        "select count(*) from read_parquet($glob, hive_partitioning = true)",
        { glob: join(out, table, "**", "*.parquet") },
      );
      expect(Number(rows[0][0]), table).toBe(counts[table]);
    }
    // every path's prices, exactly, both ways
    const difference = await queryRows(
      store,
      `select count(*) from (
         (select path_set_id, path, prices from path_values
          except all select path_set_id, path, prices from read_parquet($glob, hive_partitioning = true))
         union all
         (select path_set_id, path, prices from read_parquet($glob, hive_partitioning = true)
          except all select path_set_id, path, prices from path_values))`,
      { glob: join(out, "path_values", "**", "*.parquet") },
    );
    expect(difference.rows).toEqual([[0]]);
    const assets = await queryRows(
      store,
      "select asset, cast(date as varchar), count(*) from read_parquet($glob, hive_partitioning = true) group by all order by 1",
      { glob: join(out, "path_sets", "**", "*.parquet") },
    );
    expect(assets.rows).toEqual([
      ["BTC", "2026-02-25", 2],
      ["ETH", "2026-02-26", 3],
    ]);
    await store.close();
  });

  it.skipIf(!pythonAvailable)(
    `an independent reader (Python, no Parquet library) finds PAR1 files with the expected rows and columns${pythonAvailable ? "" : " [SKIPPED: python3 missing]"}`,
    async () => {
      const store = await filledStore(folder);
      const out = join(folder, "export");
      const written = await exportParquet(store, out);
      const columns = await queryRows(
        store,
        "select table_name, list(column_name order by column_index) from duckdb_columns() where database_name = current_database() group by 1",
      );
      await store.close();
      const tableColumns = new Map(
        columns.rows.map(([table, names]) => [table, names as string[]]),
      );
      const script = join(import.meta.dirname, "parquet_footer.py");
      const paths = written.flatMap((table) =>
        table.files.map((file) => join(table.directory, file)),
      );
      const allFooters = JSON.parse(
        execFileSync("python3", [script, ...paths], { encoding: "utf8" }),
      ) as { rows: number; columns: string[]; createdBy: string }[];
      expect(allFooters).toHaveLength(paths.length);
      let next = 0;
      for (const table of written) {
        const footers = allFooters.slice(next, next + table.files.length);
        next += table.files.length;
        expect(
          footers.reduce((sum, footer) => sum + footer.rows, 0),
          table.table,
        ).toBe(table.rows);
        const partitionColumns = tableColumns.get(table.table)!.includes("asset")
          ? ["asset", "date"]
          : ["date"];
        const expected =
          table.table === "path_values"
            ? ["path_set_id", "path", "prices"]
            : table.table === "insight_values"
              ? ["insight_id", "field", "key", "value"]
              : tableColumns.get(table.table)!.filter((name) => !partitionColumns.includes(name));
        for (const footer of footers) {
          expect(footer.columns, table.table).toEqual(expected);
          expect(footer.createdBy).toMatch(/DuckDB/);
        }
      }
    },
  );

  it.skipIf(!pyarrowAvailable)(
    `pandas with pyarrow reads every exported table's folder as it is, with every row and the partition columns${pyarrowAvailable ? "" : " [SKIPPED: python3 with pandas and pyarrow missing]"}`,
    async () => {
      const store = await filledStore(folder);
      const out = join(folder, "export");
      const written = await exportParquet(store, out);
      await store.close();
      const read = JSON.parse(
        execFileSync(
          "python3",
          [
            join(import.meta.dirname, "read_parquet_pandas.py"),
            ...written.map((table) => `${table.table}=${table.directory}`),
          ],
          { encoding: "utf8" },
        ),
      ) as Record<string, { rows: number; columns: string[] }>;
      expect(Object.keys(read)).toEqual(written.map((table) => table.table));
      for (const table of written) {
        expect(read[table.table].rows, table.table).toBe(table.rows);
        expect(read[table.table].columns, table.table).toContain("date");
      }
      expect(read.path_values.columns).toEqual(["path_set_id", "path", "prices", "asset", "date"]);
    },
  );

  it("exporting again with overwrite replaces each table's folder: no duplicate files or rows", async () => {
    const store = await filledStore(folder);
    const out = join(folder, "export");
    const first = await exportParquet(store, out);
    await queryRows(store, "delete from crosschecks where asset = 'ETH'");
    const second = await exportParquet(store, out, undefined, { overwrite: true });
    expect(second.map((table) => table.files)).toEqual(
      first.map((table) => (table.table === "crosschecks" ? table.files.slice(0, 1) : table.files)),
    );
    expect(readdirSync(join(out, "crosschecks"))).toEqual(["asset=BTC"]);
    const { rows } = await queryRows(
      store,
      "select count(*) from read_parquet($glob, hive_partitioning = true)",
      { glob: join(out, "insights", "**", "*.parquet") },
    );
    expect(rows).toEqual([[4]]);
    await store.close();
  });

  it("an empty table exports no files; a folder name with a quote works; names other than tables are refused", async () => {
    const store = await openStore(":memory:");
    const out = join(folder, "it's export");
    const [runs] = await exportParquet(store, out, ["runs"]);
    expect(runs).toMatchObject({ table: "runs", rows: 0, files: [] });
    await startRun(store, { command: "export", args: {}, startedAtUnix: FORECAST_START });
    const [again] = await exportParquet(store, out, ["runs"], { overwrite: true });
    expect(again.files).toHaveLength(1);
    for (const name of ["nope", "path_points", "schema_migrations"]) {
      await expect(exportParquet(store, out, [name], { overwrite: true })).rejects.toThrow(
        `exportParquet requires tables of the database (${EXPORTED_TABLES.join(", ")}), got "${name}"`,
      );
    }
    await store.close();
  });

  it("a table added outside pathlab is exported too: by asset and date when it has them, else in one file", async () => {
    const store = await openStore(join(folder, "pathlab.duckdb"));
    await queryRows(store, "create table notes (id integer primary key, note varchar)");
    await queryRows(store, "insert into notes values (2, 'b'), (1, 'a')");
    await queryRows(store, "create table marks (asset varchar, noted_at timestamp, mark double)");
    await queryRows(store, "insert into marks values ('BTC', '2026-02-25 10:00', 1.5)");
    const written = await exportParquet(store, join(folder, "export"));
    expect(written.map((table) => table.table)).toEqual([...EXPORTED_TABLES, "marks", "notes"]);
    const [marks, notes] = written.slice(-2);
    expect(marks).toMatchObject({
      rows: 1,
      files: [expect.stringMatching(/^asset=BTC\/date=2026-02-25\//)],
    });
    expect(notes).toMatchObject({ rows: 2, files: ["data_0.parquet"] });
    const { rows } = await queryRows(store, "select list(id) from read_parquet($file)", {
      file: join(notes.directory, "data_0.parquet"),
    });
    expect(rows).toEqual([[[1, 2]]]); // in primary-key order
    await store.close();
  });

  it("a read-only store exports too", async () => {
    const store = await filledStore(folder);
    await store.close();
    const reader = await openStore(join(folder, "pathlab.duckdb"), { readOnly: true });
    const written = await exportParquet(reader, join(folder, "export"), ["path_sets"]);
    expect(written[0].rows).toBe(5);
    await reader.close();
  });
});
