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
}
