/**
 * Entry of an execution thread (emulator.startRun, exec-pool.ts): runs the executions it is
 * sent, one after another, each in a fresh realm of its own (runExecution). exec-pool.ts bundles
 * it with what it imports into one plain JavaScript file, so the thread loads no TypeScript
 * loader and transforms nothing, whatever started the process.
 */
import { parentPort } from "node:worker_threads";
import { type ExecutionStart, runExecution } from "./exec-runtime";

parentPort?.on("message", (start: ExecutionStart) => runExecution(start));
