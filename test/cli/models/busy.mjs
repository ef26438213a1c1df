// A model module that never returns: its simulate spins on the thread.
export function simulate() {
  for (;;);
}
