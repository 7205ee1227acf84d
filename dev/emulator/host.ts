/**
 * EmulatorHost: the emulator on a worker thread, driven by messages. The playground uses it so
 * that its HTTP server stays responsive during long executions and so that an alert in
 * interactive mode really suspends the script until the page answers.
 *
 *   const host = await EmulatorHost.start({ connection: { apiUrl, token, adminId }, storeSettings: true });
 *   const server = await startControlServer({ target: host, port: 8080 });
 */
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { BadRequest, type ConnectionInfo, type ControlInfo, type ControlTarget } from "./control";
import type { DialogAnswer, DialogRecord, EmulatorOptions, RunKind, RunOutcome } from "./index";
import { checkArguments, IllegalValueError } from "./script-run";
import type { SheetSnapshot } from "./snapshots";
import { type uiSnapshot, waitingOf } from "./snapshots";

export interface HostOptions {
  emulator?: Omit<EmulatorOptions, "waitForAnswer" | "onBlock" | "realNow">;
  connection?: ConnectionInfo;
  /** Store the connection in every user's settings, each with their own token (default false). */
  storeSettings?: boolean;
  /** The page answers alerts and prompts while the script waits (default true). */
  interactive?: boolean;
}

type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string; badRequest: boolean };
type Event =
  | { event: "ready" }
  | { event: "failed"; error: string }
  | { event: "waiting"; dialog: DialogRecord }
  | { event: "answered" };

export class EmulatorHost implements ControlTarget {
  /** The alert or prompt the script is waiting on (interactive mode), if any. */
  waiting: DialogRecord | null = null;
  /** Why the worker is gone, once it is. */
  private dead: string | undefined;
  private seq = 0;
  private readonly pending = new Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>();

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
  ) {}

  static start(options: HostOptions = {}): Promise<EmulatorHost> {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(fileURLToPath(new URL("./host-worker.mjs", import.meta.url)), {
      workerData: {
        port: port2,
        options: options.emulator ?? {},
        connection: options.connection ?? {},
        storeSettings: options.storeSettings ?? false,
        interactive: options.interactive ?? true,
      },
      transferList: [port2],
    });
    const host = new EmulatorHost(worker, port1);
    // A worker that dies answers every pending call with the reason instead of leaving it hanging.
    const failAll = (reason: string) => {
      for (const p of host.pending.values()) p.fail(new Error(reason));
      host.pending.clear();
      host.dead = reason;
    };
    worker.on("error", (err) => failAll(`The emulator's thread failed: ${err.message}`));
    worker.on("exit", (code) => failAll(`The emulator's thread stopped (exit code ${code})`));
    return new Promise((done, fail) => {
      worker.once("error", fail);
      port1.on("message", (message: Reply | Event) => {
        if ("event" in message) {
          if (message.event === "ready") done(host);
          else if (message.event === "failed") {
            void worker.terminate();
            fail(new Error(message.error));
          } else if (message.event === "waiting") host.waiting = message.dialog;
          else if (message.event === "answered") host.waiting = null;
          return;
        }
        const p = host.pending.get(message.id);
        if (!p) return;
        host.pending.delete(message.id);
        if (message.ok) p.done(message.value);
        else p.fail(message.badRequest ? new BadRequest(message.error) : new Error(message.error));
      });
    });
  }

  private call<T>(cmd: string, ...args: unknown[]): Promise<T> {
    if (this.dead) return Promise.reject(new Error(this.dead));
    this.seq++;
    const id = this.seq;
    return new Promise<T>((done, fail) => {
      this.pending.set(id, { done: done as (v: unknown) => void, fail });
      this.port.postMessage({ id, cmd, args });
    });
  }

  info(): Promise<ControlInfo> {
    return this.call("info");
  }
  menu(): Promise<Array<{ label: string; function: string }>> {
    return this.call("menu");
  }
  /**
   * A call as from a page (`as` "script.run", or not given) has its arguments checked by
   * google.script.run's rules before they cross to the worker: a Date or a function fails the
   * call with Google's message, as it does in the page, instead of failing to cross the thread.
   * (Menu items take no arguments, and JSON from the control API holds neither.)
   */
  run(functionName: string, args: unknown[], user?: string, as?: RunKind): Promise<RunOutcome> {
    if (as === undefined || as === "script.run") {
      try {
        checkArguments(args);
      } catch (err) {
        if (!(err instanceof IllegalValueError)) throw err;
        return Promise.resolve({ ok: false, error: err.message, name: err.name });
      }
    }
    return this.call("run", functionName, args, user, as);
  }
  sheets(): Promise<SheetSnapshot[]> {
    return this.call("sheets");
  }
  display(): Promise<Array<{ name: string; display: string[][] }>> {
    return this.call("display");
  }
  async setCells(sheet: string, range: string, values: unknown[][], user?: string): Promise<void> {
    await this.call("setCells", sheet, range, values, user);
  }
  async select(sheet: string, range: string): Promise<void> {
    await this.call("select", sheet, range);
  }
  async answers(answers: DialogAnswer[]): Promise<void> {
    await this.call("answers", answers);
  }
  fireTriggers(options: { user?: string; due?: boolean }): Promise<unknown[]> {
    return this.call("fireTriggers", options);
  }
  properties(): Promise<unknown> {
    return this.call("properties");
  }
  logs(): Promise<unknown> {
    return this.call("logs");
  }
  async ui(): Promise<ReturnType<typeof uiSnapshot>> {
    const snapshot = await this.call<ReturnType<typeof uiSnapshot>>("ui");
    return { ...snapshot, waiting: waitingOf(this.waiting) };
  }
  async closeUi(kind: "sidebar" | "dialog" | undefined): Promise<void> {
    await this.call("closeUi", kind);
  }
  async reset(): Promise<void> {
    await this.call("reset");
  }
  advanceTime(ms: number): Promise<string> {
    return this.call("advanceTime", ms);
  }

  async close(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}
