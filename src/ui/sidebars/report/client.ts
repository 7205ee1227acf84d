/**
 * The Report sidebar: the selected rows of the Expense reports sheet, and three forms that
 * apply to all of them: mark integrated (voucher code, date and time defaulting to now), mark
 * not integrated, and a custom status with an optional message to the employee.
 */
import type { ReportFormResult, ReportSidebarView } from "../../../app/report-sidebar";
import { el, loadSidebarView } from "../../client/dom";
import { buildForm, type FormHandle, outcomeText, type Shown, server } from "../../client/form-kit";
import { setLanguage, t } from "../../client/language";

const app = document.getElementById("app") as HTMLElement;
let view: ReportSidebarView | null = null;

function reportList(v: ReportSidebarView): HTMLElement {
  const list = el("ul", {
    class: "reports",
    "aria-label": t("form.reports.selected", { count: v.reports.length }),
  });
  for (const r of v.reports) {
    // With several companies each line names its company: Ids repeat from one to another.
    const line = [r.companyName, r.reportNumber || String(r.id), r.title, r.employeeName]
      .filter(Boolean)
      .join(" · ");
    // The service's integration state, named: never a bare "Yes" or "No".
    const integrated =
      r.integrated === undefined
        ? ""
        : `${t("form.report.integrated")}: ${t(r.integrated ? "flag.yes" : "flag.no")}`;
    const state = [integrated, r.customStatus].filter(Boolean).join(" · ");
    // Only a report read from the service can be marked; its number against the row's cell.
    const warning =
      r.check === "refused"
        ? (r.message ?? "")
        : r.check !== "read"
          ? t(`form.report.${r.check}`, { id: r.id })
          : r.sheetNumber !== r.reportNumber
            ? t("form.report.otherNumber", { sheet: r.sheetNumber, id: r.id, number: r.reportNumber ?? "" })
            : "";
    list.append(
      el(
        "li",
        { "data-report-id": String(r.id), ...(r.company ? { "data-company-key": r.company } : {}) },
        line,
        state ? el("div", { class: "hint" }, state) : "",
        warning ? el("div", { class: "problem", role: "alert" }, warning) : "",
      ),
    );
  }
  return list;
}

async function send(
  name: "markReportsIntegrated" | "markReportsNotIntegrated" | "setReportsCustomStatus",
  fields: Record<string, unknown>,
  requestId: string,
  form: () => FormHandle,
): Promise<Shown> {
  const reports = view?.reports ?? [];
  // The server marks only what it showed, with the number shown for each Id.
  const result: ReportFormResult = await server[name]({
    requestId,
    reportIds: reports.map((r) => r.id),
    reportNumbers: Object.fromEntries(reports.map((r) => [r.id, r.reportNumber])),
    // Several companies: each report with its company (the same Id may be in two).
    ...(reports.some((r) => r.company)
      ? {
          reports: reports
            .filter((r) => r.company)
            .map((r) => ({ id: r.id, company: r.company, reportNumber: r.reportNumber })),
        }
      : {}),
    fields,
  });
  // Each line starts as the list above names the report (its number), then what happened to it.
  const label = (id: unknown, company?: string) => {
    const r = reports.find((line) => line.id === id && line.company === company);
    return [r?.companyName, r?.reportNumber || (id ? String(id) : "")].filter(Boolean).join(" · ");
  };
  const lines = result.results.map((r) =>
    [label(r.id, r.company), outcomeText(r.outcome, form()).text].filter(Boolean).join(" · "),
  );
  const failed = result.results.some((r) => r.outcome.kind !== "done");
  return { text: [result.summary, ...lines].join("\n"), tone: failed ? "error" : "ok" };
}

function render(): void {
  app.replaceChildren();
  if (!view) return;
  const reload = el("button", { type: "button" }, t("form.reload"));
  reload.addEventListener("click", () => void loadView());
  if (view.reports.length === 0) {
    app.append(el("p", { class: "hint" }, t("form.reports.none")), reload);
    app.setAttribute("data-ready", "1");
    return;
  }
  app.append(
    el("h2", {}, t("form.reports.selected", { count: view.reports.length })),
    reportList(view),
    reload,
  );
  // The forms' Id is filled per report on the server; a placeholder keeps the checks focused
  // on what the user types.
  const fixed = () => ({ Id: view?.reports[0]?.id ?? "" });
  const adminId = () => view?.adminId ?? null;
  const integrated: FormHandle = buildForm({
    legend: "form.section.integrated",
    submitLabel: "form.submit.integrated",
    operation: "markIntegrated",
    fields: [
      { name: "IntegrationCode", label: "form.voucherCode", kind: "text" },
      { name: "IntegrationDate", label: "form.integrationDate", kind: "datetime", value: view.now },
    ],
    fixed,
    adminId,
    send: (values, id) => send("markReportsIntegrated", values, id, () => integrated),
  });
  const notIntegrated: FormHandle = buildForm({
    legend: "form.section.notIntegrated",
    submitLabel: "form.submit.notIntegrated",
    operation: "markNotIntegrated",
    fields: [],
    fixed,
    adminId,
    send: (values, id) => send("markReportsNotIntegrated", values, id, () => notIntegrated),
  });
  const custom: FormHandle = buildForm({
    legend: "form.section.customStatus",
    submitLabel: "form.submit.customStatus",
    operation: "setCustomStatus",
    fields: [
      {
        name: "CustomStatus",
        label: "form.customStatus",
        kind: "text",
        suggestions: view.customStatusSuggestions ?? [],
      },
      { name: "CustomMessage", label: "form.customMessage", kind: "text" },
    ],
    fixed,
    adminId,
    send: (values, id) => send("setReportsCustomStatus", values, id, () => custom),
  });
  app.append(integrated.element, notIntegrated.element, custom.element);
  app.setAttribute("data-ready", "1");
}

async function loadView(): Promise<void> {
  await loadSidebarView(
    app,
    () => server.getReportSidebarView(),
    (next) => {
      view = next;
      setLanguage(next.language);
      render();
    },
  );
}

void loadView();
