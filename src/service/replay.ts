/**
 * `--replay DIR`: answers a job's requests from a recording (`record.ts`) instead of the network,
 * through a small node:http server on 127.0.0.1 that the job's client is pointed at (a job runs
 * it on a thread of its own: `replayOnThread.ts`). Responses are matched by served path and query
 * string; repeated requests get the recorded responses in the order they were recorded, the last
 * one repeating. A request the recording cannot answer gets a 404 whose body says
 * `not in the recording: GET <path>?<query>`, and is listed in the job's report. A body is
 * streamed from its file (layout version 2) and never parsed here; a recording of version 1 holds
 * its bodies in memory.
 */
import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseIsoTimeMs } from "../domain/time.ts";
import {
  READABLE_RECORDING_VERSIONS,
  RECORDING_FILE,
  type RecordingInfo,
  type RecordingReport,
} from "./record.ts";
import { loadExchange, readRecordingJson, type LoadedExchange } from "./replayInput.ts";
import { UsageError } from "./usageError.ts";

/**
 * A recording read from its directory: its description and its exchanges in sequence order.
 * @example const recording: LoadedRecording = await loadRecording("rec", "sync");
 */
export interface LoadedRecording {
  readonly directory: string;
  readonly info: RecordingInfo;
  readonly exchanges: readonly LoadedExchange[];
  /** The job's clock of the recording, Unix seconds. */
  readonly clockUnix: number;
}

/**
 * What a job reports of its replay: how many requests were answered, and those that were not.
 * @example const report: ReplayReport = { directory: "rec", exchanges: 57, answered: 57, unanswered: [] };
 */
export interface ReplayReport {
  readonly directory: string;
  /** Exchange files in the recording. */
  readonly exchanges: number;
  /** Requests answered from the recording. */
  readonly answered: number;
  /** Each request the recording could not answer, once: `GET <path>?<query>`. */
  readonly unanswered: readonly string[];
}

/**
 * What `runSync` and `runScore` add to their summary with `record` or `replay`.
 * @example const extra: RecordReplaySummary = { replay: { directory: "rec", exchanges: 3, answered: 3, unanswered: [] } };
 */
export interface RecordReplaySummary {
  readonly record?: RecordingReport;
  readonly replay?: ReplayReport;
}

/**
 * A running replay server; `close` stops it (and its open connections).
 * @example
 * const server = await startReplayServer(recording);
 * createClient({ baseUrl: server.url, apiKey: "replay" });
 * (await server.report()).unanswered // => []
 */
export interface ReplayServer {
  readonly url: string;
  /** What it answered so far (asked of its thread, when it runs on one). */
  readonly report: () => Promise<ReplayReport>;
  readonly close: () => Promise<void>;
}

const exchangeFilePattern = /^(\d{6,})-[a-z0-9-]+\.json$/;

/**
 * Reads the recording in `directory` for `command` (`sync` or `score`), every file checked before
 * a request is served. Throws `UsageError` (naming the file and the field) when `recording.json`
 * is missing or is not a recording of `command` in a version this code reads, when a file of the
 * recording is not a regular file (a link, a FIFO), or an exchange file is not one: a status
 * outside 100–599, a header node:http cannot send, or a body file of another length than its
 * `bodyBytes` is named as such. Exchange files that are
 * missing are not an error: their requests are answered with a 404 and reported.
 * @param directory - the recording's folder, as {@link startRecording} wrote it.
 * @param command - the command replayed, `sync` or `score`; the recording must be of it.
 * @example const recording = await loadRecording("/tmp/rec", "sync");
 */
export async function loadRecording(directory: string, command: string): Promise<LoadedRecording> {
  const infoFile = join(directory, RECORDING_FILE);
  const info = (await readRecordingJson(infoFile, command)) as Partial<RecordingInfo> | undefined;
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(infoFile)}: ${field}: expected ${expected}, got ${JSON.stringify(got)}`,
    );
  };
  if (typeof info !== "object" || info === null) bad("(root)", "an object", info);
  if (info!.format !== "pathlab-recording") bad("format", '"pathlab-recording"', info!.format);
  if (!READABLE_RECORDING_VERSIONS.includes(info!.version as number)) {
    bad("version", READABLE_RECORDING_VERSIONS.join(" or "), info!.version);
  }
  if (info!.command !== command) bad("command", `a recording of ${command}`, info!.command);
  const clockUnix = parseIsoTimeMs(String(info!.clock)) / 1000;
  if (!Number.isFinite(clockUnix)) bad("clock", "an ISO 8601 time", info!.clock);
  const service = info!.service;
  if (service?.kind !== "embedded sandbox" && service?.kind !== "service") {
    bad("service.kind", '"embedded sandbox" or "service"', service?.kind);
  }
  const naming = info!.naming;
  if (typeof naming?.venueA !== "string" || typeof naming.venueB !== "string") {
    bad("naming", "{ venueA, venueB, model }", naming);
  }
  if (typeof info!.paths !== "object" || info!.paths === null)
    bad("paths", "an object", info!.paths);
  const files = (await readdir(directory)).filter((file) => exchangeFilePattern.test(file));
  const exchanges: LoadedExchange[] = [];
  for (const file of files) {
    exchanges.push(await loadExchange(directory, file, info!.version as number, command));
  }
  exchanges.sort((left, right) => left.sequence - right.sequence);
  return { directory, info: info as RecordingInfo, exchanges, clockUnix };
}

/**
 * Starts the replay server of `recording` on 127.0.0.1 (a free port).
 * @param recording - the recording to serve, as {@link loadRecording} read it.
 * @example
 * const server = await startReplayServer(await loadRecording("rec", "sync"));
 * try { … } finally { await server.close(); }
 */
export async function startReplayServer(recording: LoadedRecording): Promise<ReplayServer> {
  const byRequest = new Map<string, LoadedExchange[]>();
  for (const exchange of recording.exchanges) {
    const key = requestKey(exchange.method, exchange.path, exchange.query);
    const list = byRequest.get(key);
    if (list === undefined) byRequest.set(key, [exchange]);
    else list.push(exchange);
  }
  const served = new Map<string, number>();
  const unanswered = new Set<string>();
  let answered = 0;
  const server: Server = createServer((request, response) => {
    const target = request.url ?? "/";
    const mark = target.indexOf("?");
    const path = mark < 0 ? target : target.slice(0, mark);
    const query = mark < 0 ? "" : target.slice(mark + 1);
    const key = requestKey(request.method ?? "GET", path, query);
    const list = byRequest.get(key);
    if (list === undefined) {
      unanswered.add(key);
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end(`not in the recording: ${key}`);
      return;
    }
    const index = served.get(key) ?? 0;
    served.set(key, index + 1);
    const exchange = list[Math.min(index, list.length - 1)];
    answered += 1;
    if (exchange.bodyFile === undefined) {
      response.writeHead(exchange.status, exchange.headers);
      response.end(exchange.bodyText);
      return;
    }
    response.writeHead(exchange.status, {
      ...exchange.headers,
      "content-length": String(exchange.bodyBytes),
    });
    streamBody(exchange.bodyFile, exchange.bodyBytes, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    report: async () => ({
      directory: recording.directory,
      exchanges: recording.exchanges.length,
      answered,
      unanswered: [...unanswered],
    }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Streams the body file `file` into `response`: exactly its first `bytes` bytes, the length the
 * recording states and the response declared. The file was checked when the recording was
 * loaded; what is opened now must still be a regular file of `bytes` bytes, and a file cut short
 * while it is read cuts the response off, so that the client sees a failure rather than a short
 * body. O_NOFOLLOW: a link put in its place since is not followed; O_NONBLOCK: a FIFO put there
 * cannot block the open.
 */
function streamBody(file: string, bytes: number, response: ServerResponse): void {
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const changed = () => new Error(`${file} changed since the recording was loaded`);
  void (async () => {
    const handle = await open(file, flags);
    const stats = await handle.stat().catch(async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (!stats.isFile() || stats.size !== bytes) {
      await handle.close();
      throw changed();
    }
    if (bytes === 0) {
      await handle.close();
      response.end();
      return;
    }
    const body = handle.createReadStream({ start: 0, end: bytes - 1, highWaterMark: 1 << 20 });
    response.once("close", () => body.destroy()); // a client that went away: the file is closed
    body.once("error", (error) => response.destroy(error));
    body.once("end", () =>
      body.bytesRead === bytes ? response.end() : response.destroy(changed()),
    );
    body.pipe(response, { end: false });
  })().catch((error: unknown) => response.destroy(error as Error));
}

/** `GET /path?query` (without `?` when the query is empty). */
function requestKey(method: string, path: string, query: string): string {
  return `${method} ${path}${query === "" ? "" : `?${query}`}`;
}
