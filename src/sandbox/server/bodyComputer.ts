/**
 * The bodies of the sandbox's answers: one request's operation and checked parameters in, the
 * response's bytes out (or the 400 or 500 the request earns). Everything here is a function of
 * the world, so any number of computers over worlds of the same seed and clock answer alike: the
 * server runs one on its own thread, or one per compute thread (`computeThreads.ts`).
 */
import { InvalidParamsError } from "../../domain/errors.ts";
import { neutralNaming } from "../../domain/naming.ts";
import type { Naming, Operation, Section } from "../../domain/operation.ts";
import type { SandboxInsightOptions } from "../insights/inputs.ts";
import type { World } from "../world/world.ts";
import type { FaultDecision } from "./faults.ts";
import { faultyBody } from "./faultyBody.ts";
import type { HandlerBody, OperationHandler } from "./handlerTypes.ts";
import { createInsightHandler } from "./handlers/insightHandler.ts";
import { createLeaderboardHandler } from "./handlers/leaderboardHandler.ts";
import { createPredictionHandler } from "./handlers/predictionHandler.ts";
import { createValidationHandler } from "./handlers/validationHandler.ts";
import { withoutLiveOmittedFields } from "./liveFields.ts";
import { createLruCache } from "./lruCache.ts";
import type { QueryParams } from "./readQueryParams.ts";

/**
 * Bounds of the server's caches (memory stays bounded over a long session). With compute
 * threads, each thread keeps its share of the bytes and at least one ensemble.
 * @example const cache: SandboxCacheOptions = { responseBytes: 32 * 2 ** 20, ensembles: 2 };
 */
export interface SandboxCacheOptions {
  /** Bytes of JSON responses kept (insights, venues, leaderboards, validation). Default 64 MiB. */
  readonly responseBytes?: number;
  /** Bytes of prediction-set JSON kept. Default 128 MiB. */
  readonly predictionBytes?: number;
  /**
   * Insight ensembles kept (up to about 50 MB each, twice that with the previous prompt's).
   * Default 3.
   */
  readonly ensembles?: number;
}

/**
 * What {@link createBodyComputer} needs.
 * @example const options: BodyComputerOptions = { world, naming: liveNaming };
 */
export interface BodyComputerOptions {
  readonly world: World;
  /** How the bodies name the venues and the model. Default `neutralNaming`. */
  readonly naming?: Naming;
  /** Days of prediction sets served before the clock (default `PREDICTION_RETENTION_DAYS`, 11). */
  readonly retentionDays?: number;
  /** Modes of the "service" that depart from the insight conventions (default none). */
  readonly insightOptions?: SandboxInsightOptions;
  readonly cache?: SandboxCacheOptions;
}

/**
 * One request's answer: the body's bytes, or the status and plain-text message of a refusal
 * (400 for parameters the sandbox cannot answer, 500 for a failure inside it).
 * @example const answer: BodyAnswer = { status: 400, message: "…: parameter \"asset\": …" };
 */
export type BodyAnswer =
  | { readonly status: 200; readonly chunks: readonly Uint8Array[] }
  | { readonly status: 400 | 500; readonly message: string };

/**
 * Computes the body of one checked request.
 * @example const answer = computer.answer(operation, { asset: "BTC" }, undefined);
 */
export interface BodyComputer {
  answer(
    operation: Operation<string, unknown, unknown>,
    params: QueryParams,
    shape: FaultDecision["shape"],
  ): BodyAnswer;
}

/**
 * The body computer of a world. JSON bodies are checked against the spec (decoded, then encoded
 * in the naming) and cached per canonical query; prediction sets are cached by their handler.
 * @example
 * const computer = createBodyComputer({ world });
 * computer.answer(operationByPath("/v2/leaderboard/latest"), {}, undefined);
 */
export function createBodyComputer(options: BodyComputerOptions): BodyComputer {
  const { world } = options;
  const naming = options.naming ?? neutralNaming;
  const insight = createInsightHandler({
    world,
    insightOptions: options.insightOptions,
    ensembleCacheEntries: options.cache?.ensembles,
  });
  const handlers: Readonly<Record<Section, OperationHandler>> = {
    insights: insight,
    venueA: insight,
    venueB: insight,
    predictions: createPredictionHandler({
      world,
      cacheBytes: options.cache?.predictionBytes,
      ...(options.retentionDays !== undefined && { retentionDays: options.retentionDays }),
    }),
    leaderboard: createLeaderboardHandler(world),
    validation: createValidationHandler(world),
  };
  const responses = createLruCache<string, Buffer>({
    maxEntries: 4096,
    maxWeight: options.cache?.responseBytes ?? 64 * 2 ** 20,
    weigh: (bytes) => bytes.byteLength,
  });

  function bodyOf(
    operation: Operation<string, unknown, unknown>,
    params: QueryParams,
    shape: FaultDecision["shape"],
  ): readonly Buffer[] {
    const handler = handlers[operation.section];
    if (operation.section === "predictions") {
      const answer = handler({ operation, params, shape }) as { bytes: readonly Buffer[] };
      return answer.bytes;
    }
    const key = `${operation.path}?${canonicalQuery(operation, params)}`;
    let bytes = responses.get(key);
    if (bytes === undefined) {
      const answer: HandlerBody = handler({ operation, params, shape });
      if (!("json" in answer)) return answer.bytes;
      // decode → encode: checks the record against the spec, then writes it in this naming (and,
      // spelled as the live deployment, without the fields its records leave out).
      const record = operation.decode(answer.json, { naming: neutralNaming });
      const encoded = operation.encode(record, { naming });
      const wire =
        naming.spelling === "live" ? withoutLiveOmittedFields(operation.path, encoded) : encoded;
      bytes = Buffer.from(JSON.stringify(wire), "utf8");
      responses.set(key, bytes);
    }
    if (shape === undefined) return [bytes];
    return [Buffer.from(faultyBody(JSON.parse(bytes.toString("utf8")), shape), "utf8")];
  }

  return {
    answer(operation, params, shape) {
      try {
        return { status: 200, chunks: bodyOf(operation, params, shape) };
      } catch (error) {
        return refusalOf(operation, error);
      }
    },
  };
}

/**
 * The answer to a request that raised `error`: 400 with its message for parameters the sandbox
 * cannot answer (`InvalidParamsError`), else 500 naming the operation.
 * @example refusalOf(operation, new Error("boom")) // => { status: 500, message: "sandbox internal error: /…: boom" }
 */
export function refusalOf(
  operation: Operation<string, unknown, unknown>,
  error: unknown,
): Extract<BodyAnswer, { status: 400 | 500 }> {
  if (error instanceof InvalidParamsError) return { status: 400, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, message: `sandbox internal error: ${operation.path}: ${message}` };
}

/** The parameters in the operation's order, for cache keys (`a=1&b=x`; arrays joined by commas). */
function canonicalQuery(
  operation: Operation<string, unknown, unknown>,
  params: QueryParams,
): string {
  const parts: string[] = [];
  for (const spec of operation.params) {
    const value = params[spec.name];
    if (value !== undefined) parts.push(`${spec.name}=${encodeURIComponent(String(value))}`);
  }
  return parts.join("&");
}
