/**
 * A refresh of two companies in the emulation, against the two-company sandbox (ids overlap):
 * each company's fund 5001 is a row of its own with its own data; a company whose service is
 * down leaves its rows as they were, named in the summary, while the other refreshes; a
 * refresh paused by the previous version (a v1 cursor) goes on as the first company's lane.
 * The registry and the tokens are written through the settings store, as Settings will.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../../dev/emulator/index";
import { servicePrefix } from "../../dev/emulator/settings";
import { type RunningCompany, type RunningSandbox, startSandboxThread } from "../../dev/sandbox/index";
import { optionsFingerprint, refreshOptionsFrom, sheetNamesFrom } from "../../src/refresh/options";
import { saveText } from "../../src/refresh/stored-text";
import { storeAlphaAndBeta } from "../support/two-companies";
import { privateBuild, sheetOf } from "./emulation";

const FORM = {
  windowMode: "range",
  windowFrom: "2024-01-01",
  windowTo: "2024-06-30",
  auditReads: "every",
};

let sandbox: RunningSandbox;
let alpha: RunningCompany;
let beta: RunningCompany;
let emulator: Emulator;
let distDir: string;
const user = "ana@example.com";
let betaKey = "";

beforeAll(async () => {
  distDir = privateBuild();
  sandbox = await startSandboxThread({ seed: 7, funds: 4, reports: 6, companies: 2, today: "2024-06-30" });
  [alpha, beta] = sandbox.companies as [RunningCompany, RunningCompany];
  emulator = createEmulator({
    distDir,
    users: [user],
    timeZone: "America/Santiago",
    urlFetchAllowlist: [servicePrefix(sandbox.url)],
  });
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  await sandbox?.close();
});

/** A fresh document of two companies, Alpha (c0) and Beta, both on the sandbox, Ana's tokens for both. */
function twoCompanies(): void {
  emulator.resetState();
  betaKey = storeAlphaAndBeta(emulator, sandbox, user, FORM);
}

const control = async (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") => {
  const origin = sandbox.url.replace(/\/v1$/, "");
  const response = await fetch(`${origin}/_sandbox/${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json().catch(() => null);
};

const api = async (token: string, endpoint: string, query: Record<string, unknown>) => {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const response = await fetch(`${sandbox.url}/${endpoint}?${params}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return response.json();
};

function refresh(kind: string) {
  const out = emulator.tryRun("refreshFromSidebar", [kind]);
  if (!out.ok) throw new Error(String(out.error));
  return out.result as { ok: boolean; finished: boolean; message: string; records: number };
}

/** Each data row of a sheet by its (company key, first cell), with the columns asked for. */
function rowsOf(name: string, columns: string[]) {
  const sheet = sheetOf(emulator, name);
  if (!sheet) return [];
  const at = (label: string) => sheet.header.indexOf(label);
  return sheet.values.slice(1).map((row) => columns.map((c) => row[at(c)]));
}

const auditRows = () => rowsOf("Audit", ["Company", "Endpoint"]);

describe("a refresh of two companies", () => {
  it("writes each company's fund 5001 as a row of its own, with that company's data", async () => {
    twoCompanies();
    const summary = refresh("all");
    expect(summary).toMatchObject({ ok: true, finished: true });
    const funds = rowsOf("Funds", ["Id", "Company", "Company key", "Title", "Balance"]);
    const of5001 = funds.filter((r) => r[0] === 5001);
    expect(of5001.map((r) => r.slice(1, 3))).toEqual([
      ["Alpha", "c0"],
      ["Beta", betaKey],
    ]);
    const alphaFund = await api(alpha.token, "getFund", { Id: 5001 });
    const betaFund = await api(beta.token, "getFund", { Id: 5001 });
    expect(alphaFund.Title).not.toBe(betaFund.Title);
    expect(of5001[0]?.[3]).toBe(alphaFund.Title);
    expect(of5001[1]?.[3]).toBe(betaFund.Title);
    // Each company's every fund, once; its movements keyed by company too.
    expect(funds.filter((r) => r[2] === "c0")).toHaveLength(funds.length / 2);
    const movements = rowsOf("Fund transactions", ["Movement", "Company key"]);
    expect(new Set(movements.map((r) => `${r[1]}|${r[0]}`)).size).toBe(movements.length);
    expect(movements.some((r) => r[1] === betaKey)).toBe(true);
    // Each company's last refresh of each sheet kept apart, the first's under today's name.
    const stamps = (name: string) => JSON.parse(emulator.documentPropertiesData.values.get(name) ?? "{}");
    expect(Object.keys(stamps("refresh.stamps")).sort()).toEqual(
      expect.arrayContaining(["funds", "reports", "transactions"]),
    );
    expect(Object.keys(stamps(`refresh.stamps.${betaKey}`)).sort()).toEqual(
      expect.arrayContaining(["funds", "reports", "transactions"]),
    );
    // Every call audited under the company it went to.
    expect(new Set(auditRows().map((r) => r[0]))).toEqual(new Set(["Alpha (c0)", `Beta (${betaKey})`]));
  }, 120_000);

  it("a language switch renames the Company and Company key headers in place on every data sheet, Fund transactions included", () => {
    twoCompanies();
    expect(refresh("all")).toMatchObject({ ok: true, finished: true });
    const view = emulator.tryRun("getSettingsView", []);
    if (!view.ok) throw new Error(view.error);
    const form = (view.result as { form: Record<string, string> }).form;
    const saved = emulator.tryRun("saveSettings", [{ ...form, language: "es" }]);
    expect(saved.ok, saved.ok ? "" : saved.error).toBe(true);
    for (const name of ["Fondos", "Movimientos de fondos", "Rendiciones"]) {
      const header = sheetOf(emulator, name)?.header ?? [];
      expect(header, name).toContain("Empresa");
      expect(header, name).toContain("Clave de empresa");
      expect(header, name).not.toContain("Company");
      expect(header, name).not.toContain("Company key");
    }
  }, 120_000);

  it("leaves the rows of a company whose service is down as they were, names it, and refreshes the other", async () => {
    twoCompanies();
    expect(refresh("all")).toMatchObject({ ok: true });
    // Both companies' 5001 titles edited by hand: a refresh of a company writes its own back.
    const sheet = sheetOf(emulator, "Funds");
    if (!sheet) throw new Error("no Funds sheet");
    const titleAt = sheet.header.indexOf("Title") + 1;
    const keyAt = sheet.header.indexOf("Company key");
    sheet.values.forEach((row, i) => {
      if (i > 0 && row[0] === 5001) sheet.sheet.cellForWrite(i + 1, titleAt).value = `edited ${row[keyAt]}`;
    });
    const before = rowsOf("Funds", ["Id", "Company key", "Title", "Balance"]).filter((r) => r[1] === betaKey);
    await control("faults?company=Beta", { rules: [{ endpoint: "*", fault: "status", status: 503 }] });
    try {
      const summary = refresh("all");
      expect(summary.ok).toBe(false);
      expect(summary.finished).toBe(true);
      expect(summary.message).toMatch(/Beta was not refreshed; its rows were left as they were/);
      expect(summary.message).not.toMatch(/Alpha was not refreshed/);
    } finally {
      await control("faults?company=Beta", undefined, "DELETE");
    }
    const after = rowsOf("Funds", ["Id", "Company key", "Title", "Balance"]);
    expect(after.filter((r) => r[1] === betaKey)).toEqual(before);
    expect(before.find((r) => r[0] === 5001)?.[2]).toBe(`edited ${betaKey}`);
    const alphaFund = await api(alpha.token, "getFund", { Id: 5001 });
    expect(after.find((r) => r[0] === 5001 && r[1] === "c0")?.[2]).toBe(alphaFund.Title);
  }, 120_000);

  it("continues a refresh paused by the previous version (v1) as the first company's lane", async () => {
    twoCompanies();
    expect(refresh("funds")).toMatchObject({ ok: true });
    const store = emulator.documentPropertiesData.values;
    const form = JSON.parse(store.get("settings.form") ?? "{}");
    const fingerprint = `transactions|${optionsFingerprint(
      refreshOptionsFrom(form, "2024-06-30"),
      sheetNamesFrom(form, "en"),
    )}`;
    // Alpha's movements stage under way, two funds left, as the previous version stored it.
    const paused = JSON.stringify({
      fingerprint,
      kind: "transactions",
      cursor: { v: 1, stages: ["transactions"], pendingFundIds: [5001, 5002] },
      fundsAtStart: 4,
      percent: 75,
      pausedAt: emulator.now().getTime(),
    });
    saveText(
      {
        getProperty: (k) => store.get(k) ?? null,
        setProperty: (k, v) => store.set(k, v),
        deleteProperty: (k) => store.delete(k),
      },
      "refresh.menuCursor",
      paused,
    );
    emulator
      .userPropertiesOf(user)
      .values.set(
        `refresh.pausedByMe.${emulator.spreadsheet.id}`,
        createHash("sha256").update(paused, "utf8").digest("base64"),
      );
    const auditBefore = auditRows().length;
    const summary = refresh("transactions");
    expect(summary).toMatchObject({ ok: true, finished: true });
    const calls = auditRows().slice(auditBefore);
    // Alpha goes on with the two funds it had left; Beta starts from its list.
    expect(calls.filter((r) => r[0] === "Alpha (c0)").map((r) => r[1])).toEqual(["getFund", "getFund"]);
    const ofBeta = calls.filter((r) => r[0] === `Beta (${betaKey})`).map((r) => r[1]);
    expect(ofBeta[0]).toBe("getFunds");
    expect(ofBeta.filter((e) => e === "getFund")).toHaveLength(4);
    const movements = rowsOf("Fund transactions", ["Movement", "Company key"]);
    expect(new Set(movements.filter((r) => r[1] === "c0").map((r) => String(r[0]).split("-")[0]))).toEqual(
      new Set(["5001", "5002"]),
    );
    expect(store.get("refresh.menuCursor") ?? "0").toBe("0");
  }, 120_000);

  it("refreshes selected rows each with its own company's token, and refuses a row whose company does not match its key", async () => {
    twoCompanies();
    expect(refresh("funds")).toMatchObject({ ok: true });
    const sheet = sheetOf(emulator, "Funds");
    if (!sheet) throw new Error("no Funds sheet");
    const titleAt = sheet.header.indexOf("Title") + 1;
    const nameAt = sheet.header.indexOf("Company") + 1;
    const keyAt = sheet.header.indexOf("Company key");
    const rowOf = (id: number, key: string) =>
      sheet.values.findIndex((r, i) => i > 0 && r[0] === id && r[keyAt] === key) + 1;
    const alphaRow = rowOf(5001, "c0");
    const betaRow = rowOf(5001, betaKey);
    const otherRow = rowOf(5002, betaKey);
    for (const row of [alphaRow, betaRow, otherRow]) sheet.sheet.cellForWrite(row, titleAt).value = "edited";
    // A Beta row whose Company cell now names Alpha: which company it is cannot be told.
    sheet.sheet.cellForWrite(otherRow, nameAt).value = "Alpha";
    emulator.select("Funds", `A${alphaRow},A${betaRow},A${otherRow}`);
    const out = emulator.tryRun("refreshFromSidebar", ["selected"]);
    if (!out.ok) throw new Error(String(out.error));
    const summary = out.result as { ok: boolean; message: string };
    expect(summary.ok).toBe(false);
    expect(summary.message).toContain(`Row ${otherRow}`);
    const titles = rowsOf("Funds", ["Id", "Company key", "Title"]);
    const alphaFund = await api(alpha.token, "getFund", { Id: 5001 });
    const betaFund = await api(beta.token, "getFund", { Id: 5001 });
    expect(titles[alphaRow - 2]).toEqual([5001, "c0", alphaFund.Title]);
    expect(titles[betaRow - 2]).toEqual([5001, betaKey, betaFund.Title]);
    expect(titles[otherRow - 2]).toEqual([5002, betaKey, "edited"]);
    // One getFund per company, each under its own company in the audit.
    const calls = auditRows().filter((r) => r[1] === "getFund");
    expect(calls.map((r) => r[0]).sort()).toEqual(["Alpha (c0)", `Beta (${betaKey})`]);
  }, 120_000);
});
