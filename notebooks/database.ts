/**
 * The notebooks' database: the DuckDB file that `pathlab sync` writes, opened READ_ONLY through
 * pathlab's public entry, its rows as objects, and the sandbox clock it was synced at.
 */
import { fileURLToPath } from "node:url";
import { openStore, queryRows, type Store } from "../src/index.ts";

/**
 * The database file: `PATHLAB_NOTEBOOK_DATABASE` (what `npm run notebooks` sets), else the
 * repository's `pathlab.duckdb` (where `pathlab sync` writes by default when run from the root).
 */
export const DATABASE_FILE =
  Deno.env.get("PATHLAB_NOTEBOOK_DATABASE") ??
  fileURLToPath(new URL("../pathlab.duckdb", import.meta.url));

/**
 * Opens {@link DATABASE_FILE} read-only (other readers may share it; no writer may hold it).
 * @example const store = await openDatabase();
 */
export function openDatabase(): Promise<Store> {
  return openStore(DATABASE_FILE, { readOnly: true });
}

/**
 * The rows of a query as objects keyed by column name (BIGINTs and timestamps as text, as
 * `queryRows` gives them; cast in SQL where a number is wanted).
 * @example const runs = await selectRows<{ id: string }>(store, "select id from runs");
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

/** The sandbox a database was synced from: its seed, and the clock of the latest sync. */
export interface SandboxClock {
  readonly seed: number;
  /** ISO 8601. */
  readonly now: string;
  readonly nowUnix: number;
}

/**
 * The seed and the latest clock of the embedded sandbox the database's runs were synced from
 * (`runs.args.service`, as `pathlab sync` records it). Throws, saying why, when no finished run
 * used the embedded sandbox (a database synced from a deployment: the notebooks' realized prices
 * and later clocks come from the sandbox).
 * @example const { seed, now } = await sandboxClock(store);
 */
export async function sandboxClock(store: Store): Promise<SandboxClock> {
  const runs = await selectRows<{ args: string }>(
    store,
    "select args from runs where status in ('ok', 'partial') order by id",
  );
  let latest: SandboxClock | undefined;
  for (const { args } of runs) {
    const service = (
      JSON.parse(args) as { service?: { kind?: string; seed?: number; now?: string } }
    ).service;
    if (service?.kind !== "embedded sandbox" || service.now === undefined) continue;
    if (service.seed === undefined) continue;
    const nowUnix = Date.parse(service.now) / 1000;
    if (latest === undefined || nowUnix > latest.nowUnix) {
      latest = { seed: service.seed, now: service.now, nowUnix };
    }
  }
  if (latest === undefined) {
    throw new Error(
      `sandboxClock: no finished run of ${store.path} used the embedded sandbox with a seed and a clock (runs.args.service); build it with \`npm run notebooks\` or \`pathlab sync --seed 42 --now <time>\``,
    );
  }
  return latest;
}
