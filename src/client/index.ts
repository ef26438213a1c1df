/**
 * pathlab/client: the typed HTTP client of the Market Forecast Service. One call per operation,
 * parameters checked before a request leaves, every response decoded and checked against the
 * interface, retries with backoff on rate limits and server errors, a bound on the bytes a body may
 * have, and an error class per kind of failure (`RateLimitError`, `AuthenticationError`, …). The API
 * key never appears in an error or a log (`redact`).
 *
 * Use it to read the service from a program of your own. The root entry `pathlab` re-exports it.
 * @module pathlab/client
 */
export * from "./create-client.ts";
export type { ClientOptions } from "./options.ts";
export * from "./pathlab-client.ts";
export * from "./streamed-decoder.ts";
export * from "./events.ts";
export * from "./errors.ts";
export { defaultBodyLimits, defaultMaxBodyBytes } from "./body-limits.ts";
export type { RateLimitState, CreditState, ResponseHeaders } from "./quota-headers.ts";
export { redact } from "./redact.ts";
export * from "./exchange.ts";
