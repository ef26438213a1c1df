/**
 * The progress events of a sync, for progress bars and logs. They carry no secret: failure reasons
 * come from the client's redacted errors and are redacted again before they are emitted.
 */

import type { Horizon } from "../../domain/assets.ts";
import type { ServiceInfo } from "../../service/serviceInfo.ts";
import type { SyncFailure, UnitSummary } from "./summary.ts";

/**
 * One event of a sync, in order: `service` (resolved, the embedded sandbox started), `plan` (the
 * units), then per unit `unit-start` … `unit-end`, with `failure` as they happen and `bytes` after
 * every response; the summary is the job's return value.
 * @example
 * await runSync({ onEvent: (event) => { if (event.type === "unit-end") console.log(event.unit.asset, event.unit.status); } });
 */
export type SyncEvent =
  | {
      readonly type: "service";
      /** The service the job talks to; with `replay`, the one the recording was made against. */
      readonly service: ServiceInfo;
      /** The recording's directory, when the job replays one. */
      readonly replay?: string;
    }
  | {
      readonly type: "plan";
      readonly units: readonly { readonly asset: string; readonly horizon: Horizon }[];
      readonly database: string;
    }
  | {
      readonly type: "unit-start";
      readonly asset: string;
      readonly horizon: Horizon;
      /** The forecast start a unit of the past asks for (ISO 8601); absent for the latest. */
      readonly startTime?: string;
    }
  | { readonly type: "unit-end"; readonly unit: UnitSummary; readonly startTime?: string }
  | { readonly type: "failure"; readonly failure: SyncFailure }
  | { readonly type: "bytes"; readonly bytesFetched: number; readonly requests: number };
