/**
 * The exported Parquet read by an independent reader: hyparquet, a JavaScript implementation of
 * the Parquet format that shares no code with DuckDB, stands in here for the readers users bring
 * (pandas with pyarrow, Spark; neither can be installed on these machines). It decodes every file of
 * every table, and the values come out as the database holds them.
 */
import { join } from "node:path";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportParquet } from "../../src/store/exportParquet.ts";
import { queryRows } from "../../src/store/queryRows.ts";
import { filledStore } from "./filledStore.ts";
import { temporaryFolder } from "./helpers.ts";

let folder: string;
let remove: () => void;
beforeEach(() => ({ folder, remove } = temporaryFolder()));
afterEach(() => remove());

/** Every row of every file of an exported table, as hyparquet reads them. */
async function readTable(directory: string, files: readonly string[]) {
  const rows: Record<string, unknown>[] = [];
  for (const file of files) {
    rows.push(
      ...(await parquetReadObjects({ file: await asyncBufferFromFile(join(directory, file)) })),
    );
  }
  return rows;
}

describe("exported Parquet, read by hyparquet", () => {
  it("every table, every row; prices bit for bit; times, JSON and lists as stored", async () => {
    const store = await filledStore(folder);
    const written = await exportParquet(store, join(folder, "export"));
    const read = new Map<string, Record<string, unknown>[]>();
    for (const table of written) {
      const rows = await readTable(table.directory, table.files);
      expect(rows.length, table.table).toBe(table.rows);
      read.set(table.table, rows);
    }
    expect([...read.values()].every((rows) => rows.length > 0)).toBe(true);

    // path prices: the same doubles, compared as bits
    const bits = (values: readonly number[]) =>
      Buffer.from(Float64Array.from(values).buffer).toString("hex");
    const stored = await queryRows(store, "select path_set_id, path, prices from path_values");
    const expected = new Map(
      stored.rows.map(([id, path, prices]) => [`${id}/${path}`, bits(prices as number[])]),
    );
    const prices = read.get("path_values")!;
    expect(prices).toHaveLength(expected.size);
    for (const row of prices) {
      expect(bits(row.prices as number[])).toBe(expected.get(`${row.path_set_id}/${row.path}`));
    }

    // timestamps (UTC), JSON columns as their text, lists of doubles
    const prompts = await queryRows(
      store,
      "select epoch_ms(start_time), epoch_ms(scored_time), competition from prompts",
    );
    expect(
      read
        .get("prompts")!
        .map((row) => [
          (row.start_time as Date).getTime(),
          (row.scored_time as Date).getTime(),
          row.competition,
        ]),
    ).toEqual(
      prompts.rows.map(([start, scored, competition]) => [
        Number(start),
        Number(scored),
        competition,
      ]),
    );
    const runs = await queryRows(store, "select args, failures, status from runs");
    // JSON columns carry Parquet's JSON type: a reader that knows it gives the parsed values
    expect(read.get("runs")!.map((row) => [row.args, row.failures, row.status])).toEqual(
      runs.rows.map(([args, failures, status]) => [
        JSON.parse(args as string),
        JSON.parse(failures as string),
        status,
      ]),
    );
    const calibration = await queryRows(
      store,
      "select pit_counts from calibration order by miner_uid",
    );
    expect(
      read
        .get("calibration")!
        .sort((a, b) => Number(a.miner_uid) - Number(b.miner_uid))
        .map((row) => row.pit_counts),
    ).toEqual(calibration.rows.map(([counts]) => counts));
    await store.close();
  });
});
