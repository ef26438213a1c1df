/**
 * One raw exchange of the client with the service, as `ClientOptions.onExchange` receives it: what
 * was asked (the served path and the query string, never a request header) and what came back (the
 * status, the headers that matter, the body as text with every secret redacted).
 */
import { redactSecrets } from "./redact.ts";
import type { ResponseHeaders } from "./quota-headers.ts";

/**
 * One request and its response, as the client saw them. It never holds the API key: requests'
 * headers (where the key travels) are not part of it, and headers and body are redacted.
 * @example
 * const exchange: ClientExchange = {
 *   operation: "/insights/liquidation", method: "GET", path: "/insights/liquidation",
 *   query: "asset=BTC", status: 200, headers: { "content-type": "application/json" }, bodyText: "{…}",
 * };
 */
export interface ClientExchange {
  /** The spec's path of the operation. */
  readonly operation: string;
  readonly method: "GET";
  /** The path as served (after naming and `paths`), without the base URL's prefix. */
  readonly path: string;
  /** The query string without `?` (empty when none). */
  readonly query: string;
  readonly status: number;
  /** Only the headers that matter to the client: see {@link exchangeHeaders}. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as UTF-8 text, secrets redacted. */
  readonly bodyText: string;
}

/** Headers named exactly so are kept. */
const keptNames = new Set(["content-type", "retry-after", "retry-after-ms"]);

/** Headers whose name contains one of these are kept (rate-limit and credit conventions). */
const keptParts = ["ratelimit", "rate-limit", "credit"];

/**
 * The headers of a response the client reads: `content-type`, `retry-after`, `retry-after-ms`,
 * and every rate-limit or credit header (names with `ratelimit`, `rate-limit` or `credit`);
 * repeated headers joined with `, `, every secret redacted. Others (cookies…) are left out.
 * @param headers - the response's headers, by name (any case); a repeated header as an array.
 * @param secrets - the secrets to redact from the values.
 * @example
 * exchangeHeaders({ "content-type": "application/json", "set-cookie": "a=1", "x-credits-remaining": "41" }, [])
 * // => { "content-type": "application/json", "x-credits-remaining": "41" }
 */
export function exchangeHeaders(
  headers: ResponseHeaders,
  secrets: readonly string[],
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (value === undefined) continue;
    if (!keptNames.has(name) && !keptParts.some((part) => name.includes(part))) continue;
    const text = Array.isArray(value) ? value.join(", ") : value;
    kept[name] = redactSecrets(text, secrets);
  }
  return kept;
}
