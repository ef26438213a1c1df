/**
 * The sandbox's HTTP server: every operation of the spec over a world, with the spec's paths,
 * parameters, authentication, status codes and JSON shapes, plus switchable fault injection.
 * One request: route → faults (latency, 429 burst, 5xx) → access (401, 429, 402) → parameters
 * (400) → body (cached) → wrong-shape and transport faults → response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { liveNaming, neutralNaming, wirePath } from "../../domain/naming.ts";
import type { Naming, Operation } from "../../domain/operation.ts";
import { operations } from "../../domain/operations.ts";
import type { SandboxInsightOptions } from "../insights/inputs.ts";
import type { World } from "../world/world.ts";
import { createAccessControl, type AccessOptions } from "./accessControl.ts";
import {
  createBodyComputer,
  refusalOf,
  type BodyAnswer,
  type SandboxCacheOptions,
} from "./bodyComputer.ts";
import {
  createFaultPlan,
  type FaultDecision,
  type FaultPlan,
  type SandboxFaults,
} from "./faults.ts";
import { readQueryParams, type QueryParams } from "./readQueryParams.ts";
import { servedRoutes } from "./routes.ts";
import { sendJson, sendText } from "./sendResponse.ts";

export type { SandboxCacheOptions } from "./bodyComputer.ts";

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
  /**
   * Where bodies are computed (compute threads, `startComputeThreads`); default a body computer
   * over `world` on the server's own thread, with the options above.
   */
  readonly bodies?: BodySource;
}

/**
 * The body of one checked request, computed now or later.
 * @example const bodies: BodySource = (operation, params, shape) => computer.answer(operation, params, shape);
 */
export type BodySource = (
  operation: Operation<string, unknown, unknown>,
  params: QueryParams,
  shape: FaultDecision["shape"],
) => BodyAnswer | Promise<BodyAnswer>;

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
  const bodies: BodySource =
    options.bodies ??
    createBodyComputer({
      world,
      naming,
      ...(options.retentionDays !== undefined && { retentionDays: options.retentionDays }),
      ...(options.insightOptions !== undefined && { insightOptions: options.insightOptions }),
      ...(options.cache !== undefined && { cache: options.cache }),
    }).answer;

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
    let answer: BodyAnswer;
    try {
      const params = readQueryParams(operation, url.searchParams);
      answer = await bodies(operation, params, decision.shape);
    } catch (error) {
      answer = refusalOf(operation, error);
    }
    if (response.destroyed) {
      // the client left while the body was computed: nothing is delivered, nothing is charged
      verdict.settle(false);
      return;
    }
    if (answer.status !== 200) {
      verdict.settle(false);
      sendText(response, answer.status, answer.message, verdict.headers);
      return;
    }
    const chunks = answer.chunks.map((chunk) =>
      Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength),
    );
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
