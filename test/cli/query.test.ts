/**
 * `pathlab query` as a real child process (`node dist/cli/main.js`) on a real DuckDB file:
 * 200,000-row results streamed as NDJSON and as one JSON document while the reader lags (the
 * child's peak RSS measured), SQL from -f and stdin, usage errors in one line, the table's count of
 * rows not shown; and, in process, backpressure and a reader that goes away.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli, type ProgramIo } from "../../src/cli/program.ts";
import { temporaryDatabase } from "../store/helpers.ts";
import { runPathlab, type Finished } from "./runPathlab.ts";

const ROWS = 200_000;
/** 200,000 rows of about 470 bytes as JSON (94 MB): BIGINTs, a long text, a timestamp. */
const WIDE_ROWS = `select range as i, range * 2 as doubled, repeat('x', 400) as padding,
  timestamp '2026-02-25 00:00:00' + to_seconds(range) as at from range(${ROWS})`;
/** The peak RSS a streaming query stays under (about 160 MB here; 400 MB without backpressure). */
const PEAK_RSS_LIMIT_MB = 250;

/** The row `WIDE_ROWS` yields for `i`, as `--json`/`--ndjson` print it. */
function wideRow(i: number): Record<string, string | number> {
  const at = new Date(Date.UTC(2026, 1, 25) + i * 1000).toISOString();
  return { i, doubled: 2 * i, padding: "x".repeat(400), at: at.replace(".000Z", "Z") };
}

function report(label: string, finished: Finished): void {
  console.log(
    `${label}: peak RSS ${finished.peakRssMb.toFixed(1)} MB, ${Math.round(finished.elapsedMs)} ms, ` +
      `${(finished.stdout.length / 1e6).toFixed(1)} MB of output`,
  );
}

function checkPeakRss(finished: Finished): void {
  if (!Number.isNaN(finished.peakRssMb)) expect(finished.peakRssMb).toBeLessThan(PEAK_RSS_LIMIT_MB);
}

const temporary = temporaryDatabase("query.duckdb");

describe("pathlab query streams its result", () => {
  it("--ndjson: 200,000 lines, one object each, first and last as expected, memory flat while the reader lags", async () => {
    const finished = await runPathlab(["query", WIDE_ROWS, "--db", temporary.path, "--ndjson"], {
      pauseMs: 1500,
    });
    report("query --ndjson, 200,000 rows", finished);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toBe("");
    const lines = finished.stdout.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(ROWS);
    expect(JSON.parse(lines[0])).toEqual(wideRow(0));
    expect(JSON.parse(lines[ROWS - 1])).toEqual(wideRow(ROWS - 1));
    expect(JSON.parse(lines[123_456])).toEqual(wideRow(123_456));
    checkPeakRss(finished);
  }, 60_000);

  it("--json: one JSON document of 200,000 objects, memory flat while the reader lags; [] for no rows", async () => {
    const finished = await runPathlab(["query", WIDE_ROWS, "--db", temporary.path, "--json"], {
      pauseMs: 1500,
    });
    report("query --json, 200,000 rows", finished);
    expect(finished.code, finished.stderr).toBe(0);
    const rows = JSON.parse(finished.stdout) as Record<string, string | number>[];
    expect(rows).toHaveLength(ROWS);
    expect(rows[0]).toEqual(wideRow(0));
    expect(rows[ROWS - 1]).toEqual(wideRow(ROWS - 1));
    checkPeakRss(finished);
    const none = await runPathlab([
      "query",
      "select 1 as x where false",
      "--db",
      temporary.path,
      "--json",
    ]);
    expect(none.stdout).toBe("[]\n");
    expect(JSON.parse(none.stdout)).toEqual([]);
  }, 60_000);

  it("the table shows --max-rows rows, then how many more there were and how to see them", async () => {
    const finished = await runPathlab(["query", WIDE_ROWS, "--db", temporary.path]);
    report("query (table), 200,000 rows", finished);
    expect(finished.code, finished.stderr).toBe(0);
    const lines = finished.stdout.trimEnd().split("\n");
    expect(lines.filter((line) => /^│ \d+ +│ \d+ +│ x{400} │/.test(line))).toHaveLength(100);
    expect(lines.at(-1)).toBe(
      "200000 rows, 199900 more not shown: --ndjson, --json or --csv prints every row; LIMIT or --max-rows chooses what the table shows",
    );
    checkPeakRss(finished);
    const few = await runPathlab([
      "query",
      "select range as n from range(3)",
      "--db",
      temporary.path,
    ]);
    expect(few.stdout.trimEnd().split("\n").at(-1)).toBe("3 rows");
    const five = await runPathlab([
      "query",
      "select range as n from range(250)",
      "--db",
      temporary.path,
      "--max-rows",
      "5",
    ]);
    expect(five.stdout).toMatch(/│ 4 +│\n└/);
    expect(five.stdout).toMatch(/^250 rows, 245 more not shown: /m);
  }, 60_000);

  it("takes the SQL from -f, from stdin without an argument, and from stdin with -", async () => {
    const file = join(temporary.folder, "answer.sql");
    writeFileSync(file, "-- the answer\nselect 42 as answer, 'it''s' as quote;\n");
    const fromFile = await runPathlab(["query", "-f", file, "--db", temporary.path, "--ndjson"]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toBe('{"answer":42,"quote":"it\'s"}\n');
    const sql = "select 'first, not printed';\nselect range as n from range(2)";
    const piped = await runPathlab(["query", "--db", temporary.path, "--ndjson"], { stdin: sql });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe('{"n":0}\n{"n":1}\n');
    const dash = await runPathlab(["query", "-", "--db", temporary.path, "--json"], { stdin: sql });
    expect(JSON.parse(dash.stdout)).toEqual([{ n: 0 }, { n: 1 }]);
  }, 30_000);

  it("usage mistakes exit 2 with one line and a hint: two output formats, two SQL sources, no SQL, a missing file", async () => {
    const file = join(temporary.folder, "one.sql");
    writeFileSync(file, "select 1");
    const cases: [string[], string | undefined, string][] = [
      [
        ["select 1", "--json", "--ndjson"],
        undefined,
        'pathlab: query: parameter "--json/--ndjson/--csv": expected one of them, got --json and --ndjson',
      ],
      [
        ["select 1", "--ndjson", "--csv"],
        undefined,
        'pathlab: query: parameter "--json/--ndjson/--csv": expected one of them, got --ndjson and --csv',
      ],
      [
        ["select 1", "-f", file],
        undefined,
        'pathlab: query: parameter "sql": expected one source (an argument, -f <path>, or stdin), got both an argument and --file',
      ],
      [
        [],
        " \n",
        'pathlab: query: parameter "sql": expected a statement, got empty text from stdin',
      ],
      [
        ["-f", join(temporary.folder, "missing.sql")],
        undefined,
        `pathlab: query: parameter "--file": expected a readable file, got ${JSON.stringify(join(temporary.folder, "missing.sql"))} (ENOENT)`,
      ],
    ];
    for (const [args, stdin, line] of cases) {
      const finished = await runPathlab(["query", ...args, "--db", temporary.path], { stdin });
      expect(finished.code, args.join(" ")).toBe(2);
      expect(finished.stdout).toBe("");
      expect(finished.stderr).toBe(`${line}\n(run 'npx pathlab query --help' for usage)\n`);
    }
  }, 30_000);
});

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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("pathlab query's writes, in process", () => {
  /** A stdout whose reader takes its time (each write completes on a later turn of the loop). */
  function slowStdout(): {
    io: ProgramIo;
    sink: Writable;
    output: () => string;
    maxBuffered: () => number;
  } {
    let output = "";
    let maxBuffered = 0;
    const sink = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        output += String(chunk);
        setTimeout(callback, 1);
      },
    });
    const io: ProgramIo = {
      stdout: (text) => {
        sink.write(text);
        maxBuffered = Math.max(maxBuffered, sink.writableLength);
      },
      stderr: () => undefined,
      stdoutStream: sink as unknown as NodeJS.WriteStream,
    };
    return { io, sink, output: () => output, maxBuffered: () => maxBuffered };
  }

  it("waits for 'drain': at most one chunk of rows waits in stdout's buffer", async () => {
    const stdout = slowStdout();
    const code = await runCli(
      ["query", "select range as i from range(50000)", "--db", temporary.path, "--ndjson"],
      stdout.io,
    );
    expect(code).toBe(0);
    expect(stdout.output().split("\n")).toHaveLength(50_001);
    // one chunk is 2,048 rows of at most 13 bytes ({"i":49999}\n)
    expect(stdout.maxBuffered()).toBeLessThanOrEqual(2048 * 13);
  });

  it("stops quietly when stdout is closed while it waits (the reader went away)", async () => {
    const stdout = slowStdout();
    let writes = 0;
    const io: ProgramIo = {
      ...stdout.io,
      stdout: (text) => {
        writes += 1;
        stdout.io.stdout(text);
        setImmediate(() => stdout.sink.destroy());
      },
    };
    const code = await runCli(["query", WIDE_ROWS, "--db", temporary.path, "--ndjson"], io);
    expect(code).toBe(0);
    expect(writes).toBe(1);
  });
});
