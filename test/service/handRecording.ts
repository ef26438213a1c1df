/**
 * A recording written by hand in layout version 2, as `--record` writes one: `recording.json`,
 * then for each exchange its description (`NNNNNN-<name>.json`) and its body (`.body`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { neutralNaming } from "../../src/domain/naming.ts";
import { RECORDING_FILE } from "../../src/service/record.ts";

/** One exchange of a hand-written recording: a GET of `path?query` answered 200 with `body`. */
export interface HandExchange {
  readonly name: string;
  readonly path: string;
  readonly query: string;
  readonly body: Buffer | string;
}

/**
 * Writes a recording of `sync` against a service into `folder`, its exchanges numbered from 1 in
 * the order given. Returns each exchange's body file.
 */
export function writeHandRecording(folder: string, exchanges: readonly HandExchange[]): string[] {
  writeFileSync(
    join(folder, RECORDING_FILE),
    JSON.stringify({
      format: "pathlab-recording",
      version: 2,
      command: "sync",
      recordedAt: "2026-12-05T09:00:00.000Z",
      clock: "2026-12-05T09:00:00.000Z",
      service: { kind: "service", baseUrl: "https://api.example.com" },
      naming: neutralNaming,
      paths: {},
      complete: true,
      exchanges: exchanges.length,
    }),
  );
  return exchanges.map(({ name, path, query, body }, index) => {
    const sequence = index + 1;
    const stem = join(folder, `${String(sequence).padStart(6, "0")}-${name}`);
    writeFileSync(`${stem}.body`, body);
    writeFileSync(
      `${stem}.json`,
      JSON.stringify({
        sequence,
        operation: path,
        method: "GET",
        path,
        query,
        status: 200,
        headers: { "content-type": "application/json" },
        bodyBytes: Buffer.byteLength(body),
      }),
    );
    return `${stem}.body`;
  });
}
