/** A bounded least-recently-used cache: the sandbox server's memory stays bounded over a long session. */

/**
 * Bounds of an {@link LruCache}: how many entries, and how much total weight (bytes, by the
 * caller's `weigh`), whichever is reached first. An entry heavier than `maxWeight` is not stored.
 * @example const bounds: LruCacheOptions<string> = { maxEntries: 64, maxWeight: 64 * 2 ** 20, weigh: (text) => text.length };
 */
export interface LruCacheOptions<V> {
  /** Most entries kept (≥ 1). */
  readonly maxEntries: number;
  /** Most total weight kept; default unbounded (only `maxEntries` applies). */
  readonly maxWeight?: number;
  /** Weight of one value (e.g. its size in bytes); default 1. */
  readonly weigh?: (value: V) => number;
}

/**
 * A cache that drops its least recently used entries first.
 * @example
 * const cache = createLruCache<string, number>({ maxEntries: 2 });
 * cache.set("a", 1);
 * cache.get("a"); // => 1
 */
export interface LruCache<K, V> {
  /** The value of `key`, marking it most recently used; `undefined` when absent. */
  get(key: K): V | undefined;
  /** Stores `value` under `key` as the most recently used entry, then evicts down to the bounds. */
  set(key: K, value: V): void;
  /** The cached value of `key`, or `compute()` stored and returned. */
  getOrCompute(key: K, compute: () => V): V;
  /** Drops every entry. */
  clear(): void;
  /** Entries held. */
  readonly size: number;
  /** Total weight held. */
  readonly weight: number;
}

/**
 * Creates an {@link LruCache}. A JavaScript `Map` iterates in insertion order, so re-inserting an
 * entry on each use keeps the least recently used one first: eviction is O(1) per entry.
 * Throws `RangeError` for `maxEntries` < 1 or a negative `maxWeight`.
 * @example
 * const cache = createLruCache<string, string>({ maxEntries: 100, maxWeight: 1e6, weigh: (text) => text.length });
 * cache.getOrCompute("BTC", () => "…"); // computed once, then served from the cache
 */
export function createLruCache<K, V>(options: LruCacheOptions<V>): LruCache<K, V> {
  const { maxEntries, maxWeight = Number.POSITIVE_INFINITY, weigh = () => 1 } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(`createLruCache requires an integer maxEntries ≥ 1, got ${maxEntries}`);
  }
  if (!(maxWeight >= 0)) {
    throw new RangeError(`createLruCache requires maxWeight ≥ 0, got ${maxWeight}`);
  }
  const entries = new Map<K, { value: V; weight: number }>();
  let totalWeight = 0;

  function remove(key: K): void {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    totalWeight -= entry.weight;
  }

  function get(key: K): V | undefined {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    entries.delete(key);
    entries.set(key, entry);
    return entry.value;
  }

  function set(key: K, value: V): void {
    remove(key);
    const weight = weigh(value);
    if (weight > maxWeight) return;
    entries.set(key, { value, weight });
    totalWeight += weight;
    while (entries.size > maxEntries || totalWeight > maxWeight) {
      const oldest = entries.keys().next().value as K;
      remove(oldest);
    }
  }

  return {
    get,
    set,
    getOrCompute(key, compute) {
      const cached = get(key);
      if (cached !== undefined) return cached;
      const value = compute();
      set(key, value);
      return value;
    },
    clear() {
      entries.clear();
      totalWeight = 0;
    },
    get size() {
      return entries.size;
    },
    get weight() {
      return totalWeight;
    },
  };
}
