/** Which operation a request path names, in the naming the server speaks. */
import { LIVE_PATHS } from "../../domain/default-paths.ts";
import { wirePath } from "../../domain/naming.ts";
import type { Naming, Operation } from "../../domain/operation.ts";
import { operationByPath, operations } from "../../domain/operations.ts";

/**
 * Every operation of the spec by the path the server serves it at: the spec's path with the
 * naming's venue segments (`/insights/polymarket/range` under `liveNaming`), and pathlab's default
 * paths for the operations whose path the spec does not show (`DEFAULT_PATHS`), and the live
 * deployment's paths for some of them (`LIVE_PATHS`: `/rewards/scores` for the smoothed scores),
 * and the deployment's own `paths` (spec path → served path), as a client's `paths` option names
 * them. Throws a `RangeError` for a spec path that is no operation.
 * @example
 * servedRoutes(liveNaming).get("/insights/polymarket/up-down/daily")?.path // => "/insights/venuea/up-down/daily"
 */
export function servedRoutes(
  naming: Naming,
  paths: Readonly<Record<string, string>> = {},
): ReadonlyMap<string, Operation<string, unknown, unknown>> {
  const routes = new Map<string, Operation<string, unknown, unknown>>();
  for (const operation of operations) {
    routes.set(wirePath(operation.path, naming), operation as Operation<string, unknown, unknown>);
    const live = LIVE_PATHS[operation.path];
    if (live !== undefined) routes.set(live, operation as Operation<string, unknown, unknown>);
  }
  for (const [specPath, served] of Object.entries(paths)) {
    routes.set(served, operationByPath(specPath) as Operation<string, unknown, unknown>);
  }
  return routes;
}
