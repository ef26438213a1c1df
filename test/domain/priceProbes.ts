/**
 * Price probes for the response-validation tests: DOMAIN.md §3b's values and the validator's own
 * test values, each a JSON lexeme with its expected reason under the legacy and v1.10.3 rules.
 */

/** The start of every price reason. */
export const PRICE = "Price format is incorrect:";

/** DOMAIN.md §3b's probes and the validator's test values: [JSON text, legacy, v1.10.3]. */
export const PRICE_PROBES: [string, string, string][] = [
  ["91234.567", "CORRECT", "CORRECT"],
  ["91234.5678", `${PRICE} too many digits 91234.5678`, `${PRICE} too many digits 91234.5678`],
  ["0.51234567", `${PRICE} too many digits 0.51234567`, "CORRECT"],
  ["1000000000", `${PRICE} too many digits 1000000000`, "CORRECT"],
  ["1e39", "CORRECT", `${PRICE} exceeds float32 range 1e+39`],
  ["3.4e38", "CORRECT", "CORRECT"],
  ["3.5e38", "CORRECT", `${PRICE} exceeds float32 range 3.5e+38`],
  ["1e-46", "CORRECT", `${PRICE} underflows float32 1e-46`],
  ["1e-45", "CORRECT", "CORRECT"],
  ["1e-300", "CORRECT", `${PRICE} underflows float32 1e-300`],
  ["true", "CORRECT", `${PRICE} expected int or float, got <class 'bool'>`],
  ["false", "CORRECT", `${PRICE} expected int or float, got <class 'bool'>`],
  ["123456789", `${PRICE} too many digits 123456789`, `${PRICE} too many digits 123456789`],
  ["67676.1234", `${PRICE} too many digits 67676.1234`, `${PRICE} too many digits 67676.1234`],
  [
    "67676.123456789",
    `${PRICE} too many digits 67676.123456789`,
    `${PRICE} too many digits 67676.123456789`,
  ],
  [
    "0.30000000000000004",
    `${PRICE} too many digits 0.30000000000000004`,
    `${PRICE} too many digits 0.30000000000000004`,
  ],
  ["12345678", "CORRECT", "CORRECT"],
  ["12345678.0", `${PRICE} too many digits 12345678.0`, "CORRECT"],
  ["80000.0", "CORRECT", "CORRECT"],
  ["100000000", `${PRICE} too many digits 100000000`, "CORRECT"],
  ["0.00001234", "CORRECT", "CORRECT"],
  [
    "0.000123456789",
    `${PRICE} too many digits 0.000123456789`,
    `${PRICE} too many digits 0.000123456789`,
  ],
  ["0", "CORRECT", "CORRECT"],
  ["-1234567.8", `${PRICE} too many digits -1234567.8`, "CORRECT"],
  ["NaN", "CORRECT", `${PRICE} non-finite value nan`],
  ["Infinity", "CORRECT", `${PRICE} non-finite value inf`],
  ["-Infinity", "CORRECT", `${PRICE} non-finite value -inf`],
  ["1e400", "CORRECT", `${PRICE} non-finite value inf`],
  [
    '"123.45"',
    `${PRICE} expected int or float, got <class 'str'>`,
    `${PRICE} expected int or float, got <class 'str'>`,
  ],
  [
    "null",
    `${PRICE} expected int or float, got <class 'NoneType'>`,
    `${PRICE} expected int or float, got <class 'NoneType'>`,
  ],
  [
    "[1.0, 2.0]",
    `${PRICE} expected int or float, got <class 'list'>`,
    `${PRICE} expected int or float, got <class 'list'>`,
  ],
];
