/**
 * Outcome vocabularies of the comparison records, normalized here and nowhere else:
 * Up/Down strings, YES/NO integers, and the range-family comparison types.
 */
import { enumCodec, scalarCodec, type Codec } from "../decode.ts";

/**
 * An Up/Down outcome, normalized to upper case. The spec shows `UP`/`DOWN` in field descriptions and
 * `Up`/`Down` elsewhere (the live deployment writes `Up`/`Down`); it says to compare case-insensitively.
 * @example const outcome: UpDownOutcome = "DOWN";
 */
export type UpDownOutcome = "UP" | "DOWN";

/**
 * Codec of {@link UpDownOutcome}: accepts any casing of `up`/`down`; writes the spec's `UP`/`DOWN`,
 * or `Up`/`Down` for a naming with the live spelling.
 * @example
 * upDownOutcomeCodec.decode("Down", state) // => "DOWN"
 */
export const upDownOutcomeCodec: Codec<UpDownOutcome> = enumCodec<UpDownOutcome>(
  { up: "UP", down: "DOWN" },
  { UP: "UP", DOWN: "DOWN" },
  (text) => text.toLowerCase(),
  'UP or DOWN (any case, e.g. "Up")',
  { UP: "Up", DOWN: "Down" },
);

/** A YES/NO outcome of a range-family market: 1 = YES, 0 = NO. @example const yes: BinaryOutcome = 1; */
export type BinaryOutcome = 0 | 1;

/**
 * Codec of {@link BinaryOutcome}: exactly the numbers 0 or 1.
 * @example
 * binaryOutcomeCodec.decode(1, state) // => 1
 */
export const binaryOutcomeCodec: Codec<BinaryOutcome> = scalarCodec(
  "0 or 1",
  (value): value is BinaryOutcome => value === 0 || value === 1,
);

/**
 * The kind of a range-family market. `range`, `above` and `hit` are the spec's words; `below` is
 * pathlab's word for the live deployment's `lower`, which the spec does not name.
 *
 * Decision (from `fixtures/captured/polymarket/range.json`): the daily "price on <date>" event has
 * buckets titled `<58000` (`lower`, one ref price), `[58000, 60000]` … (`between`, two ref prices) and
 * `>76000` (`higher`, one ref price). The buckets partition the terminal price, so `between` is the
 * spec's `range`, `higher` is `above` (price at the end above a threshold, not a touch) and `lower` is
 * "price at the end below a threshold". Folding `lower` into `above` (with YES/NO swapped) or into
 * `hit` would misstate the market, so it gets its own value `below`: P(S_end < k).
 * @example const kind: ComparisonType = "below";
 */
export type ComparisonType = "range" | "above" | "hit" | "below";

/**
 * Codec of {@link ComparisonType}. Reads `range`/`between`, `above`/`higher`, `hit`, `below`/`lower`
 * (exact lower case); writes the normalized words (`below` for below, the spec having none), or for
 * a naming with the live spelling the live deployment's `between`, `higher`, `lower` (and `hit`).
 * @example
 * comparisonTypeCodec.decode("between", state) // => "range"
 * comparisonTypeCodec.decode("lower", state) // => "below"
 */
export const comparisonTypeCodec: Codec<ComparisonType> = enumCodec<ComparisonType>(
  {
    range: "range",
    between: "range",
    above: "above",
    higher: "above",
    hit: "hit",
    below: "below",
    lower: "below",
  },
  { range: "range", above: "above", hit: "hit", below: "below" },
  (text) => text,
  "one of range, above, hit, below (or the aliases between, higher, lower)",
  { range: "between", above: "higher", hit: "hit", below: "lower" },
);

/**
 * How many reference prices each comparison type carries: two bounds for `range`, one level otherwise.
 * @example
 * REF_PRICE_COUNTS.range // => 2
 */
export const REF_PRICE_COUNTS: Readonly<Record<ComparisonType, number>> = {
  range: 2,
  above: 1,
  hit: 1,
  below: 1,
};
