// A model module that throws on every second call of its thread, and answers the others with
// paths as arrays (the last price held).
let calls = 0;
export async function simulate(prompt) {
  calls += 1;
  if (calls % 2 === 0) throw new Error(`no answer for call ${calls}`);
  const last = prompt.history.at(-1)[1];
  const path = Array.from({ length: prompt.time_length / prompt.time_increment + 1 }, () => last);
  return Array.from({ length: prompt.num_simulations }, () => path);
}
