/**
 * The notebooks' database: the DuckDB file that `pathlab sync` or `pathlab score` writes, opened
 * READ_ONLY, or a lake that `--lake` runs and queue workers write, read through DuckDB views while
 * they write; its rows as objects, and the service its runs read.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createClient,
  openLake,
  openStore,
  queryRows,
  startSandbox,
  type PathlabClient,
  type Store,
} from "../src/index.ts";
import { LAKE_MARKER } from "../src/store/index.ts";

/**
 * The database: `PATHLAB_NOTEBOOK_DATABASE` (what `npm run notebooks` sets), a DuckDB file or a
 * lake's folder, else the repository's `pathlab.duckdb` (where `pathlab sync` writes by default
 * when run from the root).
 */
export const DATABASE_FILE =
  Deno.env.get("PATHLAB_NOTEBOOK_DATABASE") ??
  fileURLToPath(new URL("../pathlab.duckdb", import.meta.url));

/**
 * Opens {@link DATABASE_FILE} read-only: a DuckDB file (other readers may share it; no writer may
 * hold it), or a lake (writers may keep writing; each query sees the files written by then).
 * @example const store = await openDatabase();
 */
export function openDatabase(): Promise<Store> {
  return existsSync(join(DATABASE_FILE, LAKE_MARKER))
    ? openLake(DATABASE_FILE)
    : openStore(DATABASE_FILE, { readOnly: true });
}

/**
 * The rows of a query as objects keyed by column name, with the values `queryRows` gives:
 * integers as numbers (BIGINTs beyond 2^53 as text), timestamps as ISO 8601 text in UTC.
 * @example const runs = await selectRows<{ id: number }>(store, "select id from runs");
 */
export async function selectRows<Row>(
  store: Store,
  sql: string,
  parameters?: Record<string, string | number | boolean | null>,
): Promise<Row[]> {
  const { columns, rows } = await queryRows(store, sql, parameters);
  return rows.map(
    (row) => Object.fromEntries(columns.map((column, index) => [column, row[index]])) as Row,
  );
}

/**
 * Where the notebooks ask for what the database lacks (realized prices after a forecast, minute
 * closes): the service the database's latest run read, at the database's latest clock.
 */
export interface NotebookService {
  /** `the embedded sandbox (seed 42)` or the service's base URL. */
  readonly description: string;
  /** The database's latest clock, ISO 8601: the sandbox's, or the latest time its data shows. */
  readonly now: string;
  readonly nowUnix: number;
  /** The sandbox's seed (42 for a service: it only seeds the notebooks' own draws). */
  readonly seed: number;
  /** A client of that service, or null when it cannot be asked (then `unavailable` says why). */
  readonly client: PathlabClient | null;
  readonly unavailable?: string;
  close(): Promise<void>;
}

/**
 * The service of the database's latest finished run (`runs.args.service`, as `sync` and `score`
 * record it): the embedded sandbox, started again at its seed and the latest clock it ran at (the
 * same world, so it knows every price up to then); or a service by its base URL, asked with
 * `PATHLAB_API_KEY`, at the latest time the database's data shows. Without a key, a service that
 * does not answer, or a database without runs, `client` is null and the charts that need the
 * service say so in one line.
 * @example const service = await notebookService(store); try { … } finally { await service.close(); }
 */
export async function notebookService(store: Store): Promise<NotebookService> {
  const runs = await selectRows<{ args: string }>(
    store,
    "select args from runs where status in ('ok', 'partial') order by id",
  );
  type Recorded = { kind?: string; seed?: number; now?: string; baseUrl?: string };
  const services = runs
    .map(({ args }) => (JSON.parse(args) as { service?: Recorded }).service)
    .filter((service): service is Recorded => service !== undefined);
  const sandboxes = services.filter(
    (service) =>
      service.kind === "embedded sandbox" &&
      service.seed !== undefined &&
      service.now !== undefined,
  );
  const latest = services.at(-1);
  if (latest?.kind === "embedded sandbox" && sandboxes.length > 0) {
    const ofSeed = sandboxes.filter((service) => service.seed === latest.seed);
    const clock = ofSeed.reduce((later, service) =>
      Date.parse(service.now!) > Date.parse(later.now!) ? service : later,
    );
    const sandbox = await startSandbox({ seed: clock.seed, now: clock.now });
    const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
    return {
      description: `the embedded sandbox (seed ${clock.seed})`,
      now: clock.now!,
      nowUnix: Date.parse(clock.now!) / 1000,
      seed: clock.seed!,
      client,
      async close() {
        await client.close();
        await sandbox.close();
      },
    };
  }
  const nowUnix = await latestDataTime(store);
  const now = new Date(nowUnix * 1000).toISOString().replace(".000Z", "Z");
  const base = { now, nowUnix, seed: 42 };
  const apiKey = Deno.env.get("PATHLAB_API_KEY")?.trim();
  if (latest?.baseUrl === undefined || latest.kind !== "service") {
    return {
      ...base,
      description: "no service",
      client: null,
      unavailable: existsSync(join(store.path, LAKE_MARKER))
        ? `the lake ${store.path} keeps no runs to name the service it read`
        : `no finished run of ${store.path} names the service it read`,
      async close() {},
    };
  }
  if (apiKey === undefined || apiKey === "") {
    return {
      ...base,
      description: latest.baseUrl,
      client: null,
      unavailable: `set PATHLAB_API_KEY to ask ${latest.baseUrl}`,
      async close() {},
    };
  }
  // A service that is gone (a `pathlab serve` stopped since) makes the same charts say so.
  try {
    await fetch(latest.baseUrl, { signal: AbortSignal.timeout(5000) }).then((response) =>
      response.body?.cancel(),
    );
  } catch (error) {
    const cause = (error as Error).cause as Error | undefined;
    const reason = `cannot reach ${latest.baseUrl}: ${cause?.message ?? (error as Error).message}`;
    return {
      ...base,
      description: latest.baseUrl,
      client: null,
      unavailable: reason,
      async close() {},
    };
  }
  const client = createClient({ baseUrl: latest.baseUrl, apiKey });
  return { ...base, description: latest.baseUrl, client, close: () => client.close() };
}

/** The latest time the database's rows show: observations, forecast starts, scored prompts. */
async function latestDataTime(store: Store): Promise<number> {
  const [row] = await selectRows<{ latest: number | null }>(
    store,
    `select greatest(
       (select max(epoch(observed_at)) from venue_comparisons),
       (select max(epoch(forecast_start_time)) from insights),
       (select max(epoch(scored_time)) from prompts)) as latest`,
  );
  return Number(row?.latest ?? Date.now() / 1000);
}
