/**
 * The page's client of the control API (issue 4's routes) and of the playground's own routes.
 * Shapes are read tolerantly: the page must keep working while the emulation grows.
 */
import type { CellValue } from "../../emulator/spreadsheet/format";
import type { ChartSnapshot } from "./charts";

export interface SheetSnapshot {
  name: string;
  values: CellValue[][];
  formulas: string[][];
  numberFormats: string[][];
  /** Font colour of each cell ("" for the default). */
  fontColors: string[][];
  /** Background of each cell ("" for none), conditional formats included. */
  backgrounds: string[][];
  /** Whether each cell is bold. */
  bold: boolean[][];
  /** Widths in pixels a script set, by column (1-based). */
  columnWidths: Record<number, number>;
  /** Hidden columns, 1-based. */
  hiddenColumns: number[];
  /** The note of each cell ("" for none). */
  notes: string[][];
  frozenRows: number;
  frozenColumns: number;
  /** Cells with a checkbox or a dropdown (1-based row and column). */
  validations: { row: number; column: number; kind: "list" | "checkbox"; values: string[] }[];
  /** Embedded charts: type, ranges, title, options, anchor cell. */
  charts: ChartSnapshot[];
  /** The spreadsheet's active sheet. */
  active: boolean;
}

export interface MenuEntry {
  label: string;
  functionName: string;
}

/** A company of the spreadsheet, as /control/info lists it (its token is not kept by the page). */
export interface CompanyInfo {
  /** "" for the unnamed company of a one-company spreadsheet. */
  name: string;
  apiUrl: string;
  adminId: number | string | null;
}

export interface ControlInfo {
  apiUrl: string;
  adminId: number | string | null;
  /** Every company, the first first; one (or none) for a one-company spreadsheet. */
  companies: CompanyInfo[];
  user: string;
  users: string[];
  timeZone: string;
  addOnName: string;
  spreadsheetName: string;
}

export interface ShownHtml {
  /** Changes each time the script shows it again (a new showSidebar call). */
  key: string;
  title: string;
  html: string;
  width?: number;
  height?: number;
}

export interface Toast {
  key: string;
  message: string;
  title: string;
  seconds: number;
}

export type ButtonName = "OK" | "CANCEL" | "YES" | "NO" | "CLOSE";

/** An alert or prompt the script is waiting on. */
export interface WaitingQuestion {
  kind: "alert" | "prompt";
  title: string;
  message: string;
  buttons: ButtonName[];
}

export interface UiState {
  /** The add-on menu with its separators, when the control API reports menus. */
  addonMenu: MenuEntry[] | null;
  sidebar: ShownHtml | null;
  dialog: ShownHtml | null;
  toasts: Toast[];
  waiting: WaitingQuestion | null;
}

export type RunResult = { ok: true; result: unknown } | { ok: false; error: string };

/** Error of a control call that did not answer as documented. */
export class ControlError extends Error {
  constructor(route: string, detail: string) {
    super(`${route}: ${detail}`);
    this.name = "ControlError";
  }
}

async function call(method: "GET" | "POST" | "DELETE", route: string, body?: unknown): Promise<unknown> {
  const init: RequestInit = { method, headers: { accept: "application/json" } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json", accept: "application/json" };
  }
  const response = await fetch(route, init);
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    throw new ControlError(
      route,
      `answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  if (!response.ok) {
    const message = errorText(parsed) ?? `HTTP ${response.status}`;
    throw new ControlError(route, message);
  }
  return parsed;
}

function errorText(body: unknown): string | undefined {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    for (const key of ["error", "message", "Error"]) {
      const v = b[key];
      if (typeof v === "string") return v;
      if (v && typeof v === "object" && typeof (v as { message?: unknown }).message === "string") {
        return (v as { message: string }).message;
      }
    }
  }
  return undefined;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const asString = (v: unknown, fallback = ""): string =>
  typeof v === "string" ? v : typeof v === "number" ? String(v) : fallback;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function readGrid<T>(v: unknown, cell: (x: unknown) => T): T[][] {
  return asArray(v).map((row) => asArray(row).map(cell));
}

function readCellValue(x: unknown): CellValue {
  if (x === null || x === undefined) return "";
  if (typeof x === "string" || typeof x === "number" || typeof x === "boolean") return x;
  return String(x);
}

export function readSheets(body: unknown): SheetSnapshot[] {
  const list = Array.isArray(body) ? body : asArray(asRecord(body).sheets);
  return list.map((raw) => {
    const s = asRecord(raw);
    return {
      name: asString(s.name),
      values: readGrid(s.values, readCellValue),
      formulas: readGrid(s.formulas, (x) => asString(x)),
      numberFormats: readGrid(s.numberFormats, (x) => asString(x)),
      fontColors: readGrid(s.fontColors, (x) => asString(x)),
      backgrounds: readGrid(s.backgrounds, (x) => asString(x)),
      bold: readGrid(s.bold, (x) => x === true),
      columnWidths: Object.fromEntries(
        Object.entries(asRecord(s.columnWidths)).filter(
          (e): e is [string, number] => typeof e[1] === "number",
        ),
      ),
      hiddenColumns: asArray(s.hiddenColumns).filter((x): x is number => typeof x === "number"),
      notes: readGrid(s.notes, (x) => asString(x)),
      frozenRows: typeof s.frozenRows === "number" ? s.frozenRows : 0,
      frozenColumns: typeof s.frozenColumns === "number" ? s.frozenColumns : 0,
      validations: asArray(s.validations).flatMap((raw) => {
        const v = asRecord(raw);
        const kind = v.kind === "checkbox" || v.kind === "list" ? v.kind : null;
        return kind && typeof v.row === "number" && typeof v.column === "number"
          ? [{ row: v.row, column: v.column, kind, values: asArray(v.values).map((x) => asString(x)) }]
          : [];
      }),
      active: s.active === true,
      charts: asArray(s.charts).map((raw) => {
        const c = asRecord(raw);
        const at = asRecord(c.position);
        return {
          type: asString(c.type),
          title: asString(c.title),
          ranges: asArray(c.ranges).map((r) => asString(r)),
          options: asRecord(c.options),
          position: {
            row: Number(at.row) || 1,
            column: Number(at.column) || 1,
            offsetX: Math.max(0, Number(at.offsetX) || 0),
            offsetY: Math.max(0, Number(at.offsetY) || 0),
          },
        };
      }),
    };
  });
}

export function readMenu(body: unknown): MenuEntry[] {
  const list = Array.isArray(body) ? body : asArray(asRecord(body).items);
  return list.map((raw) => {
    const m = asRecord(raw);
    return { label: asString(m.label ?? m.caption), functionName: asString(m.function ?? m.functionName) };
  });
}

export function readInfo(body: unknown): ControlInfo {
  const i = asRecord(body);
  const user = asString(i.user ?? asRecord(i.user).email);
  const users = asArray(i.users)
    .map((u) => (typeof u === "string" ? u : asString(asRecord(u).email)))
    .filter((u) => u !== "");
  return {
    apiUrl: asString(i.apiUrl),
    adminId: typeof i.adminId === "number" || typeof i.adminId === "string" ? i.adminId : null,
    companies: asArray(i.companies).map((raw) => {
      const c = asRecord(raw);
      return {
        name: asString(c.name),
        apiUrl: asString(c.apiUrl),
        adminId: typeof c.adminId === "number" || typeof c.adminId === "string" ? c.adminId : null,
      };
    }),
    user,
    users,
    timeZone: asString(i.timeZone, "UTC") || "UTC",
    addOnName: asString(i.addOnName ?? i.addonName, ""),
    spreadsheetName: asString(i.spreadsheetName ?? i.spreadsheet, ""),
  };
}

const BUTTON_SETS: Record<string, ButtonName[]> = {
  OK: ["OK"],
  OK_CANCEL: ["OK", "CANCEL"],
  YES_NO: ["YES", "NO"],
  YES_NO_CANCEL: ["YES", "NO", "CANCEL"],
};

/** A short fingerprint of a text, to tell one shown sidebar from another. */
function fingerprint(text: string): string {
  let hash = 5381;
  for (let i = 0; i < text.length; i++) hash = ((hash * 33) ^ text.charCodeAt(i)) >>> 0;
  return `${text.length}-${hash.toString(36)}`;
}

function readShown(raw: unknown, fallbackKey: string): ShownHtml | null {
  if (!raw || typeof raw !== "object") return null;
  const s = asRecord(raw);
  const html = asString(s.html ?? s.content);
  if (!html) return null;
  const out: ShownHtml = {
    key: asString(
      s.id ?? s.key ?? s.shownAt ?? s.serial,
      `${fallbackKey}:${fingerprint(asString(s.title) + html)}`,
    ),
    title: asString(s.title),
    html,
  };
  if (typeof s.width === "number") out.width = s.width;
  if (typeof s.height === "number") out.height = s.height;
  return out;
}

function readQuestion(raw: unknown): WaitingQuestion | null {
  if (!raw || typeof raw !== "object") return null;
  const q = asRecord(raw);
  const kind = q.kind === "prompt" || q.type === "prompt" ? "prompt" : "alert";
  const buttonsRaw = q.buttons ?? q.buttonSet;
  const buttons = Array.isArray(buttonsRaw)
    ? (buttonsRaw.map((b) => asString(b)) as ButtonName[])
    : (BUTTON_SETS[asString(buttonsRaw, kind === "prompt" ? "OK" : "OK")] ?? ["OK"]);
  const message = asString(q.message ?? q.prompt ?? q.text);
  // alert(prompt) with no title: Sheets shows the text as the body.
  return { kind, title: asString(q.title), message, buttons: buttons.length ? buttons : ["OK"] };
}

/** Items of the last add-on menu in `menus` (separators as "-", submenus flattened). */
function readAddonMenu(menus: unknown): MenuEntry[] | null {
  const addon = asArray(menus)
    .map(asRecord)
    .filter((m) => m.addon === true)
    .at(-1);
  if (!addon) return null;
  const out: MenuEntry[] = [];
  const walk = (items: unknown) => {
    for (const raw of asArray(items)) {
      const item = asRecord(raw);
      if (item.separator === true) out.push({ label: "-", functionName: "" });
      else if (item.submenu) walk(asRecord(item.submenu).items);
      else
        out.push({ label: asString(item.label), functionName: asString(item.functionName ?? item.function) });
    }
  };
  walk(addon.items);
  return out;
}

export function readUi(body: unknown): UiState {
  const u = asRecord(body);
  const toasts = asArray(u.toasts).map((raw, index) => {
    const t = asRecord(raw);
    return {
      key: asString(t.id ?? t.key ?? t.at, String(index)),
      message: asString(t.message ?? t.msg),
      title: asString(t.title),
      seconds:
        typeof t.seconds === "number"
          ? t.seconds
          : typeof t.timeoutSeconds === "number"
            ? t.timeoutSeconds
            : 5,
    };
  });
  return {
    addonMenu: readAddonMenu(u.menus),
    sidebar: readShown(u.sidebar, "sidebar"),
    dialog: readShown(u.dialog ?? u.modalDialog, "dialog"),
    toasts,
    waiting: readQuestion(u.waiting ?? u.pending ?? u.question ?? u.alert ?? u.prompt),
  };
}

export function readRunResult(body: unknown): RunResult {
  const r = asRecord(body);
  if (r.ok === true) return { ok: true, result: r.result ?? null };
  const error = r.error;
  const message =
    typeof error === "string"
      ? error
      : error && typeof error === "object"
        ? asString(asRecord(error).message, "The script failed")
        : "The script failed";
  return { ok: false, error: message };
}

function companyQuery(company: string | undefined): string {
  return company ? `?company=${encodeURIComponent(company)}` : "";
}

/** Typed calls to the control API. */
export const control = {
  info: async () => readInfo(await call("GET", "/control/info")),
  menu: async () => readMenu(await call("GET", "/control/menu")),
  sheets: async () => readSheets(await call("GET", "/control/sheets")),
  ui: async () => readUi(await call("GET", "/control/ui")),
  logs: async () => call("GET", "/control/logs"),
  /**
   * The language the add-on's settings give the document ("es" or "en"): Sheets labels its
   * dialogs' buttons in the user's own language, and the playground's user works in the
   * document's. Unset (the add-on then follows the locale, en_US here) or unreadable: "en".
   */
  documentLanguage: async (): Promise<"en" | "es"> => {
    const document = asRecord(asRecord(await call("GET", "/control/properties")).document);
    try {
      return asRecord(JSON.parse(asString(document["settings.form"], "{}"))).language === "es" ? "es" : "en";
    } catch {
      return "en";
    }
  },
  /** `as`: "menu" for a menu click, "script.run" for a sidebar's google.script.run, "simple" for onOpen. */
  run: async (
    functionName: string,
    args: unknown[],
    as: "menu" | "script.run" | "simple",
    user?: string,
  ): Promise<RunResult> => {
    const body: Record<string, unknown> = { function: functionName, args, as };
    if (user) body.user = user;
    try {
      return readRunResult(await call("POST", "/control/run", body));
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  },
  setCells: (sheet: string, range: string, values: string[][], user?: string) =>
    call("POST", "/control/cells", user ? { sheet, range, values, user } : { sheet, range, values }),
  select: (sheet: string, range: string, user?: string) =>
    call("POST", "/control/select", user ? { sheet, range, user } : { sheet, range }),
  answer: (answer: ButtonName, text?: string) =>
    call("POST", "/control/answers", {
      answers: [text === undefined ? answer : { button: answer, text }],
    }),
  fireTriggers: (user?: string) => call("POST", "/control/triggers/fire", user ? { user } : {}),
  /** Moves the emulator's clock forward (the add-on's "now"), as time passing would. */
  advanceClock: (ms: number) => call("POST", "/control/clock", { advanceMs: ms }),
  reset: () => call("POST", "/control/reset", {}),
  closeUi: (kind: "sidebar" | "dialog") => call("POST", "/control/ui/close", { kind }),
  resetSandbox: () => call("POST", "/playground/sandbox/reset", {}),
  /** `company`: that company's faults (the sandbox's `?company=`); absent, the first company's. */
  setFaults: (faults: unknown, company?: string) =>
    call("POST", `/playground/sandbox/faults${companyQuery(company)}`, faults),
  clearFaults: (company?: string) => call("DELETE", `/playground/sandbox/faults${companyQuery(company)}`),
};
