/**
 * `--record DIR`: every raw response a job's client receives, saved as files (the layout below),
 * so that `--replay DIR` (`replay.ts`) can answer the same job later without the network.
 *
 * Layout of DIR (version 2):
 * - `recording.json`: `{ format: "pathlab-recording", version: 2, command, recordedAt, clock,
 *   service, naming, paths, complete, exchanges }` (see {@link RecordingInfo}).
 * - two files per response, numbered in the order the responses arrived:
 *   `NNNNNN-<slug of the operation>.json` (`000001-v2-meta-leaderboard-latest.json`), a small
 *   `{ sequence, operation, method, path, query, status, headers, bodyBytes }` (see
 *   {@link RecordedExchange}), and `NNNNNN-<slug>.body`, the body as the client received it (UTF-8
 *   text, every secret redacted), so that a replay streams it from disk without parsing anything.
 * Version 1 kept the body as a JSON string in the `.json` file (`body`); `replay.ts` still reads it.
 * No request header is saved (the API key travels in one), and every known secret is redacted
 * from what is written.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ClientExchange } from "../client/exchange.ts";
import { redactSecrets } from "../client/redact.ts";
import type { Naming } from "../domain/operation.ts";
import type { ServiceInfo } from "./serviceInfo.ts";
import { UsageError } from "./usageError.ts";

/** The name of a recording's description file. @example RECORDING_FILE // => "recording.json" */
export const RECORDING_FILE = "recording.json";

/** The version of the layout this code writes. @example RECORDING_VERSION // => 2 */
export const RECORDING_VERSION = 2;

/**
 * The versions `--replay` reads: this one, and 1 (bodies inside the exchange files).
 * @example READABLE_RECORDING_VERSIONS // => [1, 2]
 */
export const READABLE_RECORDING_VERSIONS: readonly number[] = [1, 2];

/**
 * What `recording.json` holds.
 * @example
 * const info: RecordingInfo = {
 *   format: "pathlab-recording", version: 2, command: "sync", recordedAt: "2026-11-26T14:00:00.000Z",
 *   clock: "2026-02-25T23:47:00.000Z", service: { kind: "embedded sandbox", seed: 42, now: "2026-02-25T23:47:00.000Z" },
 *   naming: neutralNaming, paths: {}, complete: true, exchanges: 57,
 * };
 */
export interface RecordingInfo {
  readonly format: "pathlab-recording";
  readonly version: number;
  /** The job that recorded it (`sync` or `score`); only that job replays it. */
  readonly command: string;
  /** When the recording started (ISO 8601). */
  readonly recordedAt: string;
  /** The job's clock (ISO 8601): the sandbox's `now`, or the time the job planned with. */
  readonly clock: string;
  /** The sandbox's seed and `now`, or `service` with its base URL (never credentials or a key). */
  readonly service: {
    readonly kind: ServiceInfo["kind"];
    readonly seed?: number;
    readonly now?: string;
    readonly miners?: number;
    readonly baseUrl?: string;
  };
  /** The naming and paths the client used: the replay uses them too, so the same paths are asked. */
  readonly naming: Naming;
  readonly paths: Readonly<Record<string, string>>;
  /** `false` until the job ended (a killed job leaves it so): then responses may be missing. */
  readonly complete: boolean;
  /** How many exchange files the job wrote. */
  readonly exchanges: number;
}

/**
 * One exchange file (`.json`); its body is in the `.body` file of the same number and slug.
 * @example
 * const exchange: RecordedExchange = {
 *   sequence: 1, operation: "/v2/meta-leaderboard/latest", method: "GET", path: "/v2/meta-leaderboard/latest",
 *   query: "days=14&prompt_name=crypto-24h", status: 200, headers: { "content-type": "application/json" }, bodyBytes: 5120,
 * };
 */
export interface RecordedExchange extends Omit<ClientExchange, "bodyText"> {
  readonly sequence: number;
  /** The length of the body file, in bytes. */
  readonly bodyBytes: number;
}

/**
 * What a job reports of its recording. @example const report: RecordingReport = { directory: "rec", exchanges: 57 };
 */
export interface RecordingReport {
  readonly directory: string;
  readonly exchanges: number;
}

/**
 * A recording in progress: `begin` writes `recording.json` once the job knows its service and
 * clock; give `onExchange` to the client; call `finish` when the job is done (again is harmless).
 * @example
 * const recorder = await startRecording("rec", "sync", secrets);
 * await recorder.begin({ clock, service, naming, paths });
 * const client = createClient({ baseUrl, apiKey, onExchange: recorder.onExchange });
 * const report = await recorder.finish();
 */
export interface Recorder {
  readonly begin: (description: RecordingDescription) => Promise<void>;
  readonly onExchange: (exchange: ClientExchange) => void;
  /** Waits for every file, then marks `recording.json` complete (nothing when `begin` never ran). */
  readonly finish: () => Promise<RecordingReport>;
}

/**
 * What the job tells the recording about itself.
 * @example const description: RecordingDescription = { clock: "2026-02-25T23:47:00.000Z", service: { kind: "service", baseUrl: "https://api.example.com" }, naming: neutralNaming, paths: {} };
 */
export type RecordingDescription = Pick<RecordingInfo, "clock" | "service" | "naming" | "paths">;

/**
 * The file name of exchange number `sequence` of `operation`.
 * @example exchangeFileName(7, "/v2/meta-leaderboard/latest") // => "000007-v2-meta-leaderboard-latest.json"
 */
export function exchangeFileName(sequence: number, operation: string): string {
  const slug = operation
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${String(sequence).padStart(6, "0")}-${slug || "root"}.json`;
}

/**
 * The body file beside the exchange file `exchangeFile`.
 * @example bodyFileName("000007-v2-meta-leaderboard-latest.json") // => "000007-v2-meta-leaderboard-latest.body"
 */
export function bodyFileName(exchangeFile: string): string {
  return exchangeFile.replace(/\.json$/, ".body");
}

/**
 * Starts a recording of `command` into `directory`: creates it when missing and checks that it is
 * empty (two recordings never mix). `secrets` are redacted from every file written. Throws
 * `UsageError` for a directory that is not empty or cannot be created.
 * @param directory - the folder to record into: new, or empty.
 * @param command - the command recorded, `sync` or `score`.
 * @param secrets - the secrets to redact from every file written (the API key).
 * @example const recorder = await startRecording("rec", "sync", secrets);
 */
export async function startRecording(
  directory: string,
  command: string,
  secrets: readonly string[],
): Promise<Recorder> {
  try {
    await mkdir(directory, { recursive: true });
  } catch (error) {
    throw new UsageError(
      `${command}: --record: cannot create the directory ${JSON.stringify(directory)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  const present = await readdir(directory);
  if (present.length > 0) {
    throw new UsageError(
      `${command}: --record: the directory ${JSON.stringify(directory)} is not empty (${present.length} entries); record into a new or empty directory`,
    );
  }
  const write = (file: string, value: unknown) =>
    writeFile(join(directory, file), redactSecrets(`${JSON.stringify(value, null, 2)}\n`, secrets));
  let info: RecordingInfo | undefined;
  let sequence = 0;
  const writes: Promise<void>[] = [];
  let failed: unknown;
  let finished: Promise<RecordingReport> | undefined;
  const begin = async (description: RecordingDescription) => {
    const service = { ...description.service };
    if (service.baseUrl !== undefined) service.baseUrl = withoutCredentials(service.baseUrl);
    info = {
      format: "pathlab-recording",
      version: RECORDING_VERSION,
      command,
      recordedAt: new Date().toISOString(),
      clock: description.clock,
      service,
      naming: description.naming,
      paths: description.paths,
      complete: false,
      exchanges: 0,
    };
    await write(RECORDING_FILE, info);
  };
  const onExchange = (exchange: ClientExchange) => {
    sequence += 1;
    const file = exchangeFileName(sequence, exchange.operation);
    const body = redactSecrets(exchange.bodyText, secrets);
    const recorded: RecordedExchange = {
      sequence,
      operation: exchange.operation,
      method: exchange.method,
      path: exchange.path,
      query: exchange.query,
      status: exchange.status,
      headers: exchange.headers,
      bodyBytes: Buffer.byteLength(body),
    };
    // The body first: an exchange file is only written once its body is whole. The body is
    // written as redacted above, so that its length is `bodyBytes`.
    writes.push(
      writeFile(join(directory, bodyFileName(file)), body)
        .then(() => write(file, recorded))
        .catch((error: unknown) => {
          failed ??= new Error(
            `${command}: --record: cannot write ${JSON.stringify(join(directory, file))}: ${(error as Error).message}`,
            { cause: error },
          );
        }),
    );
  };
  const finish = () => {
    finished ??= (async () => {
      await Promise.all(writes);
      if (failed !== undefined) throw failed;
      if (info !== undefined) {
        await write(RECORDING_FILE, { ...info, complete: true, exchanges: sequence });
      }
      return { directory, exchanges: sequence };
    })();
    return finished;
  };
  return { begin, onExchange, finish };
}

/** `url` without user info, query or fragment (the client refuses those anyway). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
  } catch {
    return "(not a URL)";
  }
}
