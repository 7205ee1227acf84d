/**
 * From a checked request to the HTTP request the service expects, and from the service's
 * answer to a normalised record or a typed error. No sending here: see ./client.
 */
import type * as z from "zod/mini";
import {
  ENDPOINTS,
  type EndpointName,
  type HttpMethod,
  type RequestValue,
  type ResponseValue,
} from "./endpoints";
import {
  HttpError,
  RedirectError,
  ServiceError,
  UnexpectedResponseError,
  UnreadableAmountError,
  type WriteOutcome,
  withoutSecrets,
} from "./errors";
import type { FieldSpec } from "./fields";
import { centsToAmount, MAX_EXACT_CENTS } from "./money";
import { FUND_TOTAL_MEMBERS, fundMovementsOf, readFast, UNREAD } from "./responses";
import { type HttpRequest, type HttpResponse, headerValue } from "./transport";
import { hostOf } from "./urls";

export const DEFAULT_BASE_URL = "https://api.rindegastos.com/v1";

/** `<base URL>/<endpoint>`; the base URL carries the version (…/v1). */
export function endpointUrl(baseUrl: string, name: EndpointName): string {
  return `${baseUrl.replace(/\/+$/, "")}${ENDPOINTS[name].path}`;
}

function wireValue(spec: FieldSpec | undefined, value: unknown): unknown {
  if (spec?.kind === "money" && typeof value === "number") return centsToAmount(value);
  return value;
}

/** The query string of a read, in the order the endpoint lists its fields. */
export function queryString(name: EndpointName, value: Record<string, unknown>): string {
  const fields = ENDPOINTS[name].fields as Record<string, FieldSpec>;
  const parts: string[] = [];
  for (const key of Object.keys(fields)) {
    const v = value[key];
    if (v === undefined || v === null) continue;
    const text = typeof v === "boolean" ? (v ? "1" : "0") : String(wireValue(fields[key], v));
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.join("&");
}

/** The JSON body of a write: amounts as two-decimal numbers, flags as booleans. */
export function jsonBody(name: EndpointName, value: Record<string, unknown>): string {
  const fields = ENDPOINTS[name].fields as Record<string, FieldSpec>;
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    if (value[key] !== undefined) body[key] = wireValue(fields[key], value[key]);
  }
  return JSON.stringify(body);
}

/** The HTTP request for a checked request of endpoint `name`. */
export function buildRequest<N extends EndpointName>(
  name: N,
  value: RequestValue<N>,
  options: { baseUrl: string; token: string; method?: HttpMethod },
): HttpRequest {
  const endpoint = ENDPOINTS[name];
  const method = options.method ?? endpoint.method;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.token}`,
    Accept: "application/json",
  };
  const url = endpointUrl(options.baseUrl, name);
  const record = value as Record<string, unknown>;
  if (endpoint.in === "query") {
    const qs = queryString(name, record);
    return { method, url: qs ? `${url}?${qs}` : url, headers };
  }
  headers["Content-Type"] = "application/json";
  return { method, url, headers, body: jsonBody(name, record) };
}

/**
 * A message the service put in a body: `message`, `Message`, `Error`, `error`, `errors`,
 * `detail` or `description`; a list of them (`"message": ["…", "…"]`) joined.
 */
function messageIn(body: unknown): string {
  if (typeof body === "string") return body;
  if (Array.isArray(body)) return body.map(messageIn).filter(Boolean).join("; ");
  if (typeof body !== "object" || body === null) return "";
  const o = body as Record<string, unknown>;
  for (const key of [
    "message",
    "Message",
    "Error",
    "error",
    "errors",
    "detail",
    "description",
    "Description",
  ]) {
    const v = o[key];
    if (typeof v === "string" && v.trim() !== "") return v;
    if (typeof v === "object" && v !== null) {
      const inner = messageIn(v);
      if (inner) return inner;
    }
  }
  return "";
}

function truthyMember(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0) return false;
  if (typeof v === "string") return !/^(0|false|null|)$/i.test(v.trim());
  // An empty list or object of errors reports none.
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

/**
 * The error a 2xx body reports, if any: a top-level `Error`/`error` member (v1 style) or a
 * `statusCode` of 400 or more (v2 style). Null when the body reports none.
 */
/** The error code a body names ({"Error": {"Code": "InvalidField", …}}), if any. */
function codeIn(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const o = body as Record<string, unknown>;
  const inner = o.Error ?? o.error;
  const code =
    typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>).Code : undefined;
  // A code is a word ("InvalidField"); anything else is not one.
  return typeof code === "string" && /^\w{1,64}$/.test(code) ? code : undefined;
}

export function errorInBody(body: unknown): { message: string; statusCode?: number } | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const o = body as Record<string, unknown>;
  const codeValue = o.statusCode ?? o.StatusCode;
  const code =
    typeof codeValue === "number"
      ? codeValue
      : typeof codeValue === "string"
        ? Number(codeValue)
        : Number.NaN;
  if (Number.isFinite(code) && code >= 400) return { message: messageIn(o), statusCode: code };
  for (const key of ["Error", "error"]) {
    if (truthyMember(o[key])) {
      const v = o[key];
      const message = typeof v === "string" ? v : messageIn(v) || messageIn(o) || JSON.stringify(v);
      return { message };
    }
  }
  return null;
}

/** Milliseconds to wait from a Retry-After header (seconds or an HTTP date), if present. */
export function retryAfterMs(headers: Record<string, string>, now: number): number | undefined {
  const raw = headerValue(headers, "Retry-After");
  if (raw === undefined) return undefined;
  const t = raw.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * For writes: does an answer with this status say the request was not applied? Only a 4xx
 * does (the client's mistake, refused before anything happened), except 408 (the service gave
 * up waiting, maybe midway) and 429 (a rate limiter may answer it after the work was done).
 * 5xx, 3xx and anything else leave the outcome unknown.
 */
export function outcomeOfStatus(status: number): WriteOutcome {
  return status >= 400 && status <= 499 && status !== 408 && status !== 429 ? "refused" : "unknown";
}

function pathText(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "body";
}

const ENTITIES: Record<string, string> = { nbsp: " ", lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" };

/** An HTML page (a proxy's or server's error page) as its words: the title, then the text. */
function pageText(text: string): string {
  if (!/^\s*</.test(text)) return text;
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.trim();
  const words = text.replace(/<(head|script|style)\b[\s\S]*?<\/\1>|<!--[\s\S]*?-->/gi, " ");
  return `${title ? `${title}: ` : ""}${words}`
    .replace(/<[^>]*>/g, " ")
    .replace(/&(nbsp|lt|gt|quot|#39|amp);/g, (_m, e: string) => ENTITIES[e] as string);
}

function shortText(text: string, max = 300): string {
  // Bytes shown as text (a compressed body) would only put control characters in a message.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (/[\0-\b\x0e-\x1f]/.test(text)) return "(binary data, not text)";
  const flat = pageText(text).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/** Runs the endpoint's response schema; the first problem becomes an UnexpectedResponseError. */
export function parseBody<N extends EndpointName>(
  name: N,
  body: unknown,
  status = 200,
  outcome: WriteOutcome = "unknown",
): ResponseValue<N> {
  const schema = ENDPOINTS[name].response as z.ZodMiniType;
  const read = readFast(schema, body);
  if (read !== UNREAD) return read as ResponseValue<N>;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first ? pathText(first.path) : "body";
    const got = first?.code === "custom" ? first.params?.unreadableAmount : undefined;
    if (first && typeof got === "string")
      throw unreadableAmount(name, body, status, first.path, got, outcome);
    const detail =
      first?.code === "invalid_type"
        ? `expected ${first.expected}, got ${describe(body, first.path)}`
        : (first?.message ?? "");
    throw new UnexpectedResponseError(
      name,
      status,
      field,
      detail + recordOf(body, first?.path ?? []),
      outcome,
    );
  }
  return parsed.data as ResponseValue<N>;
}

/** " (fund 5010)" for a member of `Funds[3]`: the list item's Id, by which a person finds it. */
function recordOf(body: unknown, path: readonly PropertyKey[]): string {
  const list = path[0];
  if (typeof path[1] !== "number" || (list !== "Funds" && list !== "ExpenseReports")) return "";
  const id = fundMovementsOf(valueAt(body, path.slice(0, 2))).id;
  return id === null ? "" : ` (${list === "Funds" ? "fund" : "report"} ${id})`;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = body;
  for (const p of path)
    v = typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/**
 * The error for an amount beyond what the add-on can read exactly at `path`, with what can
 * still be read of its fund (Id, transactions) or report (Id).
 */
function unreadableAmount(
  name: EndpointName,
  body: unknown,
  status: number,
  path: readonly PropertyKey[],
  got: string,
  outcome: WriteOutcome,
): UnreadableAmountError {
  const member = String(path[path.length - 1]);
  const fundTotal = FUND_TOTAL_MEMBERS.includes(member);
  const inTransactions = path.indexOf("Transactions");
  const ownerPath = inTransactions >= 0 ? path.slice(0, inTransactions) : path.slice(0, -1);
  const owner = fundMovementsOf(valueAt(body, ownerPath));
  return new UnreadableAmountError(name, status, pathText(path), got, outcome, {
    kind: fundTotal || inTransactions >= 0 ? "fund" : "report",
    id: owner.id,
    fundTotal,
    transactions: fundTotal ? owner.transactions : null,
    maxCents: MAX_EXACT_CENTS,
  });
}

function describe(body: unknown, path: readonly PropertyKey[]): string {
  const v = valueAt(body, path);
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  return Array.isArray(v) ? "a list" : typeof v;
}

/** Whether `body` reads as an answer of endpoint `name` (members beyond its own aside). */
function answers(name: EndpointName, body: unknown): boolean {
  const schema = ENDPOINTS[name].response as z.ZodMiniType;
  return readFast(schema, body) !== UNREAD || schema.safeParse(body).success;
}

/**
 * A list answer whose items are there and empty ([], null or "") but whose `Records` is null or
 * absent: no page to count, so none (an answer without its items stays unread).
 */
function withoutPaging(name: EndpointName, json: unknown): unknown {
  const member = name === "getFunds" ? "Funds" : name === "getExpenseReports" ? "ExpenseReports" : "";
  if (!member || typeof json !== "object" || json === null || !(member in json)) return json;
  const o = json as Record<string, unknown>;
  const items = o[member];
  return o.Records == null && (items === null || items === "" || (Array.isArray(items) && !items.length))
    ? { ...o, Records: { TotalRecords: 0, Funds: 0, Reports: 0, Page: 1, Pages: 0 } }
    : json;
}

/**
 * Reads an answer of endpoint `name`: a normalised record, or a typed error (HttpError,
 * ServiceError, UnexpectedResponseError). `secrets` are removed from every message.
 */
export function readResponse<N extends EndpointName>(
  name: N,
  response: HttpResponse,
  options: { now: number; secrets: readonly string[] },
): ResponseValue<N> {
  const { status } = response;
  // Redacted before anything reads it: a value shown cut short could not be redacted after.
  // A byte order mark before the JSON (some servers write one) is not part of it.
  const body = withoutSecrets(response.body, options.secrets).replace(/^\uFEFF/, "");
  const clean = (text: string) => shortText(withoutSecrets(text, options.secrets));
  let json: unknown;
  let jsonOk = false;
  try {
    json = JSON.parse(body);
    jsonOk = true;
  } catch (_err) {
    json = undefined;
  }
  if (status >= 300 && status <= 399) {
    const location = headerValue(response.headers, "Location") ?? "";
    throw new RedirectError(
      name,
      status,
      withoutSecrets(location, options.secrets),
      hostOf(location),
      outcomeOfStatus(status),
    );
  }
  if (status < 200 || status > 299) {
    const message = clean(jsonOk ? messageIn(json) || body : body);
    throw new HttpError(
      name,
      status,
      message,
      outcomeOfStatus(status),
      retryAfterMs(response.headers, options.now),
      jsonOk ? codeIn(json) : undefined,
    );
  }
  if (!jsonOk) {
    throw new UnexpectedResponseError(
      name,
      status,
      "body",
      `not JSON: ${clean(body) || "(empty)"}`,
      "unknown",
    );
  }
  const reported = errorInBody(json);
  if (reported) {
    // An error member alone says "not done"; a statusCode in the body is read as the status would be.
    let outcome = reported.statusCode === undefined ? "refused" : outcomeOfStatus(reported.statusCode);
    // Beside the fund a money write answers with: the service may have applied it and failed
    // after. (Sending any other write again is harmless: its refusal stands.)
    if (/^(createFund|depositMoneyToFund|withdrawMoneyFromFund)$/.test(name) && answers(name, json))
      outcome = "unknown";
    const error = new ServiceError(
      name,
      status,
      clean(reported.message),
      outcome,
      reported.statusCode,
      codeIn(json),
    );
    error.retryAfterMs = retryAfterMs(response.headers, options.now);
    throw error;
  }
  try {
    return parseBody(name, withoutPaging(name, json), status, "unknown");
  } catch (err) {
    if (err instanceof UnexpectedResponseError) {
      // An answer of another shape that says something ({"success": false, "message": …}): its words.
      const said = messageIn(json) && `; the answer says: ${clean(messageIn(json))}`;
      err.detail += said;
      err.message = withoutSecrets(err.message + said, options.secrets);
    }
    throw err;
  }
}
