/**
 * `pathlab query` as a real child process (`node dist/cli/main.js`) on a real DuckDB file:
 * 200,000-row results streamed as NDJSON and as one JSON document while the reader lags (the
 * child's peak RSS measured), SQL from stdin, the table's count of rows not shown; and, in
 * process, SQL from -f, usage errors in one line, small tables, backpressure and a reader that
 * goes away.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli, type ProgramIo } from "../../src/cli/program.ts";
import { temporaryDatabase } from "../store/helpers.ts";
import { runQuery } from "./queryLines.ts";
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
    const few = await runQuery(["select range as n from range(3)", "--db", temporary.path]);
    expect(few.stdout.trimEnd().split("\n").at(-1)).toBe("3 rows");
    const five = await runQuery([
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
    const fromFile = await runQuery(["-f", file, "--db", temporary.path, "--ndjson"]);
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
      // SQL from stdin needs a process of its own; the other cases run in this one
      const finished =
        stdin === undefined
          ? await runQuery([...args, "--db", temporary.path])
          : await runPathlab(["query", ...args, "--db", temporary.path], { stdin });
      expect(finished.code, args.join(" ")).toBe(2);
      expect(finished.stdout).toBe("");
      expect(finished.stderr).toBe(`${line}\n(run 'npx pathlab query --help' for usage)\n`);
    }
  }, 30_000);
});

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
