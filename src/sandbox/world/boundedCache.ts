/**
 * A least-recently-used map with a fixed number of entries, so that the world's on-demand pieces
 * (market days, prediction sets) stay bounded in memory over a long session.
 */

/**
 * A map that keeps at most `capacity` entries, dropping the least recently used one.
 * @example
 * const cache = new BoundedCache<string, number>(2);
 * cache.getOrCreate("a", () => 1); // => 1, computed
 * cache.getOrCreate("a", () => 2); // => 1, cached
 */
export class BoundedCache<Key, Value> {
  private readonly entries = new Map<Key, Value>();

  /** Throws `RangeError` unless `capacity` is a positive integer. */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`BoundedCache requires a positive integer capacity, got ${capacity}`);
    }
  }

  /**
   * The cached value of `key`, or `create()`'s value, cached (evicting the oldest entry if full).
   * @example cache.getOrCreate(key, () => expensive(key))
   */
  getOrCreate(key: Key, create: () => Value): Value {
    const cached = this.entries.get(key);
    if (cached !== undefined || this.entries.has(key)) {
      this.entries.delete(key);
      this.entries.set(key, cached as Value);
      return cached as Value;
    }
    const value = create();
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value as Key);
    }
    return value;
  }

  /**
   * Number of entries held.
   * @example new BoundedCache(4).size // => 0
   */
  get size(): number {
    return this.entries.size;
  }
}
