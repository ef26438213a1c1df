/**
 * pathlab/sandbox: an offline, deterministic implementation of the whole interface.
 *
 * The public API of the sandbox layer (DESIGN.md §1); the root entry `pathlab` re-exports it.
 * @module
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
