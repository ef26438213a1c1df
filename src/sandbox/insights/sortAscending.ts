/**
 * Sorting a column of an ensemble, which the sandbox does for every step of every insight
 * ensemble (prices) and every volatility block (absolute returns): 10,000 values each, some
 * 5,000 times in `npm start`. `Float64Array.prototype.sort` takes about 0.6 ms per column on this
 * machine; the radix sort below about 0.3 ms, with the same result. The fast core has sorts of
 * its own (`core/sortFloat64.ts`), which the sandbox does not import, so that the cross-checks
 * stay independent of it (docs/architecture.md).
 */

/** Whether this platform stores doubles little-endian (the byte order the radix passes assume). */
const LITTLE_ENDIAN = new Uint8Array(Float64Array.of(1).buffer)[7] === 0x3f;

/** Below this length the built-in sort is as fast (the radix passes have a fixed cost). */
const RADIX_MIN_LENGTH = 256;

let scratch = new Float64Array(0);
const counts = new Int32Array(8 * 256);

/**
 * Sorts `values` in place, ascending with NaN last, into the order `values.sort()` gives, and
 * returns it (NaNs of different payloads, which no comparison tells apart, may end in another
 * order among themselves). When no value has its sign bit set (no negative number, −0 or
 * negative NaN), the order of doubles is the order of their bit patterns read as unsigned
 * integers, so a least-significant-byte-first radix sort gives it: one pass counts all 8 bytes,
 * then one stable pass per byte that is not the same in every value (prices of one column share
 * their exponent bytes). Otherwise, or for short columns, `values.sort()`.
 * @example sortAscending(Float64Array.of(3, NaN, 1, 2)) // => Float64Array [1, 2, 3, NaN]
 */
export function sortAscending(values: Float64Array): Float64Array {
  const count = values.length;
  if (count < RADIX_MIN_LENGTH || !LITTLE_ENDIAN) return values.sort();
  const bytes = new Uint8Array(values.buffer, values.byteOffset, 8 * count);
  counts.fill(0);
  for (let index = 0, byte = 0; index < count; index++, byte += 8) {
    // the top byte holds the sign bit
    if (bytes[byte + 7] >= 0x80) return values.sort();
    for (let place = 0; place < 8; place++) counts[(place << 8) | bytes[byte + place]]++;
  }
  if (scratch.length < count) scratch = new Float64Array(count);
  let source: Float64Array = values;
  let target: Float64Array = scratch.subarray(0, count);
  let sourceBytes: Uint8Array = bytes;
  let targetBytes: Uint8Array = new Uint8Array(target.buffer, target.byteOffset, 8 * count);
  for (let place = 0; place < 8; place++) {
    const base = place << 8;
    if (counts[base | sourceBytes[place]] === count) continue; // one value of this byte in all
    let offset = 0;
    for (let digit = 0; digit < 256; digit++) {
      const inBucket = counts[base + digit];
      counts[base + digit] = offset;
      offset += inBucket;
    }
    for (let index = 0, byte = place; index < count; index++, byte += 8) {
      target[counts[base | sourceBytes[byte]]++] = source[index];
    }
    [source, target] = [target, source];
    [sourceBytes, targetBytes] = [targetBytes, sourceBytes];
  }
  if (source !== values) values.set(source);
  return values;
}
