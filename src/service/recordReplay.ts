/**
 * What `sync` and `score` share for `record` and `replay`: the checks of the options, loading a
 * recording (whose naming and paths the job then uses) or starting a recorder, and the part of the
 * summary that reports them.
 */
import { counted } from "../domain/counted.ts";
import { neutralNaming } from "../domain/naming.ts";
import type { Naming } from "../domain/operation.ts";
import { startRecording, type Recorder } from "./record.ts";
import {
  loadRecording,
  type LoadedRecording,
  type RecordReplaySummary,
  type ReplayServer,
} from "./replay.ts";
import type { ServiceInfo } from "./serviceInfo.ts";
import { UsageError } from "./usageError.ts";

/**
 * The options of a job that `record` and `replay` touch.
 * @example const options: RecordReplayOptions = { replay: "/tmp/rec" };
 */
export interface RecordReplayOptions {
  /** Save every raw response the job's client receives into this directory (`record.ts`). */
  readonly record?: string;
  /** Answer the job's requests from the recording in this directory (`replay.ts`). */
  readonly replay?: string;
  readonly baseUrl?: string;
  readonly now?: string;
  readonly seed?: number;
  readonly sandboxMiners?: number;
  readonly client?: { readonly naming?: Naming; readonly paths?: Readonly<Record<string, string>> };
}

/**
 * A job's recorder or loaded recording (at most one of them), and the naming and paths its client
 * must use: a recording's, so that the replay asks the recorded paths.
 * @example const { recorder, recording, client } = await prepareRecordReplay("sync", options, secrets);
 */
export interface RecordReplay {
  readonly recorder?: Recorder;
  readonly recording?: LoadedRecording;
  readonly client: { naming?: Naming; paths?: Readonly<Record<string, string>> };
}

/**
 * Checks `record` and `replay` against the other options (`UsageError` for `record` with
 * `replay`, and for `replay` with a service, the sandbox's clock or seed, or a naming or paths
 * other than the recording's), then loads the
 * recording or starts the recorder (which checks that its directory is empty).
 * @example const prepared = await prepareRecordReplay("sync", { record: "/tmp/rec" }, secrets);
 */
export async function prepareRecordReplay(
  command: string,
  options: RecordReplayOptions,
  secrets: readonly string[],
): Promise<RecordReplay> {
  const client = { ...options.client };
  if (options.record !== undefined && options.replay !== undefined) {
    throw new UsageError(
      `${command}: --record and --replay cannot be used together (replay from one directory, record into another in a second run)`,
    );
  }
  if (options.record !== undefined) {
    return { recorder: await startRecording(options.record, command, secrets), client };
  }
  if (options.replay === undefined) return { client };
  const conflicting = [
    ["--base-url", options.baseUrl],
    ["--now", options.now],
    ["--seed", options.seed],
    ["--sandbox-miners", options.sandboxMiners],
  ].find(([, value]) => value !== undefined);
  if (conflicting !== undefined) {
    throw new UsageError(
      `${command}: --replay answers from the recording, with its service and clock; it cannot be used with ${String(conflicting[0])}`,
    );
  }
  const recording = await loadRecording(options.replay, command);
  const differs = (asked: unknown, recorded: unknown) =>
    asked !== undefined && JSON.stringify(asked) !== JSON.stringify(recorded);
  if (
    differs(client.naming, recording.info.naming) ||
    differs(client.paths, recording.info.paths)
  ) {
    throw new UsageError(
      `${command}: --replay answers in the recording's naming and paths (${JSON.stringify(recording.info.naming)}, ${JSON.stringify(recording.info.paths)}); leave --naming and --paths out, or record again with them`,
    );
  }
  return {
    recording,
    client: { ...client, naming: recording.info.naming, paths: recording.info.paths },
  };
}

/**
 * Writes the recording's description once the job knows its service and clock.
 * @example await beginRecording(recorder, { service, clockUnix: 1772063220 });
 */
export async function beginRecording(
  recorder: Recorder | undefined,
  job: {
    readonly service: Omit<ServiceInfo, "kind"> & { readonly kind: string };
    readonly clockUnix: number;
    readonly naming?: Naming;
    readonly paths?: Readonly<Record<string, string>>;
  },
): Promise<void> {
  if (recorder === undefined) return;
  const { seed, now, miners, baseUrl } = job.service;
  const kind = job.service.kind === "service" ? "service" : "embedded sandbox";
  await recorder.begin({
    clock: new Date(job.clockUnix * 1000).toISOString(),
    // The sandbox's URL is of no use later; a service's says what was recorded.
    service:
      kind === "service"
        ? { kind, baseUrl }
        : { kind, seed, now, ...(miners !== undefined && { miners }) },
    naming: job.naming ?? neutralNaming,
    paths: job.paths ?? {},
  });
}

/**
 * The summary's `record` or `replay` part: waits for the recording's files to be written.
 * @example const extra = await recordReplaySummary(recorder, replayServer);
 */
export async function recordReplaySummary(
  recorder: Recorder | undefined,
  replay: ReplayServer | undefined,
): Promise<RecordReplaySummary> {
  return {
    ...(recorder !== undefined && { record: await recorder.finish() }),
    ...(replay !== undefined && { replay: await replay.report() }),
  };
}

/**
 * One line for the end of a job's output about its recording or replay (`undefined` without):
 * how many responses were recorded, or how many requests the recording answered and which not.
 * @example
 * recordReplayLine("sync", { replay: { directory: "rec", exchanges: 9, answered: 8, unanswered: ["GET /x?a=1"] } })
 * // => 'sync: replayed 8 requests from "rec"; 1 not in the recording: GET /x?a=1'
 */
export function recordReplayLine(
  command: string,
  summary: RecordReplaySummary,
): string | undefined {
  if (summary.record !== undefined) {
    const { exchanges, directory } = summary.record;
    return `${command}: recorded ${counted(exchanges, "response")} into ${JSON.stringify(directory)}`;
  }
  if (summary.replay === undefined) return undefined;
  const { answered, directory, unanswered } = summary.replay;
  const replayed = `${command}: replayed ${counted(answered, "request")} from ${JSON.stringify(directory)}`;
  if (unanswered.length === 0) return `${replayed}; every request was in the recording`;
  const shown = unanswered.slice(0, 3).join(", ");
  const more = unanswered.length > 3 ? ` and ${unanswered.length - 3} more` : "";
  return `${replayed}; ${unanswered.length} not in the recording: ${shown}${more}`;
}
