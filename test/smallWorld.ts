/**
 * The sandbox world of the tests where the network's size is not the point: its first nine
 * miners, those that answer every competition (`WorldOptions.miners`). Scoring and serving it
 * costs a quarter of the whole network of 36.
 */

/**
 * Options of `startSandbox` and `startEmbeddedSandbox` for the small world.
 * @example const sandbox = await startEmbeddedSandbox({ seed: 42, now: NOW, ...SMALL_WORLD });
 */
export const SMALL_WORLD = { miners: 9 } as const;
