/**
 * The sync's fetch lane: units take turns to fetch, so that the service works on one unit's
 * requests at a time while the units before it recompute and store.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import type { Semaphore } from "../../client/semaphore.ts";

/**
 * Turns of the event loop that {@link inFetchLane} lets pass. undici 7 writes a request on a kept-
 * alive socket one `setImmediate` after it is dispatched (it first reads what the idle socket may
 * have received: `scheduleIdleSocketValidation`), and pathlab's client dispatches a few microtasks
 * after it is called, so that write comes after the first of these turns; the other two are margin.
 */
const HANDOVER_TURNS = 3;

/**
 * What a unit takes turns in: a `Semaphore` of one slot, or anything that runs a task in its turn
 * as one does (a pool thread's view of the job's lane, `syncTask.ts`).
 * @example const lane: FetchLane = createSemaphore(1);
 */
export type FetchLane = Pick<Semaphore, "run">;

/**
 * Runs `fetch` in `lane` (at once when there is none) and, once it resolved, lets three turns of
 * the event loop pass before it returns. The lane has passed to the next unit by then, and those
 * turns write the next unit's first requests before the caller's recomputation holds the thread
 * (about 0.3 s for a 24h unit), which the service would otherwise wait out with nothing to do. On
 * open connections: a request that needs a new connection also waits for its connect.
 * @example const inputs = await inFetchLane(context.fetchLane, () => fetchUnitInputs(...));
 */
export async function inFetchLane<T>(
  lane: FetchLane | undefined,
  fetch: () => Promise<T>,
): Promise<T> {
  if (lane === undefined) return fetch();
  const result = await lane.run(fetch);
  for (let turn = 0; turn < HANDOVER_TURNS; turn++) await nextTurn();
  return result;
}
