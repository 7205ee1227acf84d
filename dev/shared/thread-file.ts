/**
 * A worker thread's code as one JavaScript file: its entry and what it imports bundled with
 * esbuild, so the thread needs no TypeScript loader whatever runs the caller (tsx, vitest, plain
 * node over built files). The sandbox and the emulator both start their threads from one.
 */
import { createHash } from "node:crypto";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import { buildSync } from "esbuild";

const made = new Map<string, string>();

/**
 * The file of the temporary folder holding `entryPoint` bundled, made once per process and
 * named `<prefix>-<content hash>.mjs`: processes share one file, and changed code gets a new
 * one. `define` replaces expressions in the bundle (esbuild's `define`).
 */
export function bundledThreadFile(
  entryPoint: string,
  prefix: string,
  define?: Record<string, string>,
): string {
  const known = made.get(entryPoint);
  if (known) return known;
  const result = buildSync({
    entryPoints: [entryPoint],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
    ...(define ? { define } : {}),
  });
  const code = result.outputFiles[0]?.text ?? "";
  const file = join(
    tmpdir(),
    `${prefix}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`,
  );
  if (!existsSync(file)) {
    // Written aside and renamed: a process starting a thread meanwhile (test files run side by
    // side) never loads half a file.
    const partial = `${file}.${process.pid}.${threadId}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  made.set(entryPoint, file);
  return file;
}
