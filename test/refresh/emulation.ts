/**
 * The built add-on in the emulation, against the sandbox on its own thread: what the
 * end-to-end tests of refreshes stand on. The script is built into a folder of its own, so a
 * rebuild of dist/ elsewhere cannot change it in the middle of a run.
 */
export { privateBuild } from "../../dev/bench/build";

import { afterAll, beforeAll, beforeEach } from "vitest";
import { privateBuild } from "../../dev/bench/build";
import { createEmulator, type Emulator } from "../../dev/emulator/index";
import { servicePrefix, storeToken } from "../../dev/emulator/settings";
import type { SheetData } from "../../dev/emulator/spreadsheet/model";
import { type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { SETTINGS_FORM_KEY } from "../../src/app/refresh";

/** The settings form of a refresh from 2022 to mid-2024, five rows a page, funds by creation ascending. */
export const RANGE_FORM = {
  pageSize: "5",
  windowMode: "range",
  windowFrom: "2022-01-01",
  windowTo: "2024-06-30",
  fundOrderBy: "2",
  fundOrder: "ASC",
};

export interface Setup {
  emulator: Emulator;
  sandbox: RunningSandbox;
  user: string;
  /** Calls the sandbox's API directly (as another client would), with the demo token. */
  api(endpoint: string, body?: Record<string, unknown>, method?: string): Promise<any>;
  /** Calls a /_sandbox route. */
  control(path: string, body?: unknown, method?: string): Promise<any>;
  settings(form: Record<string, string>): void;
  close(): Promise<void>;
}

export async function setUp(options: {
  distDir: string;
  funds: number;
  reports: number;
  latencyMs?: number;
  today?: string;
  /** Emulated time charged per cell read and written (the emulator's default otherwise). */
  cellCostMicros?: { read: number; write: number };
  /**
   * A clock trigger gets its spreadsheet as the active one: the lenient reading, which the
   * emulation does not assume unless told (Google's pages do not say).
   */
  triggerSeesSpreadsheet?: boolean;
}): Promise<Setup> {
  const sandbox = await startSandboxThread({
    seed: 7,
    funds: options.funds,
    reports: options.reports,
    latencyMs: options.latencyMs ?? 0,
    today: options.today ?? "2024-06-30",
  });
  const user = "ana@example.com";
  const emulator = createEmulator({
    distDir: options.distDir,
    users: [user],
    timeZone: "America/Santiago",
    urlFetchAllowlist: [servicePrefix(sandbox.url)],
    ...(options.cellCostMicros ? { cellCostMicros: options.cellCostMicros } : {}),
    triggerSeesSpreadsheet: options.triggerSeesSpreadsheet === true,
  });
  storeToken(emulator, user, sandbox.token, sandbox.url);
  const origin = sandbox.url.replace(/\/v1$/, "");
  const call = async (url: string, body: unknown, method: string) => {
    const response = await fetch(url, {
      method,
      headers: { Authorization: `Bearer ${sandbox.token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  return {
    emulator,
    sandbox,
    user,
    api: (endpoint, body, method) =>
      method === "GET" || (method === undefined && body === undefined)
        ? call(`${sandbox.url}/${endpoint}`, undefined, "GET")
        : call(`${sandbox.url}/${endpoint}`, body, method ?? "POST"),
    control: (path, body, method) =>
      call(`${origin}/_sandbox/${path}`, body, method ?? (body === undefined ? "GET" : "POST")),
    settings(form) {
      emulator.documentPropertiesData.values.set(
        SETTINGS_FORM_KEY,
        JSON.stringify({ baseUrl: sandbox.url, ...form }),
      );
    },
    async close() {
      await emulator.close();
      await sandbox.close();
    },
  };
}

/**
 * The setup of a test file whose tests share one: started before its first test (setUp with
 * `options`, the add-on built by privateBuild unless `distDir` is given), closed after its last.
 * With `fresh`, each test starts afresh: the sandbox reset to `fresh.company` when given, the
 * emulator emptied, the user's token stored and `fresh.form` saved. Its members are there once
 * the tests run.
 */
export function setUpPerFile(
  options: Omit<Parameters<typeof setUp>[0], "distDir"> & { distDir?: string },
  fresh?: { form: Record<string, string>; company?: { seed: number; funds: number; reports: number } },
): Setup {
  const s = {} as Setup;
  beforeAll(async () => {
    Object.assign(s, await setUp({ ...options, distDir: options.distDir ?? privateBuild() }));
  }, 120_000);
  afterAll(async () => {
    await s.close?.();
  });
  if (fresh) {
    beforeEach(async () => {
      if (fresh.company) await s.control("reset", fresh.company);
      s.emulator.resetState();
      storeToken(s.emulator, s.user, s.sandbox.token, s.sandbox.url);
      s.settings(fresh.form);
    });
  }
  return s;
}

/** A sheet of the emulated spreadsheet as plain grids (what getValues/getFormulas would give). */
export function sheetOf(emulator: Emulator, name: string) {
  const sheet = emulator.spreadsheet.sheetByName(name) as SheetData | undefined;
  if (!sheet) return null;
  const rows = sheet.lastRow();
  const columns = sheet.lastColumn();
  const values: unknown[][] = [];
  const formulas: string[][] = [];
  const formats: string[][] = [];
  for (let r = 1; r <= rows; r++) {
    const v: unknown[] = [];
    const f: string[] = [];
    const n: string[] = [];
    for (let c = 1; c <= columns; c++) {
      const cell = sheet.cell(r, c);
      v.push(cell?.value ?? "");
      f.push(cell?.formula ?? "");
      n.push(cell?.numberFormat ?? "General");
    }
    values.push(v);
    formulas.push(f);
    formats.push(n);
  }
  return { sheet, values, formulas, formats, header: values[0] ?? [] };
}
