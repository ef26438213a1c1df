// walk.mjs as a model command: the same paths, one answer line per prompt line.
import { createInterface } from "node:readline";
import { simulate } from "./walk.mjs";

for await (const line of createInterface({ input: process.stdin })) {
  const prompt = JSON.parse(line);
  const values = simulate(prompt);
  const points = values.length / prompt.num_simulations;
  const predictions = Array.from({ length: prompt.num_simulations }, (_, path) =>
    Array.from(values.subarray(path * points, (path + 1) * points)),
  );
  process.stdout.write(`${JSON.stringify({ predictions })}\n`);
}
