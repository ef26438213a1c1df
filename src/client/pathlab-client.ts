/**
 * The type of a client: one typed method per operation, grouped by section and derived from the
 * spec's operations table with mapped types (adding an operation to the table adds its method),
 * plus the generic `request`, the last quota values and `close`.
 */
import type { Naming, ResultOf } from "../domain/operation.ts";
import type { OperationPath, OperationsByPath, operationTable } from "../domain/operations.ts";
import type { QueryParamsOf } from "../domain/query.ts";
import type { CreditState, RateLimitState } from "./quota-headers.ts";
import type { StreamedDecoder } from "./streamed-decoder.ts";

/**
 * The arguments of a call: the parameter object, optional when none of its parameters is required.
 * @example
 * type Arguments = ParamsArguments<{ asset?: string }>; // => [params?: { asset?: string }]
 */
export type ParamsArguments<P> = Record<never, never> extends P ? [params?: P] : [params: P];

/**
 * The typed method of one operation: its parameters in, its decoded record out.
 * @example
 * const liquidation: OperationMethod<OperationsByPath["/insights/liquidation"]> = client.insights.liquidation;
 */
export type OperationMethod<O> = (
  ...args: ParamsArguments<QueryParamsOf<O>>
) => Promise<ResultOf<O>>;

/**
 * The methods of one section: one {@link OperationMethod} per entry of the table's section.
 * @example
 * const venueA: SectionMethods<(typeof operationTable)["venueA"]> = client.venueA;
 */
export type SectionMethods<Table> = {
  readonly [Method in keyof Table]: OperationMethod<Table[Method]>;
};

/**
 * Every section of the operations table as an object of typed methods.
 * @example
 * const sections: ClientSections = client; // client.insights, client.venueA, …, client.validation
 */
export type ClientSections = {
  readonly [Section in keyof typeof operationTable]: SectionMethods<
    (typeof operationTable)[Section]
  >;
};

/**
 * A client of one deployment of the service (made by `createClient`).
 * @example
 * const client: PathlabClient = createClient({ baseUrl, apiKey });
 * const record = await client.insights.liquidation({ asset: "BTC" });
 * const sets = await client.request("/v2/prediction/latest", {
 *   asset: "BTC", time_increment: 300, time_length: 86400, miner: [1, 2],
 * });
 * console.log(client.credits?.remaining);
 * await client.close();
 */
export type PathlabClient = ClientSections & {
  /**
   * Calls the operation with the spec's path `path` (in the neutral words, whatever the
   * deployment's naming): checks the parameters, sends, retries, decodes.
   */
  request<Path extends OperationPath>(
    path: Path,
    ...args: ParamsArguments<QueryParamsOf<OperationsByPath[Path]>>
  ): Promise<ResultOf<OperationsByPath[Path]>>;
  /**
   * Calls the operation as `request` does (parameters, key, retries, status
   * errors), but decodes a 2xx body with `decoder` as its bytes arrive: for the large prediction
   * sets. A decoding that ends with a {@link DecodeAsUsual} has the body decoded as `request`
   * decodes it (the result is then the operation's record). With `onExchange` set (a recording),
   * the body is read whole for the recording, then handed to the decoder in one chunk.
   * @example
   * const bytes = await client.requestStreamed("/v2/prediction/latest", params, counter);
   */
  requestStreamed<Path extends OperationPath, Result>(
    path: Path,
    params: QueryParamsOf<OperationsByPath[Path]>,
    decoder: StreamedDecoder<Result>,
  ): Promise<Result | ResultOf<OperationsByPath[Path]>>;
  /**
   * The same client (its connections, concurrency limit, retries and quota state), whose calls
   * also stop when `signal` aborts: those in flight and their retry waits reject with the signal's
   * reason, and later calls reject at once. A job gives each unit of work its own, so that a unit
   * past its deadline stops without stopping the others. `close` of the view closes the client.
   * @example
   * const unitClient = client.withSignal(AbortSignal.timeout(300_000));
   */
  withSignal(signal: AbortSignal): PathlabClient;
  /** The last rate-limit headers seen, if the service sent any (see `readRateLimit`). */
  readonly rateLimit: RateLimitState | undefined;
  /** The last credit headers seen, if the service sent any (see `readCredits`). */
  readonly credits: CreditState | undefined;
  /** The base URL requests go to, without a trailing slash. */
  readonly baseUrl: string;
  /** The deployment's naming, as passed to the decoders. */
  readonly naming: Naming;
  /** Closes the client's own undici Agent (an injected dispatcher is left to its owner). */
  close(): Promise<void>;
};
