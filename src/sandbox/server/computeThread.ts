/**
 * One compute thread of the sandbox (`computeThreads.ts`): a world of the setup's seed and clock
 * and a body computer over it, answering one request at a time (piscina calls the default export).
 */
import { workerData } from "node:worker_threads";
import { operationByPath } from "../../domain/operations.ts";
import { createWorld } from "../world/world.ts";
import { createBodyComputer, type BodyAnswer } from "./bodyComputer.ts";
import type { ComputeTask, ComputeThreadSetup } from "./computeThreads.ts";

const setup = workerData as ComputeThreadSetup;
const computer = createBodyComputer({ ...setup.computer, world: createWorld(setup.world) });

/**
 * The body of one request.
 * @example answerTask({ operation: "/v2/leaderboard/latest", params: {}, shape: undefined })
 */
export default function answerTask(task: ComputeTask): BodyAnswer {
  return computer.answer(operationByPath(task.operation), task.params, task.shape);
}
