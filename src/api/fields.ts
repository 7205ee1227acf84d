/**
 * Request fields: what kind of value each parameter of an endpoint takes, its limits, and the
 * zod schema that checks and normalises it. Inputs come typed (numbers, booleans) or as text
 * (query strings reaching the sandbox, form fields) or as cell values (numbers, strings, Dates),
 * so every schema accepts all of those and produces one canonical value.
 */
import * as z from "zod/mini";
import type { IssueParams, Rule } from "./issues";
import { type Cents, centsToDecimalText, MAX_EXACT_CENTS, parseAmountToCents } from "./money";

export type FieldSpec =
  | { kind: "id"; required?: boolean; label?: string }
  | { kind: "integer"; required?: boolean; min?: number; max?: number }
  | { kind: "choice"; required?: boolean; values: readonly number[] }
  | { kind: "word"; required?: boolean; values: readonly string[] }
  | { kind: "text"; required?: boolean; maxLength: number }
  | { kind: "currency"; required?: boolean }
  | { kind: "money"; required?: boolean }
  | { kind: "date"; required?: boolean }
  | { kind: "datetime"; required?: boolean }
  | { kind: "flag"; required?: boolean };

export type FieldKind = FieldSpec["kind"];

/** What a caller may pass for each kind of field. */
export interface FieldInputs {
  id: number | string;
  integer: number | string;
  choice: number | string;
  word: string;
  text: string;
  currency: string;
  money: number | string | Cents;
  date: string | Date;
  datetime: string | Date;
  flag: boolean | number | string;
}

/** The canonical value each kind becomes: amounts in integer cents, flags as booleans. */
export interface FieldOutputs {
  id: number;
  integer: number;
  choice: number;
  word: string;
  text: string;
  currency: string;
  money: number;
  date: string;
  datetime: string;
  flag: boolean;
}

export type FieldSpecs = Readonly<Record<string, FieldSpec>>;

type SchemaOf<F extends FieldSpec> = z.ZodMiniType<FieldOutputs[F["kind"]], FieldInputs[F["kind"]]>;

/** The zod shape of a set of fields: required fields plain, the others optional. */
export type ShapeOf<Fs extends FieldSpecs> = {
  -readonly [K in keyof Fs]: Fs[K] extends { required: true }
    ? SchemaOf<Fs[K]>
    : z.ZodMiniOptional<SchemaOf<Fs[K]>>;
};

type Check = { ok: true; value: unknown } | { ok: false; rule: Rule; params: IssueParams };

function shown(value: unknown): string {
  if (typeof value === "string") return value.length > 60 ? `${value.slice(0, 57)}...` : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "invalid date" : value.toString();
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : typeof value;
}

/** Blank means absent: cells and form fields give "" for nothing. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** A Date as YYYY-MM-DD in the runtime's time zone (the script's, in Apps Script). */
export function dateText(d: Date): string {
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A Date as YYYY-MM-DD HH:MM:SS in the runtime's time zone. */
export function dateTimeText(d: Date): string {
  return `${dateText(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** True when y-m-d is a day of the calendar (no 2023-02-30). */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [
    31,
    y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return d <= (days[m - 1] ?? 0);
}

function checkInteger(value: unknown): { ok: true; n: number } | { ok: false } {
  if (typeof value === "number") return Number.isSafeInteger(value) ? { ok: true, n: value } : { ok: false };
  if (typeof value === "string") {
    const t = value.trim();
    if (!/^[+-]?\d{1,15}$/.test(t)) return { ok: false };
    const n = Number(t);
    return { ok: true, n: Object.is(n, -0) ? 0 : n };
  }
  return { ok: false };
}

function checkDate(value: unknown, rule: "date" | "datetime"): Check {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return { ok: false, rule, params: { got: shown(value) } };
    return { ok: true, value: rule === "date" ? dateText(value) : dateTimeText(value) };
  }
  if (typeof value !== "string") return { ok: false, rule, params: { got: shown(value) } };
  const t = value.trim();
  const m =
    rule === "date"
      ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(t)
      : /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(t);
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
    return { ok: false, rule, params: { got: shown(value) } };
  }
  if (rule === "datetime" && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) {
    return { ok: false, rule, params: { got: shown(value) } };
  }
  return { ok: true, value: t };
}

/** Checks one present (non-blank) value against its field's rules. */
export function checkField(spec: FieldSpec, value: unknown): Check {
  switch (spec.kind) {
    case "id":
    case "integer": {
      const r = checkInteger(value);
      if (!r.ok) return { ok: false, rule: "integer", params: { got: shown(value) } };
      const min = spec.kind === "id" ? 1 : spec.min;
      const max = spec.kind === "id" ? undefined : spec.max;
      if (min !== undefined && r.n < min) return { ok: false, rule: "min", params: { min, got: r.n } };
      if (max !== undefined && r.n > max) return { ok: false, rule: "max", params: { max, got: r.n } };
      return { ok: true, value: r.n };
    }
    case "choice": {
      const r = checkInteger(value);
      if (!r.ok || !spec.values.includes(r.n)) {
        return { ok: false, rule: "oneOf", params: { values: spec.values.join(", "), got: shown(value) } };
      }
      return { ok: true, value: r.n };
    }
    case "word": {
      const t = typeof value === "string" ? value.trim().toUpperCase() : undefined;
      const found = spec.values.find((v) => v.toUpperCase() === t);
      if (found === undefined) {
        return { ok: false, rule: "oneOf", params: { values: spec.values.join(", "), got: shown(value) } };
      }
      return { ok: true, value: found };
    }
    case "text": {
      // Cells hold numbers where people typed codes such as 00123 → 123; text of it is fine.
      if (typeof value !== "string" && typeof value !== "number") {
        return { ok: false, rule: "text", params: { got: shown(value) } };
      }
      const t = String(value).trim();
      const length = Array.from(t).length;
      if (length > spec.maxLength)
        return { ok: false, rule: "maxLength", params: { max: spec.maxLength, length } };
      return { ok: true, value: t };
    }
    case "currency": {
      const t = typeof value === "string" ? value.trim() : "";
      if (!/^[A-Za-z]{3}$/.test(t)) return { ok: false, rule: "currency", params: { got: shown(value) } };
      return { ok: true, value: t.toUpperCase() };
    }
    case "money": {
      const r = parseAmountToCents(value);
      if (!r.ok) {
        const params: IssueParams = { got: r.got };
        if (r.rule === "amountTooLarge") params.max = centsToDecimalText(MAX_EXACT_CENTS);
        return { ok: false, rule: r.rule, params };
      }
      return { ok: true, value: r.cents };
    }
    case "date":
    case "datetime":
      return checkDate(value, spec.kind);
    case "flag": {
      if (typeof value === "boolean") return { ok: true, value };
      if (value === 1 || value === 0) return { ok: true, value: value === 1 };
      if (typeof value === "string") {
        const t = value.trim().toLowerCase();
        if (t === "true" || t === "1") return { ok: true, value: true };
        if (t === "false" || t === "0") return { ok: true, value: false };
      }
      return { ok: false, rule: "boolean", params: { got: shown(value) } };
    }
  }
}

/**
 * Records a custom issue from inside a transform and returns z.NEVER, what a failed transform
 * gives (zod/mini hands transforms the parse payload itself, which has no addIssue). `path` is
 * relative to the value being transformed.
 */
export function addIssue(
  ctx: z.core.ParsePayload,
  message: string,
  params?: Record<string, unknown>,
  path?: PropertyKey[],
): never {
  ctx.issues.push({
    code: "custom",
    message,
    input: ctx.value,
    ...(params && { params }),
    ...(path && { path }),
  });
  return z.NEVER;
}

/** The zod schema of one field: blank counts as absent; required fields refuse absence. */
export function fieldSchema<F extends FieldSpec>(spec: F): SchemaOf<F> {
  const schema = z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      if (isBlank(value)) {
        if (spec.required) return addIssue(ctx, "required", { rule: "required" });
        return undefined;
      }
      const r = checkField(spec, value);
      if (!r.ok) return addIssue(ctx, r.rule, { rule: r.rule, ...r.params });
      return r.value;
    }),
  );
  return schema as unknown as SchemaOf<F>;
}

/** The zod shape of a set of fields. */
export function shapeOf<Fs extends FieldSpecs>(fields: Fs): ShapeOf<Fs> {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, spec] of Object.entries(fields)) {
    const schema = fieldSchema(spec);
    shape[name] = spec.required ? schema : z.optional(schema);
  }
  return shape as ShapeOf<Fs>;
}
