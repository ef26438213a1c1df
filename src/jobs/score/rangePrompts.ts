/**
 * Stage 1 of the score job, the validator's prompts: which competitions were in force over the
 * range (the era table), which prompts each pooled, and the service's score rows of each.
 */

import type { PathlabClient } from "../../client/pathlab-client.ts";
import {
  COMPETITION_ASSETS,
  COMPETITION_HORIZONS,
  VALIDATION_ASSETS,
  type Competition,
  type ValidationAsset,
} from "../../domain/assets.ts";
import {
  CURRENT_COMPETITIONS,
  TWO_COMPETITIONS,
  type CompetitionName,
  type CompetitionParameters,
} from "../../domain/competitions.ts";
import {
  ERA_DATES,
  validatorEraAt,
  type EraSettings,
  type ValidatorEra,
} from "../../domain/eras.ts";
import { HORIZON_LAYOUTS } from "../../domain/insightConventions.ts";
import type { ScoreRow } from "../../domain/records/validation.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";

/**
 * A competition scored over the range: its name in the era of the range (`low`/`high` before
 * 2026-06-23), its parameters at the end of the range, and the prompts' layout.
 */
export interface RangeCompetition {
  readonly name: CompetitionName;
  readonly parameters: CompetitionParameters;
  readonly timeIncrement: number;
  readonly timeLength: number;
  /** The assets whose prompts it may pool over the range (before `--assets`). */
  readonly assets: readonly string[];
}

/** One prompt of a competition, with the service's score rows and the era it was scored in. */
export interface PlannedPrompt {
  readonly competition: CompetitionName;
  readonly asset: string;
  readonly startUnix: number;
  readonly scoredTimeUnix: number;
  readonly timeIncrement: number;
  readonly timeLength: number;
  readonly rows: readonly ScoreRow[];
  readonly era: ValidatorEra;
}

/** The prompts of one competition over the range, and those left out (counted by why). */
export interface CompetitionPrompts {
  readonly prompts: PlannedPrompt[];
  readonly skipped: Record<string, number>;
  /** Every prompt start of the range per asset (scored or not), for matching candidate files. */
  readonly startsByAsset: Map<string, number[]>;
}

/**
 * The competitions in force at some scored time of the range's prompts (start + length, for each
 * horizon) that `selected` asks for: today's names from 2026-06-23 on, `high` (asked as crypto-1h)
 * and `low` (asked as crypto-24h or com-equ-24h) before it.
 * @example rangeCompetitions(fromUnix, toUnix, ["crypto-1h"], {}).map((c) => c.name) // => ["high"] in February 2026
 */
export function rangeCompetitions(
  fromUnix: number,
  toUnix: number,
  selected: readonly Competition[],
  settings: EraSettings,
): RangeCompetition[] {
  const found = new Map<
    CompetitionName,
    { parameters: CompetitionParameters; assets: Set<string> }
  >();
  for (const horizon of ["1h", "24h"] as const) {
    // The scored times of the range's prompts of this horizon, and the changes between them.
    const timeLength = HORIZON_LAYOUTS[horizon].horizonMinutes * 60;
    const first = fromUnix + timeLength;
    const last = toUnix + timeLength;
    const instants = [first, last, ...Object.values(ERA_DATES)].filter(
      (time) => time >= first && time <= last,
    );
    for (const time of instants.sort((a, b) => a - b)) {
      for (const parameters of validatorEraAt(time, settings).competitions) {
        if (parameters.horizon !== horizon || !asked(parameters.name, selected)) continue;
        const entry = found.get(parameters.name) ?? { parameters, assets: new Set<string>() };
        entry.parameters = parameters;
        for (const asset of parameters.assets ?? legacyAssets(horizon)) entry.assets.add(asset);
        found.set(parameters.name, entry);
      }
    }
  }
  // The older era's competitions first, each era's in the validator's order.
  const order = [...TWO_COMPETITIONS, ...CURRENT_COMPETITIONS].map((item) => item.name);
  return [...found.values()]
    .sort((a, b) => order.indexOf(a.parameters.name) - order.indexOf(b.parameters.name))
    .map(({ parameters, assets }) => {
      const { timeIncrement, horizonMinutes } = HORIZON_LAYOUTS[parameters.horizon];
      return {
        name: parameters.name,
        parameters,
        timeIncrement,
        timeLength: horizonMinutes * 60,
        assets: [...assets],
      };
    });
}

function asked(name: CompetitionName, selected: readonly Competition[]): boolean {
  if (name === "high") return selected.includes("crypto-1h");
  if (name === "low") return selected.includes("crypto-24h") || selected.includes("com-equ-24h");
  return selected.includes(name);
}

/** The two-competition era pooled every asset's prompts of a horizon. */
function legacyAssets(horizon: "1h" | "24h"): readonly string[] {
  const current = horizon === "1h" ? ["crypto-1h"] : ["crypto-24h", "com-equ-24h"];
  return current.flatMap((name) => COMPETITION_ASSETS[name as Competition] as readonly string[]);
}

/**
 * The prompts of `competition` that start in [fromUnix, toUnix] and were scored by `nowUnix`,
 * each with the service's score rows, in the order the validator scored them (start, then
 * asset). A prompt without rows is left out when every miner is wanted (the service did not
 * score it); one whose asset the competition did not pool at its scored time, too.
 */
export async function rangePrompts(
  client: PathlabClient,
  competition: RangeCompetition,
  range: {
    readonly fromUnix: number;
    readonly toUnix: number;
    readonly nowUnix: number;
    readonly assets: readonly string[] | undefined;
    readonly requireRows: boolean;
    readonly settings: EraSettings;
  },
): Promise<CompetitionPrompts> {
  const { timeIncrement, timeLength } = competition;
  const shape = { time_increment: timeIncrement as 300, time_length: timeLength as 86400 };
  const validation = new Set<string>(VALIDATION_ASSETS);
  const assets = competition.assets.filter(
    (asset) =>
      validation.has(asset) && (range.assets === undefined || range.assets.includes(asset)),
  );
  const prompts: PlannedPrompt[] = [];
  const skipped: Record<string, number> = {};
  const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  const startsByAsset = new Map<string, number[]>();
  for (const asset of assets) {
    const { start_times: starts } = await client.request("/validation/prompts", {
      from: isoSeconds(range.fromUnix),
      to: isoSeconds(range.toUnix),
      asset: asset as ValidationAsset,
      ...shape,
    });
    const startUnixes = starts.map((start) => parseIsoTimeMs(start) / 1000);
    startsByAsset.set(asset, startUnixes);
    const rowsByStart = new Map<number, ScoreRow[]>();
    const scoredUntil = Math.min(range.toUnix + timeLength, range.nowUnix);
    if (scoredUntil >= range.fromUnix + timeLength && startUnixes.length > 0) {
      const rows = await client.request("/validation/scores/historical", {
        from: isoSeconds(range.fromUnix + timeLength),
        to: isoSeconds(scoredUntil),
        asset: asset as ValidationAsset,
        ...shape,
      });
      for (const row of rows) {
        if (row.time_length !== timeLength) continue;
        const start = parseIsoTimeMs(row.scored_time) / 1000 - timeLength;
        const list = rowsByStart.get(start) ?? [];
        list.push(row);
        rowsByStart.set(start, list);
      }
    }
    for (const startUnix of startUnixes) {
      const scoredTimeUnix = startUnix + timeLength;
      const rows = rowsByStart.get(startUnix) ?? [];
      const era = validatorEraAt(scoredTimeUnix, range.settings);
      const pooled = era.competitions.find((item) => item.name === competition.name);
      if (pooled === undefined || (pooled.assets !== undefined && !pooled.assets.includes(asset))) {
        skip(`not in ${competition.name} when scored`);
      } else if (scoredTimeUnix > range.nowUnix) {
        skip("not scored yet");
      } else if (rows.length === 0 && range.requireRows) {
        skip("no score rows at the service");
      } else {
        prompts.push({
          competition: competition.name,
          asset,
          startUnix,
          scoredTimeUnix,
          timeIncrement,
          timeLength,
          rows,
          era,
        });
      }
    }
  }
  prompts.sort(
    (first, second) =>
      first.startUnix - second.startUnix ||
      (first.asset < second.asset ? -1 : first.asset > second.asset ? 1 : 0),
  );
  return { prompts, skipped, startsByAsset };
}

/**
 * Stage 1 for the whole run: the competitions of the range (`rangeCompetitions`) and each one's
 * prompts (`rangePrompts`), in the order they are scored.
 * @example const planned = await planRange(client, checked, { nowUnix, assets: undefined, settings: {} });
 */
export async function planRange(
  client: PathlabClient,
  range: {
    readonly fromUnix: number;
    readonly toUnix: number;
    readonly competitions: readonly Competition[];
    readonly miners: "all" | object;
  },
  context: {
    readonly nowUnix: number;
    readonly assets: readonly string[] | undefined;
    readonly settings: EraSettings;
  },
): Promise<{ competition: RangeCompetition; prompts: CompetitionPrompts }[]> {
  const { fromUnix, toUnix } = range;
  const planned = [];
  for (const competition of rangeCompetitions(
    fromUnix,
    toUnix,
    range.competitions,
    context.settings,
  )) {
    const prompts = await rangePrompts(client, competition, {
      fromUnix,
      toUnix,
      nowUnix: context.nowUnix,
      assets: context.assets,
      requireRows: range.miners === "all",
      settings: context.settings,
    });
    planned.push({ competition, prompts });
  }
  return planned;
}

/**
 * A watch's window for `competition` at `nowUnix`: the prompt starts of the `lookbackSeconds`
 * before the latest start whose prompt is scored by then (now − the competition's horizon). What
 * `pathlab score --watch` scores and `pathlab enqueue watch` enqueues at each tick.
 * @example watchWindow("crypto-24h", nowUnix, 7200) // => { fromUnix: nowUnix − 86400 − 7200, toUnix: nowUnix − 86400 }
 */
export function watchWindow(
  competition: Competition,
  nowUnix: number,
  lookbackSeconds: number,
): { fromUnix: number; toUnix: number } {
  const lengthSeconds = HORIZON_LAYOUTS[COMPETITION_HORIZONS[competition]].horizonMinutes * 60;
  return { fromUnix: nowUnix - lengthSeconds - lookbackSeconds, toUnix: nowUnix - lengthSeconds };
}
