/**
 * The sandbox's HTTP server: every operation of the spec over a world, with the spec's paths,
 * parameters, authentication, status codes and JSON shapes, plus switchable fault injection.
 * One request: route → faults (latency, 429 burst, 5xx) → access (401, 429, 402) → parameters
 * (400) → body (cached) → wrong-shape and transport faults → response.
 */
import { withoutLiveOmittedFields } from "./liveFields.ts";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { InvalidParamsError } from "../../spec/errors.ts";
import { liveNaming, neutralNaming, wirePath } from "../../spec/naming.ts";
import type { Naming, Operation, Section } from "../../spec/operation.ts";
import { operations } from "../../spec/operations.ts";
import type { SandboxInsightOptions } from "../insights/inputs.ts";
import type { World } from "../world/world.ts";
import { createAccessControl, type AccessOptions } from "./accessControl.ts";
import { faultyBody } from "./faultyBody.ts";
import {
  createFaultPlan,
  type FaultDecision,
  type FaultPlan,
  type SandboxFaults,
} from "./faults.ts";
import type { HandlerBody, OperationHandler } from "./handlerTypes.ts";
import { createInsightHandler } from "./handlers/insightHandler.ts";
import { createLeaderboardHandler } from "./handlers/leaderboardHandler.ts";
import { createPredictionHandler } from "./handlers/predictionHandler.ts";
import { createValidationHandler } from "./handlers/validationHandler.ts";
import { createLruCache } from "./lruCache.ts";
import { readQueryParams, type QueryParams } from "./readQueryParams.ts";
import { servedRoutes } from "./routes.ts";
import { sendJson, sendText } from "./sendResponse.ts";

/**
 * Bounds of the server's caches (memory stays bounded over a long session).
 * @example const cache: SandboxCacheOptions = { responseBytes: 32 * 2 ** 20, ensembles: 2 };
 */
export interface SandboxCacheOptions {
  /** Bytes of JSON responses kept (insights, venues, leaderboards, validation). Default 64 MiB. */
  readonly responseBytes?: number;
  /** Bytes of prediction-set JSON kept. Default 128 MiB. */
  readonly predictionBytes?: number;
  /** Insight ensembles kept (about 25 MB each, twice that with the previous prompt's). Default 3. */
  readonly ensembles?: number;
}

/**
 * Options of {@link createSandboxServer}.
 * @example const options: SandboxServerOptions = { world, access: { apiKeys: ["sk-sandbox"] }, naming: liveNaming };
 */
export interface SandboxServerOptions {
  readonly world: World;
  /** Keys, credits and rate limit. */
  readonly access: AccessOptions;
  /** How the server names the venues and the model in paths and fields. Default `neutralNaming`. */
  readonly naming?: Naming;
  /** Served paths of operations by spec path, beside the naming's own (see `servedRoutes`). */
  readonly paths?: Readonly<Record<string, string>>;
  /** Days of prediction sets served before the clock (default `PREDICTION_RETENTION_DAYS`, 11). */
  readonly retentionDays?: number;
  /** Fault rules in force from the start (default none); see `setFaults`. */
  readonly faults?: SandboxFaults;
  /** Modes of the "service" that depart from the insight conventions (default none). */
  readonly insightOptions?: SandboxInsightOptions;
  readonly cache?: SandboxCacheOptions;
}

/**
 * A sandbox server, not yet listening (`server.listen(port, host)`).
 * @example
 * const sandbox = createSandboxServer({ world, access: { apiKeys: ["sk-sandbox"] } });
 * sandbox.server.listen(0, "127.0.0.1");
 */
export interface SandboxServer {
  readonly server: Server;
  /** Replaces the fault rules; their counters start again from zero. */
  setFaults(faults: SandboxFaults): void;
}

const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * Creates the sandbox's server over `options.world`. Unknown paths answer 404 (with a hint when
 * the path is another naming's), methods other than GET 405, and a failure inside the sandbox 500;
 * all error bodies are plain text naming the problem. Fault decisions are drawn from the world's
 * seed (see `faults.ts`).
 * @example
 * const world = createWorld({ seed: 42, nowUnix });
 * const { server } = createSandboxServer({ world, access: { apiKeys: ["sk-sandbox"] } });
 * server.listen(8080, "127.0.0.1");
 */
export function createSandboxServer(options: SandboxServerOptions): SandboxServer {
  const { world } = options;
  const naming = options.naming ?? neutralNaming;
  const routes = servedRoutes(naming, options.paths);
  const access = createAccessControl(options.access);
  let plan: FaultPlan = createFaultPlan(options.faults ?? [], world.seed);
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

  /** The body's bytes in the server's naming; JSON bodies are cached per canonical query. */
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

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== "GET") {
      sendText(response, 405, `method ${request.method} not allowed: every operation is a GET`, {
        allow: "GET",
      });
      return;
    }
    // Concatenated, not resolved: a request target such as "//x/y" stays a path.
    const url = new URL(`http://sandbox.invalid${request.url ?? "/"}`);
    const servedPath = url.pathname;
    const operation = routes.get(servedPath);
    const decision = plan.decide(servedPath, operation?.path ?? servedPath);
    if (decision.latencyMs > 0) {
      await sleep(decision.latencyMs);
      if (response.destroyed) return;
    }
    if (decision.status !== undefined) {
      const { code, retryAfterMs } = decision.status;
      if (code === 429) {
        const wait = retryAfterMs ?? 1000;
        sendText(
          response,
          429,
          `rate limit exceeded (sandbox fault: a 429 burst); retry in ${wait} ms`,
          {
            "retry-after": String(Math.ceil(wait / 1000)),
            "retry-after-ms": String(wait),
          },
        );
      } else {
        sendText(response, code, `sandbox fault: an injected ${code} (see the faults option)`);
      }
      return;
    }
    if (operation === undefined) {
      sendText(response, 404, notFoundMessage(servedPath, naming, routes.size));
      return;
    }
    const verdict = access.admit({
      auth: operation.auth,
      credits: operation.credits,
      elevated: operation.path.startsWith("/v2/prediction/"),
      authorization: request.headers.authorization,
      remoteAddress: request.socket.remoteAddress ?? "unknown",
      nowMs: Date.now(),
    });
    if (verdict.status !== 200) {
      sendText(response, verdict.status, verdict.reason, verdict.headers);
      return;
    }
    let chunks: readonly Buffer[];
    try {
      const params = readQueryParams(operation, url.searchParams);
      chunks = bodyOf(operation, params, decision.shape);
    } catch (error) {
      verdict.settle(false);
      if (error instanceof InvalidParamsError) {
        sendText(response, 400, error.message, verdict.headers);
      } else {
        const message = error instanceof Error ? error.message : String(error);
        sendText(
          response,
          500,
          `sandbox internal error: ${operation.path}: ${message}`,
          verdict.headers,
        );
      }
      return;
    }
    verdict.settle(true);
    sendJson(response, chunks, verdict.headers, decision.body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      sendText(response, 500, `sandbox internal error: ${message}`);
    });
  });

  return {
    server,
    setFaults(faults) {
      plan = createFaultPlan(faults, world.seed);
    },
  };
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

/** "no operation at …", with the path to use when the request used another naming's words. */
function notFoundMessage(servedPath: string, naming: Naming, routeCount: number): string {
  let hint = "";
  for (const operation of operations) {
    for (const other of [neutralNaming, liveNaming]) {
      if (other !== naming && wirePath(operation.path, other) === servedPath) {
        hint = `; this sandbox names the venues ${naming.venueA}/${naming.venueB}: use ${wirePath(operation.path, naming)}`;
      }
    }
  }
  return (
    `no operation at ${servedPath}${hint} (this sandbox serves the ${routeCount} operations ` +
    "of the spec; `pathlab operations` lists them)"
  );
}
