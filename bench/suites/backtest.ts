/**
 * pathlab's own work on one backtest prompt (issue 45: it stays below the time to read the
 * answer), beside `JSON.parse` of the model's answer line: the answer kept as a candidate file
 * (`answerFileText`), the file's bytes read and checked with the validator's rules
 * (`candidateFileFromBytes`, as `readCandidateFile` does once the bytes are in; the score job does
 * it once, when it lists the folder, and keeps the path set for the prompt's scoring), the
 * candidate's CRPS (`scorePrompt`) and its prompt score among 250 miners (`promptScores`).
 *
 * The answer is the bench data's first miner as a model's line, `{"predictions": [[…], …]}`: a 24h
 * prompt, 1,000 paths of 289 prices as `JSON.stringify` writes them.
 */

import type { RealizedPath } from "../../src/domain/records/validation.ts";
import { answerFileText } from "../../src/jobs/backtest/answers.ts";
import type { ModelPrompt } from "../../src/jobs/backtest/modelPrompt.ts";
import { candidateFileFromBytes } from "../../src/jobs/score/readCandidateFile.ts";
import { validatorPaths } from "../../src/jobs/sync/fetchPredictionSets.ts";
import { parsePredictionSetBytes } from "../../src/paths/predictionBytes.ts";
import { validateResponse } from "../../src/domain/responseValidation.ts";
import { promptScores } from "../../src/scoring/promptScores.ts";
import { scorePrompt } from "../../src/scoring/scorePrompt.ts";
import { defineSuite, PATHS_PER_MINER, POINTS, TIME_INCREMENT } from "../harness.ts";

/** A prompt of 2026-11-21, under the validator's v1.10.3 rules. */
const START_TIME = 1795244400;
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
    const bytes = Buffer.from(answerFileText(prompt, START_TIME, line));
    const realized: RealizedPath = {
      asset: "BTC",
      real_prices: Array.from(data.realized),
      start_time: prompt.start_time,
      time_increment: TIME_INCREMENT,
      time_length: prompt.time_length,
    };
    const target = { competition: "crypto-24h" } as const;
    const read = () => {
      const file = candidateFileFromBytes("BTC-bench-24h.json", bytes);
      if (file.pathSet === undefined) throw new Error(`bench answer invalid: ${file.reason}`);
      return file.pathSet;
    };
    const score = (pathSet: ReturnType<typeof read>) => {
      const { crps } = scorePrompt(pathSet, realized, target);
      return promptScores([...OTHERS, crps], { rule: "current" });
    };
    const pathSet = read();
    // the file's prices as the parser reads them, the set object opened as the score job opens it
    const setBytes = [Buffer.from('[{"miner_uid":-1,'), bytes.subarray(1), Buffer.from("]")];
    const shape = { timeIncrement: TIME_INCREMENT, timeLength: prompt.time_length, nPaths: 1000 };
    const [parsed] = parsePredictionSetBytes(setBytes, shape);
    const check = () =>
      validateResponse(
        [START_TIME, TIME_INCREMENT, ...validatorPaths(parsed)],
        {
          startTimeUnix: START_TIME,
          timeIncrement: TIME_INCREMENT,
          timeLength: prompt.time_length,
        },
        { at: START_TIME },
      );
    const size = `${(line.length / 1e6).toFixed(1)} MB, 1,000 × 289`;
    const readAnswer = () => JSON.parse(line);
    return [
      {
        name: "backtest prompt, pathlab's own work in all (keep, read and check, score, rank)",
        size,
        pathlab: () => {
          answerFileText(prompt, START_TIME, line);
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
        name: "  the file read and checked by the validator's rules",
        size,
        pathlab: read,
        naive: readAnswer,
      },
      {
        name: "    the bytes parsed into the path set's prices",
        size,
        pathlab: () => parsePredictionSetBytes(setBytes, shape),
        naive: readAnswer,
      },
      {
        name: "  validation, scoring and ranking (the validator's checks, CRPS, score among 250)",
        size,
        pathlab: () => {
          if (check() !== "CORRECT") throw new Error("bench answer invalid");
          return score(pathSet);
        },
        naive: readAnswer,
        note: "issue 45: below the reading of the answer",
      },
      {
        name: "    its CRPS and prompt score among 250",
        size: "1,000 × 289",
        pathlab: () => score(pathSet),
      },
    ];
  },
});
