/**
 * pathlab/sandbox: an offline, deterministic implementation of the whole interface: a world of
 * markets and miners from a seed and a clock, served over HTTP on 127.0.0.1 with the live
 * deployment's names, rate limits and faults on request.
 *
 * Use it to run everything without a service or a key. The root entry `pathlab` re-exports it whole.
 * @module pathlab/sandbox
 */
export { startSandbox } from "./startSandbox.ts";
export type { StartSandboxOptions, RunningSandbox } from "./startSandbox.ts";
export { DEFAULT_SANDBOX_SEED, defaultSandboxApiKey } from "./sandboxDefaults.ts";
export { parseFaults, FAULTS_FORMAT } from "./server/parseFaults.ts";
export type { SandboxFaults, FaultRule, FaultTrigger, RateLimitBurst } from "./server/faults.ts";
export { DEFAULT_CREDITS, DEFAULT_RATE_LIMIT } from "./server/accessControl.ts";
export type { AccessOptions, RateLimit } from "./server/accessControl.ts";
export type { SandboxCacheOptions } from "./server/createSandboxServer.ts";
export { METAMODEL_UID } from "./server/handlers/predictionHandler.ts";
export type { SandboxInsightOptions } from "./insights/inputs.ts";
export { createWorld } from "./world/world.ts";
export type {
  World,
  WorldOptions,
  WorldEnsemble,
  Submission,
  PromptHorizon,
  PromptCadence,
  ScoreRowsQuery,
  SmoothedScoreRowsQuery,
  MinerDescription,
} from "./world/world.ts";
