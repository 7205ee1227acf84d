/**
 * A TypeScript script of the project started in a child process as `tsx script` runs it
 * (`npm run deploy`, `npm run bench`, `npm start`, `npm run sandbox`), but without tsx's
 * command-line wrapper: node itself with tsx's loader. The wrapper is a second node process
 * that only starts the first and relays its signals, about half a second of CPU per start on
 * the 2-core machines the suite runs on; the script, its output and its exit are the same.
 */
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "../..");

/** tsx's loader by its full URL: the script may run in a folder with no node_modules of its own. */
export const TSX_LOADER = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;

/** The arguments of `process.execPath` that run `script` with `args`, as `tsx script …args` does. */
export function tsxArgs(script: string, args: readonly string[] = []): string[] {
  return ["--import", TSX_LOADER, script, ...args];
}
