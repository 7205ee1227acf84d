/**
 * The Month-end close sidebar: choose the company, the month and the currency; read the month
 * and build the journal (what needs attention, the vouchers, what is blocked and why); approve
 * it; mark its reports (after a confirmation listing each voucher); download the CSV in the
 * format chosen, made here in the page (a Blob), so no Drive permission is asked.
 */
import type * as CloseServer from "../../../app/close";
import type { CloseResult, CloseView } from "../../../app/close";
import type * as FourEyesServer from "../../../app/close-four-eyes";
import type * as MarkingServer from "../../../app/close-marking";
import type * as UndoServer from "../../../app/close-undo";
import {
  type CsvLayout,
  columnsOf,
  DATE_FORMATS,
  DECIMAL_SEPARATORS,
  FIELD_SEPARATORS,
} from "../../../close/csv";
import type { StringKey } from "../../../i18n";
import { el, loadSidebarView, showMessage, whileDisabled } from "../../client/dom";
import { setLanguage, t } from "../../client/language";
import { serverFunctions } from "../../client/server";

const server = serverFunctions<
  typeof CloseServer & typeof MarkingServer & typeof FourEyesServer & typeof UndoServer
>();
const app = document.getElementById("app") as HTMLElement;

function field(label: StringKey, control: HTMLElement): HTMLElement {
  const id = control.id;
  return el("div", {}, el("label", { class: "block", for: id }, t(label)), control);
}

function select(id: string, options: readonly [string, string][], value: string): HTMLSelectElement {
  const node = el("select", { id });
  for (const [v, label] of options) node.append(el("option", { value: v }, label));
  node.value = value;
  return node;
}

function list(id: string, items: readonly (string | Node)[]): HTMLElement {
  return el("ul", { id, class: "close-list" }, ...items.map((item) => el("li", {}, item)));
}

function status(id: string): HTMLParagraphElement {
  return el("p", { id, class: "status", role: "status" });
}

function show(node: HTMLElement, text: string, ok: boolean): void {
  node.className = ok ? "status ok" : "status problem";
  showMessage(node, text);
}

const SEPARATOR_LABELS: Record<string, StringKey> = {
  ",": "close.csv.comma",
  ";": "close.csv.semicolon",
  "\t": "close.csv.tab",
  "|": "close.csv.pipe",
};

/** The close's form: company, month, currency, pattern, and the Build button. */
function closeForm(view: CloseView, results: HTMLElement): HTMLElement {
  const company = select(
    "close-company",
    view.companies.map((c) => [c.key, c.name || c.key]),
    view.journal?.company ?? view.companies[0]?.key ?? "c0",
  );
  const month = el("input", { id: "close-month", type: "month", value: view.journal?.month ?? view.month });
  const currency = el("input", {
    id: "close-currency",
    type: "text",
    maxlength: "3",
    placeholder: t("close.allCurrencies"),
    value: view.journal?.currency ?? "",
  });
  const pattern = el("input", { id: "close-pattern", type: "text", maxlength: "255", value: view.pattern });
  const build = el("button", { id: "close-build", type: "button", class: "primary" }, t("close.build"));
  const state = status("close-build-status");
  build.addEventListener("click", () =>
    whileDisabled([build], async () => {
      state.className = "status";
      state.textContent = t("close.building");
      try {
        const result = await server.closeBuildJournal({
          company: company.value,
          month: month.value,
          currency: currency.value.trim().toUpperCase() || null,
          pattern: pattern.value,
        });
        show(state, result.message, result.ok);
        showResult(results, result);
      } catch (error) {
        show(state, (error as Error).message, false);
      }
    }),
  );
  return el(
    "section",
    {},
    view.companies.length > 1 ? field("close.company", company) : "",
    field("close.month", month),
    field("close.currency", currency),
    field("close.pattern", pattern),
    el("p", { class: "hint" }, t("close.pattern.hint")),
    build,
    state,
  );
}

/** What a build found: what needs attention (each line links its row), vouchers, blocked. */
function showResult(node: HTMLElement, result: CloseResult): void {
  const attention = result.attention.map((item) => {
    const link = el("button", { type: "button", class: "link", "data-id": String(item.id) }, item.text);
    link.addEventListener("click", () => void server.closeShowRecord(item));
    return link;
  });
  node.replaceChildren(
    el("h2", {}, t("close.attention")),
    attention.length > 0
      ? list("close-attention", attention)
      : el("p", { class: "hint" }, t("close.attention.none")),
    el("h2", {}, t("close.vouchers")),
    list("close-vouchers", result.vouchers),
    ...(result.blocked.length > 0
      ? [el("h2", {}, t("close.blocked")), list("close-blocked", result.blocked)]
      : []),
  );
}

/**
 * Four eyes, the document's setting: what it is and who changed it last, and a button that
 * turns it the other way (the server voids the approval and writes the change in the Audit sheet).
 */
function fourEyesControl(view: CloseView, approval: HTMLElement): HTMLElement {
  let on = view.fourEyes;
  const state = el("p", { id: "close-four-eyes-state", class: "hint" }, view.fourEyesNote);
  const toggle = el("button", { id: "close-four-eyes-toggle", type: "button" });
  const label = () => {
    toggle.textContent = t(on ? "close.fourEyes.turnOff" : "close.fourEyes.turnOn");
  };
  label();
  toggle.addEventListener("click", () =>
    whileDisabled([toggle], async () => {
      try {
        const result = await server.closeSetFourEyes({ on: !on });
        on = result.fourEyes;
        state.textContent = result.message;
        show(approval, result.approval, true);
        label();
      } catch (error) {
        show(approval, (error as Error).message, false);
      }
    }),
  );
  return el("div", {}, el("p", { class: "hint" }, t("close.fourEyes.setting")), state, toggle);
}

/** Approve, then mark after a confirmation that lists each voucher. */
function approvalSection(view: CloseView): HTMLElement {
  const state = status("close-approval");
  state.textContent = view.approval;
  const approveButton = el("button", { id: "close-approve", type: "button" }, t("close.approve"));
  const markButton = el("button", { id: "close-mark", type: "button" }, t("close.mark"));
  const confirmation = el("div", { id: "close-confirmation" });
  approveButton.addEventListener("click", () =>
    whileDisabled([approveButton, markButton], async () => {
      try {
        show(state, (await server.closeApproveJournal()).message, true);
      } catch (error) {
        show(state, (error as Error).message, false);
      }
    }),
  );
  markButton.addEventListener("click", () =>
    whileDisabled([approveButton, markButton], async () => {
      confirmation.replaceChildren();
      try {
        const check = await server.closeCheckMarking();
        show(state, check.message, check.ok);
        if (!check.ok) return;
        const go = el(
          "button",
          { id: "close-mark-confirm", type: "button", class: "primary" },
          t("close.mark.go", { count: check.count }),
        );
        go.addEventListener("click", () =>
          whileDisabled([go], async () => {
            try {
              const marked = await server.closeMarkVouchers();
              show(state, marked.message, marked.ok);
              if (marked.more) await goOn(state);
            } catch (error) {
              show(state, (error as Error).message, false);
            }
          }),
        );
        confirmation.append(list("close-mark-list", check.vouchers), go);
      } catch (error) {
        show(state, (error as Error).message, false);
      }
    }),
  );
  return el(
    "section",
    {},
    state,
    el("div", { class: "actions" }, approveButton, markButton),
    confirmation,
    fourEyesControl(view, state),
  );
}

/**
 * Undo a voucher: its code typed or picked from the Journal's vouchers, its reports found
 * (nothing sent), listed with their totals, and undone only once that list is confirmed.
 */
function undoSection(view: CloseView): HTMLElement {
  const company = select(
    "undo-company",
    view.companies.map((c) => [c.key, c.name || c.key]),
    view.journal?.company ?? view.companies[0]?.key ?? "c0",
  );
  const picks = el(
    "datalist",
    { id: "undo-vouchers" },
    ...view.vouchers.map((v) => el("option", { value: v })),
  );
  const code = el("input", { id: "undo-code", type: "text", maxlength: "255", list: "undo-vouchers" });
  const find = el("button", { id: "undo-find", type: "button" }, t("close.undo.find"));
  const state = status("undo-status");
  const found = el("div", { id: "undo-found" });
  find.addEventListener("click", () =>
    whileDisabled([find], async () => {
      found.replaceChildren();
      state.className = "status";
      state.textContent = t("close.undo.finding");
      try {
        const result = await server.closeFindVoucher({ company: company.value, code: code.value });
        show(state, result.message, result.ok);
        if (!result.ok) return;
        const go = el(
          "button",
          { id: "undo-confirm", type: "button", class: "primary" },
          t("close.undo.confirm"),
        );
        go.addEventListener("click", () =>
          whileDisabled([go, find], async () => {
            try {
              const done = await server.closeUndoVoucher({
                company: result.company,
                code: result.code,
                ids: result.ids,
              });
              show(state, done.message, done.ok);
              found.replaceChildren();
            } catch (error) {
              show(state, (error as Error).message, false);
            }
          }),
        );
        found.append(list("undo-reports", result.reports), list("undo-totals", result.totals), go);
      } catch (error) {
        show(state, (error as Error).message, false);
      }
    }),
  );
  return el(
    "section",
    {},
    el("h2", {}, t("close.undo")),
    el("p", { class: "hint" }, t("close.undo.hint")),
    view.companies.length > 1 ? field("close.company", company) : "",
    field("close.undo.code", code),
    picks,
    find,
    state,
    found,
  );
}

/**
 * The marking under way goes on from here, piece after piece, while the sidebar is open: each
 * call marks what fits in one execution and says "N of M marked, continuing automatically".
 * Stop ends it (whoever started it); the server keeps where it stopped either way.
 */
const stopButton = el(
  "button",
  { id: "close-mark-stop", type: "button", hidden: "" },
  t("close.continue.stop"),
);
let stopping = false;

async function goOn(state: HTMLElement): Promise<void> {
  stopButton.hidden = false;
  stopping = false;
  try {
    for (;;) {
      if (stopping) return;
      const next = await server.closeContinueMarking();
      show(state, next.message, next.ok);
      if (!next.more) return;
    }
  } catch (error) {
    show(state, (error as Error).message, false);
  } finally {
    stopButton.hidden = true;
  }
}

/** On opening: the marking under way (this user's goes on from here) or the last one's outcome. */
function markingSection(): HTMLElement {
  const state = status("close-marking-status");
  stopButton.addEventListener("click", () =>
    whileDisabled([stopButton], async () => {
      stopping = true;
      try {
        const stopped = await server.closeStopMarking();
        show(state, stopped.message, stopped.ok);
        stopButton.hidden = stopped.state !== "running";
      } catch (error) {
        show(state, (error as Error).message, false);
      }
    }),
  );
  void server
    .getCloseMarkingStatus()
    .then(async (current) => {
      if (!current || current.state === "none") return;
      show(state, current.message, current.ok);
      if (current.state !== "running") return;
      if (current.mine) await goOn(state);
      else stopButton.hidden = false;
    })
    .catch((error: Error) => show(state, error.message, false));
  return el("section", { id: "close-marking" }, state, stopButton);
}

/** The CSV's choices (remembered for this user by the server) and the download. */
function exportSection(view: CloseView): HTMLElement {
  const csv = view.csv;
  const layout = select(
    "csv-layout",
    [
      ["lines", t("close.csv.layout.lines")],
      ["reports", t("close.csv.layout.reports")],
    ],
    csv.layout,
  );
  const dateFormat = select(
    "csv-date-format",
    DATE_FORMATS.map((f) => [f, f]),
    csv.dateFormat,
  );
  const decimal = select(
    "csv-decimal",
    DECIMAL_SEPARATORS.map((d) => [d, t(d === "." ? "close.csv.point" : "close.csv.comma")]),
    csv.decimal,
  );
  const separator = select(
    "csv-separator",
    FIELD_SEPARATORS.map((s) => [s, t(SEPARATOR_LABELS[s] as StringKey)]),
    csv.separator,
  );
  const columns = el("input", { id: "csv-columns", type: "text", value: csv.columns.join(" ") });
  const header = el("input", { id: "csv-header", type: "checkbox" });
  header.checked = csv.header;
  layout.addEventListener("change", () => {
    columns.value = columnsOf(layout.value as CsvLayout).join(" ");
  });
  const state = status("close-export-status");
  const download = el("button", { id: "close-export", type: "button" }, t("close.export"));
  download.addEventListener("click", () =>
    whileDisabled([download], async () => {
      try {
        const file = await server.closeExportCsv({
          layout: layout.value,
          dateFormat: dateFormat.value,
          decimal: decimal.value,
          separator: separator.value,
          columns: columns.value.split(/[\s,;]+/).filter(Boolean),
          header: header.checked,
        });
        saveFile(file.fileName, file.text);
        show(state, t("close.csv.downloaded", { file: file.fileName, lines: file.lines }), true);
      } catch (error) {
        show(state, (error as Error).message, false);
      }
    }),
  );
  return el(
    "section",
    {},
    el("h2", {}, t("close.csv")),
    field("close.csv.layout", layout),
    field("close.csv.dateFormat", dateFormat),
    field("close.csv.decimal", decimal),
    field("close.csv.separator", separator),
    field("close.csv.columns", columns),
    el("label", { class: "block" }, header, ` ${t("close.csv.header")}`),
    download,
    state,
  );
}

/** Downloads `text` as `name` from the page: a Blob, with a byte-order mark for spreadsheet programs. */
function saveFile(name: string, text: string): void {
  const blob = new Blob(["\ufeff", text], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name, id: "close-download" });
  link.hidden = true;
  document.body.append(link);
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
    link.remove();
  }, 1000);
}

function render(view: CloseView): void {
  setLanguage(view.language);
  const results = el("div", { id: "close-results" });
  app.replaceChildren(
    el("h1", {}, t("close.title")),
    closeForm(view, results),
    results,
    approvalSection(view),
    markingSection(),
    undoSection(view),
    exportSection(view),
  );
  app.setAttribute("data-ready", "1");
}

void loadSidebarView(app, () => server.getCloseView(), render);
