/**
 * Time parameters of a request as unix seconds, checked against the sandbox's clock: nothing after
 * `now` is observable, so a start in the future is a 400 that says so.
 */
import { InvalidParamsError } from "../../domain/errors.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import type { QueryParams } from "./readQueryParams.ts";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * How {@link timeParamUnix} reads one parameter.
 * @example const options: TimeParamOptions = { endOfDay: true, notAfterNow: false };
 */
export interface TimeParamOptions {
  /** A date without a time (`2026-02-25`) means the end of that UTC day (23:59:59), inclusive. */
  readonly endOfDay?: boolean;
  /** Reject a time after the sandbox's clock (default true); otherwise it is clamped to `now`. */
  readonly notAfterNow?: boolean;
}

/**
 * The time parameter `name` (already checked by `readQueryParams`) in unix seconds (fractions
 * dropped), or `undefined` when it was not sent. Throws `InvalidParamsError` for a time after
 * `nowUnix` unless `notAfterNow` is false, in which case such a time becomes `nowUnix`.
 * @example
 * timeParamUnix("/validation/uid-holders", { to: "2026-02-25" }, "to", now, { endOfDay: true, notAfterNow: false })
 * // => 1772063999 (2026-02-25T23:59:59Z, or now if that is earlier)
 */
export function timeParamUnix(
  operationPath: string,
  params: QueryParams,
  name: string,
  nowUnix: number,
  options: TimeParamOptions = {},
): number | undefined {
  const text = params[name];
  if (typeof text !== "string") return undefined;
  let unix = Math.floor(parseIsoTimeMs(text) / 1000);
  if (options.endOfDay && DATE_ONLY.test(text)) unix += 86_399;
  if (unix <= nowUnix) return unix;
  if (options.notAfterNow === false) return nowUnix;
  throw new InvalidParamsError(
    operationPath,
    name,
    `a time not after the sandbox's clock (now = ${new Date(nowUnix * 1000).toISOString()}; nothing later is observable)`,
    JSON.stringify(text),
  );
}

/**
 * A time window from two time parameters (both sent, `to` not before `from`: `readQueryParams`
 * checked that), in unix seconds, with `to` clamped to the sandbox's clock; `undefined` when the
 * window starts after the clock (nothing in it is observable yet). A date-only `to` with
 * `endOfDay` covers that whole UTC day.
 * @example
 * timeWindowUnix("/leaderboard/historical", { start_time: "2026-02-24", end_time: "2026-02-25" }, "start_time", "end_time", now)
 * // => { fromUnix: 1771891200, toUnix: 1771977600 }
 */
export function timeWindowUnix(
  operationPath: string,
  params: QueryParams,
  fromName: string,
  toName: string,
  nowUnix: number,
  options: { readonly endOfDay?: boolean } = {},
): { fromUnix: number; toUnix: number } | undefined {
  const fromUnix = timeParamUnix(operationPath, params, fromName, Number.POSITIVE_INFINITY);
  if (fromUnix === undefined || fromUnix > nowUnix) return undefined;
  const toUnix = timeParamUnix(operationPath, params, toName, nowUnix, {
    endOfDay: options.endOfDay,
    notAfterNow: false,
  }) as number;
  return { fromUnix, toUnix };
}
