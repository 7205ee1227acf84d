/**
 * The connection test of the settings sidebar's Connection section (service URL, the user's
 * token): its input checked, one small call, and its outcome as data (a kind and the values its
 * message names), said in the user's words by the adapter (src/app/connection-words.ts).
 * Pure: the store and the client are handed in.
 */
import type { Client } from "../api/client";
import {
  ApiError,
  HttpError,
  InvalidRequestError,
  RedirectError,
  ServiceError,
  TransportError,
  UnexpectedResponseError,
} from "../api/errors";
import type { Fund } from "../api/types";
import { hostOf } from "../api/urls";
import type { Words } from "../i18n/words";
import { MARK_QUERY } from "./account-mark";
import { DEFAULT_BASE_URL, type SettingsIssue, settingsFromText, settingsTextFrom } from "./model";
import { checkToken, type SettingsStore, TokenNotBoundError } from "./store";

/**
 * What the settings sidebar sends to test: the URL and token being typed; with `key`, a
 * company of the list (its URL, and this user's token saved for it unless one is typed).
 */
export interface ConnectionInput {
  baseUrl?: string;
  token?: string;
  key?: string;
}

export type ConnectionTestKind =
  | "ok"
  | "noToken"
  | "badSettings"
  | "badUrl"
  | "badToken"
  | "serviceDown"
  | "serviceError"
  | "unexpected"
  | "httpError"
  | "tokenNotBound"
  | "notAllowed"
  | "redirect"
  /** Connected, but to another account than the one marked for the company (src/app/account-mark.ts). */
  | "otherAccount";

/** Why the settings to test were refused, as data. */
export type ConnectionProblem =
  /** What the sidebar sent is not of the shape it should be (its issues as written). */
  | { problem: "input"; issues: SettingsIssue[] }
  /** The company named is not in the list, or was removed. */
  | { problem: "company"; key: string }
  /** The URL breaks a rule of the `baseUrl` setting (the issue carries its values). */
  | { problem: "setting"; issue: SettingsIssue }
  /** The token typed cannot be sent (`checkToken`'s reason). */
  | { problem: "token"; reason: string };

/** The outcome of a test as data: its kind and the values its message names. */
export interface ConnectionTestOutcome {
  ok: boolean;
  kind: ConnectionTestKind;
  /** What the message names: an HTTP status, a host, a count, the service's words, a detail. */
  params: Record<string, string | number>;
  /** For `badSettings`: what was refused. */
  problem?: ConnectionProblem;
  /** For `tokenNotBound`: the store's notice as data (TokenNotBoundError's words). */
  words?: Words;
  /** HTTP status when there was an answer. */
  status?: number;
  /** When connected: the URL tested and the account's oldest funds (MARK_QUERY's answer). */
  reached?: { url: string; funds: Fund[] };
}

/** What the sidebar receives of a test. */
export interface ConnectionTestResult {
  ok: boolean;
  kind: ConnectionTestKind;
  /** A plain explanation for the user, in their words; never carries the token. */
  message: string;
  /** HTTP status when there was an answer. */
  status?: number;
  /** When connected: the URL tested and the account's oldest funds (MARK_QUERY's answer). */
  reached?: { url: string; funds: Fund[] };
}

const INPUT_KEYS: Record<keyof ConnectionInput, "string"> = {
  baseUrl: "string",
  token: "string",
  key: "string",
};

/**
 * Checks what a sidebar sent (anyone who can open the sidebar can call the server functions,
 * with anything): a plain object of known keys with values of the right type.
 */
export function parseConnectionInput(
  input: unknown,
): { ok: true; value: ConnectionInput } | { ok: false; issues: SettingsIssue[] } {
  if (input === undefined || input === null) return { ok: true, value: {} };
  if (typeof input !== "object" || Array.isArray(input)) {
    return {
      ok: false,
      issues: [{ field: "request", rule: "request", words: { key: "connection.input.request" } }],
    };
  }
  const issues: SettingsIssue[] = [];
  const value: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(input as Record<string, unknown>)) {
    const type = INPUT_KEYS[key as keyof ConnectionInput];
    if (!type) {
      issues.push({
        field: key,
        rule: "unknownField",
        words: { key: "connection.input.unknown", params: { key } },
      });
    } else if (v !== undefined && v !== null && typeof v !== type) {
      issues.push({
        field: key,
        rule: "type",
        words: { key: "connection.input.type", params: { key } },
      });
    } else if (v !== undefined && v !== null) {
      value[key] = v;
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: value as ConnectionInput };
}

function shortDetail(err: ApiError): string {
  if (err instanceof HttpError || err instanceof ServiceError)
    return err.serviceMessage || `HTTP ${err.status}`;
  if (err instanceof UnexpectedResponseError) return `${err.field}: ${err.detail}`;
  if (err instanceof TransportError) return err.detail;
  if (err instanceof InvalidRequestError)
    return err.issues.map((i) => i.message).join(" ") || "invalid request.";
  return err.message;
}

/** Why the connection test failed, as data. */
export function explainConnectionFailure(err: unknown): ConnectionTestOutcome {
  const result = (
    kind: ConnectionTestKind,
    params: Record<string, string | number> = {},
    status?: number,
  ): ConnectionTestOutcome => {
    const r: ConnectionTestOutcome = { ok: false, kind, params };
    if (status !== undefined) r.status = status;
    return r;
  };
  if (!(err instanceof ApiError)) {
    return result("unexpected", { detail: err instanceof Error ? err.message : String(err) });
  }
  const detail = shortDetail(err);
  if (err instanceof RedirectError) {
    return result(
      "redirect",
      { status: err.status, host: err.locationHost || hostOf(err.location) || err.location || "?" },
      err.status,
    );
  }
  if (err instanceof TransportError && err.notAllowed) return result("notAllowed", { detail });
  if (err instanceof InvalidRequestError) {
    return err.issues.some((i) => i.field === "token")
      ? result("noToken")
      : result("badSettings", { message: detail });
  }
  if (err instanceof TransportError) {
    return err.timedOut ? result("serviceDown", { detail }) : result("badUrl", { detail });
  }
  if (err instanceof HttpError) {
    if (err.status === 401 || err.status === 403)
      return result("badToken", { status: err.status }, err.status);
    if (err.status === 404 || err.status === 405 || err.status === 400)
      return result("badUrl", { detail: `HTTP ${err.status}` }, err.status);
    if (err.status >= 500 || err.status === 408 || err.status === 429)
      return result("serviceDown", { detail: `HTTP ${err.status}` }, err.status);
    return result("httpError", { status: err.status, detail }, err.status);
  }
  if (err instanceof ServiceError) {
    if (err.bodyStatusCode === 401 || err.bodyStatusCode === 403)
      return result("badToken", { status: err.bodyStatusCode }, err.status);
    return result("serviceError", { detail }, err.status);
  }
  return result("unexpected", { detail }, err.status);
}

/**
 * One small call (getFunds: the account's oldest funds, MARK_QUERY, which mark its account)
 * with the saved settings, or with the URL and token being typed when given; its outcome as
 * data.
 */
export function testConnection(
  deps: {
    store: SettingsStore;
    /**
     * This user's saved token for the URL tested (a company's when `key` is given): "" when none
     * is saved; throws TokenNotBoundError when it may not go there (src/app/company-clients.ts).
     */
    savedToken: (target: { key?: string; url: string }) => string;
    createClient: (baseUrl: string, token: string) => Client;
  },
  input: unknown,
): ConnectionTestOutcome {
  const refused = (problem: ConnectionProblem): ConnectionTestOutcome => ({
    ok: false,
    kind: "badSettings",
    params: {},
    problem,
  });
  const parsed = parseConnectionInput(input);
  if (!parsed.ok) return refused({ problem: "input", issues: parsed.issues });
  const typed = parsed.value;
  const company =
    typed.key === undefined ? undefined : deps.store.companies().entries.find((e) => e.key === typed.key);
  if (typed.key !== undefined && (!company || company.removed))
    return refused({ problem: "company", key: typed.key.slice(0, 40) });
  // A company's own URL unless another one is typed (tried with the token typed only).
  const url = typed.baseUrl ?? company?.apiUrl;
  const checked = settingsFromText(
    settingsTextFrom(url !== undefined ? { baseUrl: url } : {}, deps.store.text()),
  );
  const urlIssue = checked.ok ? undefined : checked.issues.find((i) => i.field === "baseUrl");
  if (!checked.ok && urlIssue) return refused({ problem: "setting", issue: urlIssue });
  const baseUrl = checked.ok ? checked.settings.baseUrl : DEFAULT_BASE_URL;
  let token = "";
  if (typeof typed.token === "string" && typed.token.trim() !== "") {
    const tokenCheck = checkToken(typed.token);
    if (!tokenCheck.ok)
      return refused({ problem: "token", reason: String(tokenCheck.issues[0]?.params?.reason) });
    token = typed.token.trim();
  } else {
    // The saved token only for its own origin (the store's rule); the one being typed is
    // entered for the URL being tested.
    try {
      token = deps.savedToken(typed.key === undefined ? { url: baseUrl } : { key: typed.key, url: baseUrl });
    } catch (err) {
      if (!(err instanceof TokenNotBoundError)) throw err;
      return { ok: false, kind: "tokenNotBound", params: {}, words: err.words };
    }
  }
  if (!token) return { ok: false, kind: "noToken", params: {} };
  try {
    const list = deps.createClient(baseUrl, token).getFunds({ ...MARK_QUERY });
    return {
      ok: true,
      kind: "ok",
      params: { count: list.records.totalRecords },
      status: 200,
      reached: { url: baseUrl, funds: list.funds },
    };
  } catch (err) {
    return explainConnectionFailure(err);
  }
}
