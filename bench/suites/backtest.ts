/**
 * pathlab's own work on one backtest prompt (issue 45: it stays below the time to read the
 * answer), beside `JSON.parse` of the model's answer line: the answer kept as a candidate file
 * (`answerFileText`), the file read and checked with the validator's rules (`candidateFileFromText`;
 * the score job does it twice: when it lists the folder, then for the path set it scores), the
 * candidate's CRPS (`scorePrompt`) and its prompt score among 250 miners (`promptScores`).
 *
 * The answer is the bench data's first miner as a model's line, `{"predictions": [[…], …]}`: a 24h
 * prompt, 1,000 paths of 289 prices as `JSON.stringify` writes them.
 */

import type { RealizedPath } from "../../src/domain/records/validation.ts";
import { answerFileText, type ModelPrompt } from "../../src/jobs/backtest/answers.ts";
import { candidateFileFromText } from "../../src/jobs/score/readCandidateFile.ts";
import { promptScores } from "../../src/scoring/promptScores.ts";
import { scorePrompt } from "../../src/scoring/scorePrompt.ts";
import { defineSuite, PATHS_PER_MINER, POINTS, TIME_INCREMENT } from "../harness.ts";

const START_TIME = 1772063100;
/** The other miners of the prompt: their raw CRPS, fixed (the pool is scored once per prompt). */
const OTHERS = Array.from({ length: 249 }, (_, miner) => 900 + ((miner * 37) % 400));

export const suite = defineSuite({
  name: "backtest",
  cases: (data) => {
    const prompt: ModelPrompt = {
      asset: "BTC",
      start_time: new Date(START_TIME * 1000).toISOString().replace(".000", ""),
      time_increment: TIME_INCREMENT,
      time_length: (POINTS - 1) * TIME_INCREMENT,
      num_simulations: PATHS_PER_MINER,
      history: [],
    };
    const predictions = Array.from({ length: PATHS_PER_MINER }, (_, path) =>
      Array.from(data.miner0.subarray(path * POINTS, (path + 1) * POINTS)),
    );
    const line = JSON.stringify({ predictions });
    const text = answerFileText(prompt, START_TIME, line);
    const realized: RealizedPath = {
      asset: "BTC",
      real_prices: Array.from(data.realized),
      start_time: prompt.start_time,
      time_increment: TIME_INCREMENT,
      time_length: prompt.time_length,
    };
    const target = { competition: "crypto-24h" } as const;
    const read = () => {
      const file = candidateFileFromText("BTC-bench-24h.json", text);
      if (file.pathSet === undefined) throw new Error(`bench answer invalid: ${file.reason}`);
      return file.pathSet;
    };
    const score = (pathSet: ReturnType<typeof read>) => {
      const { crps } = scorePrompt(pathSet, realized, target);
      return promptScores([...OTHERS, crps], { rule: "current" });
    };
    const pathSet = read();
    const size = `${(line.length / 1e6).toFixed(1)} MB, 1,000 × 289`;
    const readAnswer = () => JSON.parse(line);
    return [
      {
        name: "backtest prompt, pathlab's own work in all (keep, read twice, score, rank)",
        size,
        pathlab: () => {
          answerFileText(prompt, START_TIME, line);
          read();
          return score(read());
        },
        naive: readAnswer,
        note: "naive = JSON.parse of the answer line",
      },
      {
        name: "  the answer kept as a candidate file (answerFileText)",
        size,
        pathlab: () => answerFileText(prompt, START_TIME, line),
        naive: readAnswer,
      },
      {
        name: "  the file read and checked by the validator's rules (once)",
        size,
        pathlab: read,
        naive: readAnswer,
      },
      {
        name: "  its CRPS and prompt score among 250",
        size: "1,000 × 289",
        pathlab: () => score(pathSet),
      },
    ];
  },
});
