// Shown and run in docs/library.md: scripts/docs.mjs checks both, test/readme.test.ts its verdicts.
import { roundPrice, validateResponse, validatorEraAt } from "pathlab/domain";

// A miner's answer to a BTC 1h prompt: [start_time, time_increment, 1,000 paths of 61 prices].
const start = Date.parse("2026-11-21T09:20:00Z") / 1000;
const prompt = { startTimeUnix: start, timeIncrement: 60, timeLength: 3600 };
const paths = Array.from({ length: 1000 }, (_, path) =>
  Array.from({ length: 61 }, (_, step) => 98941.903 * (1 + ((path % 7) - 3) * 1e-5 * step)),
);

// Checked as the validator of that date checks it: the first failure's exact reason.
const unrounded = validateResponse([start, 60, ...paths], prompt, { at: start });
const rounded = paths.map((prices) => prices.map(roundPrice)); // 8 significant digits
const fixed = validateResponse([start, 60, ...rounded], prompt, { at: start });
const era = validatorEraAt(start + prompt.timeLength); // the rules it is scored under

export const results = { unrounded, fixed, rule: era.promptScoreRule, era: era.label };
console.log(results);
