/**
 * The month-end close of the BUILT add-on in the emulation against the sandbox (one company,
 * today 2024-06-30), for test files that drive it through its server functions as the sidebar
 * does: each user listed has the demo token; `fresh()` starts a test afresh; `journal()` builds
 * the journal of the month with the most vouchers, every account filled.
 */
import { privateBuild } from "../../dev/bench/build";
import type { Emulator } from "../../dev/emulator/index";
import { storeToken } from "../../dev/emulator/settings";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { SETTINGS_FORM_KEY } from "../../src/app/refresh";
import { sheetOf } from "../refresh/emulation";
import { emulatorOf } from "./emulation";

/** A report as the sandbox's state gives it. */
export interface SandboxReport {
  id: number;
  status: number;
  integrated: boolean;
  integrationExternalCode: string;
  integrationCalls?: number;
  closeDate: string | null;
  currency: string;
}

export interface CloseEmulation {
  sandbox: RunningSandbox;
  em: Emulator;
  users: string[];
  /** Runs a server function as google.script.run would (as `user`, the first by default); throws its failure. */
  run<T>(name: string, args?: unknown[], user?: string): T;
  /** The sandbox's /_sandbox route `path` (GET, or POST with `body`). */
  control(path: string, body?: unknown): Promise<any>;
  reports(): Promise<SandboxReport[]>;
  /** The Journal sheet: its header's column of a name, and its lines. */
  journalSheet(): { h(name: string): number; rows: unknown[][] };
  /** Resets the sandbox and the emulator, and stores each user's token and the settings `form`. */
  fresh(form?: Record<string, string>): Promise<void>;
  /** The journal of the month with the most currencies (so vouchers), every account filled. */
  journal(): Promise<{ month: string; vouchers: Map<string, number[]> }>;
  close(): Promise<void>;
}

const SIZES = { seed: 7, funds: 12, reports: 60 };

export async function startClose(users: string[]): Promise<CloseEmulation> {
  const sandbox = await startSandboxThread({ ...SIZES, today: "2024-06-30" });
  const em = emulatorOf(privateBuild(), users, { serviceUrl: sandbox.url });
  const origin = sandbox.url.replace(/\/v1$/, "");
  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${origin}/_sandbox/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const run = <T>(name: string, args: unknown[] = [], user = users[0]): T => {
    const out = em.tryRun(name, args, { as: "script.run", ...(user ? { user } : {}) });
    if (!out.ok) throw new Error(`${name} failed: ${out.error}`);
    return out.result as T;
  };
  const journalSheet = () => {
    const sheet = sheetOf(em, "Journal") ?? sheetOf(em, "Asientos");
    if (!sheet) throw new Error("no Journal sheet");
    const h = (name: string) => sheet.header.indexOf(name);
    return { h, rows: sheet.values.slice(1).filter((r) => r[0] !== "") };
  };
  const reports = async () => (await control("state")).reports as SandboxReport[];
  const fillAccounts = () => {
    const accounts = sheetOf(em, "Accounts");
    if (!accounts) throw new Error("no Accounts sheet");
    const cells = accounts.values.slice(1).map((r) => {
      const kind = String(r[1]);
      return [kind === "Expense policy" ? `61-${r[2]}` : kind === "Fund" ? `11-${r[2]}` : "21-05"];
    });
    em.typeCells("Accounts", `E2:E${cells.length + 1}`, cells);
  };
  return {
    sandbox,
    em,
    users,
    run,
    control,
    reports,
    journalSheet,
    async fresh(form = {}) {
      await control("reset", SIZES);
      em.resetState();
      for (const user of users) storeToken(em, user, sandbox.token, sandbox.url);
      em.documentPropertiesData.values.set(
        SETTINGS_FORM_KEY,
        JSON.stringify({ baseUrl: sandbox.url, ...form }),
      );
    },
    async journal() {
      const open = (await reports()).filter((r) => r.status === 1 && !r.integrated && r.closeDate);
      const currencies = new Map<string, Set<string>>();
      for (const r of open) {
        const month = (r.closeDate as string).slice(0, 7);
        currencies.set(month, (currencies.get(month) ?? new Set()).add(r.currency));
      }
      const [month] = [...currencies].sort((a, b) => b[1].size - a[1].size)[0] as [string, Set<string>];
      const input = { company: "c0", month, currency: null, pattern: "{yyyy}{mm}{nnn}" };
      // Each build lists what the Accounts sheet still lacks: policies, then funds and employees.
      for (let i = 0; i < 3; i++) {
        run("closeBuildJournal", [input]);
        if (i < 2) fillAccounts();
      }
      const j = journalSheet();
      const vouchers = new Map<string, number[]>();
      for (const r of j.rows) {
        if (!(Number(r[j.h("Debit")]) > 0)) continue;
        const code = String(r[j.h("Voucher")]);
        vouchers.set(code, [...(vouchers.get(code) ?? []), Number(r[j.h("Report Id")])]);
      }
      return { month, vouchers };
    },
    async close() {
      await em.close();
      await sandbox.close();
    },
  };
}
