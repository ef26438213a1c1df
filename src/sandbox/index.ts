/**
 * pathlab/sandbox: an offline, deterministic implementation of the whole interface: a world of
 * markets and miners from a seed and a clock, served over HTTP on 127.0.0.1 with the live
 * deployment's names, rate limits and faults on request.
 *
 * Use it to run everything without a service or a key. The root entry `pathlab` re-exports it whole.
 * @module pathlab/sandbox
 */
export * from "./startSandbox.ts";
export * from "./sandboxDefaults.ts";
export * from "./server/parseFaults.ts";
export type { SandboxFaults, FaultRule, FaultTrigger, RateLimitBurst } from "./server/faults.ts";
export { DEFAULT_CREDITS, DEFAULT_RATE_LIMIT } from "./server/accessControl.ts";
export type { AccessOptions, RateLimit } from "./server/accessControl.ts";
export type { SandboxCacheOptions } from "./server/createSandboxServer.ts";
export { METAMODEL_UID } from "./server/handlers/predictionHandler.ts";
export type { SandboxInsightOptions } from "./insights/inputs.ts";
export * from "./world/world.ts";
