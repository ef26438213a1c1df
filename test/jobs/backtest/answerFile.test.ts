/**
 * The candidate file a backtest keeps for a model's answer line (`answerFileText`): the record
 * layout with the prompt's fields for `{"predictions": …}`, with the model's own text where that
 * is the answer's only key; other answers kept as written, for `validate` to judge.
 */

import { describe, expect, it } from "vitest";
import { answerFileText } from "../../../src/jobs/backtest/answers.ts";
import type { ModelPrompt } from "../../../src/jobs/backtest/modelPrompt.ts";
import {
  candidateFileFromBytes,
  candidateFileFromText,
} from "../../../src/jobs/score/readCandidateFile.ts";

const START = 1795244400;
const PROMPT: ModelPrompt = {
  asset: "BTC",
  start_time: "2026-11-21T09:00:00Z",
  time_increment: 60,
  time_length: 3600,
  num_simulations: 1000,
  history: [],
};
const HEAD = { asset: "BTC", time_increment: 60, time_length: 3600, start_time: START };

/** A valid answer's paths: 1,000 paths of 61 prices, written with one decimal each (`100.5`). */
const paths = Array.from({ length: 1000 }, (_, path) =>
  Array.from({ length: 61 }, (_, step) => 100 + ((path * 7 + step * 3) % 11) / 2),
);

describe("answerFileText", () => {
  it("puts the prompt's fields before an answer whose only key is predictions, keeping its text", () => {
    const line = ` {"predictions": [[100.0, 101.50], [99.25, 1e2]]} `;
    const text = answerFileText(PROMPT, START, line);
    expect(text).toContain('"predictions": [[100.0, 101.50], [99.25, 1e2]]');
    expect(JSON.parse(text)).toEqual({
      ...HEAD,
      predictions: [
        [100, 101.5],
        [99.25, 100],
      ],
    });
  });

  it("keeps only predictions of an answer with other keys, under the prompt's own fields", () => {
    const line = JSON.stringify({ asset: "ETH", start_time: 1, predictions: [[1, 2]], note: "x" });
    expect(JSON.parse(answerFileText(PROMPT, START, line))).toEqual({
      ...HEAD,
      predictions: [[1, 2]],
    });
  });

  it("keeps the validator's list layout, other values and what is not JSON as written", () => {
    for (const line of ["[1795244400, 60, [1, 2]]", "42", '{"paths": []}', "not json {"]) {
      expect(answerFileText(PROMPT, START, line)).toBe(line);
    }
  });

  it("gives a file that validates as the record the answer stands for", () => {
    const line = JSON.stringify({ predictions: paths });
    const text = answerFileText(PROMPT, START, line);
    const kept = candidateFileFromText("BTC-a.json", text);
    expect(candidateFileFromBytes("BTC-a.json", Buffer.from(text))).toEqual(kept);
    const record = candidateFileFromText(
      "BTC-b.json",
      JSON.stringify({ ...HEAD, predictions: paths }),
    );
    expect(kept.reason).toBe(record.reason);
    expect(kept.validation).toBe("CORRECT");
    expect(kept.pathSet?.values).toEqual(record.pathSet?.values);
  });

  it("an answer cut short keeps the prompt's fields, and its file is not JSON", () => {
    const line = JSON.stringify({ predictions: paths }).slice(0, -40);
    const text = answerFileText(PROMPT, START, line);
    expect(text.startsWith(JSON.stringify(HEAD).slice(0, -1))).toBe(true);
    const kept = candidateFileFromBytes("BTC-a.json", Buffer.from(text));
    expect(kept.reason).toMatch(/^not JSON: /);
    expect(kept.validation).toBeUndefined();
  });
});
