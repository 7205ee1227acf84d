/**
 * Conditional formatting: SpreadsheetApp.newConditionalFormatRule(), the rules a sheet keeps
 * (Sheet.get/setConditionalFormatRules), and what they show on a cell, for the control API and
 * the playground. Boolean conditions only (no colour scales); a custom formula is evaluated for
 * each cell with its relative references moved from the first cell of the rule's first range,
 * as Sheets does.
 */
import { makeEnum } from "../enums";
import { ServiceError } from "../errors";
import { evaluateFormula } from "../formula";
import { Fake } from "../realm";
import type { Implements } from "../typed";
import type { GridRect } from "./a1";
import type { ConditionalRuleData, SheetData, Workbook } from "./model";

export const BOOLEAN_CRITERIA = makeEnum([
  "CELL_EMPTY",
  "CELL_NOT_EMPTY",
  "CUSTOM_FORMULA",
  "TEXT_CONTAINS",
  "TEXT_EQUAL_TO",
] as const);

/** What a range given to setRanges must be: a range of one sheet. */
export interface RuleRange {
  readonly sheetData: SheetData;
  readonly rect: GridRect;
}

interface RuleDraft {
  criteria: string | undefined;
  values: string[];
  background?: string;
  fontColor?: string;
  bold?: boolean;
  ranges: RuleRange[];
}

export class FakeBooleanCondition
  extends Fake
  implements
    Implements<
      GoogleAppsScript.Spreadsheet.BooleanCondition,
      "getCriteriaValues" | "getBackground" | "getFontColor" | "getBold"
    >
{
  static override readonly service = "BooleanCondition";
  constructor(private readonly draft: RuleDraft) {
    super();
  }
  getCriteriaType(): unknown {
    return BOOLEAN_CRITERIA[this.draft.criteria as keyof typeof BOOLEAN_CRITERIA];
  }
  getCriteriaValues(): unknown[] {
    return [...this.draft.values];
  }
  getBackground(): string {
    return this.draft.background ?? "";
  }
  getFontColor(): string {
    return this.draft.fontColor ?? "";
  }
  getBold(): boolean {
    return this.draft.bold ?? false;
  }
}

export class FakeConditionalFormatRule
  extends Fake
  implements Implements<GoogleAppsScript.Spreadsheet.ConditionalFormatRule, "getRanges" | "copy">
{
  static override readonly service = "ConditionalFormatRule";
  constructor(
    readonly draft: RuleDraft,
    private readonly rangeOf: (range: RuleRange) => unknown,
  ) {
    super();
  }
  getRanges(): unknown[] {
    return this.draft.ranges.map(this.rangeOf);
  }
  getBooleanCondition(): FakeBooleanCondition | null {
    return new FakeBooleanCondition(this.draft);
  }
  getGradientCondition(): null {
    return null;
  }
  copy(): FakeConditionalFormatRuleBuilder {
    return new FakeConditionalFormatRuleBuilder(
      { ...this.draft, values: [...this.draft.values], ranges: [...this.draft.ranges] },
      this.rangeOf,
    );
  }
}

type BuilderMembers =
  | "whenFormulaSatisfied"
  | "whenTextEqualTo"
  | "whenTextContains"
  | "whenCellEmpty"
  | "whenCellNotEmpty"
  | "setBackground"
  | "setFontColor"
  | "setBold"
  | "setRanges"
  | "getRanges";

export class FakeConditionalFormatRuleBuilder
  extends Fake
  implements Implements<GoogleAppsScript.Spreadsheet.ConditionalFormatRuleBuilder, BuilderMembers>
{
  static override readonly service = "ConditionalFormatRuleBuilder";
  constructor(
    private readonly draft: RuleDraft = { criteria: undefined, values: [], ranges: [] },
    private readonly rangeOf: (range: RuleRange) => unknown = (r) => r,
  ) {
    super();
  }
  private when(criteria: string, values: string[]): this {
    this.draft.criteria = criteria;
    this.draft.values = values;
    return this;
  }
  whenFormulaSatisfied(formula: string): this {
    const text = String(formula);
    // The Sheets dialog refuses a custom formula without its "="; the emulation does too.
    if (!text.startsWith("=")) throw new ServiceError(`Invalid argument: formula (${text})`);
    return this.when("CUSTOM_FORMULA", [text]);
  }
  whenTextEqualTo(text: string): this {
    return this.when("TEXT_EQUAL_TO", [String(text)]);
  }
  whenTextContains(text: string): this {
    return this.when("TEXT_CONTAINS", [String(text)]);
  }
  whenCellEmpty(): this {
    return this.when("CELL_EMPTY", []);
  }
  whenCellNotEmpty(): this {
    return this.when("CELL_NOT_EMPTY", []);
  }
  setBackground(color: string | null): this {
    if (color === null || color === "") delete this.draft.background;
    else this.draft.background = String(color);
    return this;
  }
  setFontColor(color: string | null): this {
    if (color === null || color === "") delete this.draft.fontColor;
    else this.draft.fontColor = String(color);
    return this;
  }
  setBold(bold: boolean | null): this {
    if (bold === null) delete this.draft.bold;
    else this.draft.bold = !!bold;
    return this;
  }
  setRanges(ranges: GoogleAppsScript.Spreadsheet.Range[]): this {
    if (!Array.isArray(ranges)) throw new ServiceError("Invalid argument: ranges");
    this.draft.ranges = (ranges as unknown as RuleRange[]).map((r) => ({
      sheetData: r.sheetData,
      rect: r.rect,
    }));
    return this;
  }
  getRanges(): unknown[] {
    return this.draft.ranges.map(this.rangeOf);
  }
  build(): FakeConditionalFormatRule {
    // Stricter than unsure: a rule needs a condition and at least one range.
    if (this.draft.criteria === undefined) throw new ServiceError("Invalid argument: condition");
    if (this.draft.ranges.length === 0) throw new ServiceError("Invalid argument: ranges");
    return new FakeConditionalFormatRule(
      { ...this.draft, values: [...this.draft.values], ranges: [...this.draft.ranges] },
      this.rangeOf,
    );
  }
}

/** The rules to keep on `sheet`: each range must be on that sheet. */
export function ruleData(sheet: SheetData, rules: unknown[]): ConditionalRuleData[] {
  return rules.map((rule) => {
    const draft = (rule as FakeConditionalFormatRule).draft;
    if (!draft) throw new ServiceError("Invalid argument: rules");
    if (draft.ranges.some((r) => r.sheetData !== sheet)) {
      throw new ServiceError("The conditional format rule cannot reference a different sheet.");
    }
    const out: ConditionalRuleData = {
      ranges: draft.ranges.map((r) => ({ ...r.rect })),
      criteria: draft.criteria as string,
      values: [...draft.values],
    };
    if (draft.background !== undefined) out.background = draft.background;
    if (draft.fontColor !== undefined) out.fontColor = draft.fontColor;
    if (draft.bold !== undefined) out.bold = draft.bold;
    return out;
  });
}

/** A kept rule as a script reads it back. */
export function ruleOf(
  sheet: SheetData,
  data: ConditionalRuleData,
  rangeOf: (range: RuleRange) => unknown,
): FakeConditionalFormatRule {
  const draft: RuleDraft = {
    criteria: data.criteria,
    values: [...data.values],
    ranges: data.ranges.map((rect) => ({ sheetData: sheet, rect: { ...rect } })),
  };
  if (data.background !== undefined) draft.background = data.background;
  if (data.fontColor !== undefined) draft.fontColor = data.fontColor;
  if (data.bold !== undefined) draft.bold = data.bold;
  return new FakeConditionalFormatRule(draft, rangeOf);
}

const inside = (rect: GridRect, row: number, column: number) =>
  row >= rect.row &&
  row < rect.row + rect.numRows &&
  column >= rect.column &&
  column < rect.column + rect.numColumns;

/** The text of a cell as conditions compare it. */
function textOf(doc: Workbook, sheet: SheetData, row: number, column: number): string {
  const cell = sheet.cell(row, column);
  if (!cell) return "";
  const value = cell.formula !== undefined ? evaluateFormula(doc, sheet, cell.formula) : cell.value;
  return value instanceof Date ? value.toISOString() : String(value);
}

function holds(
  doc: Workbook,
  sheet: SheetData,
  rule: ConditionalRuleData,
  row: number,
  column: number,
): boolean {
  const text = textOf(doc, sheet, row, column);
  const wanted = rule.values[0] ?? "";
  switch (rule.criteria) {
    case "CELL_EMPTY":
      return text === "";
    case "CELL_NOT_EMPTY":
      return text !== "";
    case "TEXT_EQUAL_TO":
      return text.toLowerCase() === wanted.toLowerCase();
    case "TEXT_CONTAINS":
      return text.toLowerCase().includes(wanted.toLowerCase());
    case "CUSTOM_FORMULA": {
      const first = rule.ranges[0] as GridRect;
      const value = evaluateFormula(doc, sheet, wanted, {
        rows: row - first.row,
        columns: column - first.column,
      });
      return value === true || (typeof value === "number" && value !== 0);
    }
    default:
      return false;
  }
}

/** What the first rule that holds on a cell shows there (Sheets applies only that one), or null. */
export function conditionalFormatAt(
  doc: Workbook,
  sheet: SheetData,
  row: number,
  column: number,
): { background?: string; fontColor?: string } | null {
  for (const rule of sheet.conditionalRules) {
    if (!rule.ranges.some((rect) => inside(rect, row, column))) continue;
    if (!holds(doc, sheet, rule, row, column)) continue;
    const out: { background?: string; fontColor?: string } = {};
    if (rule.background !== undefined) out.background = rule.background;
    if (rule.fontColor !== undefined) out.fontColor = rule.fontColor;
    return out;
  }
  return null;
}
