/** Plain HTTP calls to a running sandbox for the tests of test/sandbox. */
import { ADMIN_ID } from "../../dev/sandbox/demo";
import { startSandbox } from "../../dev/sandbox/index";
import type { SandboxOptions } from "../../dev/sandbox/server";

/** Every test runs on this day so that dates and the one-year window are reproducible. */
export const TODAY = "2026-06-15";
export const fixedClock = () => new Date(`${TODAY}T12:00:00Z`);

export type Running = Awaited<ReturnType<typeof startSandbox>>;

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of JSON answers
  body: any;
}

export function start(options: SandboxOptions = {}): Promise<Running> {
  return startSandbox({ now: fixedClock, seed: 7, funds: 30, reports: 400, ...options });
}

/** Calls /v1/<name> with its spec method: query string for GET, JSON body otherwise. */
export async function call(
  sandbox: Running,
  name: string,
  params: Record<string, unknown> = {},
  init: { method?: string; token?: string | null } = {},
): Promise<Reply> {
  const method = init.method ?? methodOf(name);
  const headers: Record<string, string> = {};
  const token = init.token === undefined ? sandbox.token : init.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let url = `${sandbox.url}/${name}`;
  let body: string | undefined;
  if (method === "GET") {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
    if ([...query].length > 0) url += `?${query}`;
  } else {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(params);
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Calls a /_sandbox route. */
export async function control(
  sandbox: Running,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const res = await fetch(`${sandbox.origin}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const METHODS: Record<string, string> = {
  getFunds: "GET",
  getFund: "GET",
  createFund: "POST",
  updateFund: "PUT",
  depositMoneyToFund: "POST",
  withdrawMoneyFromFund: "POST",
  setFundStatus: "PUT",
  getExpenseReports: "GET",
  getExpenseReport: "GET",
  setExpenseReportIntegration: "PUT",
  setExpenseReportCustomStatus: "PUT",
};

function methodOf(name: string): string {
  return METHODS[name] ?? "GET";
}

/**
 * A new plain fund's input for the ledger: employee 1101's, named "Fondo", created by the admin,
 * in `currency` with `amountCents`; `more` over it.
 */
export const fundInput = (
  currency: string,
  amountCents: number,
  more: { idEmployee?: number; name?: string } = {},
) => ({
  idEmployee: 1101,
  idAdmin: ADMIN_ID,
  name: "Fondo",
  currency,
  code: "",
  amountCents,
  comment: "",
  flexible: false,
  autoDeposit: false,
  autoBlock: false,
  expires: false,
  expirationDate: "",
  ...more,
});
