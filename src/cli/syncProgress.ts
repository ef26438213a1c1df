/**
 * The progress of `pathlab sync`: on a terminal, a bar (units done, bytes fetched, failures, the
 * time left as the units done so far estimate it) with each finished unit and each failure logged
 * above it; elsewhere, one plain line per event.
 */

import cliProgress from "cli-progress";
import { counted } from "../domain/counted.ts";
import type { SyncEvent } from "../jobs/sync/events.ts";
import type { SyncFailure, UnitSummary } from "../jobs/sync/summary.ts";
import { sandboxText } from "../service/serviceInfo.ts";

/**
 * Receives a sync's events and shows them; `stop` ends the bar (call it before printing the
 * summary, also after a failure).
 * @example
 * const progress = createSyncProgress((text) => process.stderr.write(text));
 * await runSync({ onEvent: progress.onEvent }).finally(progress.stop);
 */
export interface SyncProgress {
  readonly onEvent: (event: SyncEvent) => void;
  readonly stop: () => void;
}

/**
 * A progress display writing plain lines to `write`, or, given a `terminal` stream, a progress
 * bar on it (redrawn at most 10 times a second) with lines logged above the bar.
 * @example
 * const progress = createSyncProgress(io.stderr, process.stderr.isTTY ? process.stderr : undefined);
 */
export function createSyncProgress(
  write: (text: string) => void,
  terminal?: NodeJS.WriteStream,
): SyncProgress {
  let total = 0;
  let done = 0;
  let failures = 0;
  let megabytes = "0";
  let startedMs = performance.now();
  const active: string[] = [];
  let bars: cliProgress.MultiBar | undefined;
  let bar: cliProgress.SingleBar | undefined;
  const payload = () => ({
    megabytes,
    failures: counted(failures, "failure"),
    left: timeLeft(performance.now() - startedMs, done, total),
    active: active.length === 0 ? "" : `| ${active.join(", ")}`,
  });
  const log = (line: string) => {
    if (bars !== undefined) bars.log(`${line}\n`);
    else write(`${line}\n`);
  };
  const onEvent = (event: SyncEvent) => {
    switch (event.type) {
      case "service": {
        const { service, replay } = event;
        // a replay's baseUrl is its own server's: the recording's service is named, not its URL
        const recordedFrom =
          service.kind === "embedded sandbox" ? sandboxText(service) : "a service";
        log(
          replay !== undefined
            ? `pathlab sync: replaying ${replay} (recorded from ${recordedFrom})`
            : service.kind === "embedded sandbox"
              ? `pathlab sync: embedded sandbox at ${service.baseUrl} (seed ${service.seed}, now ${service.now}${service.miners === undefined ? "" : `, ${service.miners} miners`})`
              : `pathlab sync: service at ${service.baseUrl}`,
        );
        break;
      }
      case "plan": {
        // a new run (a watch's next tick): its own count and bar
        bars?.stop();
        bars = undefined;
        bar = undefined;
        done = 0;
        failures = 0;
        megabytes = "0";
        startedMs = performance.now();
        active.length = 0;
        total = event.units.length;
        log(`pathlab sync: ${counted(total, "unit")} into ${event.database}`);
        if (terminal !== undefined) {
          bars = new cliProgress.MultiBar(
            {
              stream: terminal,
              format:
                "units {bar} {value}/{total}{left} | {megabytes} MB fetched | {failures} {active}",
              hideCursor: true,
              clearOnComplete: false,
              barsize: 30,
            },
            cliProgress.Presets.shades_classic,
          );
          bar = bars.create(total, 0, payload());
        }
        break;
      }
      case "unit-start":
        active.push(label(event.asset, event.horizon, event.startTime));
        bar?.update(done, payload());
        break;
      case "unit-end": {
        done += 1;
        const position = active.indexOf(
          label(event.unit.asset, event.unit.horizon, event.startTime),
        );
        if (position !== -1) active.splice(position, 1);
        log(unitLine(event.unit, done, total, event.startTime));
        bar?.update(done, payload());
        break;
      }
      case "failure":
        failures += 1;
        log(failureLine(event.failure));
        bar?.update(done, payload());
        break;
      case "bytes":
        megabytes = (event.bytesFetched / 1e6).toFixed(0);
        bar?.update(done, payload());
        break;
    }
  };
  const stop = () => {
    bars?.stop();
    bars = undefined;
    bar = undefined;
  };
  return { onEvent, stop };
}

/**
 * The time a run has left, as the units done so far in `elapsedMs` estimate it (the units run
 * side by side, so their rate is the run's): `", about 2 min left"`, or `""` before the first unit
 * is done and after the last.
 * @example timeLeft(30_000, 6, 18) // => ", about 1 min left"
 */
export function timeLeft(elapsedMs: number, done: number, total: number): string {
  if (done === 0 || done >= total) return "";
  const seconds = ((elapsedMs / done) * (total - done)) / 1000;
  if (seconds < 60) return `, about ${Math.max(5, Math.ceil(seconds / 5) * 5)} s left`;
  return `, about ${Math.round(seconds / 60)} min left`;
}

/**
 * The line of a finished unit: `[ 3/18] ETH 24h stored: 10 path sets, 11090 values cross-checked (11090 exact), 4.2 s`.
 * @example unitLine(unit, 3, 18)
 */
export function unitLine(
  unit: UnitSummary,
  index: number,
  total: number,
  startTime?: string,
): string {
  const position = `[${String(index).padStart(String(total).length)}/${total}]`;
  const name = label(unit.asset, unit.horizon, startTime);
  const seconds = `${(unit.durationMs / 1000).toFixed(1)} s`;
  if (unit.status === "failed") {
    return `${position} ${name} failed (nothing stored; see the failures), ${seconds}`;
  }
  if (unit.status === "interrupted") {
    return `${position} ${name} interrupted (nothing stored), ${seconds}`;
  }
  if (unit.status === "already stored") {
    return `${position} ${name} already stored (forecast start ${unit.forecastStartTime}), ${seconds}`;
  }
  const values = Object.values(unit.verdicts).reduce((sum, count) => sum + count, 0);
  const verdicts = Object.entries(unit.verdicts)
    .filter(([, count]) => count > 0)
    .map(([verdict, count]) => `${count} ${verdict}`)
    .join(", ");
  const failed = unit.failures > 0 ? `, ${counted(unit.failures, "failure")}` : "";
  return `${position} ${name} stored: ${counted(unit.pathSets, "path set")}, ${counted(values, "value")} cross-checked (${verdicts || "none"})${failed}, ${seconds}`;
}

/**
 * The line of a failure: `failure: BTC 1h path set (miner 23): miner 23: path 0: Number of time points is incorrect: expected 61, got 60`.
 * @example failureLine(failure)
 */
export function failureLine(failure: SyncFailure): string {
  const where = [
    failure.operation,
    failure.minerUid === undefined ? undefined : `miner ${failure.minerUid}`,
  ].filter((part) => part !== undefined);
  return `failure: ${failure.unit} ${failure.stage}${where.length > 0 ? ` (${where.join(", ")})` : ""}: ${failure.reason}`;
}

/** A unit's name in the progress: asset and horizon, and the start of a unit of the past. */
function label(asset: string, horizon: string, startTime: string | undefined): string {
  return startTime === undefined ? `${asset} ${horizon}` : `${asset} ${horizon} ${startTime}`;
}
