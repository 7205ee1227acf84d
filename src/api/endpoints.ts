/**
 * The contract: every endpoint of the service, described once. The client, the sandbox service,
 * the sidebar forms and the validation messages all read this table.
 */
import * as z from "zod/mini";
import { type FieldSpecs, type ShapeOf, shapeOf } from "./fields";
import type { IssueParams, Rule } from "./issues";
import { responseSchemas } from "./responses";

export type HttpMethod = "GET" | "POST" | "PUT";

/** A rule between fields (date order, the one-year window…), checked once every field is valid. */
export interface CrossFieldIssue {
  field: string;
  rule: Rule;
  params: IssueParams;
}

/** What cross-field rules may need to know: today's date, YYYY-MM-DD. */
export interface CheckContext {
  today: string;
}

const FUND_STATUS = [1, 2, 3] as const;
const ORDER = ["ASC", "DESC"] as const;

// Specs that many fields share, written once (the bundle carries each literal once).
const ID = { kind: "id" } as const;
const REQUIRED_ID = { kind: "id", required: true } as const;
const PAGE = { kind: "integer", min: 1 } as const;
const DATE = { kind: "date" } as const;
const FLAG = { kind: "flag" } as const;
const ZERO_OR_ONE = { kind: "choice", values: [0, 1] } as const;
const ONE_OR_TWO = { kind: "choice", values: [1, 2] } as const;
const ORDER_WORD = { kind: "word", values: ORDER } as const;
const TEXT_255 = { kind: "text", maxLength: 255 } as const;
const NAME = { kind: "text", maxLength: 200, required: true } as const;
const MONEY = { kind: "money", required: true } as const;

const fundsFields = {
  Status: { kind: "choice", values: FUND_STATUS },
  OrderBy: ONE_OR_TWO,
  Order: ORDER_WORD,
  ResultsPerPage: PAGE,
  Page: PAGE,
  From: DATE,
  To: DATE,
} as const satisfies FieldSpecs;

const oneFundFields = { Id: REQUIRED_ID } as const satisfies FieldSpecs;

const fundOptions = {
  FundCode: { kind: "text", maxLength: 50 },
  FundComment: TEXT_255,
  FundFlexibility: FLAG,
  FundAutoDeposit: FLAG,
  FundAutoBlock: FLAG,
  FundExpiration: FLAG,
  FundExpirationDate: DATE,
} as const satisfies FieldSpecs;

const createFundFields = {
  IdEmployee: REQUIRED_ID,
  IdAdmin: REQUIRED_ID,
  FundName: NAME,
  FundCurrency: { kind: "currency", required: true },
  FundAmount: MONEY,
  ...fundOptions,
} as const satisfies FieldSpecs;

const updateFundFields = {
  Id: REQUIRED_ID,
  IdAdmin: REQUIRED_ID,
  FundName: NAME,
  ...fundOptions,
} as const satisfies FieldSpecs;

const depositFields = {
  Id: REQUIRED_ID,
  IdAdmin: REQUIRED_ID,
  DepositAmount: MONEY,
} as const satisfies FieldSpecs;

const withdrawFields = {
  Id: REQUIRED_ID,
  IdAdmin: REQUIRED_ID,
  WithdrawAmount: MONEY,
} as const satisfies FieldSpecs;

const fundStatusFields = {
  Id: REQUIRED_ID,
  IdAdmin: REQUIRED_ID,
  FundStatus: { kind: "choice", values: FUND_STATUS, required: true },
} as const satisfies FieldSpecs;

const reportsFields = {
  Since: { kind: "date", required: true },
  Until: DATE,
  TypeDateFilter: ONE_OR_TWO,
  Currency: { kind: "currency" },
  Status: ZERO_OR_ONE,
  ExpensePolicyId: ID,
  IntegrationStatus: ZERO_OR_ONE,
  IntegrationCode: TEXT_255,
  IntegrationDate: DATE,
  UserId: ID,
  OrderBy: { kind: "choice", values: [1, 2, 3] },
  Order: ORDER_WORD,
  ResultsPerPage: PAGE,
  Page: PAGE,
} as const satisfies FieldSpecs;

const oneReportFields = oneFundFields;

const integrationFields = {
  Id: REQUIRED_ID,
  IntegrationStatus: { kind: "choice", values: [0, 1], required: true },
  IntegrationCode: TEXT_255,
  IntegrationDate: { kind: "datetime" },
} as const satisfies FieldSpecs;

const customStatusFields = {
  Id: REQUIRED_ID,
  IdAdmin: REQUIRED_ID,
  CustomStatus: { kind: "text", maxLength: 20, required: true },
  CustomMessage: TEXT_255,
} as const satisfies FieldSpecs;

/** The same day one year later (29 February → 28 February). */
export function oneYearAfter(date: string): string {
  const [y, m, d] = date.split("-");
  const year = String(Number(y) + 1).padStart(4, "0");
  const day = m === "02" && d === "29" ? "28" : d;
  return `${year}-${m}-${day}`;
}

function fromBeforeTo(fromField: string, toField: string) {
  return (v: Record<string, unknown>): CrossFieldIssue[] => {
    const from = v[fromField];
    const to = v[toField];
    if (typeof from === "string" && typeof to === "string" && to < from) {
      return [{ field: toField, rule: "dateOrder", params: { got: to, other: fromField, otherValue: from } }];
    }
    return [];
  };
}

function expirationNeedsFlag(v: Record<string, unknown>): CrossFieldIssue[] {
  // The service ignores the date unless FundExpiration is true; refusing keeps it from vanishing.
  if (typeof v.FundExpirationDate === "string" && v.FundExpiration !== true) {
    return [{ field: "FundExpirationDate", rule: "dependsOn", params: { other: "FundExpiration" } }];
  }
  return [];
}

function reportWindow(v: Record<string, unknown>, ctx: CheckContext): CrossFieldIssue[] {
  const since = v.Since;
  if (typeof since !== "string") return [];
  const until = typeof v.Until === "string" ? v.Until : ctx.today;
  const order = fromBeforeTo("Since", "Until")(v);
  if (order.length > 0) return order;
  const latest = oneYearAfter(since);
  if (until > latest) {
    return [
      {
        field: typeof v.Until === "string" ? "Until" : "Since",
        rule: "dateRange",
        params: { since, until, latest, today: ctx.today },
      },
    ];
  }
  return [];
}

interface EndpointOptions<
  N extends string,
  M extends HttpMethod,
  K extends "read" | "write",
  Fs extends FieldSpecs,
  R extends z.ZodMiniType,
> {
  name: N;
  method: M;
  /** Sent once, with the same request, when the service answers `method` with 404 or 405. */
  fallbackMethod?: HttpMethod;
  kind: K;
  fields: Fs;
  /** The response's schema (made on first use: see responseSchemas). */
  response: () => R;
  checks?: (value: Record<string, unknown>, ctx: CheckContext) => CrossFieldIssue[];
  /** Which request field names the record the call is about (for the audit), if any. */
  recordField?: keyof Fs & string;
}

function endpoint<
  N extends string,
  M extends HttpMethod,
  K extends "read" | "write",
  Fs extends FieldSpecs,
  R extends z.ZodMiniType,
>(o: EndpointOptions<N, M, K, Fs, R>) {
  const checks = o.checks ?? (() => []);
  // The schemas are made on first use: most executions send no request at all, and Apps Script
  // evaluates the bundle again on every execution.
  let fieldsSchema: z.ZodMiniObject<ShapeOf<Fs>, z.core.$strict> | undefined;
  let request: ReturnType<typeof withChecks> | undefined;
  const strictFields = () => {
    if (!fieldsSchema) fieldsSchema = z.strictObject(shapeOf(o.fields) as ShapeOf<Fs>);
    return fieldsSchema;
  };
  const withChecks = (schema: z.ZodMiniObject<ShapeOf<Fs>, z.core.$strict>) =>
    schema.check(
      z.superRefine((value, ctx) => {
        for (const issue of checks(value as Record<string, unknown>, { today: "" })) {
          ctx.addIssue({
            code: "custom",
            path: [issue.field],
            message: issue.rule,
            params: { rule: issue.rule, ...issue.params },
          });
        }
      }),
    );
  return {
    name: o.name,
    method: o.method,
    fallbackMethod: o.fallbackMethod,
    /** Appended to the base URL, which carries the version (https://…/v1). */
    path: `/${o.name}`,
    in: (o.method === "GET" ? "query" : "body") as M extends "GET" ? "query" : "body",
    kind: o.kind,
    fields: o.fields,
    recordField: o.recordField,
    /** Field rules only (no rule that depends on today's date). */
    get fieldsSchema() {
      return strictFields();
    },
    /**
     * Field rules and the cross-field rules that need no date: a rule measured from today
     * (a report window without its end) is validateRequest's, with the caller's clock.
     */
    get request() {
      if (!request) request = withChecks(strictFields());
      return request;
    },
    checks,
    get response(): R {
      return o.response();
    },
  };
}

/** Every endpoint of the service, by name. */
export const ENDPOINTS = {
  getFunds: endpoint({
    name: "getFunds",
    method: "GET",
    kind: "read",
    fields: fundsFields,
    response: () => responseSchemas().fundListSchema,
    checks: fromBeforeTo("From", "To"),
  }),
  getFund: endpoint({
    name: "getFund",
    method: "GET",
    kind: "read",
    fields: oneFundFields,
    response: () => responseSchemas().fundSchema,
    recordField: "Id",
  }),
  createFund: endpoint({
    name: "createFund",
    method: "POST",
    kind: "write",
    fields: createFundFields,
    response: () => responseSchemas().fundSchema,
    checks: expirationNeedsFlag,
  }),
  updateFund: endpoint({
    name: "updateFund",
    method: "PUT",
    kind: "write",
    fields: updateFundFields,
    response: () => responseSchemas().fundSchema,
    checks: expirationNeedsFlag,
    recordField: "Id",
  }),
  depositMoneyToFund: endpoint({
    name: "depositMoneyToFund",
    method: "POST",
    kind: "write",
    fields: depositFields,
    response: () => responseSchemas().fundSchema,
    recordField: "Id",
  }),
  withdrawMoneyFromFund: endpoint({
    name: "withdrawMoneyFromFund",
    method: "POST",
    kind: "write",
    fields: withdrawFields,
    response: () => responseSchemas().fundSchema,
    recordField: "Id",
  }),
  setFundStatus: endpoint({
    name: "setFundStatus",
    method: "PUT",
    kind: "write",
    fields: fundStatusFields,
    response: () => responseSchemas().fundSchema,
    recordField: "Id",
  }),
  getExpenseReports: endpoint({
    name: "getExpenseReports",
    method: "GET",
    kind: "read",
    fields: reportsFields,
    response: () => responseSchemas().expenseReportListSchema,
    checks: reportWindow,
  }),
  getExpenseReport: endpoint({
    name: "getExpenseReport",
    method: "GET",
    kind: "read",
    fields: oneReportFields,
    response: () => responseSchemas().expenseReportSchema,
    recordField: "Id",
  }),
  setExpenseReportIntegration: endpoint({
    name: "setExpenseReportIntegration",
    method: "PUT",
    // The spec says PUT; the service's Python SDK sends POST: POST once on a 404 or 405.
    fallbackMethod: "POST",
    kind: "write",
    fields: integrationFields,
    response: () => responseSchemas().integrationResultSchema,
    recordField: "Id",
  }),
  setExpenseReportCustomStatus: endpoint({
    name: "setExpenseReportCustomStatus",
    method: "PUT",
    fallbackMethod: "POST",
    kind: "write",
    fields: customStatusFields,
    response: () => responseSchemas().customStatusResultSchema,
    recordField: "Id",
  }),
} as const;

export type Endpoints = typeof ENDPOINTS;
export type EndpointName = keyof Endpoints;
export type Endpoint = Endpoints[EndpointName];

/** Every endpoint name, in the spec's order. */
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** What a caller passes to an endpoint (typed values, or text, or cell values). */
export type RequestInput<N extends EndpointName> = z.input<Endpoints[N]["fieldsSchema"]>;

/** A checked request: canonical values, amounts in integer cents. */
export type RequestValue<N extends EndpointName> = z.output<Endpoints[N]["fieldsSchema"]>;

/** The normalised record an endpoint answers with. */
export type ResponseValue<N extends EndpointName> = z.output<Endpoints[N]["response"]>;

/** True when `name` is one of the service's endpoints. */
export function isEndpointName(name: unknown): name is EndpointName {
  return typeof name === "string" && (ENDPOINT_NAMES as string[]).includes(name);
}
