/**
 * Lake ids: the surrogate ids of a unit's store (`path_sets.id`, `insights.id`, which
 * `path_values` and `insight_values` point at) made stable before the unit moves into the lake.
 * Those ids come from a sequence that starts again in every store, so each unit's store would give
 * its first path set the id 1. Each id becomes its row's natural key packed into bits (the minute,
 * the miner, codes of the asset and layout, …): unique by construction, the same in every run and
 * process, and below 2^53; its values follow it.
 */

import type { Store } from "./openStore.ts";
import { sqlStringLiteral } from "./sqlText.ts";

/**
 * The codes that make a row's lake id from its natural key: a value's code is its position in its
 * list, so the lists are append only.
 * @example const codes: LakeIdCodes = { assets: ["BTC"], operations: ["/insights/volatility"], sources: ["service", "recomputed"] };
 */
export interface LakeIdCodes {
  readonly assets: readonly string[];
  readonly operations: readonly string[];
  readonly sources: readonly string[];
}

/** Minutes from the Unix epoch to 2020-01-01: ids count minutes from there (27 bits: 255 years). */
const ID_EPOCH_MINUTE = 26_297_280;

const list = (values: readonly string[]) => `[${values.map(sqlStringLiteral).join(", ")}]`;
/** A value's position in `values`, or -1 (outside every field's range) when it is not there. */
const code = (values: readonly string[], column: string) =>
  `coalesce(list_position(${list(values)}, ${column}), 0) - 1`;
/** Minutes since 2020, or -1 for a time that is not a whole minute (two such would share an id). */
const minute = (column: string) =>
  `CASE WHEN epoch(${column})::BIGINT % 60 = 0 THEN epoch(${column})::BIGINT // 60 - ${ID_EPOCH_MINUTE} ELSE -1 END`;

/**
 * Each surrogate id, its lake id as bit fields of its natural key (below 2^53, so that it is an
 * exact JavaScript number), the fields' bounds, and the table of values that points at it.
 */
function surrogateIds(codes: LakeIdCodes) {
  return [
    {
      table: "path_sets",
      fields: {
        minute: [minute("start_time"), 27],
        miner: ["miner_uid + 1", 12],
        asset: [code(codes.assets, "asset"), 6],
        layout: [
          "CASE WHEN time_increment = 60 AND time_length = 3600 THEN 0 WHEN time_increment = 300 AND time_length = 86400 THEN 1 ELSE -1 END",
          2,
        ],
      },
      values: "path_values",
      reference: "path_set_id",
    },
    {
      table: "insights",
      fields: {
        minute: [minute("forecast_start_time"), 27],
        operation: [code(codes.operations, "operation"), 7],
        asset: [code(codes.assets, "asset"), 6],
        horizon: ["CASE horizon WHEN '1h' THEN 0 WHEN '24h' THEN 1 ELSE -1 END", 1],
        source: [code(codes.sources, "source"), 2],
      },
      values: "insight_values",
      reference: "insight_id",
    },
  ] as const;
}

/** The lake id of a table's rows, and the check that every field fits its bits. */
function lakeId(fields: Readonly<Record<string, readonly [string, number]>>) {
  let shift = 0;
  const parts: string[] = [];
  const checks: string[] = [];
  for (const [name, [expression, bits]] of Object.entries(fields).reverse()) {
    parts.push(`((${expression})::BIGINT << ${shift})`);
    checks.push(`CASE WHEN (${expression}) NOT BETWEEN 0 AND ${2 ** bits - 1} THEN '${name}' END`);
    shift += bits;
  }
  return { id: parts.join(" | "), outOfRange: `coalesce(${checks.join(", ")})` };
}

/**
 * Gives every path set and insight in `store` (a store holding one unit's rows) its lake id, made
 * with `codes`, and points their values at it. Throws an Error naming the table, the field and the
 * row when a row's field is outside what its id can hold (a value without a code, a start off the
 * minute).
 * @example await giveLakeIds(unitStore, LAKE_ID_CODES);
 */
export async function giveLakeIds(store: Store, codes: LakeIdCodes): Promise<void> {
  await store.withConnection(async (connection) => {
    for (const { table, fields, values, reference } of surrogateIds(codes)) {
      const { id, outOfRange } = lakeId(fields);
      const [bad] = (
        await connection.runAndReadAll(
          `SELECT ${outOfRange} AS field, * EXCLUDE (id) FROM ${table} WHERE ${outOfRange} IS NOT NULL LIMIT 1`,
        )
      ).getRowObjectsJson();
      if (bad !== undefined) {
        throw new Error(
          `sync --lake: a row of ${table} has no lake id: its ${String(bad.field)} is outside what the id can hold (LAKE_ID_CODES, syncLake.ts): ${JSON.stringify(bad)}`,
        );
      }
      await connection.run(
        `CREATE TEMP TABLE stable_ids AS SELECT id AS old, ${id} AS new FROM ${table}`,
      );
      await connection.run(
        `UPDATE ${values} SET ${reference} = stable_ids.new FROM stable_ids WHERE ${values}.${reference} = stable_ids.old`,
      );
      await connection.run(
        `UPDATE ${table} SET id = stable_ids.new FROM stable_ids WHERE ${table}.id = stable_ids.old`,
      );
      await connection.run("DROP TABLE stable_ids");
    }
  });
}
