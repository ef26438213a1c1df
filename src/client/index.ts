/**
 * pathlab/client: the typed HTTP client.
 *
 * The public API of the client layer (DESIGN.md §1); the root entry `pathlab` re-exports it.
 * @module
 */
export { createClient } from "./create-client.ts";
export type { ClientOptions } from "./options.ts";
export type {
  PathlabClient,
  ClientSections,
  SectionMethods,
  OperationMethod,
  ParamsArguments,
} from "./pathlab-client.ts";
export { DecodeAsUsual } from "./streamed-decoder.ts";
export type { StreamedDecoder, StreamedDecoding } from "./streamed-decoder.ts";
export type {
  ClientEvent,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  FailureEvent,
} from "./events.ts";
export {
  PathlabHttpError,
  BadRequestError,
  AuthenticationError,
  MissingApiKeyError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ConnectionError,
  ResponseDecodeError,
  ResponseTooLargeError,
} from "./errors.ts";
export type {
  PathlabHttpErrorDetails,
  TimeoutPhase,
  DecodeFailureKind,
  ResponseTooLargeDetails,
} from "./errors.ts";
export { defaultBodyLimits, defaultMaxBodyBytes } from "./body-limits.ts";
export type { RateLimitState, CreditState, ResponseHeaders } from "./quota-headers.ts";
export { redact } from "./redact.ts";
export { exchangeHeaders } from "./exchange.ts";
export type { ClientExchange } from "./exchange.ts";
