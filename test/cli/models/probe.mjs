// A model that looks ahead if it can: it logs each prompt's start and the latest time of its
// history (one JSON line per prompt, to PROBE_LOG), then answers with the last price held for
// every step, a valid answer.
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

for await (const line of createInterface({ input: process.stdin })) {
  const prompt = JSON.parse(line);
  const times = prompt.history.map(([time]) => time);
  appendFileSync(
    process.env.PROBE_LOG,
    `${JSON.stringify({ start: Date.parse(prompt.start_time) / 1000, latest: Math.max(...times), count: times.length, increment: prompt.time_increment })}\n`,
  );
  const last = prompt.history.at(-1)[1];
  const path = Array.from({ length: prompt.time_length / prompt.time_increment + 1 }, () => last);
  process.stdout.write(
    `${JSON.stringify({ predictions: Array.from({ length: prompt.num_simulations }, () => path) })}\n`,
  );
}
