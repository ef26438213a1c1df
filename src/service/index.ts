/**
 * pathlab/service: the service a job talks to, and its recordings: the embedded sandbox on a
 * thread of its own, a recorder that keeps every exchange with a service in a file, and a replay
 * server that answers from such a file, so that a run can be repeated offline.
 *
 * The jobs use it under `pathlab/jobs`; the root entry `pathlab` re-exports its record and replay.
 * @module pathlab/service
 */
export * from "./embeddedSandbox.ts";
export * from "./usageError.ts";
export * from "./serviceInfo.ts";
export * from "./replay.ts";
export type { LoadedExchange } from "./replayInput.ts";
export {
  READABLE_RECORDING_VERSIONS,
  RECORDING_FILE,
  RECORDING_VERSION,
  startRecording,
} from "./record.ts";
export type {
  RecordedExchange,
  RecordingDescription,
  RecordingInfo,
  RecordingReport,
  Recorder,
} from "./record.ts";
