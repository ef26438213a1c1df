/** The error of a write whose transaction was rolled back. */

import { StoreError } from "./storeError.ts";

/**
 * Rethrows `error`, which rolled back a write: the reason of an aborted `signal` as it is (a job
 * interrupted while it wrote), any other error as a {@link StoreError} of `operation` saying that
 * `what` was not stored, with `error` as its `cause`.
 * @example
 * try { await store.withTransaction(write, signal); }
 * catch (error) { rethrowNotStored(error, signal, "writeRankHistory", store.path, "the crypto-1h rank history"); }
 */
export function rethrowNotStored(
  error: unknown,
  signal: AbortSignal | undefined,
  operation: string,
  databasePath: string,
  what: string,
): never {
  if (signal?.aborted && error === signal.reason) throw error;
  throw new StoreError(
    operation,
    databasePath,
    `${what} was not stored (rolled back): ${(error as Error).message}`,
    { cause: error },
  );
}
