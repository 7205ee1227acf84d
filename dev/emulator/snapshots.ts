/**
 * What the control API shows of an emulator, as plain JSON: sheets (dates as ISO strings),
 * display values, Ui, properties (secrets masked), logs and counters.
 */
import type { Emulator } from "./index";
import { toA1 } from "./spreadsheet/a1";
import { chartsSnapshot } from "./spreadsheet/charts";
import { conditionalFormatAt } from "./spreadsheet/conditional";
import { displayText } from "./spreadsheet/fakes";
import type { CellScalar } from "./spreadsheet/typed-input";
import type { DialogRecord } from "./ui";

export interface SheetSnapshot {
  name: string;
  values: Array<Array<string | number | boolean>>;
  formulas: string[][];
  numberFormats: string[][];
  notes: string[][];
  /** Font colour of each cell ("" for the default), a conditional format's first. */
  fontColors: string[][];
  /** Whether each cell is bold (a script's setFontWeight(s), or a conditional format's). */
  bold: boolean[][];
  /** Widths in pixels a script set, by column (1-based); other columns have the default. */
  columnWidths: Record<number, number>;
  /** Background of each cell ("" for none), a conditional format's first. */
  backgrounds: string[][];
  /** Hidden columns, 1-based. */
  hiddenColumns: number[];
  /** Conditional format rules in order: ranges in A1, condition, colours. */
  conditionalFormats: Array<{
    ranges: string[];
    criteria: string;
    values: string[];
    background: string;
    fontColor: string;
  }>;
  frozenRows: number;
  frozenColumns: number;
  maxRows: number;
  maxColumns: number;
  /** Cells with a dropdown or a checkbox, by A1-style position ("row,column" 1-based). */
  validations: Array<{ row: number; column: number; kind: "list" | "checkbox"; values: string[] }>;
  protections: Array<{ range: string | null; warningOnly: boolean; description: string }>;
  /** The spreadsheet's active sheet (a new sheet becomes it, as in Sheets). */
  active: boolean;
  /** Embedded charts: type, ranges (A1 with the sheet's name), title, options, position. */
  charts: ReturnType<typeof chartsSnapshot>;
}

function json(value: CellScalar): string | number | boolean {
  return value instanceof Date ? value.toISOString() : value;
}

/** Every sheet over its data range (empty sheets give empty grids). */
export function sheetsSnapshot(em: Emulator): SheetSnapshot[] {
  const doc = em.spreadsheet;
  return doc.sheets.map((sheet) => {
    const rows = sheet.lastRow();
    const cols = sheet.lastColumn();
    const values: SheetSnapshot["values"] = [];
    const formulas: string[][] = [];
    const numberFormats: string[][] = [];
    const notes: string[][] = [];
    const fontColors: string[][] = [];
    const backgrounds: string[][] = [];
    const bold: boolean[][] = [];
    const validations: SheetSnapshot["validations"] = [];
    for (let r = 1; r <= rows; r++) {
      const v: Array<string | number | boolean> = [];
      const f: string[] = [];
      const n: string[] = [];
      const t: string[] = [];
      const k: string[] = [];
      const b: string[] = [];
      const w: boolean[] = [];
      for (let c = 1; c <= cols; c++) {
        const cell = sheet.cell(r, c);
        const rule = sheet.conditionalRules.length > 0 ? conditionalFormatAt(doc, sheet, r, c) : null;
        v.push(json(doc.valueOf(sheet, cell, em.spreadsheetHost)));
        f.push(cell?.formula ?? "");
        n.push(cell?.numberFormat ?? "General");
        t.push(cell?.note ?? "");
        k.push(rule?.fontColor ?? cell?.style?.color ?? "");
        b.push(rule?.background ?? cell?.style?.background ?? "");
        w.push(cell?.style?.fontWeight === "bold");
      }
      bold.push(w);
      backgrounds.push(b);
      values.push(v);
      formulas.push(f);
      numberFormats.push(n);
      notes.push(t);
      fontColors.push(k);
    }
    for (let r = 1; r <= Math.max(rows, 1) + 50 && r <= sheet.maxRows; r++) {
      for (let c = 1; c <= Math.max(cols, 1) + 5 && c <= sheet.maxColumns; c++) {
        const rule = sheet.cell(r, c)?.validation;
        if (rule) validations.push({ row: r, column: c, kind: rule.kind, values: rule.values });
      }
    }
    const protections = doc.protections
      .filter((p) => p.sheet === sheet)
      .map((p) => ({
        range: p.rect ? toA1(p.rect) : null,
        warningOnly: p.warningOnly,
        description: p.description,
      }));
    return {
      name: sheet.name,
      values,
      formulas,
      numberFormats,
      notes,
      fontColors,
      backgrounds,
      bold,
      columnWidths: Object.fromEntries(sheet.columnWidths),
      hiddenColumns: [...sheet.hiddenColumns].sort((x, y) => x - y),
      conditionalFormats: sheet.conditionalRules.map((rule) => ({
        ranges: rule.ranges.map(toA1),
        criteria: rule.criteria,
        values: [...rule.values],
        background: rule.background ?? "",
        fontColor: rule.fontColor ?? "",
      })),
      frozenRows: sheet.frozenRows,
      frozenColumns: sheet.frozenColumns,
      maxRows: sheet.maxRows,
      maxColumns: sheet.maxColumns,
      validations,
      protections,
      active: doc.active.sheet === sheet,
      charts: chartsSnapshot(sheet),
    };
  });
}

/** The text each cell shows, per sheet, over the data range. */
export function displaySnapshot(em: Emulator): Array<{ name: string; display: string[][] }> {
  const doc = em.spreadsheet;
  return doc.sheets.map((sheet) => {
    const display: string[][] = [];
    for (let r = 1; r <= sheet.lastRow(); r++) {
      const row: string[] = [];
      for (let c = 1; c <= sheet.lastColumn(); c++)
        row.push(displayText(doc, sheet, r, c, em.spreadsheetHost));
      display.push(row);
    }
    return { name: sheet.name, display };
  });
}

export interface WaitingDialog {
  kind: "alert" | "prompt";
  title: string;
  message: string;
  buttons: string[];
}

export function waitingOf(dialog: DialogRecord | null): WaitingDialog | null {
  return dialog
    ? { kind: dialog.kind, title: dialog.title, message: dialog.prompt, buttons: dialog.buttons }
    : null;
}

export function uiSnapshot(em: Emulator, waiting: DialogRecord | null = null) {
  return {
    menus: em.ui.menus,
    addonMenu: em.ui.addonMenuItems(),
    sidebar: em.ui.sidebar,
    dialog: em.ui.dialog,
    toasts: em.ui.toasts,
    dialogs: em.ui.dialogs,
    queuedAnswers: em.ui.answers.length,
    waiting: waitingOf(waiting),
  };
}

const SECRET_KEY = /token|secret|password|apikey|api_key/i;

/** Masks a secret to its last four characters: enough to tell two apart, never enough to use. */
export function maskSecret(value: string): string {
  return value.length <= 4 ? "••••" : `••••${value.slice(-4)}`;
}

/** Property stores with secrets (keys named like token, secret, password) masked. */
export function propertiesSnapshot(em: Emulator) {
  const stores = em.properties();
  const mask = (store: Record<string, string>) =>
    Object.fromEntries(Object.entries(store).map(([k, v]) => [k, SECRET_KEY.test(k) ? maskSecret(v) : v]));
  return {
    user: Object.fromEntries(Object.entries(stores.user).map(([u, s]) => [u, mask(s)])),
    document: mask(stores.document),
    script: mask(stores.script),
  };
}

export function logsSnapshot(em: Emulator) {
  return {
    logs: em.logs,
    counters: em.counters,
    executions: em.executions,
    mails: em.mails,
    triggers: em.listTriggers().map((t) => ({
      uid: t.uid,
      handler: t.handler,
      creator: t.creator,
      eventType: t.eventType,
      disabled: t.disabled,
      runs: t.runs,
      nextRun: Number.isFinite(t.nextRun) ? new Date(t.nextRun).toISOString() : null,
    })),
  };
}
