/** The service a job talked to, as its summary and its run record name it. */

/**
 * The service a job talked to.
 * @example const service: ServiceInfo = { kind: "embedded sandbox", baseUrl: "http://127.0.0.1:40123", seed: 42, now: "2026-02-25T23:47:00.000Z" };
 */
export interface ServiceInfo {
  /** `embedded sandbox` (started and stopped by the job) or `service` (`--base-url`). */
  readonly kind: "embedded sandbox" | "service";
  readonly baseUrl: string;
  /** The embedded sandbox's seed and clock. */
  readonly seed?: number;
  readonly now?: string;
  /** The embedded sandbox's miners, when it runs fewer than its whole network. */
  readonly miners?: number;
  /** The naming `--naming auto` found the service to speak (asked once, before the job). */
  readonly namingFound?: "live" | "neutral";
}

/**
 * The embedded sandbox in words, as summaries name it: its seed and clock, and its miners when it
 * runs fewer than its whole network.
 * @param sandbox - its seed, clock (ISO 8601) and miners (absent for the whole network).
 * @example sandboxText({ seed: 42, now: "2026-02-25T23:47:00Z", miners: 9 }) // => "the embedded sandbox (seed 42, now 2026-02-25T23:47:00Z, 9 miners)"
 */
export function sandboxText(sandbox: {
  readonly seed?: number;
  readonly now?: string;
  readonly miners?: number;
}): string {
  const miners = sandbox.miners === undefined ? "" : `, ${sandbox.miners} miners`;
  return `the embedded sandbox (seed ${sandbox.seed}, now ${sandbox.now}${miners})`;
}

/**
 * The service in words, as summaries name it: the embedded sandbox ({@link sandboxText}), or the
 * service's URL and the naming `--naming auto` found it to speak.
 * @param service - the service a job talked to.
 * @example serviceText({ kind: "service", baseUrl: "https://api.example", namingFound: "live" }) // => "https://api.example (--naming auto: the live naming)"
 */
export function serviceText(service: ServiceInfo): string {
  if (service.kind === "embedded sandbox") return sandboxText(service);
  return service.namingFound === undefined
    ? service.baseUrl
    : `${service.baseUrl} (--naming auto: the ${service.namingFound} naming)`;
}
