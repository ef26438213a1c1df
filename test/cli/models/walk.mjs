// A model module: seeded random walks from the last price of the history, as one Float64Array of
// num_simulations × points (path after path). The seed is the prompt's start, so the same prompt
// gets the same paths in every form (walkCommand.mjs answers with them as a command).
export function simulate(prompt) {
  const points = prompt.time_length / prompt.time_increment + 1;
  const paths = new Float64Array(prompt.num_simulations * points);
  let state = Date.parse(prompt.start_time) / 1000;
  const last = prompt.history.at(-1)[1];
  for (let path = 0; path < prompt.num_simulations; path++) {
    let price = last;
    for (let step = 0; step < points; step++) {
      paths[path * points + step] = Math.round(price * 100) / 100;
      state = (state * 1103515245 + 12345) % 2147483648;
      price *= 1 + (state / 2147483648 - 0.5) * 0.002;
    }
  }
  return paths;
}
