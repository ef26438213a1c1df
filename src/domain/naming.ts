/**
 * Venue and model naming. The spec writes `venuea`, `venueb` and `model` where a deployment may use
 * real names; this module is the ONE place where those aliases are mapped, for path segments
 * ({@link wirePath}) and field prefixes ({@link wireFieldName}, {@link neutralFieldName}).
 */
import type { Naming } from "./operation.ts";

/**
 * The spec's own words: path segments `venuea`/`venueb`, field prefixes `venuea_`, `venueb_`, `model_`.
 * The default naming of every decoder, encoder and client.
 * @example
 * wireFieldName("model_outcome", neutralNaming) // => "model_outcome"
 */
export const neutralNaming: Naming = Object.freeze({
  venueA: "venuea",
  venueB: "venueb",
  model: "model",
});

/**
 * The naming of the live deployment captured in `fixtures/captured` (README there): venue A is
 * `polymarket`, the model is `synth`, and outcomes and comparison types are spelled as it spells
 * them (`Up`, `higher`, `between`, `lower`). Venue B's real name was not captured, so it keeps `venueb`.
 * @example
 * wirePath("/insights/venuea/range/daily", liveNaming) // => "/insights/polymarket/range/daily"
 */
export const liveNaming: Naming = Object.freeze({
  venueA: "polymarket",
  venueB: "venueb",
  model: "synth",
  spelling: "live",
});

/**
 * The path a deployment serves for a spec path: the segments `venuea` and `venueb` replaced by the
 * naming's names. Other segments are untouched.
 * @param path - an operation's spec path, e.g. `/insights/venuea/up-down/daily`.
 * @param naming - the deployment's naming, e.g. {@link liveNaming}.
 * @example
 * wirePath("/insights/venuea/up-down/daily", liveNaming) // => "/insights/polymarket/up-down/daily"
 * wirePath("/insights/liquidation", liveNaming) // => "/insights/liquidation"
 */
export function wirePath(path: string, naming: Naming): string {
  const segments = path.split("/");
  for (let index = 0; index < segments.length; ++index) {
    if (segments[index] === "venuea") segments[index] = naming.venueA;
    else if (segments[index] === "venueb") segments[index] = naming.venueB;
  }
  return segments.join("/");
}

/** The neutral prefixes, each with the Naming key that replaces it on the wire. */
const PREFIXES: readonly (readonly [prefix: string, key: keyof Naming])[] = [
  ["venuea_", "venueA"],
  ["venueb_", "venueB"],
  ["model_", "model"],
];

/**
 * The field name a deployment writes for a neutral field name: the prefix `venuea_`, `venueb_` or
 * `model_` replaced by the naming's name. Fields without such a prefix are unchanged.
 * @param neutralName - a field name in the spec's words, e.g. `venuea_probability_up`.
 * @param naming - the deployment's naming, e.g. {@link liveNaming}.
 * @example
 * wireFieldName("venuea_probability_up", liveNaming) // => "polymarket_probability_up"
 * wireFieldName("model_outcome", liveNaming) // => "synth_outcome"
 * wireFieldName("market_outcome", liveNaming) // => "market_outcome"
 */
export function wireFieldName(neutralName: string, naming: Naming): string {
  for (let index = 0; index < PREFIXES.length; ++index) {
    const [prefix, key] = PREFIXES[index];
    if (neutralName.startsWith(prefix)) return `${naming[key]}_${neutralName.slice(prefix.length)}`;
  }
  return neutralName;
}

/**
 * The inverse of {@link wireFieldName}: the neutral name of a field a deployment wrote, or the name
 * unchanged when it carries none of the naming's prefixes.
 * @param wireName - a field name as the deployment writes it, e.g. `polymarket_probability_up`.
 * @param naming - the deployment's naming, e.g. {@link liveNaming}.
 * @example
 * neutralFieldName("polymarket_probability_up", liveNaming) // => "venuea_probability_up"
 * neutralFieldName("synth_outcome", liveNaming) // => "model_outcome"
 */
export function neutralFieldName(wireName: string, naming: Naming): string {
  for (let index = 0; index < PREFIXES.length; ++index) {
    const [prefix, key] = PREFIXES[index];
    const wirePrefix = `${naming[key]}_`;
    if (wireName.startsWith(wirePrefix)) return prefix + wireName.slice(wirePrefix.length);
  }
  return wireName;
}
