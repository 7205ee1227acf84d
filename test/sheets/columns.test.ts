/** The audit sheet's cells (src/sheets/columns.ts): who, from where and how it ended, in the document's language. */
import { describe, expect, it } from "vitest";
import {
  AUDIT_TABLE,
  type AuditRowSource,
  headersOf,
  OLDER_AUDIT_LAYOUTS,
  rowOf,
} from "../../src/sheets/columns";

const row = (source: string, outcome: string): AuditRowSource => ({
  timestamp: new Date(0),
  user: "schedule (ana@example.com)",
  source,
  action: "Refresh all",
  method: "GET",
  endpoint: "getFunds",
  parameters: "",
  httpStatus: 200,
  outcome,
  message: "",
  durationMs: 5,
  recordId: "",
});
const at = (key: string) => AUDIT_TABLE.columns.findIndex((c) => c.key === key);
const cells = (r: AuditRowSource, language: "en" | "es") => {
  const all = rowOf(AUDIT_TABLE, r, language);
  return [all[at("user")], all[at("source")], all[at("outcome")]];
};

describe("the audit's User, Source and Outcome cells", () => {
  it("stay the words the code names them by in English", () => {
    expect(cells(row("schedule", "ok"), "en")).toEqual(["schedule (ana@example.com)", "schedule", "ok"]);
    expect(cells(row("outbox", "unknown"), "en")).toEqual([
      "schedule (ana@example.com)",
      "outbox",
      "unknown",
    ]);
  });

  it("are Spanish in a Spanish document, every source and outcome", () => {
    expect(cells(row("schedule", "ok"), "es")).toEqual([
      "programación (ana@example.com)",
      "programada",
      "correcto",
    ]);
    const es = (source: string, outcome: string) => cells(row(source, outcome), "es").slice(1);
    expect(es("menu", "refused")).toEqual(["menú", "rechazado"]);
    expect(es("sidebar", "error")).toEqual(["panel", "error"]);
    expect(es("outbox", "unknown")).toEqual(["bandeja de salida", "desconocido"]);
    expect(es("outbox", "sending")).toEqual(["bandeja de salida", "enviando"]);
    expect(es("menu", "irregular")).toEqual(["menú", "irregular"]);
  });
});

describe("the audit's Company column", () => {
  it("comes right after Action, headed Company / Empresa, and shows the company's cell as given", () => {
    expect(AUDIT_TABLE.columns.map((c) => c.key).slice(3, 6)).toEqual(["action", "company", "target"]);
    expect(headersOf(AUDIT_TABLE, "en").slice(3, 5)).toEqual(["Action", "Company"]);
    expect(headersOf(AUDIT_TABLE, "es").slice(3, 5)).toEqual(["Acción", "Empresa"]);
    const cells = rowOf(AUDIT_TABLE, { ...row("menu", "ok"), company: "Alpha (c7k2p0qx)" }, "en");
    expect(cells[at("company")]).toBe("Alpha (c7k2p0qx)");
    // Rows that name no company (written before the column, or with one unnamed company): empty.
    expect(rowOf(AUDIT_TABLE, row("menu", "ok"), "en")[at("company")]).toBe("");
  });

  it("is what the earlier layouts lack: the previous one is today's without it, the one before also without Target, Amount and Currency", () => {
    const keys = AUDIT_TABLE.columns.map((c) => c.key);
    expect(OLDER_AUDIT_LAYOUTS).toEqual([
      keys.filter((k) => !["company", "target", "amount", "currency"].includes(k)),
      keys.filter((k) => k !== "company"),
    ]);
  });
});
