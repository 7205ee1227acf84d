/**
 * A small formula evaluator, enough for the sheets a finance team builds beside imported data:
 * numbers, text in quotes, cell references on the same or another sheet, + - * / & and
 * comparisons, parentheses, and SUM, MIN, MAX, AVERAGE, COUNT, COUNTA, IF, ROUND, ABS, CONCAT,
 * LEN, UPPER, LOWER, AND, OR, NOT, and HYPERLINK (its label, or the URL when there is none). Text
 * compares without regard to case, as in Sheets. Anything else shows "#NAME?" like an unknown function in Sheets; the formula
 * itself is always kept for getFormulas().
 */

import { columnLetters, columnNumber, parseA1, splitSheetRef } from "./spreadsheet/a1";
import type { SheetData, Workbook } from "./spreadsheet/model";
import type { CellScalar } from "./spreadsheet/typed-input";

type Value = CellScalar | Value[];

class FormulaError extends Error {}

const MAX_DEPTH = 50;
let depth = 0;

function toNumber(v: Value): number {
  if (Array.isArray(v)) return toNumber(v[0] ?? "");
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.getTime() / 86_400_000 + 25_569;
  if (v === "") return 0;
  const n = Number(v);
  if (Number.isNaN(n)) throw new FormulaError("#VALUE!");
  return n;
}

function toText(v: Value): string {
  if (Array.isArray(v)) return toText(v[0] ?? "");
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

function truthy(v: Value): boolean {
  if (typeof v === "string" && v !== "") {
    const upper = v.toUpperCase();
    if (upper === "TRUE" || upper === "FALSE") return upper === "TRUE";
    throw new FormulaError("#VALUE!");
  }
  return toNumber(v) !== 0;
}

function flat(values: Value[]): CellScalar[] {
  const out: CellScalar[] = [];
  for (const v of values) {
    if (Array.isArray(v)) out.push(...flat(v));
    else out.push(v);
  }
  return out;
}

const FUNCTIONS: Record<string, (args: Value[]) => Value> = {
  SUM: (a) => flat(a).reduce<number>((s, v) => s + (typeof v === "number" ? v : 0), 0),
  MIN: (a) => Math.min(...flat(a).filter((v): v is number => typeof v === "number")),
  MAX: (a) => Math.max(...flat(a).filter((v): v is number => typeof v === "number")),
  AVERAGE: (a) => {
    const n = flat(a).filter((v): v is number => typeof v === "number");
    if (n.length === 0) throw new FormulaError("#DIV/0!");
    return n.reduce((s, v) => s + v, 0) / n.length;
  },
  COUNT: (a) => flat(a).filter((v) => typeof v === "number").length,
  COUNTA: (a) => flat(a).filter((v) => v !== "").length,
  IF: (a) => (toNumber(a[0] ?? false) !== 0 ? (a[1] ?? true) : (a[2] ?? false)),
  ROUND: (a) => {
    const f = 10 ** toNumber(a[1] ?? 0);
    return Math.round(toNumber(a[0] ?? 0) * f) / f;
  },
  ABS: (a) => Math.abs(toNumber(a[0] ?? 0)),
  CONCAT: (a) => flat(a).map(toText).join(""),
  CONCATENATE: (a) => flat(a).map(toText).join(""),
  LEN: (a) => toText(a[0] ?? "").length,
  UPPER: (a) => toText(a[0] ?? "").toUpperCase(),
  LOWER: (a) => toText(a[0] ?? "").toLowerCase(),
  AND: (a) => flat(a).every((v) => truthy(v)),
  OR: (a) => flat(a).some((v) => truthy(v)),
  NOT: (a) => !truthy(a[0] ?? false),
  // Shows its label (the URL when there is none), as Sheets does.
  HYPERLINK: (a) => {
    const shown = a.length > 1 ? a[1] : a[0];
    return Array.isArray(shown) ? (flat(shown)[0] ?? "") : (shown ?? "");
  },
};

type Token =
  | { t: "num"; v: number }
  | { t: "str"; v: string }
  | { t: "ref"; v: string }
  | { t: "op"; v: string }
  | { t: "name"; v: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /\s*(?:(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|"((?:[^"]|"")*)"|((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!\$?[A-Za-z]{1,3}\$?\d*(?::\$?[A-Za-z]{1,3}\$?\d*)?|\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d*)?)(?![\w(])|([A-Za-z_][A-Za-z0-9_.]*)|(<=|>=|<>|[-+*/&(),=<>^%:]))/y;
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m || m[0].length === 0) {
      if (/^\s*$/.test(text.slice(pos))) break;
      throw new FormulaError("#ERROR!");
    }
    pos = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ t: "num", v: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ t: "str", v: m[2].replace(/""/g, '"') });
    else if (m[3] !== undefined) tokens.push({ t: "ref", v: m[3] });
    else if (m[4] !== undefined) tokens.push({ t: "name", v: m[4].toUpperCase() });
    else if (m[5] !== undefined) tokens.push({ t: "op", v: m[5] });
  }
  return tokens;
}

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly resolveRef: (ref: string) => Value,
  ) {}
  private peek(): Token | undefined {
    return this.tokens[this.i];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.t === "op" && t.v === v;
  }
  parse(): Value {
    const v = this.comparison();
    if (this.i < this.tokens.length) throw new FormulaError("#ERROR!");
    return v;
  }
  private comparison(): Value {
    let left = this.concat();
    for (;;) {
      const t = this.peek();
      if (t?.t !== "op" || !["=", "<>", "<", ">", "<=", ">="].includes(t.v)) return left;
      this.i++;
      const right = this.concat();
      // Text compares without regard to case ("done" = "Done"), as in Sheets.
      const a = typeof left === "string" ? left.toLowerCase() : toNumber(left);
      const b = typeof right === "string" ? right.toLowerCase() : toNumber(right);
      left = { "=": a === b, "<>": a !== b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b }[
        t.v
      ] as boolean;
    }
  }
  private concat(): Value {
    let left = this.additive();
    while (this.isOp("&")) {
      this.i++;
      left = toText(left) + toText(this.additive());
    }
    return left;
  }
  private additive(): Value {
    let left = this.term();
    while (this.isOp("+") || this.isOp("-")) {
      const op = (this.tokens[this.i++] as { v: string }).v;
      const right = this.term();
      left = op === "+" ? toNumber(left) + toNumber(right) : toNumber(left) - toNumber(right);
    }
    return left;
  }
  private term(): Value {
    let left = this.unary();
    while (this.isOp("*") || this.isOp("/")) {
      const op = (this.tokens[this.i++] as { v: string }).v;
      const right = toNumber(this.unary());
      if (op === "/" && right === 0) throw new FormulaError("#DIV/0!");
      left = op === "*" ? toNumber(left) * right : toNumber(left) / right;
    }
    return left;
  }
  private unary(): Value {
    if (this.isOp("-")) {
      this.i++;
      return -toNumber(this.unary());
    }
    if (this.isOp("+")) {
      this.i++;
      return this.unary();
    }
    return this.primary();
  }
  private primary(): Value {
    const t = this.tokens[this.i++];
    if (!t) throw new FormulaError("#ERROR!");
    if (t.t === "num") return t.v;
    if (t.t === "str") return t.v;
    if (t.t === "ref") return this.resolveRef(t.v);
    if (t.t === "op" && t.v === "(") {
      const v = this.comparison();
      if (!this.isOp(")")) throw new FormulaError("#ERROR!");
      this.i++;
      return v;
    }
    if (t.t === "name") {
      if (t.v === "TRUE" || t.v === "FALSE") return t.v === "TRUE";
      const fn = FUNCTIONS[t.v];
      if (!this.isOp("(") || !fn) throw new FormulaError("#NAME?");
      this.i++;
      const args: Value[] = [];
      if (!this.isOp(")")) {
        for (;;) {
          args.push(this.comparison());
          if (this.isOp(",")) {
            this.i++;
            continue;
          }
          break;
        }
      }
      if (!this.isOp(")")) throw new FormulaError("#ERROR!");
      this.i++;
      return fn(args);
    }
    throw new FormulaError("#ERROR!");
  }
}

/** A reference moved by `shift` on its relative parts (those without "$"), or null off the sheet. */
function shifted(a1: string, shift: { rows: number; columns: number }): string | null {
  let off = false;
  const out = a1.replace(
    /(\$?)([A-Za-z]{1,3})(\$?)(\d+)/g,
    (_, dc: string, letters: string, dr: string, digits: string) => {
      const column = dc ? columnNumber(letters) : columnNumber(letters) + shift.columns;
      const row = dr ? Number(digits) : Number(digits) + shift.rows;
      if (column < 1 || row < 1) off = true;
      return `${columnLetters(Math.max(column, 1))}${Math.max(row, 1)}`;
    },
  );
  return off ? null : out;
}

/**
 * The value a formula shows; errors come back as their Sheets text ("#NAME?", "#REF!"…). `shift`
 * moves its relative references, as for a conditional format's formula on another cell.
 */
export function evaluateFormula(
  doc: Workbook,
  sheet: SheetData,
  formula: string,
  shift?: { rows: number; columns: number },
): CellScalar {
  if (depth > MAX_DEPTH) return "#REF!";
  depth++;
  try {
    const resolveRef = (ref: string): Value => {
      const { sheetName, a1: written } = splitSheetRef(ref);
      const a1 = shift ? shifted(written, shift) : written;
      if (a1 === null) throw new FormulaError("#REF!");
      const target = sheetName === undefined ? sheet : doc.sheetByName(sheetName);
      if (!target) throw new FormulaError("#REF!");
      const rect = parseA1(a1, target.maxRows, target.maxColumns);
      if (!rect) throw new FormulaError("#REF!");
      const rows: Value[] = [];
      for (let r = rect.row; r < rect.row + rect.numRows; r++) {
        for (let c = rect.column; c < rect.column + rect.numColumns; c++) {
          const cell = target.cell(r, c);
          rows.push(
            cell?.formula !== undefined ? evaluateFormula(doc, target, cell.formula) : (cell?.value ?? ""),
          );
        }
      }
      return rect.numRows === 1 && rect.numColumns === 1 ? (rows[0] as Value) : rows;
    };
    const result = new Parser(tokenize(formula.replace(/^=/, "")), resolveRef).parse();
    const v = Array.isArray(result) ? (flat(result)[0] ?? "") : result;
    return typeof v === "number" && !Number.isFinite(v) ? "#NUM!" : v;
  } catch (err) {
    if (err instanceof FormulaError) return err.message;
    return "#ERROR!";
  } finally {
    depth--;
  }
}
