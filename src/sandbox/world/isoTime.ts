/**
 * Timestamps as the service writes them in records: ISO 8601 in UTC, to the second, with `Z`
 * (the spec layer's `isoSeconds`, which the sandbox's records use throughout).
 */
export { isoSeconds } from "../../domain/time.ts";
