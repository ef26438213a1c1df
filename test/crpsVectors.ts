/**
 * DOMAIN.md §2's CRPS test vectors, shared by the tests of every CRPS implementation:
 * [observation, members, expected CRPS].
 */
export const CRPS_VECTORS: readonly (readonly [number, readonly number[], number])[] = [
  [0.9, [1.2, -0.3, 2.5, 0.7, 1.9], 0.316],
  [0, [0, 0, 1], 1 / 9],
  [0, [-1, 0, 0, 1], 0.125],
  [2, [0, 1], 1.25],
];
