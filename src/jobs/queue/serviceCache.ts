/**
 * The clients of the services a worker's units name. A service's client is made once and kept.
 * An embedded sandbox (a unit that names a seed and clock instead of a base URL) is a thread with
 * its own world, some hundreds of MB once its leaderboards are built; a watch names a new clock
 * every tick, so the worker keeps only the last {@link SANDBOXES_KEPT} sandboxes, closing the
 * least recently used one that no running unit holds.
 */
import { createClient } from "../../client/create-client.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { startEmbeddedSandbox, type EmbeddedSandbox } from "../../service/embeddedSandbox.ts";
import { jobClientOptions } from "../../service/jobClient.ts";
import type { RequestPacers } from "./requestPacer.ts";
import type { UnitService } from "../score/queueUnit.ts";

/**
 * Embedded sandboxes a worker keeps between units (more only while running units hold them).
 * @example SANDBOXES_KEPT // => 2
 */
export const SANDBOXES_KEPT = 2;

interface Entry {
  readonly started: Promise<{ client: PathlabClient; sandbox?: EmbeddedSandbox }>;
  readonly sandboxed: boolean;
  users: number;
  lastUsed: number;
}

/**
 * The services of a worker's units, each started once (see the module comment).
 * @example const added = await services.use(unit.service, (client) => runScoreUnit(unit, { client, store, keys }));
 */
export class ServiceCache {
  private readonly entries = new Map<string, Entry>();
  private uses = 0;

  /** `apiKey`: the worker's own key (units never carry one); `pacers`: its shared request rates. */
  constructor(
    private readonly apiKey: string | undefined,
    private readonly pacers: Pick<RequestPacers, "throttle">,
  ) {}

  /**
   * Runs `work` with the client of `service`, started on first use; the service is held until
   * `work` settles. Rejects as `work` does, or with the reason the service could not start (a
   * worker without a key for a named service).
   * @example await services.use(unit.service, (client) => client.request("/v2/leaderboard/latest", {}));
   */
  async use<Result>(
    service: UnitService,
    work: (client: PathlabClient) => Promise<Result>,
  ): Promise<Result> {
    const key = JSON.stringify(service);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      const started = this.start(service);
      entry = { started, sandboxed: service.kind === "sandbox", users: 0, lastUsed: 0 };
      this.entries.set(key, entry);
      started.catch(() => this.entries.delete(key));
    }
    entry.users++;
    entry.lastUsed = ++this.uses;
    try {
      return await work((await entry.started).client);
    } finally {
      entry.users--;
      await this.trim();
    }
  }

  /** Embedded sandboxes held now (started or starting). */
  get sandboxes(): number {
    return [...this.entries.values()].filter((entry) => entry.sandboxed).length;
  }

  /** Closes every client and sandbox. */
  async close(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    for (const entry of entries) await closeEntry(entry);
  }

  /** Closes the least recently used idle sandboxes beyond {@link SANDBOXES_KEPT}. */
  private async trim(): Promise<void> {
    const idle = [...this.entries]
      .filter(([, entry]) => entry.sandboxed && entry.users === 0)
      .sort(([, first], [, second]) => first.lastUsed - second.lastUsed);
    let excess = this.sandboxes - SANDBOXES_KEPT;
    for (const [key, entry] of idle) {
      if (excess-- <= 0) break;
      this.entries.delete(key);
      await closeEntry(entry);
    }
  }

  private async start(
    service: UnitService,
  ): Promise<{ client: PathlabClient; sandbox?: EmbeddedSandbox }> {
    const deployment = {
      ...(service.naming !== undefined && { naming: service.naming }),
      ...(service.paths !== undefined && { paths: service.paths }),
    };
    if (service.kind === "sandbox") {
      const sandbox = await startEmbeddedSandbox({
        seed: service.seed,
        now: service.now,
        ...(service.miners !== undefined && { miners: service.miners }),
        ...deployment,
      });
      const address = { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
      const client = createClient(jobClientOptions(undefined, deployment, address));
      return { client, sandbox };
    }
    if (this.apiKey === undefined || this.apiKey.trim() === "") {
      throw new Error(
        `unit for ${service.baseUrl}: this worker has no API key (set PATHLAB_API_KEY); units never carry one`,
      );
    }
    const client = createClient({
      ...jobClientOptions(undefined, deployment, {
        baseUrl: service.baseUrl,
        apiKey: this.apiKey.trim(),
      }),
      throttle: this.pacers.throttle(service.baseUrl),
    });
    return { client };
  }
}

async function closeEntry(entry: Entry): Promise<void> {
  const started = await entry.started.catch(() => undefined);
  await started?.client.close();
  await started?.sandbox?.close();
}
