/**
 * Request validation, read from the contract in src/api: the same field rules, cross-field
 * rules (date order, the one-year window) and messages the add-on checks before sending, with
 * the sandbox's own "today".
 */
import { ENDPOINTS, type EndpointName } from "../../src/api/endpoints";
import { checkField, type FieldSpec, isBlank } from "../../src/api/fields";
import { type MessageLanguage, ruleMessage } from "../../src/api/messages";
import { validateRequest } from "../../src/api/words";
import { SandboxError } from "./errors";
import { MAX_RESULTS_PER_PAGE } from "./queries";

export interface FieldProblem {
  Field: string;
  Message: string;
}

/** A refused request: 400, the first problem as Message and Field, every problem in Issues. */
export class InvalidRequest extends SandboxError {
  constructor(readonly issues: FieldProblem[]) {
    const first = issues[0] ?? { Field: "request", Message: "request: invalid" };
    super(400, "InvalidField", first.Message, first.Field);
  }

  override body() {
    const base = super.body();
    return { Error: { ...base.Error, Issues: this.issues } };
  }
}

/**
 * The checked request of `name` (canonical values, amounts in integer cents, absent fields
 * left out), or throws InvalidRequest.
 */
export function parseRequest(
  name: EndpointName,
  raw: unknown,
  today: string,
  language: MessageLanguage = "en",
): Record<string, unknown> {
  const asSent = asSentProblems(name, raw, language);
  const { request, keptDate } = expirationDateUse(name, raw, language, asSent);
  const checked = validateRequest(name, request, { today, language });
  if (!checked.ok || asSent.length > 0) {
    const named = new Set(asSent.map((p) => p.Field));
    const others = checked.ok ? [] : checked.issues.filter((i) => !named.has(i.field));
    throw new InvalidRequest([...asSent, ...others.map((i) => ({ Field: i.field, Message: i.message }))]);
  }
  const value = { ...(checked.value as Record<string, unknown>) };
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  // Spec 4.8: without Until the range ends today, so a Since after today has its end before its
  // start, as an Until before Since has (which the contract refuses).
  if (name === "getExpenseReports" && value.Until === undefined && String(value.Since) > today) {
    const message =
      language === "es"
        ? `Since no puede ser posterior a hoy (${today}) si falta Until: el rango termina hoy (se recibió "${value.Since}").`
        : `Since must not be after today (${today}) when Until is absent: the range ends today (got "${value.Since}").`;
    throw new InvalidRequest([{ Field: "Since", Message: message }]);
  }
  // Spec 2.2: IntegrationDate is empty when the report is not integrated; 4.10: with
  // IntegrationStatus 0 it is empty by default. A date sent with 0 would contradict both.
  if (name === "setExpenseReportIntegration" && value.IntegrationStatus === 0 && value.IntegrationDate) {
    const message =
      language === "es"
        ? `IntegrationDate solo se usa con IntegrationStatus 1: un informe no integrado no tiene fecha de integración (se recibió "${value.IntegrationDate}").`
        : `IntegrationDate is used only with IntegrationStatus 1: a report that is not integrated has no integration date (got "${value.IntegrationDate}").`;
    throw new InvalidRequest([{ Field: "IntegrationDate", Message: message }]);
  }
  // Text is kept as sent (the contract trims what the add-on sends; the service sets Title from
  // FundName). In a body an optional text sent empty is a value ("" empties FundCode on
  // updateFund), where the contract reads blank as absent.
  const endpoint = ENDPOINTS[name];
  const fields = endpoint.fields as Record<string, FieldSpec>;
  const sent = raw as Record<string, unknown>;
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.kind !== "text" || typeof sent[key] !== "string") continue;
    if (key in value || (endpoint.in === "body" && !spec.required)) value[key] = sent[key];
  }
  // The contract leaves the page size open (the spec shows no maximum); the sandbox's own
  // maximum is refused in the contract's words.
  const perPage = value.ResultsPerPage;
  if (typeof perPage === "number" && perPage > MAX_RESULTS_PER_PAGE) {
    const params = { max: MAX_RESULTS_PER_PAGE, got: perPage };
    throw new InvalidRequest([
      { Field: "ResultsPerPage", Message: ruleMessage("max", "ResultsPerPage", params, language) },
    ]);
  }
  if (keptDate !== undefined) value.FundExpirationDate = keptDate;
  return value;
}

/**
 * Spec 4.3/4.4: FundExpirationDate is "used only when FundExpiration is true". The contract
 * refuses a date sent without the flag (so that the add-on never loses one silently); the
 * service it stands for takes the request and does not use the date. The sandbox behaves as the
 * service: the date must still be a date, and is then set aside. On updateFund without
 * FundExpiration the fund's own flag decides, so the date is kept for the ledger.
 */
function expirationDateUse(
  name: EndpointName,
  raw: unknown,
  language: MessageLanguage,
  asSent: FieldProblem[],
): { request: unknown; keptDate?: string } {
  if (name !== "createFund" && name !== "updateFund") return { request: raw };
  if (asSent.some((p) => p.Field === "FundExpiration" || p.Field === "FundExpirationDate"))
    return { request: raw };
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { request: raw };
  const body = raw as Record<string, unknown>;
  if (isBlank(body.FundExpirationDate)) return { request: raw };
  const flagGiven = !isBlank(body.FundExpiration);
  const flag = flagGiven ? checkField({ kind: "flag" }, body.FundExpiration) : undefined;
  // A bad flag, or a flag set to true: the contract's own rules apply unchanged.
  if (flag && (!flag.ok || flag.value === true)) return { request: raw };
  const date = checkField({ kind: "date" }, body.FundExpirationDate);
  if (!date.ok) {
    const message = ruleMessage(date.rule, "FundExpirationDate", date.params, language);
    throw new InvalidRequest([{ Field: "FundExpirationDate", Message: message }]);
  }
  const { FundExpirationDate: _unused, ...rest } = body;
  const keep = name === "updateFund" && !flagGiven;
  return keep ? { request: rest, keptDate: date.value as string } : { request: rest };
}

/** Spanish messages when the caller prefers Spanish (Accept-Language: es…), English otherwise. */
export function languageOf(acceptLanguage: string | undefined): MessageLanguage {
  return /^\s*es\b/i.test(acceptLanguage ?? "") ? "es" : "en";
}

/** The JSON type each kind of field travels as in a write body (spec part 4). */
const JSON_TYPES: Record<FieldSpec["kind"], "number" | "boolean" | "string"> = {
  id: "number",
  integer: "number",
  choice: "number",
  money: "number",
  flag: "boolean",
  text: "string",
  word: "string",
  currency: "string",
  date: "string",
  datetime: "string",
};

const JSON_TYPE_NAMES = {
  en: { number: "a JSON number", boolean: "a JSON boolean (true or false)", string: "a JSON string" },
  es: { number: "un número JSON", boolean: "un booleano JSON (true o false)", string: "un texto JSON" },
};

/** The largest whole number the contract takes (15 digits). */
const MAX_WHOLE = 999_999_999_999_999;

let currencies: Set<string> | undefined;

/** ISO 4217 codes, as the runtime's Intl knows them. */
function isCurrencyCode(text: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf("currency"));
  return /^[A-Z]{3}$/.test(text) && currencies.has(text);
}

function sentText(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/**
 * What the contract (src/api) takes loosely from the add-on's cells and forms, and the spec
 * writes strictly: in a JSON body integers and amounts are numbers, flags booleans and text
 * strings; `ASC`/`DESC` as written; currencies ISO 4217 in capitals; dates and whole numbers of a
 * query without spaces or signs; lengths counted on the text sent. One problem per field.
 */
function asSentProblems(name: EndpointName, raw: unknown, language: MessageLanguage): FieldProblem[] {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return [];
  const endpoint = ENDPOINTS[name];
  const fields = endpoint.fields as Record<string, FieldSpec>;
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(raw as Record<string, unknown>)) {
    const spec = fields[field];
    if (!spec || isBlank(value)) continue;
    const message = problemOf(spec, field, value, endpoint.in === "body", language);
    if (message) problems.push({ Field: field, Message: message });
  }
  return problems;
}

function problemOf(
  spec: FieldSpec,
  field: string,
  value: unknown,
  inBody: boolean,
  language: MessageLanguage,
): string | undefined {
  const type = JSON_TYPES[spec.kind];
  if (spec.kind === "id" || spec.kind === "integer") {
    // A whole number beyond the contract's 15 digits is refused by its bound, not its form.
    const digits = !inBody && typeof value === "string" && /^-?\d+$/.test(value);
    const n = typeof value === "number" || digits ? Number(value) : 0;
    if (Number.isInteger(n) && Math.abs(n) > MAX_WHOLE) {
      const max = field === "ResultsPerPage" ? MAX_RESULTS_PER_PAGE : MAX_WHOLE;
      return n < 0
        ? ruleMessage("min", field, { min: 1, got: String(value) }, language)
        : ruleMessage("max", field, { max, got: String(value) }, language);
    }
  }
  if (inBody && typeof value !== type) {
    // A value the contract would refuse anyway ("1.234,50", "maybe") gets the contract's message.
    const loose = checkField(spec, value);
    if (!loose.ok) return ruleMessage(loose.rule, field, loose.params, language);
    const names = JSON_TYPE_NAMES[language];
    return language === "es"
      ? `${field} debe ser ${names[type]} (se recibió ${sentText(value)}).`
      : `${field} must be ${names[type]} (got ${sentText(value)}).`;
  }
  if (typeof value !== "string") return undefined;
  const got = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  switch (spec.kind) {
    case "id":
    case "integer":
      return /^-?\d+$/.test(value) ? undefined : ruleMessage("integer", field, { got }, language);
    case "choice":
    case "word": {
      const values = spec.values as readonly (string | number)[];
      if (values.some((v) => String(v) === value)) return undefined;
      return ruleMessage("oneOf", field, { values: values.join(", "), got }, language);
    }
    case "date":
    case "datetime":
      return value === value.trim() ? undefined : ruleMessage(spec.kind, field, { got }, language);
    case "currency":
      if (isCurrencyCode(value)) return undefined;
      return language === "es"
        ? `${field} debe ser un código de moneda ISO 4217 en mayúsculas, como CLP o USD (se recibió ${sentText(got)}).`
        : `${field} must be an ISO 4217 currency code in capitals, such as CLP or USD (got ${sentText(got)}).`;
    case "text": {
      const length = Array.from(value).length;
      if (length <= spec.maxLength) return undefined;
      return ruleMessage("maxLength", field, { max: spec.maxLength, length }, language);
    }
    default:
      return undefined;
  }
}
