/**
 * SpreadsheetApp and its classes over the plain sheet model, typed against
 * @types/google-apps-script so that a wrong signature fails to compile. The behaviour that bites
 * real scripts is copied: Google's error wording, typed-input parsing of strings, `getValues`
 * types, 1000×26 new sheets, `getLastRow()` of 0 when empty.
 */

import { type EnumOf, makeEnum } from "../enums";
import { MESSAGES, ServiceError } from "../errors";
import { Fake, isDate } from "../realm";
import type { Implements } from "../typed";
import { type GridRect, parseA1, splitSheetRef, toA1 } from "./a1";
import { type FakeEmbeddedChart, type FakeEmbeddedChartBuilder, SheetCharts } from "./charts";
import {
  BOOLEAN_CRITERIA,
  type FakeConditionalFormatRule,
  FakeConditionalFormatRuleBuilder,
  type RuleRange,
  ruleData,
  ruleOf,
} from "./conditional";
import { displayCell } from "./format";
import { type Cell, remapRect, SheetData, type ValidationRule, type Workbook } from "./model";
import { type CellScalar, parseTypedInput } from "./typed-input";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

/** What the spreadsheet fakes need from the rest of the emulator. */
export interface SpreadsheetHost {
  /** A read call on `sheet` touching `cells` cells. */
  countRead(sheet: SheetData, cells?: number): void;
  /** A write call on `sheet` touching `cells` cells. */
  countWrite(sheet: SheetData, cells?: number): void;
  /** SpreadsheetApp.getUi(): throws where Apps Script offers no Ui (triggers). */
  getUi(): unknown;
  toast(message: string, title: string, timeoutSeconds: number): void;
  /** The value a formula shows (the emulation evaluates a small subset of formulas). */
  formulaValue(doc: SpreadsheetDoc, sheet: SheetData, formula: string): CellScalar;
  /** False where Apps Script gives no active spreadsheet (a test can make a time trigger lack it). */
  hasActive?(): boolean;
}

export interface ActiveSelection {
  sheet: SheetData;
  ranges: GridRect[];
}

export interface ProtectionData {
  sheet: SheetData;
  rect: GridRect | undefined;
  warningOnly: boolean;
  description: string;
  editors: string[];
}

const MAX_CELLS = 10_000_000;
const MAX_COLUMNS = 18_278;

/** The one document the add-on is bound to. */
export class SpreadsheetDoc implements Workbook {
  readonly sheets: SheetData[] = [];
  active: ActiveSelection;
  readonly protections: ProtectionData[] = [];
  private nextSheetId = 0;

  constructor(
    readonly id: string,
    public name: string,
    public timeZone: string,
    public locale: string,
  ) {
    const first = this.addSheet("Sheet1");
    this.active = { sheet: first, ranges: [{ row: 1, column: 1, numRows: 1, numColumns: 1 }] };
  }

  addSheet(name: string, index?: number): SheetData {
    const sheet = new SheetData(name, this.nextSheetId);
    this.nextSheetId += this.nextSheetId === 0 ? 1_000_001 : 1;
    if (index === undefined || index >= this.sheets.length) this.sheets.push(sheet);
    else this.sheets.splice(Math.max(0, index), 0, sheet);
    return sheet;
  }

  /** Refuses growth past Sheets' limits (10 million cells per spreadsheet, 18,278 columns). */
  checkGrowth(sheet: SheetData | undefined, extraRows: number, extraColumns: number): void {
    const total = this.sheets.reduce((n, s) => n + s.maxRows * s.maxColumns, 0);
    const added = sheet
      ? (sheet.maxRows + extraRows) * (sheet.maxColumns + extraColumns) - sheet.maxRows * sheet.maxColumns
      : extraRows * extraColumns;
    if (total + added > MAX_CELLS) {
      throw new ServiceError(
        `This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS} cells.`,
      );
    }
    if (sheet && sheet.maxColumns + extraColumns > MAX_COLUMNS) {
      throw new ServiceError(
        `This action would increase the number of columns in the sheet above the limit of ${MAX_COLUMNS}.`,
      );
    }
  }

  sheetByName(name: string): SheetData | undefined {
    return this.sheets.find((s) => s.name === name);
  }

  /** A sheet name not yet used, as "Sheet2", "Sheet3"… */
  freeSheetName(): string {
    let n = this.sheets.length + 1;
    while (this.sheetByName(`Sheet${n}`)) n++;
    return `Sheet${n}`;
  }

  /** What a cell shows in getValues(): formula results, or the stored value. */
  valueOf(sheet: SheetData, cell: Cell | undefined, host: SpreadsheetHost): CellScalar {
    if (!cell) return "";
    if (cell.formula !== undefined) return host.formulaValue(this, sheet, cell.formula);
    return cell.value;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "Object[]";
  if (isDate(value)) return "Date";
  const t = typeof value;
  return t === "object" ? "Object" : t === "string" ? "String" : t === "number" ? "number" : t;
}

function requireGrid(values: unknown, method: string): unknown[][] {
  if (!Array.isArray(values) || !values.every((row) => Array.isArray(row))) {
    throw new ServiceError(
      `The parameters (${describe(values)}) don't match the method signature for SpreadsheetApp.Range.${method}.`,
    );
  }
  return values as unknown[][];
}

function checkDimensions(values: unknown[][], rect: GridRect): void {
  if (values.length !== rect.numRows) {
    throw new ServiceError(
      `The number of rows in the data does not match the number of rows in the range. The data has ${values.length} but the range has ${rect.numRows}.`,
    );
  }
  for (const row of values) {
    if (row.length !== rect.numColumns) {
      throw new ServiceError(
        `The number of columns in the data does not match the number of columns in the range. The data has ${row.length} but the range has ${rect.numColumns}.`,
      );
    }
  }
}

/**
 * Sheets refuses text of more than 50,000 characters in a cell (a formula's text included), and
 * the call writes nothing: whether it writes the cells before that one is not documented, so
 * none is written here (docs/real-apps-script.md).
 */
function checkCellLength(values: unknown[][]): void {
  // Indexed loops: the arrays are the script realm's, where for…of takes the slow path.
  for (let i = 0; i < values.length; i++) {
    const row = values[i] as unknown[];
    for (let j = 0; j < row.length; j++) {
      const v = row[j];
      if (typeof v === "string" && v.length > 50_000)
        throw new ServiceError(
          "Your input contains more than the maximum of 50000 characters in a single cell.",
        );
    }
  }
}

function checkRect(
  sheet: SheetData,
  row: number,
  column: number,
  numRows: number,
  numColumns: number,
): GridRect {
  for (const [name, v] of [
    ["row", row],
    ["column", column],
    ["numRows", numRows],
    ["numColumns", numColumns],
  ] as const) {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new ServiceError(
        `The parameters (${describe(v)}) don't match the method signature for getRange (${name}).`,
      );
    }
  }
  if (row < 1) throw new ServiceError("The starting row of the range is too small.");
  if (column < 1) throw new ServiceError("The starting column of the range is too small.");
  if (numRows < 1) throw new ServiceError(MESSAGES.rowsAtLeastOne);
  if (numColumns < 1) throw new ServiceError(MESSAGES.columnsAtLeastOne);
  if (row + numRows - 1 > sheet.maxRows || column + numColumns - 1 > sheet.maxColumns) {
    throw new ServiceError(MESSAGES.outsideSheet);
  }
  return {
    row: Math.floor(row),
    column: Math.floor(column),
    numRows: Math.floor(numRows),
    numColumns: Math.floor(numColumns),
  };
}

export function rangeFromA1(sheet: SheetData, a1: string): GridRect {
  const rect = parseA1(a1, sheet.maxRows, sheet.maxColumns);
  if (!rect) throw new ServiceError("Range not found");
  return checkRect(sheet, rect.row, rect.column, rect.numRows, rect.numColumns);
}

/** Converts a value given by a script (any realm) into what the cell stores. */
function scalarFromScript(value: unknown): CellScalar | undefined {
  // Strings first: most of a sheet's cells, and isDate would box each one.
  if (typeof value === "string") return undefined;
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? value : "#NUM!";
  if (typeof value === "boolean") return value;
  if (isDate(value)) return new Date((value as Date).getTime());
  return String(value);
}

export const DATA_VALIDATION_CRITERIA = makeEnum(["VALUE_IN_LIST", "CHECKBOX", "CUSTOM_FORMULA"] as const);
export const PROTECTION_TYPE = makeEnum(["RANGE", "SHEET"] as const);

export class FakeDataValidation
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Spreadsheet.DataValidation,
      "getAllowInvalid" | "getCriteriaValues" | "getHelpText"
    >
{
  static override readonly service = "DataValidation";
  constructor(readonly rule: ValidationRule) {
    super();
  }
  getAllowInvalid(): boolean {
    return this.rule.allowInvalid;
  }
  getCriteriaType(): unknown {
    return this.rule.kind === "checkbox"
      ? DATA_VALIDATION_CRITERIA.CHECKBOX
      : DATA_VALIDATION_CRITERIA.VALUE_IN_LIST;
  }
  getCriteriaValues(): unknown[] {
    return this.rule.kind === "checkbox" ? [] : [[...this.rule.values], this.rule.showDropdown];
  }
  getHelpText(): string {
    return "";
  }
}

export class FakeDataValidationBuilder
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Spreadsheet.DataValidationBuilder,
      "requireValueInList" | "requireCheckbox" | "setAllowInvalid" | "setHelpText" | "build"
    >
{
  static override readonly service = "DataValidationBuilder";
  private rule: ValidationRule = { kind: "list", values: [], showDropdown: true, allowInvalid: true };
  requireValueInList(values: string[], showDropdown?: boolean): this {
    if (!Array.isArray(values))
      throw new ServiceError("requireValueInList: values must be an array of strings.");
    this.rule = {
      ...this.rule,
      kind: "list",
      values: values.map(String),
      showDropdown: showDropdown ?? true,
    };
    return this;
  }
  requireCheckbox(): this {
    this.rule = { ...this.rule, kind: "checkbox", values: [] };
    return this;
  }
  setAllowInvalid(allowInvalidData: boolean): this {
    this.rule = { ...this.rule, allowInvalid: allowInvalidData };
    return this;
  }
  setHelpText(_helpText: string): this {
    return this;
  }
  build(): FakeDataValidation {
    return new FakeDataValidation({ ...this.rule, values: [...this.rule.values] });
  }
}

export class FakeProtection
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Spreadsheet.Protection,
      | "setWarningOnly"
      | "isWarningOnly"
      | "setDescription"
      | "getDescription"
      | "remove"
      | "canEdit"
      | "getEditors"
      | "removeEditors"
      | "addEditor"
    >
{
  static override readonly service = "Protection";
  constructor(
    private readonly doc: SpreadsheetDoc,
    readonly data: ProtectionData,
  ) {
    super();
  }
  setWarningOnly(warningOnly: boolean): this {
    this.data.warningOnly = !!warningOnly;
    return this;
  }
  isWarningOnly(): boolean {
    return this.data.warningOnly;
  }
  setDescription(description: string): this {
    this.data.description = String(description);
    return this;
  }
  getDescription(): string {
    return this.data.description;
  }
  remove(): void {
    const i = this.doc.protections.indexOf(this.data);
    if (i >= 0) this.doc.protections.splice(i, 1);
  }
  canEdit(): boolean {
    return true;
  }
  getEditors(): unknown[] {
    return [];
  }
  removeEditors(_users: Array<string | GoogleAppsScript.Base.User>): this {
    return this;
  }
  addEditor(user: string | GoogleAppsScript.Base.User): this {
    this.data.editors.push(typeof user === "string" ? user : user.getEmail());
    return this;
  }
  getProtectionType(): unknown {
    return this.data.rect ? PROTECTION_TYPE.RANGE : PROTECTION_TYPE.SHEET;
  }
}

/** Shared by Spreadsheet, Sheet and Range: one cache of fakes per document. */
class Fakes {
  private readonly sheets = new WeakMap<SheetData, FakeSheet>();
  constructor(
    readonly doc: SpreadsheetDoc,
    readonly host: SpreadsheetHost,
  ) {}
  sheet(data: SheetData): FakeSheet {
    let s = this.sheets.get(data);
    if (!s) {
      s = new FakeSheet(this, data);
      this.sheets.set(data, s);
    }
    return s;
  }
  range(data: SheetData, rect: GridRect): FakeRange {
    return new FakeRange(this, data, rect);
  }
  assertLive(data: SheetData): void {
    if (!this.doc.sheets.includes(data)) throw new ServiceError("The sheet has been deleted.");
  }
}

type RangeMembers =
  | "activate"
  | "check"
  | "clear"
  | "clearContent"
  | "clearDataValidations"
  | "clearFormat"
  | "clearNote"
  | "getA1Notation"
  | "getCell"
  | "getColumn"
  | "getDataValidation"
  | "getDataValidations"
  | "getDisplayValue"
  | "getDisplayValues"
  | "getFormula"
  | "getFormulas"
  | "getLastColumn"
  | "getLastRow"
  | "getNote"
  | "getNotes"
  | "getNumColumns"
  | "getNumRows"
  | "getNumberFormat"
  | "getNumberFormats"
  | "getRow"
  | "getSheet"
  | "getValue"
  | "getValues"
  | "insertCheckboxes"
  | "isBlank"
  | "isChecked"
  | "offset"
  | "protect"
  | "removeCheckboxes"
  | "setBackground"
  | "setBackgrounds"
  | "setDataValidation"
  | "setDataValidations"
  | "setFontColor"
  | "setFontColors"
  | "setFontSize"
  | "setFontWeight"
  | "setFontWeights"
  | "setFormula"
  | "setFormulas"
  | "setHorizontalAlignment"
  | "setNote"
  | "setNotes"
  | "setNumberFormat"
  | "setNumberFormats"
  | "setValue"
  | "setValues"
  | "setWrap"
  | "setWraps"
  | "sort"
  | "uncheck";

export class FakeRange extends Fake implements Implements<Range, RangeMembers> {
  static override readonly service = "Range";
  constructor(
    private readonly fakes: Fakes,
    readonly sheetData: SheetData,
    readonly rect: GridRect,
  ) {
    super();
  }

  private get doc(): SpreadsheetDoc {
    return this.fakes.doc;
  }

  private read(): void {
    this.fakes.assertLive(this.sheetData);
    this.fakes.host.countRead(this.sheetData, this.rect.numRows * this.rect.numColumns);
  }

  private write(): void {
    this.fakes.assertLive(this.sheetData);
    this.fakes.host.countWrite(this.sheetData, this.rect.numRows * this.rect.numColumns);
  }

  private grid<T>(fn: (row: number, column: number) => T): T[][] {
    const out: T[][] = [];
    for (let r = 0; r < this.rect.numRows; r++) {
      const line: T[] = [];
      for (let c = 0; c < this.rect.numColumns; c++) line.push(fn(this.rect.row + r, this.rect.column + c));
      out.push(line);
    }
    return out;
  }

  private each(fn: (row: number, column: number) => void): void {
    for (let r = 0; r < this.rect.numRows; r++)
      for (let c = 0; c < this.rect.numColumns; c++) fn(this.rect.row + r, this.rect.column + c);
  }

  private valueAt(row: number, column: number): CellScalar {
    return this.doc.valueOf(this.sheetData, this.sheetData.cell(row, column), this.fakes.host);
  }

  /** Stores a value as a script's setValue would (strings parsed as typed input). */
  private store(row: number, column: number, value: unknown): void {
    const cell = this.sheetData.cellForWrite(row, column);
    const scalar = scalarFromScript(value);
    if (scalar !== undefined) {
      cell.value = scalar;
      if (cell.formula !== undefined) delete cell.formula;
      return;
    }
    const typed = parseTypedInput(value as string, {
      numberFormat: cell.numberFormat ?? "General",
      locale: this.doc.locale,
      timeZone: this.doc.timeZone,
    });
    cell.value = typed.value;
    if (typed.formula !== undefined) cell.formula = typed.formula;
    else if (cell.formula !== undefined) delete cell.formula;
    if (typed.autoFormat && (cell.numberFormat === undefined || cell.numberFormat === "General")) {
      cell.numberFormat = typed.autoFormat;
    }
  }

  activate(): this {
    this.doc.active = { sheet: this.sheetData, ranges: [this.rect] };
    return this;
  }
  check(): this {
    this.write();
    this.each((r, c) => this.store(r, c, true));
    return this;
  }
  uncheck(): this {
    this.write();
    this.each((r, c) => this.store(r, c, false));
    return this;
  }
  isChecked(): boolean | null {
    this.read();
    const values = this.grid((r, c) => this.valueAt(r, c));
    const flat = values.flat();
    if (
      !this.grid((r, c) => this.sheetData.cell(r, c)?.validation?.kind === "checkbox")
        .flat()
        .every(Boolean)
    )
      return null;
    return flat.every((v) => v === true) ? true : flat.every((v) => v !== true) ? false : null;
  }
  clear(options?: {
    commentsOnly?: boolean;
    contentsOnly?: boolean;
    formatOnly?: boolean;
    validationsOnly?: boolean;
    skipFilteredRows?: boolean;
  }): this {
    this.write();
    const only =
      options &&
      (options.contentsOnly || options.formatOnly || options.validationsOnly || options.commentsOnly);
    const what = only
      ? {
          content: !!options?.contentsOnly,
          format: !!options?.formatOnly,
          validation: !!options?.validationsOnly,
          notes: !!options?.commentsOnly,
        }
      : { content: true, format: true, validation: false, notes: false };
    this.each((r, c) => {
      this.sheetData.clearCell(r, c, what);
    });
    return this;
  }
  clearContent(): this {
    return this.clear({ contentsOnly: true });
  }
  clearFormat(): this {
    return this.clear({ formatOnly: true });
  }
  clearDataValidations(): this {
    return this.clear({ validationsOnly: true });
  }
  clearNote(): this {
    return this.clear({ commentsOnly: true });
  }
  getA1Notation(): string {
    return toA1(this.rect);
  }
  getCell(row: number, column: number): FakeRange {
    if (row < 1 || column < 1 || row > this.rect.numRows || column > this.rect.numColumns) {
      throw new ServiceError(MESSAGES.outsideSheet);
    }
    return this.fakes.range(this.sheetData, {
      row: this.rect.row + row - 1,
      column: this.rect.column + column - 1,
      numRows: 1,
      numColumns: 1,
    });
  }
  getRow(): number {
    return this.rect.row;
  }
  getColumn(): number {
    return this.rect.column;
  }
  getNumRows(): number {
    return this.rect.numRows;
  }
  getNumColumns(): number {
    return this.rect.numColumns;
  }
  getLastRow(): number {
    return this.rect.row + this.rect.numRows - 1;
  }
  getLastColumn(): number {
    return this.rect.column + this.rect.numColumns - 1;
  }
  getSheet(): FakeSheet {
    return this.fakes.sheet(this.sheetData);
  }
  getValue(): unknown {
    this.read();
    return this.valueAt(this.rect.row, this.rect.column);
  }
  getValues(): unknown[][] {
    this.read();
    return this.grid((r, c) => this.valueAt(r, c));
  }
  getDisplayValue(): string {
    return this.getDisplayValues()[0]?.[0] ?? "";
  }
  getDisplayValues(): string[][] {
    this.read();
    return this.grid((r, c) => displayText(this.doc, this.sheetData, r, c, this.fakes.host));
  }
  getFormula(): string {
    this.read();
    return this.sheetData.cell(this.rect.row, this.rect.column)?.formula ?? "";
  }
  getFormulas(): string[][] {
    this.read();
    return this.grid((r, c) => this.sheetData.cell(r, c)?.formula ?? "");
  }
  getNote(): string {
    this.read();
    return this.sheetData.cell(this.rect.row, this.rect.column)?.note ?? "";
  }
  getNotes(): string[][] {
    this.read();
    return this.grid((r, c) => this.sheetData.cell(r, c)?.note ?? "");
  }
  getNumberFormat(): string {
    this.read();
    return this.sheetData.cell(this.rect.row, this.rect.column)?.numberFormat ?? "General";
  }
  getNumberFormats(): string[][] {
    this.read();
    return this.grid((r, c) => this.sheetData.cell(r, c)?.numberFormat ?? "General");
  }
  getDataValidation(): FakeDataValidation | null {
    this.read();
    const rule = this.sheetData.cell(this.rect.row, this.rect.column)?.validation;
    return rule ? new FakeDataValidation(rule) : null;
  }
  getDataValidations(): Array<Array<FakeDataValidation | null>> {
    this.read();
    return this.grid((r, c) => {
      const rule = this.sheetData.cell(r, c)?.validation;
      return rule ? new FakeDataValidation(rule) : null;
    }) as Array<Array<FakeDataValidation | null>>;
  }
  insertCheckboxes(): this {
    this.write();
    const rule: ValidationRule = { kind: "checkbox", values: [], showDropdown: false, allowInvalid: false };
    this.each((r, c) => {
      const cell = this.sheetData.cellForWrite(r, c);
      cell.validation = rule;
      if (cell.value === "" && cell.formula === undefined) cell.value = false;
    });
    return this;
  }
  removeCheckboxes(): this {
    this.write();
    this.each((r, c) => {
      const cell = this.sheetData.cell(r, c);
      if (cell?.validation?.kind !== "checkbox") return;
      delete cell.validation;
      if (typeof cell.value === "boolean" && !cell.formula) cell.value = "";
    });
    return this;
  }
  isBlank(): boolean {
    this.read();
    return this.grid((r, c) => {
      const cell = this.sheetData.cell(r, c);
      return !cell || (cell.value === "" && cell.formula === undefined);
    })
      .flat()
      .every(Boolean);
  }
  offset(rowOffset: number, columnOffset: number, numRows?: number, numColumns?: number): FakeRange {
    const rect = checkRect(
      this.sheetData,
      this.rect.row + rowOffset,
      this.rect.column + columnOffset,
      numRows ?? this.rect.numRows,
      numColumns ?? this.rect.numColumns,
    );
    return this.fakes.range(this.sheetData, rect);
  }
  protect(): FakeProtection {
    const data: ProtectionData = {
      sheet: this.sheetData,
      rect: this.rect,
      warningOnly: false,
      description: "",
      editors: [],
    };
    this.doc.protections.push(data);
    return new FakeProtection(this.doc, data);
  }
  private style(key: string, value: string | null): this {
    this.write();
    this.each((r, c) => {
      const cell = this.sheetData.cellForWrite(r, c);
      cell.style = { ...cell.style };
      if (value === null) delete cell.style[key];
      else cell.style[key] = String(value);
    });
    return this;
  }
  setBackground(color: string | null): this {
    return this.style("background", color);
  }
  setFontColor(color: string | null): this {
    return this.style("color", color);
  }
  /** One style value per cell (null or "" puts the default back), as the plural setters do. */
  private styles(key: string, values: unknown, method: string): this {
    const grid = requireGrid(values, method);
    checkDimensions(grid, this.rect);
    this.write();
    this.each((r, c) => {
      const cell = this.sheetData.cellForWrite(r, c);
      const value = grid[r - this.rect.row]?.[c - this.rect.column];
      cell.style = { ...cell.style };
      if (value === null || value === undefined || value === "") delete cell.style[key];
      else cell.style[key] = String(value);
    });
    return this;
  }
  /** One colour per cell (CSS text such as "#999999"; null or "" puts the default back). */
  setFontColors(colors: (string | null)[][]): this {
    return this.styles("color", colors, "setFontColors");
  }
  setBackgrounds(colors: (string | null)[][]): this {
    return this.styles("background", colors, "setBackgrounds");
  }
  setFontWeights(weights: Array<Array<GoogleAppsScript.Spreadsheet.FontWeight | null>>): this {
    return this.styles("fontWeight", weights, "setFontWeights");
  }
  setWraps(wraps: boolean[][]): this {
    const grid = requireGrid(wraps, "setWraps");
    return this.styles(
      "wrap",
      grid.map((r) => r.map((w) => String(!!w))),
      "setWraps",
    );
  }
  setFontSize(size: number | null): this {
    if (size !== null && !(Number.isInteger(size) && size > 0))
      throw new ServiceError("Invalid argument: size");
    return this.style("fontSize", size === null ? null : String(size));
  }
  setFontWeight(fontWeight: GoogleAppsScript.Spreadsheet.FontWeight | null): this {
    return this.style("fontWeight", fontWeight);
  }
  setHorizontalAlignment(alignment: "left" | "center" | "normal" | "right" | null): this {
    return this.style("align", alignment);
  }
  setWrap(isWrapEnabled: boolean): this {
    return this.style("wrap", String(!!isWrapEnabled));
  }
  setDataValidation(rule: GoogleAppsScript.Spreadsheet.DataValidation | null): this {
    this.write();
    const data = rule ? (rule as unknown as FakeDataValidation).rule : undefined;
    this.each((r, c) => {
      const cell = this.sheetData.cellForWrite(r, c);
      if (data) cell.validation = data;
      else delete cell.validation;
    });
    return this;
  }
  setDataValidations(rules: Array<Array<GoogleAppsScript.Spreadsheet.DataValidation | null>>): this {
    const grid = requireGrid(rules, "setDataValidations");
    checkDimensions(grid, this.rect);
    this.write();
    this.each((r, c) => {
      const rule = grid[r - this.rect.row]?.[c - this.rect.column] as FakeDataValidation | null;
      const cell = this.sheetData.cellForWrite(r, c);
      if (rule) cell.validation = rule.rule;
      else delete cell.validation;
    });
    return this;
  }
  setFormula(formula: string): this {
    this.write();
    this.each((r, c) => {
      const cell = this.sheetData.cellForWrite(r, c);
      cell.value = "";
      cell.formula = String(formula).startsWith("=") ? String(formula) : `=${formula}`;
    });
    return this;
  }
  setFormulas(formulas: string[][]): this {
    const grid = requireGrid(formulas, "setFormulas");
    checkDimensions(grid, this.rect);
    this.write();
    this.each((r, c) => {
      const f = grid[r - this.rect.row]?.[c - this.rect.column];
      const cell = this.sheetData.cellForWrite(r, c);
      if (typeof f === "string" && f.startsWith("=")) {
        cell.value = "";
        cell.formula = f;
      } else {
        this.store(r, c, f);
      }
    });
    return this;
  }
  setNote(note: string | null): this {
    this.write();
    this.each((r, c) => {
      const cell = this.sheetData.cellForWrite(r, c);
      if (note === null || note === "") delete cell.note;
      else cell.note = String(note);
    });
    return this;
  }
  setNotes(notes: Array<Array<string | null>>): this {
    const grid = requireGrid(notes, "setNotes");
    checkDimensions(grid, this.rect);
    this.write();
    this.each((r, c) => {
      const note = grid[r - this.rect.row]?.[c - this.rect.column];
      const cell = this.sheetData.cellForWrite(r, c);
      if (note === null || note === undefined || note === "") delete cell.note;
      else cell.note = String(note);
    });
    return this;
  }
  setNumberFormat(numberFormat: string): this {
    this.write();
    this.each((r, c) => {
      this.sheetData.cellForWrite(r, c).numberFormat = String(numberFormat);
    });
    return this;
  }
  setNumberFormats(numberFormats: string[][]): this {
    const grid = requireGrid(numberFormats, "setNumberFormats");
    checkDimensions(grid, this.rect);
    this.write();
    // Row by row, without a call per cell: a refresh writes hundreds of thousands.
    const { row, column, numRows, numColumns } = this.rect;
    for (let r = 0; r < numRows; r++) {
      const line = grid[r];
      for (let c = 0; c < numColumns; c++)
        this.sheetData.cellForWrite(row + r, column + c).numberFormat = String(line?.[c]);
    }
    return this;
  }
  setValue(value: unknown): this {
    if (Array.isArray(value)) {
      throw new ServiceError(
        "The parameters (Object[]) don't match the method signature for SpreadsheetApp.Range.setValue.",
      );
    }
    checkCellLength([[value]]);
    this.write();
    this.each((r, c) => this.store(r, c, value));
    return this;
  }
  setValues(values: unknown[][]): this {
    const grid = requireGrid(values, "setValues");
    checkDimensions(grid, this.rect);
    checkCellLength(grid);
    this.write();
    const { row, column, numRows, numColumns } = this.rect;
    for (let r = 0; r < numRows; r++) {
      const line = grid[r];
      for (let c = 0; c < numColumns; c++) this.store(row + r, column + c, line?.[c]);
    }
    return this;
  }
  sort(sortSpecObj: unknown): this {
    this.write();
    const spec = (Array.isArray(sortSpecObj) ? sortSpecObj[0] : sortSpecObj) as
      | number
      | { column: number; ascending?: boolean };
    const column = typeof spec === "number" ? spec : spec.column;
    const ascending = typeof spec === "number" ? true : spec.ascending !== false;
    if (column < this.rect.column || column > this.getLastColumn()) {
      throw new ServiceError(`The sort column must be within the range (${toA1(this.rect)}).`);
    }
    const rows = this.grid((r, c) => this.sheetData.cell(r, c));
    const key = (row: Array<Cell | undefined>) => {
      const cell = row[column - this.rect.column];
      return cell ? this.doc.valueOf(this.sheetData, cell, this.fakes.host) : "";
    };
    rows.sort((a, b) => compareForSort(key(a), key(b), ascending));
    this.each((r, c) => {
      const target = this.sheetData.cellForWrite(r, c);
      const source = rows[r - this.rect.row]?.[c - this.rect.column];
      for (const k of Object.keys(target)) delete (target as unknown as Record<string, unknown>)[k];
      Object.assign(target, source ? { ...source } : { value: "" });
    });
    return this;
  }
}

function compareForSort(x: CellScalar, y: CellScalar, ascending: boolean): number {
  if (x === "" || y === "") return x === "" ? (y === "" ? 0 : 1) : -1;
  const nx = x instanceof Date ? x.getTime() : x;
  const ny = y instanceof Date ? y.getTime() : y;
  let order: number;
  if (typeof nx === "number" && typeof ny === "number") order = nx - ny;
  else if (typeof nx === "number") order = -1;
  else if (typeof ny === "number") order = 1;
  else order = String(nx).localeCompare(String(ny));
  return ascending ? order : -order;
}

/** The text a cell shows, through its number format (dates in the spreadsheet's time zone). */
export function displayText(
  doc: SpreadsheetDoc,
  sheet: SheetData,
  row: number,
  column: number,
  host: SpreadsheetHost,
): string {
  const cell = sheet.cell(row, column);
  const value = doc.valueOf(sheet, cell, host);
  const v = value instanceof Date ? value.toISOString() : value;
  return displayCell(v, cell?.numberFormat, doc.timeZone).text;
}

type SheetMembers =
  | "activate"
  | "appendRow"
  | "autoResizeColumns"
  | "clear"
  | "clearContents"
  | "clearFormats"
  | "clearNotes"
  | "deleteColumn"
  | "deleteColumns"
  | "deleteRow"
  | "deleteRows"
  | "getDataRange"
  | "getConditionalFormatRules"
  | "getFrozenColumns"
  | "getFrozenRows"
  | "getIndex"
  | "hideColumns"
  | "hideRows"
  | "isColumnHiddenByUser"
  | "isRowHiddenByUser"
  | "moveColumns"
  | "setConditionalFormatRules"
  | "clearConditionalFormatRules"
  | "showColumns"
  | "showRows"
  | "getLastColumn"
  | "getLastRow"
  | "getMaxColumns"
  | "getMaxRows"
  | "getName"
  | "getCharts"
  | "insertChart"
  | "newChart"
  | "removeChart"
  | "updateChart"
  | "getParent"
  | "getProtections"
  | "getRange"
  | "getSheetId"
  | "getSheetName"
  | "hideSheet"
  | "insertColumnAfter"
  | "insertColumnBefore"
  | "insertColumns"
  | "insertColumnsAfter"
  | "insertColumnsBefore"
  | "insertRowAfter"
  | "insertRowBefore"
  | "insertRows"
  | "insertRowsAfter"
  | "insertRowsBefore"
  | "isSheetHidden"
  | "protect"
  | "setColumnWidth"
  | "setColumnWidths"
  | "setFrozenColumns"
  | "setFrozenRows"
  | "setName"
  | "setTabColor"
  | "showSheet"
  | "sort";

export class FakeSheet extends Fake implements Implements<Sheet, SheetMembers> {
  static override readonly service = "Sheet";
  hidden = false;
  constructor(
    private readonly fakes: Fakes,
    readonly data: SheetData,
  ) {
    super();
  }
  private write(): void {
    this.fakes.assertLive(this.data);
    this.fakes.host.countWrite(this.data);
  }
  private get charts(): SheetCharts {
    return new SheetCharts(this.data, (r) => this.fakes.range(r.sheetData, r.rect));
  }
  newChart(): FakeEmbeddedChartBuilder {
    this.fakes.assertLive(this.data);
    return this.charts.newChart();
  }
  insertChart(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    this.write();
    this.charts.insert(chart);
  }
  getCharts(): FakeEmbeddedChart[] {
    this.fakes.assertLive(this.data);
    this.fakes.host.countRead(this.data);
    return this.charts.list();
  }
  updateChart(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    this.write();
    this.charts.update(chart);
  }
  removeChart(chart: GoogleAppsScript.Spreadsheet.EmbeddedChart): void {
    this.write();
    this.charts.remove(chart);
  }
  activate(): this {
    this.fakes.doc.active = { sheet: this.data, ranges: [{ row: 1, column: 1, numRows: 1, numColumns: 1 }] };
    return this;
  }
  appendRow(rowContents: unknown[]): this {
    if (!Array.isArray(rowContents) || rowContents.length === 0) {
      throw new ServiceError(
        "The parameters (Object[]) don't match the method signature for SpreadsheetApp.Sheet.appendRow.",
      );
    }
    const row = this.data.lastRow() + 1;
    if (row > this.data.maxRows) {
      this.fakes.doc.checkGrowth(this.data, row - this.data.maxRows, 0);
      this.data.insertRows(this.data.maxRows + 1, row - this.data.maxRows);
    }
    if (rowContents.length > this.data.maxColumns)
      this.data.insertColumns(this.data.maxColumns + 1, rowContents.length - this.data.maxColumns);
    this.fakes
      .range(this.data, { row, column: 1, numRows: 1, numColumns: rowContents.length })
      .setValues([rowContents]);
    return this;
  }
  autoResizeColumns(_startColumn: number, _numColumns: number): this {
    return this;
  }
  setColumnWidth(columnPosition: number, width: number): this {
    return this.setColumnWidths(columnPosition, 1, width);
  }
  /** Widths are kept (in pixels) so that tests and the playground can read them. */
  setColumnWidths(startColumn: number, numColumns: number, width: number): this {
    for (const n of [startColumn, numColumns, width])
      if (!Number.isInteger(n) || n < 1) throw new ServiceError("Invalid argument: width");
    for (let c = startColumn; c < startColumn + numColumns; c++) this.data.columnWidths.set(c, width);
    return this;
  }
  setTabColor(_color: string | null): this {
    return this;
  }
  clear(options?: { contentsOnly?: boolean; formatOnly?: boolean }): this {
    this.write();
    const only = options && (options.contentsOnly || options.formatOnly);
    this.data.clearAll(
      only
        ? { content: !!options?.contentsOnly, format: !!options?.formatOnly }
        : { content: true, format: true },
    );
    return this;
  }
  clearContents(): this {
    return this.clear({ contentsOnly: true });
  }
  clearFormats(): this {
    return this.clear({ formatOnly: true });
  }
  clearNotes(): this {
    this.write();
    this.data.clearAll({ notes: true });
    return this;
  }
  private checkRows(position: number, howMany: number, max: number, what: "row" | "column"): void {
    if (!Number.isInteger(position) || position < 1 || position > max) {
      throw new ServiceError(`Those ${what}s are out of bounds.`);
    }
    if (!Number.isInteger(howMany) || howMany < 1) {
      throw new ServiceError(what === "row" ? MESSAGES.rowsAtLeastOne : MESSAGES.columnsAtLeastOne);
    }
  }
  deleteRow(rowPosition: number): this {
    return this.deleteRows(rowPosition, 1);
  }
  deleteRows(rowPosition: number, howMany: number): this {
    this.checkRows(rowPosition, howMany, this.data.maxRows, "row");
    if (rowPosition + howMany - 1 > this.data.maxRows)
      throw new ServiceError("Those rows are out of bounds.");
    if (howMany >= this.data.maxRows) throw new ServiceError("You can't delete all the rows on the sheet.");
    this.write();
    this.data.deleteRows(rowPosition, howMany);
    return this;
  }
  deleteColumn(columnPosition: number): this {
    this.deleteColumns(columnPosition, 1);
    return this;
  }
  deleteColumns(columnPosition: number, howMany: number): void {
    this.checkRows(columnPosition, howMany, this.data.maxColumns, "column");
    if (columnPosition + howMany - 1 > this.data.maxColumns)
      throw new ServiceError("Those columns are out of bounds.");
    if (howMany >= this.data.maxColumns)
      throw new ServiceError("You can't delete all the columns on the sheet.");
    this.write();
    this.data.deleteColumns(columnPosition, howMany);
  }
  insertRows(rowIndex: number, numRows?: number): void {
    this.insertRowsBefore(rowIndex, numRows ?? 1);
  }
  insertRowsBefore(beforePosition: number, howMany: number): this {
    this.checkRows(beforePosition, howMany, this.data.maxRows, "row");
    this.write();
    this.fakes.doc.checkGrowth(this.data, howMany, 0);
    this.data.insertRows(beforePosition, howMany);
    return this;
  }
  insertRowsAfter(afterPosition: number, howMany: number): this {
    this.checkRows(afterPosition, howMany, this.data.maxRows, "row");
    this.write();
    this.fakes.doc.checkGrowth(this.data, howMany, 0);
    this.data.insertRows(afterPosition + 1, howMany);
    return this;
  }
  insertRowBefore(beforePosition: number): this {
    return this.insertRowsBefore(beforePosition, 1);
  }
  insertRowAfter(afterPosition: number): this {
    return this.insertRowsAfter(afterPosition, 1);
  }
  insertColumns(columnIndex: number, numColumns?: number): void {
    this.insertColumnsBefore(columnIndex, numColumns ?? 1);
  }
  insertColumnsBefore(beforePosition: number, howMany: number): this {
    this.checkRows(beforePosition, howMany, this.data.maxColumns, "column");
    this.write();
    this.fakes.doc.checkGrowth(this.data, 0, howMany);
    this.data.insertColumns(beforePosition, howMany);
    return this;
  }
  insertColumnsAfter(afterPosition: number, howMany: number): this {
    this.checkRows(afterPosition, howMany, this.data.maxColumns, "column");
    this.write();
    this.fakes.doc.checkGrowth(this.data, 0, howMany);
    this.data.insertColumns(afterPosition + 1, howMany);
    return this;
  }
  insertColumnBefore(beforePosition: number): this {
    return this.insertColumnsBefore(beforePosition, 1);
  }
  /**
   * Moves the columns `columnSpec` spans to before column `destinationIndex` (numbered as before
   * the move), with their cells, formats, notes, validation, hidden state, conditional formats
   * and protections.
   */
  moveColumns(columnSpec: Range, destinationIndex: number): void {
    const spec = columnSpec as unknown as FakeRange;
    if (spec?.sheetData !== this.data) throw new ServiceError("The range must be on this sheet.");
    const { column, numColumns } = spec.rect;
    if (
      !Number.isInteger(destinationIndex) ||
      destinationIndex < 1 ||
      destinationIndex > this.data.maxColumns + 1
    )
      throw new ServiceError("Those columns are out of bounds.");
    this.write();
    const map = this.data.moveColumns(column, numColumns, destinationIndex);
    // A protected range follows its columns; one whose columns are parted keeps its first piece.
    for (const p of this.fakes.doc.protections) {
      if (p.sheet !== this.data || !p.rect) continue;
      const pieces = remapRect(p.rect, map);
      if (pieces[0]) p.rect = pieces[0];
    }
  }
  private checkColumns(columnIndex: number, numColumns: number | undefined): number {
    const count = numColumns ?? 1;
    this.checkRows(columnIndex, count, this.data.maxColumns, "column");
    if (columnIndex + count - 1 > this.data.maxColumns)
      throw new ServiceError("Those columns are out of bounds.");
    return count;
  }
  hideColumns(columnIndex: number, numColumns?: number): void {
    const count = this.checkColumns(columnIndex, numColumns);
    this.write();
    for (let c = columnIndex; c < columnIndex + count; c++) this.data.hiddenColumns.add(c);
  }
  showColumns(columnIndex: number, numColumns?: number): void {
    const count = this.checkColumns(columnIndex, numColumns);
    this.write();
    for (let c = columnIndex; c < columnIndex + count; c++) this.data.hiddenColumns.delete(c);
  }
  private checkRowSpan(rowIndex: number, numRows: number | undefined): number {
    const count = numRows ?? 1;
    this.checkRows(rowIndex, count, this.data.maxRows, "row");
    if (rowIndex + count - 1 > this.data.maxRows) throw new ServiceError("Those rows are out of bounds.");
    return count;
  }
  hideRows(rowIndex: number, numRows?: number): void {
    const count = this.checkRowSpan(rowIndex, numRows);
    this.write();
    for (let r = rowIndex; r < rowIndex + count; r++) this.data.hiddenRows.add(r);
  }
  showRows(rowIndex: number, numRows?: number): void {
    const count = this.checkRowSpan(rowIndex, numRows);
    this.write();
    for (let r = rowIndex; r < rowIndex + count; r++) this.data.hiddenRows.delete(r);
  }
  isRowHiddenByUser(rowPosition: number): boolean {
    this.checkRowSpan(rowPosition, 1);
    this.fakes.host.countRead(this.data);
    return this.data.hiddenRows.has(rowPosition);
  }
  isColumnHiddenByUser(columnPosition: number): boolean {
    this.checkColumns(columnPosition, 1);
    this.fakes.host.countRead(this.data);
    return this.data.hiddenColumns.has(columnPosition);
  }
  private rangeOf = (range: RuleRange): FakeRange => this.fakes.range(range.sheetData, range.rect);
  getConditionalFormatRules(): FakeConditionalFormatRule[] {
    this.fakes.assertLive(this.data);
    this.fakes.host.countRead(this.data);
    return this.data.conditionalRules.map((rule) => ruleOf(this.data, rule, this.rangeOf));
  }
  setConditionalFormatRules(rules: GoogleAppsScript.Spreadsheet.ConditionalFormatRule[]): void {
    if (!Array.isArray(rules)) throw new ServiceError("Invalid argument: rules");
    this.write();
    this.data.conditionalRules = ruleData(this.data, rules);
  }
  clearConditionalFormatRules(): void {
    this.write();
    this.data.conditionalRules = [];
  }
  insertColumnAfter(afterPosition: number): this {
    return this.insertColumnsAfter(afterPosition, 1);
  }
  getDataRange(): FakeRange {
    return this.fakes.range(this.data, {
      row: 1,
      column: 1,
      numRows: Math.max(1, this.data.lastRow()),
      numColumns: Math.max(1, this.data.lastColumn()),
    });
  }
  getFrozenRows(): number {
    return this.data.frozenRows;
  }
  getFrozenColumns(): number {
    return this.data.frozenColumns;
  }
  setFrozenRows(rows: number): void {
    if (!Number.isInteger(rows) || rows < 0 || rows >= this.data.maxRows) {
      throw new ServiceError(`Invalid argument: rows (${rows})`);
    }
    this.write();
    this.data.frozenRows = rows;
  }
  setFrozenColumns(columns: number): void {
    if (!Number.isInteger(columns) || columns < 0 || columns >= this.data.maxColumns) {
      throw new ServiceError(`Invalid argument: columns (${columns})`);
    }
    this.write();
    this.data.frozenColumns = columns;
  }
  getIndex(): number {
    return this.fakes.doc.sheets.indexOf(this.data) + 1;
  }
  getLastRow(): number {
    return this.data.lastRow();
  }
  getLastColumn(): number {
    return this.data.lastColumn();
  }
  getMaxRows(): number {
    return this.data.maxRows;
  }
  getMaxColumns(): number {
    return this.data.maxColumns;
  }
  getName(): string {
    return this.data.name;
  }
  getSheetName(): string {
    return this.data.name;
  }
  setName(name: string): this {
    const text = String(name);
    if (text.trim() === "") throw new ServiceError("Sheet names can't be blank.");
    const other = this.fakes.doc.sheetByName(text);
    if (other && other !== this.data) {
      throw new ServiceError(`A sheet with the name "${text}" already exists. Please enter another name.`);
    }
    this.data.name = text;
    return this;
  }
  getSheetId(): number {
    return this.data.sheetId;
  }
  getParent(): FakeSpreadsheet {
    return new FakeSpreadsheet(this.fakes);
  }
  getProtections(type: GoogleAppsScript.Spreadsheet.ProtectionType): FakeProtection[] {
    const wantSheet = String(type) === "SHEET";
    return this.fakes.doc.protections
      .filter((p) => p.sheet === this.data && (p.rect === undefined) === wantSheet)
      .map((p) => new FakeProtection(this.fakes.doc, p));
  }
  protect(): FakeProtection {
    const existing = this.fakes.doc.protections.find((p) => p.sheet === this.data && !p.rect);
    if (existing) return new FakeProtection(this.fakes.doc, existing);
    const data: ProtectionData = {
      sheet: this.data,
      rect: undefined,
      warningOnly: false,
      description: "",
      editors: [],
    };
    this.fakes.doc.protections.push(data);
    return new FakeProtection(this.fakes.doc, data);
  }
  getRange(a: string | number, column?: number, numRows?: number, numColumns?: number): FakeRange {
    this.fakes.assertLive(this.data);
    if (typeof a === "string") {
      const { sheetName, a1 } = splitSheetRef(a);
      const target = sheetName === undefined ? this.data : this.fakes.doc.sheetByName(sheetName);
      if (!target) throw new ServiceError("Range not found");
      return this.fakes.range(target, rangeFromA1(target, a1));
    }
    if (column === undefined) {
      throw new ServiceError(
        "The parameters (number) don't match the method signature for SpreadsheetApp.Sheet.getRange.",
      );
    }
    return this.fakes.range(this.data, checkRect(this.data, a, column, numRows ?? 1, numColumns ?? 1));
  }
  hideSheet(): this {
    this.hidden = true;
    return this;
  }
  showSheet(): this {
    this.hidden = false;
    return this;
  }
  isSheetHidden(): boolean {
    return this.hidden;
  }
  sort(columnPosition: number, ascending?: boolean): this {
    const frozen = this.data.frozenRows;
    const last = this.data.lastRow();
    if (last > frozen) {
      this.fakes
        .range(this.data, {
          row: frozen + 1,
          column: 1,
          numRows: last - frozen,
          numColumns: this.data.maxColumns,
        })
        .sort({ column: columnPosition, ascending: ascending !== false });
    }
    return this;
  }
}

type SpreadsheetMembers =
  | "deleteSheet"
  | "getActiveRange"
  | "getActiveRangeList"
  | "getActiveSheet"
  | "getId"
  | "getName"
  | "getRange"
  | "getSelection"
  | "getSheetByName"
  | "getSheets"
  | "getSpreadsheetLocale"
  | "getSpreadsheetTimeZone"
  | "getUrl"
  | "insertSheet"
  | "rename"
  | "setActiveSheet"
  | "setActiveRange"
  | "setActiveSelection"
  | "setSpreadsheetTimeZone"
  | "toast";

export class FakeSpreadsheet extends Fake implements Implements<Spreadsheet, SpreadsheetMembers> {
  static override readonly service = "Spreadsheet";
  constructor(private readonly fakes: Fakes) {
    super();
  }
  private get doc(): SpreadsheetDoc {
    return this.fakes.doc;
  }
  deleteSheet(sheet: Sheet): void {
    const data = (sheet as unknown as FakeSheet).data;
    const i = this.doc.sheets.indexOf(data);
    if (i < 0) throw new ServiceError("The sheet has been deleted.");
    if (this.doc.sheets.length === 1) {
      throw new ServiceError("You can't remove all the sheets in a document.");
    }
    this.doc.sheets.splice(i, 1);
    for (let p = this.doc.protections.length - 1; p >= 0; p--) {
      if (this.doc.protections[p]?.sheet === data) this.doc.protections.splice(p, 1);
    }
    if (this.doc.active.sheet === data) {
      this.doc.active = {
        sheet: this.doc.sheets[0] as SheetData,
        ranges: [{ row: 1, column: 1, numRows: 1, numColumns: 1 }],
      };
    }
  }
  getActiveSheet(): FakeSheet {
    return this.fakes.sheet(this.doc.active.sheet);
  }
  getActiveRange(): FakeRange | null {
    const last = this.doc.active.ranges[this.doc.active.ranges.length - 1];
    return last ? this.fakes.range(this.doc.active.sheet, last) : null;
  }
  getActiveRangeList(): FakeRangeList | null {
    if (this.doc.active.ranges.length === 0) return null;
    return new FakeRangeList(this.doc.active.ranges.map((r) => this.fakes.range(this.doc.active.sheet, r)));
  }
  getSelection(): FakeSelection {
    return new FakeSelection(this);
  }
  getId(): string {
    return this.doc.id;
  }
  getName(): string {
    return this.doc.name;
  }
  rename(newName: string): void {
    this.doc.name = String(newName);
  }
  getUrl(): string {
    return `https://docs.google.com/spreadsheets/d/${this.doc.id}/edit`;
  }
  getRange(a1Notation: string): FakeRange {
    const { sheetName, a1 } = splitSheetRef(String(a1Notation));
    const target = sheetName === undefined ? this.doc.active.sheet : this.doc.sheetByName(sheetName);
    if (!target) throw new ServiceError("Range not found");
    return this.fakes.range(target, rangeFromA1(target, a1));
  }
  getSheetByName(name: string): FakeSheet | null {
    const data = this.doc.sheetByName(String(name));
    return data ? this.fakes.sheet(data) : null;
  }
  getSheets(): FakeSheet[] {
    return this.doc.sheets.map((s) => this.fakes.sheet(s));
  }
  getSpreadsheetLocale(): string {
    return this.doc.locale;
  }
  getSpreadsheetTimeZone(): string {
    return this.doc.timeZone;
  }
  setSpreadsheetTimeZone(timezone: string): void {
    this.doc.timeZone = String(timezone);
  }
  insertSheet(sheetName?: string | number | object, sheetIndex?: number | object): FakeSheet {
    const name = typeof sheetName === "string" ? sheetName : this.doc.freeSheetName();
    const index =
      typeof sheetName === "number" ? sheetName : typeof sheetIndex === "number" ? sheetIndex : undefined;
    if (this.doc.sheetByName(name)) {
      throw new ServiceError(`A sheet with the name "${name}" already exists. Please enter another name.`);
    }
    this.doc.checkGrowth(undefined, 1000, 26);
    const data = this.doc.addSheet(name, index);
    // Like the Sheets UI, a new sheet becomes the active one.
    this.doc.active = { sheet: data, ranges: [{ row: 1, column: 1, numRows: 1, numColumns: 1 }] };
    return this.fakes.sheet(data);
  }
  setActiveSheet(sheet: Sheet): FakeSheet {
    const fake = sheet as unknown as FakeSheet;
    fake.activate();
    return fake;
  }
  setActiveRange(range: Range): FakeRange {
    return (range as unknown as FakeRange).activate();
  }
  setActiveSelection(range: string | Range): FakeRange {
    const r = typeof range === "string" ? this.getRange(range) : (range as unknown as FakeRange);
    return r.activate();
  }
  toast(msg: string, title?: string, timeoutSeconds?: number | null): void {
    this.fakes.host.toast(String(msg), title === undefined ? "" : String(title), timeoutSeconds ?? 5);
  }
}

export class FakeRangeList
  extends Fake
  implements Implements<GoogleAppsScript.Spreadsheet.RangeList, "getRanges">
{
  static override readonly service = "RangeList";
  constructor(private readonly ranges: FakeRange[]) {
    super();
  }
  getRanges(): FakeRange[] {
    return [...this.ranges];
  }
}

export class FakeSelection
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Spreadsheet.Selection,
      "getActiveRange" | "getActiveRangeList" | "getActiveSheet" | "getCurrentCell"
    >
{
  static override readonly service = "Selection";
  constructor(private readonly spreadsheet: FakeSpreadsheet) {
    super();
  }
  getActiveRange(): FakeRange | null {
    return this.spreadsheet.getActiveRange();
  }
  getActiveRangeList(): FakeRangeList | null {
    return this.spreadsheet.getActiveRangeList();
  }
  getActiveSheet(): FakeSheet {
    return this.spreadsheet.getActiveSheet();
  }
  getCurrentCell(): FakeRange | null {
    const r = this.spreadsheet.getActiveRange();
    return r ? r.getCell(1, 1) : null;
  }
}

type AppMembers =
  | "flush"
  | "getActive"
  | "getActiveRange"
  | "getActiveRangeList"
  | "getActiveSheet"
  | "getActiveSpreadsheet"
  | "getCurrentCell"
  | "getSelection"
  | "getUi"
  | "newConditionalFormatRule"
  | "newDataValidation"
  | "setActiveSheet"
  | "setActiveRange";

/** The SpreadsheetApp global. */
export class FakeSpreadsheetApp
  extends Fake
  implements Implements<GoogleAppsScript.Spreadsheet.SpreadsheetApp, AppMembers>
{
  static override readonly service = "SpreadsheetApp";
  readonly DataValidationCriteria: EnumOf<"VALUE_IN_LIST" | "CHECKBOX" | "CUSTOM_FORMULA"> =
    DATA_VALIDATION_CRITERIA;
  readonly ProtectionType: EnumOf<"RANGE" | "SHEET"> = PROTECTION_TYPE;
  readonly BooleanCriteria = BOOLEAN_CRITERIA;
  private readonly fakes: Fakes;
  flushes = 0;

  constructor(doc: SpreadsheetDoc, host: SpreadsheetHost) {
    super();
    this.fakes = new Fakes(doc, host);
  }
  flush(): void {
    this.flushes++;
  }
  getActive(): FakeSpreadsheet {
    return this.getActiveSpreadsheet();
  }
  getActiveSpreadsheet(): FakeSpreadsheet {
    if (this.fakes.host.hasActive && !this.fakes.host.hasActive()) return null as unknown as FakeSpreadsheet;
    return new FakeSpreadsheet(this.fakes);
  }
  openById(id: string): FakeSpreadsheet {
    if (id !== this.fakes.doc.id)
      throw new ServiceError(
        `Unexpected error while getting the method or property openById on object SpreadsheetApp.`,
      );
    return new FakeSpreadsheet(this.fakes);
  }
  getActiveRange(): FakeRange | null {
    return this.getActive().getActiveRange();
  }
  getActiveRangeList(): FakeRangeList | null {
    return this.getActive().getActiveRangeList();
  }
  getActiveSheet(): FakeSheet {
    return this.getActive().getActiveSheet();
  }
  getCurrentCell(): FakeRange | null {
    return this.getActive().getSelection().getCurrentCell();
  }
  getSelection(): FakeSelection {
    return this.getActive().getSelection();
  }
  getUi(): GoogleAppsScript.Base.Ui {
    return this.fakes.host.getUi() as GoogleAppsScript.Base.Ui;
  }
  newDataValidation(): FakeDataValidationBuilder {
    return new FakeDataValidationBuilder();
  }
  newConditionalFormatRule(): FakeConditionalFormatRuleBuilder {
    return new FakeConditionalFormatRuleBuilder(undefined, (range) =>
      this.fakes.range(range.sheetData, range.rect),
    );
  }
  setActiveSheet(sheet: Sheet): FakeSheet {
    return this.getActive().setActiveSheet(sheet);
  }
  setActiveRange(range: Range): FakeRange {
    return this.getActive().setActiveRange(range);
  }
}
