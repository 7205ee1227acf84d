/**
 * The worker side of EmulatorHost: owns the emulator and answers commands from the main
 * thread. While a script is blocked (an alert waiting for the person at the page, a slow HTTP
 * answer), read-only commands are still answered, so the page stays live; commands that change
 * state wait until the running one ends.
 */
import { type MessagePort, receiveMessageOnPort } from "node:worker_threads";
import type { ConnectionInfo } from "./control";
import { companiesOf, runKindFor } from "./control";
import { EmulatorUsageError, ServiceError } from "./errors";
import { createEmulator, type DialogAnswer, type Emulator, type EmulatorOptions } from "./index";
import { servicePrefix, storeCompanies, storeConnection, storeUserTokens } from "./settings";
import { displaySnapshot, logsSnapshot, propertiesSnapshot, sheetsSnapshot, uiSnapshot } from "./snapshots";

export interface HostWorkerData {
  port: MessagePort;
  options: Omit<EmulatorOptions, "waitForAnswer" | "onBlock" | "realNow">;
  connection: ConnectionInfo;
  /**
   * Store the connection in the users' settings (at start and after each reset): every company
   * of `connection.companies` when given (storeCompanies, by the default user; each other user's
   * tokens saved too, storeUserTokens), else the one connection, saved by every user.
   */
  storeSettings: boolean;
  /** Wait for the page to answer alerts and prompts (else an unanswered one fails the run). */
  interactive: boolean;
}

export interface Command {
  id: number;
  cmd: string;
  args: unknown[];
}

const READ_ONLY = new Set(["info", "menu", "sheets", "display", "properties", "logs", "ui", "answers"]);

export function runHost(data: HostWorkerData): void {
  const { port } = data;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deferred: Command[] = [];
  let busy = false;
  let waiting = false;

  const serveWhileBusy = () => {
    for (;;) {
      const received = receiveMessageOnPort(port);
      if (!received) return;
      const command = received.message as Command;
      if (READ_ONLY.has(command.cmd)) respond(command);
      else {
        // A reset cannot wait for a dialog nobody will answer: close it (the title-bar X) first.
        if (command.cmd === "reset" && waiting) em.answers.push("CLOSE");
        deferred.push(command);
      }
    }
  };

  const em: Emulator = createEmulator({
    ...data.options,
    // The service this local run talks to (the bundled sandbox on 127.0.0.1, or --api-url)
    // stands for a test deployment's manifest entry; the shipped manifest stays as it is.
    urlFetchAllowlist: [
      ...(data.options.urlFetchAllowlist ?? []),
      ...new Set(companiesOf(data.connection).map((c) => servicePrefix(c.apiUrl))),
    ],
    onBlock: serveWhileBusy,
    ...(data.interactive
      ? {
          waitForAnswer: (dialog) => {
            port.postMessage({ event: "waiting", dialog });
            waiting = true;
            try {
              for (;;) {
                const answer = em.answers.shift();
                if (answer !== undefined) return answer;
                Atomics.wait(pause, 0, 0, 25);
                serveWhileBusy();
              }
            } finally {
              waiting = false;
              port.postMessage({ event: "answered" });
            }
          },
        }
      : {}),
  });

  const prepare = () => {
    const c = data.connection;
    // Every user of the document has their token for each company, the first user setting the
    // document up: a colleague acting on the same spreadsheet works as a treasurer would.
    if (data.storeSettings && c.companies && c.companies.length > 0) {
      const keys = storeCompanies(em, c.companies);
      for (const user of em.users.filter((u) => u !== em.defaultUser))
        storeUserTokens(em, c.companies, keys, user);
    } else if (data.storeSettings && c.apiUrl && c.token && c.adminId !== undefined) {
      for (const user of em.users)
        storeConnection(em, { apiUrl: c.apiUrl, token: c.token, adminId: c.adminId }, user);
    }
    em.open();
  };

  const execute = (command: Command): unknown => {
    const a = command.args;
    switch (command.cmd) {
      case "info":
        return {
          apiUrl: data.connection.apiUrl ?? "",
          token: data.connection.token ?? "",
          adminId: data.connection.adminId ?? null,
          user: em.defaultUser,
          users: em.users,
          timeZone: em.spreadsheet.timeZone,
          addOnName: data.connection.addOnName ?? data.options.addonName ?? "Add-on",
          spreadsheetName: em.spreadsheet.name,
          companies: companiesOf(data.connection),
        };
      case "menu":
        return em.ui.addonMenuItems();
      case "run": {
        const [fn, args, user, as] = a as [string, unknown[], string | undefined, undefined];
        return em.tryRun(fn, args, { user, as: runKindFor(em, fn, as) });
      }
      case "sheets":
        return sheetsSnapshot(em);
      case "display":
        return displaySnapshot(em);
      case "setCells":
        em.typeCells(a[0] as string, a[1] as string, a[2] as unknown[][], a[3] as string | undefined);
        return null;
      case "select":
        em.select(a[0] as string, a[1] as string);
        return null;
      case "answers":
        em.answers.push(...(a[0] as DialogAnswer[]));
        return null;
      case "fireTriggers": {
        const o = (a[0] ?? {}) as { user?: string; due?: boolean };
        return em.fireTimeTriggers({ all: !o.due, ...(o.user !== undefined ? { user: o.user } : {}) });
      }
      case "properties":
        return propertiesSnapshot(em);
      case "logs":
        return logsSnapshot(em);
      case "ui":
        return uiSnapshot(em);
      case "closeUi":
        em.closeUi(a[0] as "sidebar" | "dialog" | undefined);
        return null;
      case "reset":
        em.loadFiles();
        em.resetState();
        prepare();
        return null;
      case "advanceTime":
        em.advanceTime(a[0] as number);
        return em.now().toISOString();
      default:
        throw new EmulatorUsageError(`unknown command ${command.cmd}`);
    }
  };

  function respond(command: Command): void {
    try {
      // Results travel by structured clone: make them plain JSON first.
      const value = JSON.parse(JSON.stringify(execute(command) ?? null)) as unknown;
      port.postMessage({ id: command.id, ok: true, value });
    } catch (err) {
      const badRequest = err instanceof EmulatorUsageError || err instanceof ServiceError;
      port.postMessage({
        id: command.id,
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        badRequest,
      });
    }
  }

  port.on("message", (command: Command) => {
    if (busy) {
      deferred.push(command);
      return;
    }
    busy = true;
    try {
      respond(command);
      while (deferred.length > 0) respond(deferred.shift() as Command);
    } finally {
      busy = false;
    }
  });

  try {
    prepare();
    port.postMessage({ event: "ready" });
  } catch (err) {
    port.postMessage({ event: "failed", error: err instanceof Error ? err.message : String(err) });
  }
}
