/** The prompt a candidate model reads (`pathlab backtest`): `askModel` and its threads share it. */

/**
 * A prompt as the model reads it: the validator's request (`asset`, `start_time` ISO 8601,
 * `time_increment`, `time_length`, `num_simulations`) and `history`, `[[unix_seconds, price], …]`
 * ascending, each price the 1-minute close at that time, every time strictly before `start_time`.
 * @example const prompt: ModelPrompt = { asset: "BTC", start_time: "2026-11-21T09:00:00Z", time_increment: 60, time_length: 3600, num_simulations: 1000, history: [[1795244460, 98312.5]] };
 */
export interface ModelPrompt {
  readonly asset: string;
  readonly start_time: string;
  readonly time_increment: number;
  readonly time_length: number;
  readonly num_simulations: number;
  readonly history: readonly (readonly [number, number])[];
}
