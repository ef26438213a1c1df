/**
 * properscoring's compiled CRPS loop (`_crps_ensemble_gufunc`, properscoring 0.1), written again in
 * Python and run by python3 from the tests: the independent side of the parity tests. numba
 * compiles `x ** 2` (a literal integer power) to x·x, so the port squares by multiplying; the
 * members are sorted by `np.sort` (weighted: `np.argsort`), as `crps_ensemble` does.
 */

import { runNumpy } from "./numpy.ts";

const PORT = `
def crps_loop(obs, forecasts, weights):
    obs = float(obs)
    if np.isnan(obs):
        return np.nan
    total_weight = 0.0
    for n, weight in enumerate(weights):
        if np.isnan(forecasts[n]):
            break
        if not weight >= 0:
            return np.nan
        total_weight += float(weight)
    obs_cdf = 0
    forecast_cdf = 0.0
    prev_forecast = 0.0
    integral = 0.0
    forecast = np.nan
    for n in range(len(forecasts)):
        forecast = float(forecasts[n])
        if np.isnan(forecast):
            if n == 0:
                integral = np.nan
            forecast = prev_forecast
            break
        if obs_cdf == 0 and obs < forecast:
            integral += (obs - prev_forecast) * (forecast_cdf * forecast_cdf)
            integral += (forecast - obs) * ((forecast_cdf - 1) * (forecast_cdf - 1))
            obs_cdf = 1
        else:
            integral += (forecast - prev_forecast) * ((forecast_cdf - obs_cdf) * (forecast_cdf - obs_cdf))
        forecast_cdf += float(weights[n]) / total_weight
        prev_forecast = forecast
    if obs_cdf == 0:
        integral += obs - forecast
    return integral

out = []
start = 0
for size, obs, weighted in zip(sizes.astype(int), observations, flags):
    members = values[start:start + size]
    member_weights = weights[start:start + size]
    start += size
    if weighted:
        order = np.argsort(members)
        out.append(crps_loop(obs, members[order], member_weights[order]))
    else:
        out.append(crps_loop(obs, np.sort(members), np.ones_like(members)))
result = out
`;

/** One CRPS problem for {@link properscoringCrps}: members, observation, optional weights. */
export interface CrpsCase {
  readonly members: Float64Array;
  readonly observation: number;
  readonly weights?: Float64Array;
}

/** properscoring's CRPS of every case, computed by the Python port in one python3 run. */
export function properscoringCrps(cases: readonly CrpsCase[]): Float64Array {
  const total = cases.reduce((sum, item) => sum + item.members.length, 0);
  const values = new Float64Array(total);
  const weights = new Float64Array(total).fill(1);
  let offset = 0;
  for (const item of cases) {
    values.set(item.members, offset);
    if (item.weights) weights.set(item.weights, offset);
    offset += item.members.length;
  }
  return runNumpy(PORT, {
    values,
    weights,
    sizes: Float64Array.from(cases, (item) => item.members.length),
    observations: Float64Array.from(cases, (item) => item.observation),
    flags: Float64Array.from(cases, (item) => (item.weights ? 1 : 0)),
  });
}
