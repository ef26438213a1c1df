/**
 * Which prompt each candidate file answers. The candidate is one more miner in every prompt of the
 * competitions and assets it covers; a file that answers no prompt of the range is reported with
 * the reason, never dropped in silence.
 */

import type { CompetitionName } from "../../domain/competitions.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { CandidateFolderFile } from "./candidate.ts";
import type { CandidateFile } from "./candidateFile.ts";
import type { CompetitionPrompts, RangeCompetition } from "./rangePrompts.ts";

/**
 * The candidate's files matched to the prompts of the range.
 * @example matches.fileFor("crypto-1h", "BTC", 1784160000)?.file // => "BTC-1784160000.json"
 */
export interface CandidateMatches {
  /** The file answering a prompt, if any. */
  fileFor(
    competition: CompetitionName,
    asset: string,
    startUnix: number,
  ): CandidateFolderFile | undefined;
  /** Whether the candidate answers some prompt of `asset` in `competition` (it then takes the fill where it has no file). */
  covers(competition: CompetitionName, asset: string): boolean;
  /** Files with a prompt of their own that matches no prompt of the range, and why. */
  readonly unmatched: readonly { readonly file: string; readonly reason: string }[];
}

/**
 * Whether `file` has the shape of a prompt: its time increment, and its time length when it gives
 * one.
 * @param file - the candidate file.
 * @param prompt - the prompt's (or competition's) increment and length.
 * @example fitsShape({ timeIncrement: 60, timeLength: undefined }, { timeIncrement: 60, timeLength: 3600 }) // => true
 */
export function fitsShape(
  file: Pick<CandidateFile, "timeIncrement" | "timeLength">,
  prompt: { readonly timeIncrement: number; readonly timeLength: number },
): boolean {
  return (
    file.timeIncrement === prompt.timeIncrement &&
    (file.timeLength === undefined || file.timeLength === prompt.timeLength)
  );
}

/**
 * Matches `files` to the scored prompts of each competition (`scored`), by asset, time increment,
 * time length and start time.
 * @example const matches = matchCandidateFiles(files, scored, { fromUnix, toUnix });
 */
export function matchCandidateFiles(
  files: readonly CandidateFolderFile[],
  scored: readonly {
    readonly competition: RangeCompetition;
    readonly prompts: CompetitionPrompts;
  }[],
  range: { readonly fromUnix: number; readonly toUnix: number },
): CandidateMatches {
  const byPrompt = new Map<string, CandidateFolderFile>();
  const covered = new Set<string>();
  const unmatched: { file: string; reason: string }[] = [];
  const planned = new Set<string>();
  for (const { competition, prompts } of scored) {
    for (const prompt of prompts.prompts) {
      planned.add(`${competition.name}|${prompt.asset}|${prompt.startUnix}`);
    }
  }
  for (const file of files) {
    const { asset, timeIncrement, startTimeUnix } = file;
    if (asset === undefined || timeIncrement === undefined || startTimeUnix === undefined) continue;
    const sameShape = scored.filter(({ competition }) => fitsShape(file, competition));
    const withAsset = sameShape.filter(({ competition }) => competition.assets.includes(asset));
    const match = withAsset.find(({ competition }) =>
      planned.has(`${competition.name}|${asset}|${startTimeUnix}`),
    );
    if (match !== undefined) {
      const key = `${match.competition.name}|${asset}|${startTimeUnix}`;
      const earlier = byPrompt.get(key);
      if (earlier === undefined) {
        byPrompt.set(key, file);
        covered.add(`${match.competition.name}|${asset}`);
      } else {
        const at = isoSeconds(startTimeUnix);
        unmatched.push({
          file: file.file,
          reason: `${earlier.file} already answers the prompt at ${at}`,
        });
      }
      continue;
    }
    unmatched.push({ file: file.file, reason: whyUnmatched(file, sameShape, withAsset, range) });
  }
  return {
    fileFor: (competition, asset, startUnix) =>
      byPrompt.get(`${competition}|${asset}|${startUnix}`),
    covers: (competition, asset) => covered.has(`${competition}|${asset}`),
    unmatched,
  };
}

function whyUnmatched(
  file: CandidateFolderFile,
  sameShape: readonly { readonly competition: RangeCompetition }[],
  withAsset: readonly {
    readonly competition: RangeCompetition;
    readonly prompts: CompetitionPrompts;
  }[],
  range: { readonly fromUnix: number; readonly toUnix: number },
): string {
  const start = file.startTimeUnix as number;
  const shape = `time_increment ${file.timeIncrement}${file.timeLength === undefined ? "" : `, time_length ${file.timeLength}`}`;
  if (sameShape.length === 0) {
    return `no prompt with ${shape} among the competitions scored`;
  }
  if (withAsset.length === 0) {
    const names = sameShape.map(({ competition }) => competition.name).join(", ");
    return `no prompt for asset ${file.asset} with ${shape} (${names} ${sameShape.length === 1 ? "does" : "do"} not pool it, or --assets leaves it out)`;
  }
  if (start < range.fromUnix || start > range.toUnix) {
    return `start time ${isoSeconds(start)} is outside the range ${isoSeconds(range.fromUnix)} to ${isoSeconds(range.toUnix)}`;
  }
  const starts = withAsset.flatMap(
    ({ prompts }) => prompts.startsByAsset.get(file.asset as string) ?? [],
  );
  let nearest: number | undefined;
  for (const candidate of starts) {
    if (nearest === undefined || Math.abs(candidate - start) < Math.abs(nearest - start)) {
      nearest = candidate;
    }
  }
  if (nearest === undefined) return `no prompt for asset ${file.asset} in the range`;
  if (nearest === start) {
    return `the prompt at ${isoSeconds(start)} is not among the scored prompts (not scored yet, or the service has no scores for it)`;
  }
  return `start time ${Math.abs(start - nearest)} s off the nearest prompt (${isoSeconds(nearest)})`;
}
