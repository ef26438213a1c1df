/**
 * `--replay DIR`: answers a job's requests from a recording (`record.ts`) instead of the network,
 * through a small node:http server on 127.0.0.1 that the job's client is pointed at. Responses are
 * matched by served path and query string; repeated requests get the recorded responses in the
 * order they were recorded, the last one repeating. A request the recording cannot answer gets a
 * 404 whose body says `not in the recording: GET <path>?<query>`, and is listed in the job's report.
 */
import { createServer, validateHeaderName, validateHeaderValue, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseIsoTimeMs } from "../domain/time.ts";
import {
  RECORDING_FILE,
  RECORDING_VERSION,
  type RecordedExchange,
  type RecordingInfo,
  type RecordingReport,
} from "./record.ts";
import { UsageError } from "./usageError.ts";

/**
 * A recording read from its directory: its description and its exchanges in sequence order.
 * @example const recording: LoadedRecording = await loadRecording("rec", "sync");
 */
export interface LoadedRecording {
  readonly directory: string;
  readonly info: RecordingInfo;
  readonly exchanges: readonly RecordedExchange[];
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
 * server.report().unanswered // => []
 */
export interface ReplayServer {
  readonly url: string;
  readonly report: () => ReplayReport;
  readonly close: () => Promise<void>;
}

const exchangeFilePattern = /^(\d{6,})-[a-z0-9-]+\.json$/;

/**
 * Reads the recording in `directory` for `command` (`sync` or `score`), every file checked before
 * a request is served. Throws `UsageError` (naming the file and the field) when `recording.json`
 * is missing or is not a recording of `command` in a version this code reads, when a file of the
 * recording is not a regular file (a link, a FIFO), or an exchange file is not one: a status
 * outside 100–599 or a header node:http cannot send is named as such. Exchange files that are
 * missing are not an error: their requests are answered with a 404 and reported.
 * @param directory - the recording's folder, as {@link startRecording} wrote it.
 * @param command - the command replayed, `sync` or `score`; the recording must be of it.
 * @example const recording = await loadRecording("/tmp/rec", "sync");
 */
export async function loadRecording(directory: string, command: string): Promise<LoadedRecording> {
  const infoFile = join(directory, RECORDING_FILE);
  const info = (await readJson(infoFile, command)) as Partial<RecordingInfo> | undefined;
  const bad = (field: string, expected: string, got: unknown): never => {
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(infoFile)}: ${field}: expected ${expected}, got ${JSON.stringify(got)}`,
    );
  };
  if (typeof info !== "object" || info === null) bad("(root)", "an object", info);
  if (info!.format !== "pathlab-recording") bad("format", '"pathlab-recording"', info!.format);
  if (info!.version !== RECORDING_VERSION) bad("version", String(RECORDING_VERSION), info!.version);
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
  const exchanges: RecordedExchange[] = [];
  for (const file of files) {
    const path = join(directory, file);
    exchanges.push(checkExchange(await readJson(path, command), path, command));
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
  const byRequest = new Map<string, RecordedExchange[]>();
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
    response.writeHead(exchange.status, exchange.headers);
    response.end(exchange.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    report: () => ({
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

/** `GET /path?query` (without `?` when the query is empty). */
function requestKey(method: string, path: string, query: string): string {
  return `${method} ${path}${query === "" ? "" : `?${query}`}`;
}

async function readJson(file: string, command: string): Promise<unknown> {
  let text: string;
  try {
    // Only a regular file of the folder itself: never a link out of it, nor a FIFO or a device,
    // whose read could block for ever.
    if (!(await lstat(file)).isFile()) {
      throw new UsageError(
        `${command}: --replay: ${JSON.stringify(file)} is not a regular file (a link, FIFO or device); a recording holds only the files --record wrote`,
      );
    }
    text = await readFile(file, "utf8");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      `${command}: --replay: cannot read ${JSON.stringify(file)} (${code}); is it a directory made by --record?`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(file)} is not JSON (${(error as Error).message})`,
    );
  }
}

function checkExchange(value: unknown, file: string, command: string): RecordedExchange {
  const exchange = value as Partial<RecordedExchange> | null;
  const status = exchange?.status;
  const fields: [keyof RecordedExchange, string, boolean][] = [
    ["sequence", "a whole number", Number.isInteger(exchange?.sequence)],
    ["method", '"GET"', exchange?.method === "GET"],
    [
      "path",
      'a path starting with "/"',
      typeof exchange?.path === "string" && exchange.path.startsWith("/"),
    ],
    ["query", "a string", typeof exchange?.query === "string"],
    [
      "status",
      "an HTTP status from 100 to 599",
      Number.isInteger(status) && status! >= 100 && status! <= 599,
    ],
    [
      "headers",
      "an object of legal header names and values (no line breaks)",
      legalHeaders(exchange?.headers),
    ],
    ["body", "a string", typeof exchange?.body === "string"],
  ];
  const wrong = fields.find(([, , ok]) => !ok);
  if (wrong !== undefined) {
    const [field, expected] = wrong;
    throw new UsageError(
      `${command}: --replay: ${JSON.stringify(file)}: ${field}: expected ${expected}, got ${JSON.stringify(exchange?.[field]) ?? "nothing"}`,
    );
  }
  return exchange as RecordedExchange;
}

/** Headers node:http can send as they are: legal names, and string values without line breaks. */
function legalHeaders(headers: unknown): boolean {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) return false;
  try {
    for (const [name, value] of Object.entries(headers)) {
      validateHeaderName(name);
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item !== "string") return false;
        validateHeaderValue(name, item);
      }
    }
    return true;
  } catch {
    return false;
  }
}
