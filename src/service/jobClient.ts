/**
 * The one set of client defaults every job starts from, and the client options a job's worker
 * threads are given (data only: functions stay on the job's thread).
 */

import type { ClientOptions } from "../client/options.ts";
import { liveNaming } from "../domain/naming.ts";
import { LIVE_PATHS } from "../domain/default-paths.ts";
import type { Naming } from "../domain/operation.ts";
import { dataOf } from "./clientData.ts";
import type { TaskClientOptions } from "./threadClients.ts";

/**
 * What a job's client starts from: 4 retries of a failed request and 8 requests in flight; a
 * job's `client` options and the deployment's naming and paths override them.
 * @example JOB_CLIENT_DEFAULTS.maxRetries // => 4
 */
export const JOB_CLIENT_DEFAULTS = { maxRetries: 4, concurrency: 8 } as const;

/**
 * A deployment's words and paths (the client options `naming` and `paths`).
 * @example const deployment: Deployment = { naming: liveNaming };
 */
export interface Deployment {
  readonly naming?: Naming;
  readonly paths?: Readonly<Record<string, string>>;
}

/**
 * The paths a job's client uses for `deployment`: under the live naming, the live deployment's
 * paths (`LIVE_PATHS`) with the caller's on top; otherwise the caller's.
 * @example deploymentPaths({ naming: liveNaming })["/validation/smoothed-scores"] // => "/rewards/scores"
 */
export function deploymentPaths(deployment: Deployment): Readonly<Record<string, string>> {
  const live = deployment.naming !== undefined && isLiveNaming(deployment.naming);
  return { ...(live ? LIVE_PATHS : {}), ...deployment.paths };
}

/**
 * Whether `naming` is the live deployment's.
 * @example isLiveNaming(liveNaming) // => true
 */
export function isLiveNaming(naming: Naming | undefined): boolean {
  return (
    naming !== undefined &&
    naming.venueA === liveNaming.venueA &&
    naming.venueB === liveNaming.venueB &&
    naming.model === liveNaming.model
  );
}

/**
 * The options of a job's client on its own thread: the defaults, the job's `client` options, the
 * deployment, the service's address and key.
 * @example createClient(jobClientOptions({ maxRetries: 2 }, {}, { baseUrl, apiKey }))
 */
export function jobClientOptions(
  client: Partial<ClientOptions> | undefined,
  deployment: Deployment,
  service: { readonly baseUrl: string; readonly apiKey: string },
): ClientOptions {
  return {
    ...JOB_CLIENT_DEFAULTS,
    ...client,
    ...deployment,
    paths: deploymentPaths(deployment),
    baseUrl: service.baseUrl,
    apiKey: service.apiKey,
  };
}

/**
 * The options of the same client on a worker thread: {@link jobClientOptions} without its
 * functions, with `concurrency` requests in flight when given.
 * @example const task = threadClientOptions(jobClientOptions(undefined, {}, service), 4);
 */
export function threadClientOptions(
  options: ClientOptions,
  concurrency?: number,
): TaskClientOptions {
  return {
    ...(dataOf(options) as TaskClientOptions),
    ...(concurrency !== undefined && { concurrency }),
  };
}
