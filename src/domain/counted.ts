/** Counts in the words pathlab prints, with the noun in the number they need: `1 prompt`, `2 prompts`. */

/**
 * `singular` for a count of 1, else `plural` (`singular` + `s` unless given).
 * @example noun(1, "prompt") // => "prompt"
 * @example noun(0, "entry", "entries") // => "entries"
 */
export function noun(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural;
}

/**
 * `count` and its noun ({@link noun}).
 * @example counted(1, "prompt") // => "1 prompt"
 * @example counted(3, "path set") // => "3 path sets"
 */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${noun(count, singular, plural)}`;
}
