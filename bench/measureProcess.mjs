/**
 * Preloaded (`NODE_OPTIONS=--import …`) into a command the end-to-end bench runs: at exit, writes
 * the process's CPU time (every thread; the system's share apart too), its minor page faults (those
 * served without reading the disk: mostly memory touched for the first time since it was mapped)
 * and peak resident memory to the file named by PATHLAB_BENCH_USAGE. The command itself runs
 * unchanged.
 */
import { writeFileSync } from "node:fs";

const target = process.env.PATHLAB_BENCH_USAGE;
if (target) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({
        cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
        systemCpuMs: usage.systemCPUTime / 1000,
        minorPageFaults: usage.minorPageFault,
        peakRssBytes: usage.maxRSS * 1024,
      }),
    );
  });
}
