/** What the server's operation handlers receive and return. */
import type { Operation } from "../../domain/operation.ts";
import type { FaultDecision } from "./faults.ts";
import type { QueryParams } from "./readQueryParams.ts";

/**
 * One checked request, as a handler sees it.
 * @example const context: HandlerContext = { operation: operationTable.leaderboard.latest, params: {}, shape: undefined };
 */
export interface HandlerContext {
  readonly operation: Operation<string, unknown, unknown>;
  /** Checked by `readQueryParams`; omitted optional parameters are absent. */
  readonly params: QueryParams;
  /**
   * A wrong-shape fault the handler must write itself (prediction sets, which are too large to
   * re-parse); `undefined` otherwise. Handlers that return `json` ignore it: the server applies it.
   */
  readonly shape: FaultDecision["shape"];
}

/**
 * A handler's answer: a JSON value in the spec's neutral naming (the server encodes it for its
 * naming, caches it and applies wrong-shape faults), or the finished bytes of the body.
 * @example const body: HandlerBody = { json: [] };
 */
export type HandlerBody = { readonly json: unknown } | { readonly bytes: readonly Buffer[] };

/**
 * Answers the requests of one section of the interface. Throws `InvalidParamsError` for a request
 * the sandbox cannot answer (the server sends 400 with its message); anything else thrown is a 500.
 * @example const handler: OperationHandler = () => ({ json: [] });
 */
export type OperationHandler = (context: HandlerContext) => HandlerBody;
