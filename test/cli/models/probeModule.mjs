// probe.mjs as a model module: logs each prompt's start and the latest time of its history to
// PROBE_LOG, and answers with the last price held.
import { appendFileSync } from "node:fs";

export function simulate(prompt) {
  const times = prompt.history.map(([time]) => time);
  appendFileSync(
    process.env.PROBE_LOG,
    `${JSON.stringify({ start: Date.parse(prompt.start_time) / 1000, latest: Math.max(...times), count: times.length })}\n`,
  );
  const points = prompt.time_length / prompt.time_increment + 1;
  return new Float64Array(prompt.num_simulations * points).fill(prompt.history.at(-1)[1]);
}
