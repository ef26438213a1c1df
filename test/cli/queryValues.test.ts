/**
 * The values `pathlab query` prints, on a real DuckDB file: the table's doubles to 6 significant
 * digits; every digit, integers as numbers and timestamps in ISO 8601 with --json, --ndjson and
 * --csv; SQL that DuckDB rejects as one line of DuckDB's, exit code 2 (a real child process); cells
 * of several lines drawn as cli-table3 draws them, and an `EXPLAIN ANALYZE` plan in full.
 */

import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/program.ts";
import Table from "cli-table3";
import { lineRows, significantText } from "../../src/cli/queryOutput.ts";
import { tableStyle } from "../../src/cli/tableStyle.ts";
import { temporaryDatabase } from "../store/helpers.ts";
import { runPathlab } from "./runPathlab.ts";

const temporary = temporaryDatabase("values.duckdb");
/** `pathlab query …args --db <the test's database>` in process: exit code, stdout, stderr. */
async function queryInProcess(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["query", ...args, "--db", temporary.path], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** Doubles with digits to round, integers beyond 2^53, a list of doubles, a float. */
const NUMBERS = `select 0.004207000000000019::double as x, 68123.456789::double as price,
  1234567.5::double as big, 9007199254740993::bigint as n, [0.1 + 0.2, 2.0]::double[] as list,
  0.1::float as f`;
/** A value of each kind the machine-readable outputs write: JSON, NDJSON and CSV. */
const KINDS = `select 0.004207000000000019::double as x, 180::bigint as n,
  9007199254740993::bigint as big, timestamp '2026-02-25 10:00:00.5' as at, 'a,"b"' as s,
  '' as e, null as z, 'two' || chr(10) || 'lines' as l`;

describe("pathlab query's values", () => {
  it("the table shows doubles to 6 significant digits, integers whole", async () => {
    const { code, stdout } = await queryInProcess([NUMBERS]);
    expect(code).toBe(0);
    const [head, row] = stdout
      .split("\n")
      .filter((line) => line.startsWith("│"))
      .map((line) =>
        line
          .split("│")
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(head).toEqual(["x", "price", "big", "n", "list", "f"]);
    expect(row).toEqual([
      "0.004207",
      "68123.5",
      "1.23457e+6",
      "9007199254740993",
      "[0.3,2]",
      "0.1",
    ]);
  });

  it("--ndjson, --json and --csv keep every digit, integers as numbers (strings beyond 2^53), timestamps ISO 8601 with Z", async () => {
    const row = {
      x: 0.004207000000000019,
      n: 180,
      big: "9007199254740993",
      at: "2026-02-25T10:00:00.5Z",
      s: 'a,"b"',
      e: "",
      z: null,
      l: "two\nlines",
    };
    const ndjson = await queryInProcess([KINDS, "--ndjson"]);
    expect(ndjson.stdout).toBe(`${JSON.stringify(row)}\n`);
    expect(ndjson.stdout).toContain('"x":0.004207000000000019,"n":180,"big":"9007199254740993"');
    const json = await queryInProcess([KINDS, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual([row]);
    const csv = await queryInProcess([KINDS, "--csv"]);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(
      "x,n,big,at,s,e,z,l\n" +
        '0.004207000000000019,180,9007199254740993,2026-02-25T10:00:00.5Z,"a,""b""","",,"two\nlines"\n',
    );
    const empty = await queryInProcess(["select 1 as x where false", "--csv"]);
    expect(empty.stdout).toBe("x\n");
  });

  it("SQL that DuckDB rejects (parse, bind, conversion) exits 2 with DuckDB's message and no internal name", async () => {
    const cases: [string, string][] = [
      ["selec 1", 'Parser Error: syntax error at or near "selec"'],
      [
        "select nope from range(1)",
        'Binder Error: Referenced column "nope" not found in FROM clause!',
      ],
      ["select * from nowhere", "Catalog Error: Table with name nowhere does not exist!"],
    ];
    for (const [sql, duckdb] of cases) {
      const finished = await runPathlab(["query", sql, "--db", temporary.path]);
      expect(finished.code, sql).toBe(2);
      expect(finished.stdout, sql).toBe("");
      const [line, hint, ...rest] = finished.stderr.split("\n");
      expect(line, sql).toMatch(new RegExp(`^pathlab: query: ${escapeRegExp(duckdb)}`));
      expect(hint, sql).toBe("(run 'npx pathlab query --help' for usage)");
      expect(rest, sql).toEqual([""]);
    }
    const verbose = await runPathlab(["query", "selec 1", "--db", temporary.path, "--verbose"]);
    expect(verbose.code).toBe(2);
    expect(verbose.stderr).toContain("LINE 1: selec 1");
    expect(verbose.stderr).not.toMatch(/streamRows|Failed to extract/);
    const running = await runPathlab(["query", "select 'a'::int", "--db", temporary.path]);
    expect(running.code).toBe(2);
    expect(running.stderr).toMatch(
      /^pathlab: query: Conversion Error: Could not convert string 'a' to INT32/,
    );
  }, 60_000);
});

describe("cells of several lines", () => {
  /** `rows` drawn by cli-table3 as the command's tables are, with colors or without. */
  const drawn = (rows: string[][], colors: boolean) => {
    const table = new Table({ head: ["key", "value", "note"], style: tableStyle(colors) });
    table.push(...rows);
    return table.toString();
  };

  it("are drawn as cli-table3 draws the cells themselves, with colors and without", () => {
    const rows = [
      ["plan", "┌──┐\n│ab│\n└──┘", "one"],
      ["", "x", "two\nlines"],
      ["single", "line", ""],
    ];
    for (const colors of [false, true]) {
      expect(drawn(rows.flatMap(lineRows), colors)).toBe(drawn(rows, colors));
    }
    expect(lineRows(["a", "b"])).toEqual([["a", "b"]]);
    expect(lineRows(["a", "1\n2\n3", "x\ny"])).toEqual([
      ["a", "1", "x"],
      ["", "2", "y"],
      ["", "3", ""],
    ]);
  });

  it("a query plan is shown whole, a line of the table per line of the plan", async () => {
    const sql = "explain select range from range(3) order by 1 desc";
    const json = await queryInProcess(["--json", sql]);
    expect(json.code, json.stderr).toBe(0);
    const [{ explain_key: key, explain_value: plan }] = JSON.parse(json.stdout) as {
      explain_key: string;
      explain_value: string;
    }[];
    const { code, stdout, stderr } = await queryInProcess([sql]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    // the columns' borders, where the head's line has them (the plan draws boxes of its own)
    const borders = [...lines[1]].flatMap((character, at) => (character === "│" ? [at] : []));
    expect(borders).toHaveLength(3);
    const body = lines.slice(3, -3);
    const column = (line: string, index: number) =>
      line.slice(borders[index] + 1, borders[index + 1]).trim();
    expect(body.map((line) => column(line, 0))).toEqual([key, ...Array(body.length - 1).fill("")]);
    expect(body.map((line) => column(line, 1))).toEqual(
      plan.split("\n").map((line) => line.trim()),
    );
    expect(stdout.endsWith("\n1 row\n")).toBe(true);
  });
});

describe("significantText", () => {
  it("shows 6 significant digits as printf's %g does, as its examples say", () => {
    expect(significantText(0.004207000000000019)).toBe("0.004207");
    expect(significantText(1234567.5)).toBe("1.23457e+6");
    expect(significantText(68000)).toBe("68000");
    expect(significantText(0.1 + 0.2)).toBe("0.3");
    expect(significantText(-2.5e-7)).toBe("-2.5e-7");
    expect(significantText(Number.NaN)).toBe("NaN");
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
