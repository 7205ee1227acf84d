/** The audit sheet's cells (src/sheets/columns.ts): who, from where and how it ended, in the document's language. */
import { describe, expect, it } from "vitest";
import { AUDIT_TABLE, type AuditRowSource, rowOf } from "../../src/sheets/columns";

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
