/**
 * A deployment that speaks the live naming, asked in the neutral one, answers every venue path with
 * 404 and spells its records' fields in words the neutral decoders do not read: a job against it
 * would end with one failure per unit and no hint. One request tells: the live path of a venue
 * operation, decoded in the live naming.
 */

import { createClient } from "../client/create-client.ts";
import type { ClientOptions } from "../client/options.ts";
import { liveNaming, neutralNaming, wirePath } from "../domain/naming.ts";
import type { ResolvedService } from "./resolveService.ts";
import { UsageError } from "./usageError.ts";

/** The venue operation asked, and its parameters: a daily contract every deployment lists. */
const PROBE = "/insights/venuea/up-down/daily";
const PROBE_PARAMS = { asset: "BTC" } as const;

/**
 * Whether the service of `options` answers the live path of a venue operation with a record that
 * decodes in the live naming: one request, one attempt, within the client's own limits. Anything
 * else (a 404, a refused key, a timeout, a body that does not decode) is `false`.
 * @param options - the job's client options (its base URL, key and limits; its naming is not used).
 * @example await speaksLiveNaming({ baseUrl: "http://127.0.0.1:8787", apiKey }) // => true for `pathlab serve --naming live`
 */
export async function speaksLiveNaming(options: ClientOptions): Promise<boolean> {
  const probe = createClient({
    baseUrl: options.baseUrl,
    ...(options.apiKey !== undefined && { apiKey: options.apiKey }),
    ...(options.dispatcher !== undefined && { dispatcher: options.dispatcher }),
    ...(options.signal !== undefined && { signal: options.signal }),
    naming: liveNaming,
    maxRetries: 0,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
  });
  try {
    await probe.request(PROBE, PROBE_PARAMS);
    return true;
  } catch {
    return false;
  } finally {
    await probe.close();
  }
}

/**
 * Throws a `UsageError` (exit 2) naming `--naming live` when the client asks in the neutral naming
 * and the deployment speaks the live one ({@link speaksLiveNaming}); otherwise the job goes on to
 * meet whatever the deployment answers. Nothing is asked when the client has a naming or paths of
 * its own for the operation, or when the service is the embedded sandbox (which speaks the job's
 * naming) or a replay.
 * @param command - the command, for the message (`sync`).
 * @param resolved - the job's service: only one given by `--base-url` is asked, not a replay.
 * @param options - the job's client options (its base URL, key, limits and naming).
 * @example await checkNaming("sync", resolved, clientOptions); // throws for `pathlab serve --naming live`
 */
export async function checkNaming(
  command: string,
  resolved: Pick<ResolvedService, "service" | "replay">,
  options: ClientOptions,
): Promise<void> {
  if (resolved.service.kind !== "service" || resolved.replay !== undefined) return;
  const naming = options.naming ?? neutralNaming;
  if (wirePath(PROBE, naming) !== PROBE || options.paths?.[PROBE] !== undefined) return;
  if (!(await speaksLiveNaming(options))) return;
  throw new UsageError(
    `${command}: ${options.baseUrl} answers ${wirePath(PROBE, liveNaming)} in the live naming: ` +
      "this deployment speaks live naming: rerun with `--naming live` (or `--naming auto`)",
  );
}
