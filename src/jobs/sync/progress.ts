/**
 * A sync's progress: its events, emitted without secrets, and the traffic its client counts.
 */

import type { ClientEvent } from "../../client/events.ts";
import type { SyncEvent } from "./events.ts";

/**
 * The traffic of a sync's client: bytes and responses received, and retries.
 * @example const traffic: SyncTraffic = { bytesFetched: 0, requests: 0, retries: 0 };
 */
export interface SyncTraffic {
  bytesFetched: number;
  requests: number;
  retries: number;
}

/**
 * Emits a sync's events to `onEvent` without secrets (once `redactWith` has the job's), and counts
 * its client's traffic (`onClientEvent`, which emits a `bytes` event after every response).
 * @example const progress = new SyncProgress(options.onEvent); progress.emit({ type: "service", service });
 */
export class SyncProgress {
  readonly traffic: SyncTraffic = { bytesFetched: 0, requests: 0, retries: 0 };
  private redact: <T>(value: T) => T = (value) => value;

  constructor(private readonly onEvent: ((event: SyncEvent) => void) | undefined) {}

  /** Redacts every event from now on as `job` does. */
  redactWith(job: { redact<T>(value: T): T }): void {
    this.redact = (value) => job.redact(value);
  }

  emit(event: SyncEvent): void {
    this.onEvent?.(this.redact(event));
  }

  /** Counts a client event: retries, and the bytes of every response (then a `bytes` event). */
  readonly onClientEvent = (event: ClientEvent): void => {
    if (event.type === "retry") this.traffic.retries += 1;
    if (event.type !== "response") return;
    this.traffic.bytesFetched += event.bytes;
    this.traffic.requests += 1;
    const { bytesFetched, requests } = this.traffic;
    this.emit({ type: "bytes", bytesFetched, requests });
  };
}
