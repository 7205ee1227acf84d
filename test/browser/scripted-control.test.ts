/**
 * The scripted control API the page suite runs against closes at once even while the page still
 * holds a connection: a run the script never finishes, or a kept-alive socket.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startScriptedControl } from "./scripted-control";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("scripted control", () => {
  it("closes while a run it was asked for still waits on an answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "scripted-control-"));
    dirs.push(dir);
    const control = await startScriptedControl(dir);
    control.onRun = async (_fn, _args, c) => ({ ok: true, result: await c.nextAnswer() });
    const answered = new Promise<string>((resolve) => {
      const req = request(`${control.url}control/run`, { method: "POST", agent: false });
      req.on("response", () => resolve("answered"));
      req.on("error", () => resolve("cut"));
      req.end(JSON.stringify({ function: "closeFund", args: [] }));
    });
    await expect.poll(() => control.requests.length).toBe(1);
    const closing = control.close().then(() => "closed");
    const late = new Promise((resolve) => setTimeout(() => resolve("still open after 5 s"), 5_000));
    expect(await Promise.race([closing, late])).toBe("closed");
    expect(await answered).toBe("cut");
  });
});
