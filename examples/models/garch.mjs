// A model for `pathlab backtest`: GARCH(1,1) on the history's log returns, with Student-t shocks
// (fat tails), Node's standard library only. It works in both of backtest's forms:
// - `--model examples/models/garch.mjs`: pathlab imports it on worker threads and calls its
//   `simulate(prompt)`, which returns the paths;
// - `--model "node examples/models/garch.mjs"`: run as a command, it reads one prompt per line on
//   stdin and answers each with one line on stdout, {"predictions": [[price, …], …]}.
// A prompt holds asset, start_time, time_increment, time_length, num_simulations, and history,
// [[unix_seconds, price], …] strictly before the start.
//
// The GARCH parameters are not fitted: persistence α + β = 0.97 with α = 0.07, and the long-run
// variance is the history's, so the forecast starts from the variance the last returns imply and
// drifts back to the day's. A seed per prompt makes the same prompt give the same paths.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const ALPHA = 0.07;
const BETA = 0.9;
const DEGREES = 5; // Student-t shocks, scaled to unit variance

/** A small seeded generator (mulberry32) and normal and Student-t draws from it. */
function generator(seedText) {
  let state = [...seedText].reduce(
    (hash, char) => Math.imul(hash ^ char.charCodeAt(0), 2654435761),
    7,
  );
  const uniform = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  const studentT = () => {
    let chiSquare = 0;
    for (let k = 0; k < DEGREES; k++) chiSquare += normal() ** 2;
    return (normal() / Math.sqrt(chiSquare / DEGREES)) * Math.sqrt((DEGREES - 2) / DEGREES);
  };
  return studentT;
}

/** Eight significant digits, as the validator accepts prices. */
const rounded = (price) => Number(price.toPrecision(8));

export function simulate(prompt) {
  const prices = prompt.history.map(([, price]) => price).filter((price) => price > 0);
  const returns = prices.slice(1).map((price, index) => Math.log(price / prices[index]));
  const longRun = returns.reduce((sum, r) => sum + r * r, 0) / Math.max(1, returns.length);
  const omega = longRun * (1 - ALPHA - BETA);
  // the variance the history ends on
  let variance = longRun;
  for (const r of returns) variance = omega + ALPHA * r * r + BETA * variance;
  const steps = prompt.time_length / prompt.time_increment;
  const shock = generator(`${prompt.asset} ${prompt.start_time}`);
  const start = prices.at(-1);
  return Array.from({ length: prompt.num_simulations }, () => {
    let price = start;
    let v = variance;
    const path = [rounded(price)];
    for (let step = 0; step < steps; step++) {
      const r = Math.sqrt(v) * shock();
      price *= Math.exp(r - v / 2);
      v = omega + ALPHA * r * r + BETA * v;
      path.push(rounded(price));
    }
    return path;
  });
}

// run as a command (not imported): answer the prompts on stdin
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() !== "") {
      process.stdout.write(`${JSON.stringify({ predictions: simulate(JSON.parse(line)) })}\n`);
    }
  }
}
