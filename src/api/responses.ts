/**
 * Tolerant readers of what the service answers (docs/real-apps-script.md, "The real service's types vary"): ids and amounts as
 * numbers or numeric strings, flags as booleans or "1"/"0"/"", empty dates as "" or null,
 * ExtraFields as an array or a JSON-encoded string, `Withdrawals` and `Charges` as one total.
 * Each schema turns the service's shape into the records of ./types.
 */
import * as z from "zod/mini";
import { addIssue, isCalendarDate } from "./fields";
import { centsToDecimalText, MAX_EXACT_CENTS, readResponseAmount } from "./money";
import { rememberedByText } from "./remembered";
import type {
  CustomStatusResult,
  ExpenseReport,
  ExpenseReportList,
  ExtraField,
  Fund,
  FundList,
  IntegrationResult,
  Records,
  Transaction,
} from "./types";

const BAD = Symbol("bad");
type Read<T> = (value: unknown) => T | typeof BAD;

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  // JSON gives a whole number beyond 2^53 rounded: the digits shown are not those sent.
  if (typeof value === "number" && Math.abs(value) >= 2 ** 53) return `${value} (rounded: beyond 2^53)`;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return Array.isArray(value) ? "a list" : typeof value === "object" ? "an object" : typeof value;
}

/**
 * The same reading as each schema, without zod: a refresh reads tens of thousands of records,
 * and zod's pipes cost several times the reading itself. A body that reads is returned as is;
 * one that does not goes through the schema, whose issue names the member and the problem.
 */
const FAST = new Map<unknown, Read<unknown>>();

function fast<S>(schema: S, read: Read<unknown>): S {
  FAST.set(schema, read);
  return schema;
}

/** The body read by `schema`'s fast reader, or BAD when it has none or the body does not read. */
export function readFast(schema: unknown, body: unknown): unknown {
  const read = FAST.get(schema);
  return read ? read(body) : BAD;
}

export { BAD as UNREAD };

/**
 * An object schema (members read by their schemas, then `finish`), with its fast reader. With
 * `names` (each member's name in the record, in the shape's order), `finish` only renames the
 * members: the fast reader then writes each under its record name as it reads it, one object
 * per record instead of two.
 */
function objectOf<Shape extends Record<string, z.ZodMiniType>, T>(
  shape: Shape,
  finish: (value: { [K in keyof Shape]: z.output<Shape[K]> }, ctx: z.core.ParsePayload) => T,
  names?: { readonly [K in keyof Shape]: string },
): z.ZodMiniType<T, unknown> {
  const end = finish as (value: unknown, ctx: z.core.ParsePayload) => T;
  // Each member's reader, looked up once rather than once per record.
  const keys = Object.keys(shape);
  const reads = keys.map((key) => FAST.get(shape[key]) as Read<unknown>);
  const outKeys = names ? keys.map((key) => names[key] as string) : keys;
  return fast(
    z.pipe(
      z.object(shape) as z.ZodMiniType,
      z.transform((value: unknown, ctx) => end(value, ctx)),
    ),
    (v) => {
      if (typeof v !== "object" || v === null || Array.isArray(v)) return BAD;
      const out: Record<string, unknown> = {};
      for (let k = 0; k < keys.length; k++) {
        const r = (reads[k] as Read<unknown>)((v as Record<string, unknown>)[keys[k] as string]);
        if (r === BAD) return BAD;
        out[outKeys[k] as string] = r;
      }
      if (names) return out;
      // An issue raised by `finish` (a fund without its withdrawals): the schema will say it.
      const ctx = { value: out, issues: [] } as unknown as z.core.ParsePayload;
      const done = end(out, ctx);
      return ctx.issues.length > 0 ? BAD : done;
    },
  ) as unknown as z.ZodMiniType<T, unknown>;
}

/** Each member of `shape` under its camelCase name, or the name `names` gives it. */
function camelNames<Shape extends object>(
  shape: Shape,
  names: Partial<Record<keyof Shape, string>>,
): { [K in keyof Shape]: string } {
  const out: Record<string, string> = {};
  for (const key of Object.keys(shape)) out[key] = (names as Record<string, string>)[key] ?? camelName(key);
  return out as { [K in keyof Shape]: string };
}

/**
 * A reader as a zod schema. `fallback` is what an absent member becomes; without it the
 * member is required.
 */
function reader<T>(expected: string, read: Read<T>, fallback?: () => T): z.ZodMiniType<T, unknown> {
  const fastRead: Read<T> = (v) => (v === undefined ? (fallback ? fallback() : BAD) : read(v));
  // Optional first: zod 4 only runs a transform for an absent member when the schema accepts
  // absence.
  return fast(
    z.pipe(
      z.optional(z.unknown()),
      z.transform((value, ctx) => {
        const r = fastRead(value);
        return r === BAD ? addIssue(ctx, `expected ${expected}, got ${shown(value)}`) : r;
      }),
    ),
    fastRead,
  ) as unknown as z.ZodMiniType<T, unknown>;
}

const readInt: Read<number> = (v) => {
  const n = typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  return Number.isSafeInteger(n) ? (n as number) : BAD;
};

const readIntOrZero: Read<number> = (v) => (v === null || v === "" ? 0 : readInt(v));

const readText: Read<string> = (v) => {
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  if (v === null) return "";
  return BAD;
};

const readFlagOrNull: Read<boolean | null> = (v) => {
  if (v === null || v === "") return null;
  if (typeof v === "boolean") return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    if (t === "1" || t === "true") return true;
    if (t === "0" || t === "false") return false;
  }
  return BAD;
};

const readFlag: Read<boolean> = (v) => {
  const r = readFlagOrNull(v);
  return r === null ? false : r;
};

const DATE_PREFIX =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|([+-]\d{2}):?(\d{2}))?)?$/;

function readDateParts(v: unknown): RegExpExecArray | null | typeof BAD {
  if (v === null || v === "") return null;
  if (typeof v !== "string") return BAD;
  const t = v.trim();
  // Some databases write an empty date as zeros.
  if (t === "" || /^0000-00-00/.test(t)) return null;
  const m = DATE_PREFIX.exec(t);
  if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) return BAD;
  return m;
}

/** A date reader that reads each text once per execution; anything but text every time. */
function remembered(read: Read<string | null>): Read<string | null> {
  const readText = rememberedByText(read);
  return (v) => (typeof v === "string" ? readText(v) : read(v));
}

const readDate: Read<string | null> = remembered((v) => {
  const m = readDateParts(v);
  if (m === null || m === BAD) return m;
  return `${m[1]}-${m[2]}-${m[3]}`;
});

const readDateTime: Read<string | null> = remembered((v) => {
  const m = readDateParts(v);
  if (m === null || m === BAD) return m;
  // An offset (none is sent: docs/real-apps-script.md) is kept as "Z" or "±HH:MM", for the sheet to convert.
  return `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? "00"}:${m[5] ?? "00"}:${m[6] ?? "00"}${m[8] ? `${m[8]}:${m[9]}` : (m[7] ?? "")}`;
});

/** A list that may arrive as an array, as JSON text of an array, or empty ("" / null). */
function readListOrJson(v: unknown): unknown[] | typeof BAD {
  if (v === null || v === "") return [];
  if (Array.isArray(v)) return v;
  if (typeof v === "string") {
    try {
      const parsed: unknown = JSON.parse(v);
      if (Array.isArray(parsed)) return parsed;
      if (parsed === null) return [];
      if (typeof parsed === "object")
        return Object.entries(parsed as object).map(([Name, Value]) => ({ Name, Value }));
    } catch (_err) {
      return BAD;
    }
    return BAD;
  }
  if (typeof v === "object") return Object.entries(v as object).map(([Name, Value]) => ({ Name, Value }));
  return BAD;
}

const readExtraFields: Read<ExtraField[]> = (v) => {
  const list = readListOrJson(v);
  if (list === BAD) return BAD;
  const out: ExtraField[] = [];
  for (const item of list) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return BAD;
    const o = item as Record<string, unknown>;
    const name = readText(o.Name ?? o.name ?? "");
    const value = readValueText(o.Value ?? o.value ?? "");
    const code = readText(o.Code ?? o.code ?? "");
    if (name === BAD || value === BAD || code === BAD) return BAD;
    out.push({ name, value, code });
  }
  return out;
};

/** A value as text; a list or an object (a multiple choice, a lookup) as its JSON. */
function readValueText(v: unknown): string | typeof BAD {
  if (typeof v === "boolean") return v ? "true" : "false";
  return typeof v === "object" && v !== null ? JSON.stringify(v) : readText(v);
}

const readFiles: Read<unknown[]> = (files) => {
  const v = positional(files);
  if (v === null || v === "") return [];
  if (Array.isArray(v)) return v;
  // One file sent as itself rather than in a list.
  if (typeof v === "object") return [v];
  if (typeof v === "string") {
    try {
      const parsed: unknown = JSON.parse(v);
      return Array.isArray(parsed) ? parsed : BAD;
    } catch (_err) {
      return BAD;
    }
  }
  return BAD;
};

/** `Name` as `name`. */
type Camel<K extends string> = K extends `${infer F}${infer R}` ? `${Lowercase<F>}${R}` : K;
/** The members of T under camelCase names, or the names N gives. */
type CamelCased<T, N> = {
  [K in keyof T & string as K extends keyof N ? N[K] & string : Camel<K>]: T[K];
};

const CAMEL: Record<string, string> = {};

/** `key` under its camelCase name (`ReportNumber` → `reportNumber`), worked out once per key. */
function camelName(key: string): string {
  let name = CAMEL[key];
  if (name === undefined) {
    name = key.charAt(0).toLowerCase() + key.slice(1);
    CAMEL[key] = name;
  }
  return name;
}

/**
 * A record's members, in their order, under camelCase names (`ReportNumber` → `reportNumber`)
 * or the name `names` gives a member. Its keys are walked by index: a refresh reads tens of
 * thousands of records, and an entry array per member was most of this function's time.
 */
function camelCased<T extends object, const N extends Partial<Record<keyof T, string>>>(
  value: T,
  names: N,
): CamelCased<T, N> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out[(names as Record<string, string | undefined>)[key] ?? camelName(key)] = (
      value as Record<string, unknown>
    )[key];
  }
  return out as CamelCased<T, N>;
}

/**
 * A list sent as an object of its positions ({"0": …, "2": …}: what a PHP array becomes in JSON
 * once items were filtered out of it) as the list of its items, in order; anything else as it is.
 */
function positional(v: unknown): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const keys = Object.keys(v);
  return keys.every((k) => /^\d{1,9}$/.test(k))
    ? keys.sort((a, b) => Number(a) - Number(b)).map((k) => (v as Record<string, unknown>)[k])
    : v;
}

/** Each item read, or BAD; null, "" (and, if `absentEmpty`, absence) read as an empty list. */
function readList(list: unknown, readItem: Read<unknown>, absentEmpty: boolean): unknown[] | typeof BAD {
  const v = positional(list);
  if (v === null || v === "" || (absentEmpty && v === undefined)) return [];
  if (!Array.isArray(v)) return BAD;
  const out: unknown[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const r = readItem(v[i]);
    if (r === BAD) return BAD;
    out[i] = r;
  }
  return out;
}

/**
 * The response schemas, made on first use: zod builds each schema's internals when it is
 * created, and Apps Script evaluates the bundle again on every execution, most of which read no
 * response (a menu opening, a sidebar's form, an Outbox preview of rows already done).
 */
function makeSchemas() {
  const members = memberReaders();
  const { transactionSchema, fundSchema } = fundSchemas(members);
  const expenseReportSchema = expenseReportSchemaOf(members);
  return {
    transactionSchema,
    fundSchema,
    expenseReportSchema,
    ...listSchemas(members.whole, members.count, fundSchema, expenseReportSchema),
    ...writeResultSchemas(members),
  };
}

/** The reader of each kind of member a response holds (ids, counts, text, amounts, flags, dates). */
function memberReaders() {
  const ID = "an id (a whole number below 2^53, or its text)";
  return {
    id: reader(ID, readInt),
    idOrZero: reader(ID, readIntOrZero, () => 0),
    count: reader("a whole number", readIntOrZero, () => 0),
    whole: reader("a whole number", readIntOrZero),
    text: reader("text", readText, () => ""),
    money: amount(false),
    optionalMoney: amount(true),
    flag: reader('a flag (true/false or "1"/"0")', readFlag, () => false),
    /**
     * Integrated appears only in list items; there an empty value means "not integrated" (a report
     * that is not marked keeps coming back in "not integrated" queries). Absent (getExpenseReport)
     * stays null: unknown from the member itself.
     */
    integratedFlag: reader(
      'a flag (true/false or "1"/"0"/"")',
      (v) => (v === "" ? false : readFlagOrNull(v)),
      () => null,
    ),
    date: reader('a date "YYYY-MM-DD" or empty', readDate, () => null),
    dateTime: reader('a date and time "YYYY-MM-DD HH:MM:SS" or empty', readDateTime, () => null),
    extraFields: reader("a list of extra fields (or JSON text of one)", readExtraFields, () => []),
    files: reader("a list of files (or JSON text of one)", readFiles, () => []),
  };
}

type MemberReaders = ReturnType<typeof memberReaders>;

/**
 * An amount (cents). One beyond MAX_EXACT_CENTS cannot be read exactly: its issue carries
 * `params.unreadableAmount` (the value as sent), so that ./wire can say so plainly.
 */
function amount(optional: false): z.ZodMiniType<number, unknown>;
function amount(optional: true): z.ZodMiniType<number | undefined, unknown>;
function amount(optional: boolean): z.ZodMiniType<number | undefined, unknown> {
  return fast(amountSchema(optional), (value) => {
    if (optional && (value === undefined || value === null || value === "")) return undefined;
    const r = readResponseAmount(value);
    return r.ok ? r.cents : BAD;
  });
}

function amountSchema(optional: boolean): z.ZodMiniType<number | undefined, unknown> {
  return z.pipe(
    z.optional(z.unknown()),
    z.transform((value, ctx) => {
      if (optional && (value === undefined || value === null || value === "")) return undefined;
      const r = readResponseAmount(value);
      if (r.ok) return r.cents;
      if (r.reason === "tooLarge") {
        return addIssue(
          ctx,
          `expected an amount of at most ${centsToDecimalText(MAX_EXACT_CENTS)}, got ${r.got}`,
          { unreadableAmount: r.got },
        );
      }
      return addIssue(
        ctx,
        `expected an amount (a number, or numeric text with a dot decimal point), got ${shown(value)}`,
      );
    }),
  ) as unknown as z.ZodMiniType<number | undefined, unknown>;
}

/** An array that may be null or absent when empty. */
function list<T extends z.ZodMiniType>(item: T) {
  const schema = z.pipe(
    z.transform((v: unknown) => (v === null || v === undefined || v === "" ? [] : positional(v))),
    z.array(item),
  );
  const readItem = FAST.get(item);
  if (!readItem) return schema;
  return fast(schema, (v) => readList(v, readItem, true));
}

/** A fund's members whose names are not their camelCase. */
const FUND_NAMES: Record<string, string | undefined> = {
  Deposits: "depositsCents",
  Withdrawals: "withdrawalsCents",
  Balance: "balanceCents",
};

/** A fund and its movements. */
function fundSchemas({ id, idOrZero, text, money, optionalMoney, flag, date, dateTime }: MemberReaders) {
  const transactionSchema = objectOf(
    {
      // 1 deposit, 2 withdrawal; another (an adjustment…) is kept with its name, and moves no count.
      TransactionType: reader("a movement type (1 deposit, 2 withdrawal)", readInt),
      TransactionTypeName: text,
      TransactionAmount: money,
      TransactionDate: date,
    },
    (t): Transaction => ({
      type: t.TransactionType,
      typeName: t.TransactionTypeName,
      amountCents: t.TransactionAmount,
      date: t.TransactionDate,
    }),
    {
      TransactionType: "type",
      TransactionTypeName: "typeName",
      TransactionAmount: "amountCents",
      TransactionDate: "date",
    },
  );

  /** A fund's Transactions: absent stays absent; null or "" is none. */
  const transactions = fast(
    z.pipe(
      z.transform((v: unknown) => (v === null || v === "" ? [] : positional(v))),
      z.optional(z.array(transactionSchema)),
    ),
    (v) => (v === undefined ? undefined : readList(v, FAST.get(transactionSchema) as Read<unknown>, false)),
  );

  const fundSchema = objectOf(
    {
      Id: id,
      Title: text,
      Code: text,
      Currency: text,
      IdAssignTo: idOrZero,
      IdCreator: idOrZero,
      Deposits: money,
      Withdrawals: optionalMoney,
      Charges: optionalMoney,
      Balance: money,
      Status: reader("a fund status (1 open, 2 closed, 3 blocked)", readInt),
      CreatedAt: dateTime,
      ExpirationDate: date,
      FlexibleFund: flag,
      ManualDeposit: flag,
      AutomaticBlock: flag,
      Transactions: transactions,
    },
    (f, ctx): Fund => {
      const withdrawals = f.Withdrawals ?? f.Charges;
      if (withdrawals === undefined) {
        return addIssue(
          ctx,
          "expected the total withdrawn as Withdrawals or Charges, got nothing",
          undefined,
          ["Withdrawals"],
        );
      }
      // Charges leaves; the total withdrawn keeps Withdrawals's place; absent Transactions stay absent.
      // (zod leaves an absent member out: the total withdrawn then comes last).
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(f) as Array<keyof typeof f>) {
        if (key === "Charges" || (key === "Transactions" && f.Transactions === undefined)) continue;
        out[FUND_NAMES[key] ?? camelName(key)] = key === "Withdrawals" ? withdrawals : f[key];
      }
      if (!("Withdrawals" in f)) out.withdrawalsCents = withdrawals;
      return out as unknown as Fund;
    },
  );

  return { transactionSchema, fundSchema };
}

/** An expense report, as listed or read alone. */
function expenseReportSchemaOf(m: MemberReaders) {
  const { id, idOrZero, text, money, count, integratedFlag, date, dateTime, extraFields, files } = m;
  const names = { ReportTotal: "reportTotalCents", ReportTotalApproved: "reportTotalApprovedCents" } as const;
  const shape = {
    Id: id,
    Title: text,
    ReportNumber: text,
    SendDate: date,
    CloseDate: date,
    EmployeeId: idOrZero,
    EmployeeName: text,
    EmployeeIdentification: text,
    ApproverId: idOrZero,
    ApproverName: text,
    PolicyId: idOrZero,
    PolicyName: text,
    Status: reader("a report status (0 open, 1 closed)", readInt, () => 0),
    CustomStatus: text,
    FundId: idOrZero,
    FundName: text,
    ReportTotal: money,
    ReportTotalApproved: money,
    Currency: text,
    Note: text,
    Integrated: integratedFlag,
    IntegrationDate: dateTime,
    IntegrationExternalCode: text,
    IntegrationInternalCode: text,
    NbrExpenses: count,
    NbrApprovedExpenses: count,
    NbrRejectedExpenses: count,
    ExtraFields: extraFields,
    Files: files,
  };
  return objectOf(shape, (r): ExpenseReport => camelCased(r, names), camelNames(shape, names));
}

/** A page of funds or of reports, with its Records. */
function listSchemas(
  whole: MemberReaders["whole"],
  count: MemberReaders["count"],
  fundSchema: ReturnType<typeof fundSchemas>["fundSchema"],
  expenseReportSchema: ReturnType<typeof expenseReportSchemaOf>,
) {
  const fundRecordsSchema = objectOf(
    { TotalRecords: whole, Funds: count, Page: whole, Pages: whole },
    (r): Records => ({ totalRecords: r.TotalRecords, count: r.Funds, page: r.Page, pages: r.Pages }),
  );

  const reportRecordsSchema = objectOf(
    { TotalRecords: whole, Reports: count, Page: whole, Pages: whole },
    (r): Records => ({ totalRecords: r.TotalRecords, count: r.Reports, page: r.Page, pages: r.Pages }),
  );

  const fundListSchema = objectOf(
    { Records: fundRecordsSchema, Funds: list(fundSchema) },
    (l): FundList => ({ records: l.Records, funds: l.Funds }),
  );

  const expenseReportListSchema = objectOf(
    { Records: reportRecordsSchema, ExpenseReports: list(expenseReportSchema) },
    (l): ExpenseReportList => ({ records: l.Records, expenseReports: l.ExpenseReports }),
  );

  return { fundListSchema, expenseReportListSchema };
}

/** What marking a report integrated or setting its custom status answers. */
function writeResultSchemas({ id, text, dateTime }: MemberReaders) {
  const integrationResultSchema = z.pipe(
    z.object({
      Id: id,
      Title: text,
      ReportNumber: text,
      IntegrationStatus: reader("0 or 1 (or a flag)", (v) => {
        const on = readFlagOrNull(v);
        return typeof on === "boolean" ? (+on as 0 | 1) : BAD;
      }),
      IntegrationCode: text,
      IntegrationDate: dateTime,
    }),
    z.transform((r): IntegrationResult => camelCased(r, {})),
  );

  const customStatusResultSchema = z.pipe(
    z.object({ Id: id, Title: text, ReportNumber: text, CustomStatus: text }),
    z.transform((r): CustomStatusResult => camelCased(r, {})),
  );
  return { integrationResultSchema, customStatusResultSchema };
}

let schemas: ReturnType<typeof makeSchemas> | undefined;

/** Every response schema (each with its fast reader), made once per execution. */
export function responseSchemas(): ReturnType<typeof makeSchemas> {
  if (!schemas) schemas = makeSchemas();
  return schemas;
}

/** The members of a fund that are its totals (the others are read as they always are). */
export const FUND_TOTAL_MEMBERS: readonly string[] = ["Deposits", "Withdrawals", "Charges", "Balance"];

/**
 * What can still be read of a fund (as the service sent it) whose totals cannot: its id and its
 * transactions, each null when that part does not read either.
 */
export function fundMovementsOf(raw: unknown): { id: number | null; transactions: Transaction[] | null } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { id: null, transactions: null };
  const o = raw as Record<string, unknown>;
  const idRead = readInt(o.Id);
  const list = z
    .pipe(
      z.transform((v: unknown) => (v === null || v === "" ? [] : v)),
      z.array(responseSchemas().transactionSchema),
    )
    .safeParse(o.Transactions);
  return {
    id: idRead === BAD ? null : idRead,
    transactions: o.Transactions !== undefined && list.success ? list.data : null,
  };
}
