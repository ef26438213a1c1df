/**
 * The values `queryRows` and `streamRows` give, on a real DuckDB database: integers as numbers
 * (BIGINT and HUGEINT too, within ±(2^53 − 1); beyond, decimal strings), timestamps as ISO 8601
 * in UTC, the rest as DuckDB's JSON conversion gives it; the same on a `locked` store.
 */

import { describe, expect, it } from "vitest";
import { integerJson, timestampJson } from "../../src/store/jsonValues.ts";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows, streamRows } from "../../src/store/queryRows.ts";
import { temporaryDatabase } from "./helpers.ts";

const VALUES = `select
  180::bigint as count,
  9007199254740991::bigint as largest_exact,
  9007199254740992::bigint as beyond,
  -9007199254740991::bigint as smallest_exact,
  -9007199254740993::bigint as below,
  18446744073709551615::ubigint as ubigint_max,
  (select sum(x)::hugeint from (values (40), (2)) as t(x)) as hugeint_sum,
  [1, 2, 9007199254740993]::bigint[] as bigint_list,
  {'n': 7::bigint, 'at': timestamp '2026-02-25 10:00:00'} as nested,
  42::integer as int32,
  0.004207000000000019::double as double,
  1.50::decimal(10, 2) as decimal,
  timestamp '2026-02-25 10:00:00' as at,
  timestamp '2026-02-25 10:00:00.123456' as at_micros,
  timestamp_ns '2026-02-25 10:00:00.123456789' as at_nanos,
  timestamp_s '2026-02-25 10:00:01' as at_seconds,
  timestamptz '2026-02-25 12:00:00.25+02' as at_zoned,
  timestamp 'infinity' as at_infinity,
  date '2026-02-25' as day,
  'nan'::double as not_a_number,
  null::bigint as nothing`;

const EXPECTED: Record<string, unknown> = {
  count: 180,
  largest_exact: 9007199254740991,
  beyond: "9007199254740992",
  smallest_exact: -9007199254740991,
  below: "-9007199254740993",
  ubigint_max: "18446744073709551615",
  hugeint_sum: 42,
  bigint_list: [1, 2, "9007199254740993"],
  nested: { n: 7, at: "2026-02-25T10:00:00Z" },
  int32: 42,
  double: 0.004207000000000019,
  decimal: "1.50",
  at: "2026-02-25T10:00:00Z",
  at_micros: "2026-02-25T10:00:00.123456Z",
  at_nanos: "2026-02-25T10:00:00.123456789Z",
  at_seconds: "2026-02-25T10:00:01Z",
  at_zoned: "2026-02-25T10:00:00.25Z",
  at_infinity: "infinity",
  day: "2026-02-25",
  not_a_number: "NaN",
  nothing: null,
};

const database = temporaryDatabase("values.duckdb");

async function withStore<T>(locked: boolean, use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(database.path, locked ? { locked: true } : {});
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe("queryRows and streamRows give JSON values a reader can use", () => {
  for (const locked of [false, true]) {
    it(`queryRows${locked ? " on a locked store" : ""}: integers as numbers up to 2^53 − 1, strings beyond; timestamps ISO 8601 with Z`, async () => {
      const { columns, rows } = await withStore(locked, (store) => queryRows(store, VALUES));
      expect(columns).toEqual(Object.keys(EXPECTED));
      expect(rows).toEqual([Object.values(EXPECTED)]);
    });
  }

  it("streamRows gives the same values, and DuckDB's type of each column", async () => {
    const { types, rows } = await withStore(true, (store) =>
      streamRows(store, VALUES, async (stream) => ({
        types: stream.columnTypes,
        rows: await stream.nextRows(),
      })),
    );
    expect(rows).toEqual([Object.values(EXPECTED)]);
    expect(types.slice(0, 4)).toEqual(["BIGINT", "BIGINT", "BIGINT", "BIGINT"]);
    expect(types[Object.keys(EXPECTED).indexOf("double")]).toBe("DOUBLE");
    expect(types[Object.keys(EXPECTED).indexOf("decimal")]).toBe("DECIMAL(10,2)");
    expect(types[Object.keys(EXPECTED).indexOf("bigint_list")]).toBe("BIGINT[]");
  });

  it("a count is a number, as queryRows' example says", async () => {
    const { rows } = await withStore(false, (store) =>
      queryRows(store, "select count(*) as n from range(10)"),
    );
    expect(rows[0][0]).toBe(10);
  });
});

describe("integerJson and timestampJson", () => {
  it("convert as their examples say", () => {
    expect(integerJson(180n)).toBe(180);
    expect(integerJson(9007199254740993n)).toBe("9007199254740993");
    expect(integerJson(-(2n ** 53n) + 1n)).toBe(-9007199254740991);
    expect(integerJson(-(2n ** 53n))).toBe("-9007199254740992");
    expect(timestampJson("2026-02-25 10:00:00.5")).toBe("2026-02-25T10:00:00.5Z");
    expect(timestampJson("2026-02-25 08:00:00+00")).toBe("2026-02-25T08:00:00Z");
    expect(timestampJson("0044-03-15 (BC) 00:00:00")).toBe("0044-03-15 (BC) 00:00:00");
    expect(timestampJson("294000-01-01 00:00:00")).toBe("294000-01-01 00:00:00");
  });
});
