// A model whose every copy answers its first prompt (the last price held) and exits with code 3
// on its second, without answering.
import { createInterface } from "node:readline";

let asked = 0;
for await (const line of createInterface({ input: process.stdin })) {
  asked += 1;
  if (asked === 2) process.exit(3);
  const prompt = JSON.parse(line);
  const last = prompt.history.at(-1)[1];
  const path = Array.from({ length: prompt.time_length / prompt.time_increment + 1 }, () => last);
  process.stdout.write(
    `${JSON.stringify({ predictions: Array.from({ length: prompt.num_simulations }, () => path) })}\n`,
  );
}
