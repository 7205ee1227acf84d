/**
 * The Fund sidebar: the fund of the selected row (or an Id typed in) read fresh, and its forms:
 * deposit, withdraw, change status (closing asks first), update, and create a fund for an
 * employee seen in the sheets or typed in. Each form checks as the user types with the
 * contract's rules and sends once; the answer replaces the fund shown.
 */

import { moneyText, parseAmountToCents, typedAmount } from "../../../api/money";
import type { FundSidebarView } from "../../../app/fund-sidebar";
import type { StringKey } from "../../../i18n";
import type { FormOutcome, FundView } from "../../../outbox/forms";
import { FUND_STATUSES } from "../../../outbox/operations";
import { fundStatusLabel } from "../../../outbox/operations/words";
import { el, loadSidebarView, showMessage } from "../../client/dom";
import {
  askInline,
  buildForm,
  type FormHandle,
  outcomeText,
  type Shown,
  server,
} from "../../client/form-kit";
import { setLanguage, t } from "../../client/language";

const app = document.getElementById("app") as HTMLElement;
let view: FundSidebarView | null = null;

function row(label: StringKey, value: string): HTMLElement {
  return el("div", { class: "row" }, el("span", { class: "label" }, `${t(label)}: `), el("span", {}, value));
}

/** "Name (id)" for an employee seen in a report, the id alone otherwise. */
function employeeLabel(id: number): string {
  const name = view?.employees.find((e) => e.id === id)?.name;
  return name ? `${name} (${id})` : String(id);
}

function fundCard(fund: FundView): HTMLElement {
  const yesNo = (flag: boolean) => t(flag ? "outbox.yes" : "outbox.no");
  const card = el(
    "section",
    { class: "card", "aria-label": t("form.fund.title"), "data-fund-id": String(fund.id) },
    el("h2", {}, `${fund.title} (${fund.id})`),
    row("form.fund.balance", fund.balance),
    row("form.fund.deposits", fund.deposits),
    row("form.fund.charges", fund.charges),
    row("form.fund.status", fund.statusLabel),
    row("form.fund.employee", employeeLabel(fund.employeeId)),
    row("form.fund.flexible", yesNo(fund.flexible)),
    row("form.fund.autoBlock", yesNo(fund.autoBlock)),
  );
  if (fund.code) card.append(row("form.code", fund.code));
  if (fund.expirationDate) card.append(row("form.fund.expiration", fund.expirationDate));
  if (fund.lastMovements.length > 0) {
    const list = el("ul", { class: "movements" });
    for (const m of fund.lastMovements) {
      list.append(
        el(
          "li",
          {},
          `${m.date} · ${m.type === 1 || m.type === 2 ? t(m.type === 1 ? "outbox.op.deposit" : "outbox.op.withdraw") : t("form.fund.movementType", { type: m.type })} · ${m.amount}`,
        ),
      );
    }
    card.append(el("div", { class: "label" }, t("form.fund.lastMovements")), list);
  }
  return card;
}

/** Deposits and withdrawals sent from this page, to warn of the same one sent again soon. */
const recentMoves: { fundId: number; operation: string; cents: number; at: number }[] = [];
const RECENT_MS = 10 * 60_000;

/**
 * Asks before a deposit or withdrawal, naming the fund, the amount with its currency and the
 * balance after, with the warnings the Outbox preview gives (blocked or closed fund, above the
 * balance of a fund that is not flexible, the same amount sent here minutes ago).
 */
function confirmMoney(
  fund: FundView,
  operation: "deposit" | "withdraw",
  typed: unknown,
  container: () => HTMLElement,
): Promise<boolean> {
  const language = view?.language ?? "en";
  const local = typedAmount(typed, language);
  const parsed = parseAmountToCents(local.ok ? local.value : typed);
  if (!parsed.ok) return Promise.resolve(true); // The contract's check refuses it, beside the field.
  const cents = parsed.cents;
  // Code first, in the currency's decimals: as every other message writes money.
  const money = (c: number) => moneyText(c, fund.currency, language);
  const after = fund.balanceCents + (operation === "deposit" ? cents : -cents);
  // With several companies the question names the fund's company: each has its fund 5001.
  const company = (view?.companies ?? []).length > 1 ? view?.company : null;
  const params = { amount: money(cents), id: fund.id, title: fund.title, after: money(after) };
  const lines = [
    company
      ? t(operation === "deposit" ? "form.moneyConfirm.depositOf" : "form.moneyConfirm.withdrawOf", {
          ...params,
          company: company.name || company.key,
        })
      : t(operation === "deposit" ? "form.moneyConfirm.deposit" : "form.moneyConfirm.withdraw", params),
  ];
  if (fund.status === 3) lines.push(t("form.warn.blocked"));
  else if (fund.status === 2) lines.push(t("form.warn.closed"));
  // A status the contract does not list: never taken for open.
  else if (fund.status !== 1) lines.push(t("form.warn.notOpen", { status: fund.status }));
  if (operation === "withdraw" && !fund.flexible && cents > fund.balanceCents)
    lines.push(t("form.warn.overBalance"));
  const now = Date.now();
  const same = recentMoves.find(
    (m) => m.fundId === fund.id && m.operation === operation && m.cents === cents && now - m.at < RECENT_MS,
  );
  if (same)
    lines.push(t("form.warn.recentSame", { minutes: Math.max(1, Math.round((now - same.at) / 60_000)) }));
  return askInline(container(), lines.join(" "));
}

async function send(
  name:
    | "depositToFund"
    | "withdrawFromFund"
    | "changeFundStatus"
    | "updateFundDetails"
    | "createFundForEmployee",
  fields: Record<string, unknown>,
  requestId: string,
  form: () => FormHandle,
): Promise<Shown> {
  // The company shown: with several, the server sends only to the one it showed for this fund.
  const company = view?.company?.key;
  const outcome: FormOutcome = await server[name]({ requestId, fields, ...(company ? { company } : {}) });
  const amountField =
    name === "depositToFund" ? "DepositAmount" : name === "withdrawFromFund" ? "WithdrawAmount" : null;
  if (amountField && (outcome.kind === "done" || outcome.kind === "unknown")) {
    // Sent (or maybe sent): the amount is cleared, so another click cannot send it again.
    const typedValue = typedAmount(fields[amountField], view?.language ?? "en");
    const cents = parseAmountToCents(typedValue.ok ? typedValue.value : "");
    if (cents.ok)
      recentMoves.push({
        fundId: Number(fields.Id),
        operation: name === "depositToFund" ? "deposit" : "withdraw",
        cents: cents.cents,
        at: Date.now(),
      });
    form().setValue(amountField, "");
  }
  if ((outcome.kind === "done" || outcome.kind === "unknown") && outcome.fund && view) {
    view = { ...view, fund: outcome.fund, fundId: outcome.fund.id };
    const card = document.querySelector(".card");
    card?.replaceWith(fundCard(outcome.fund));
  }
  return outcomeText(outcome, form());
}

function fieldsetOf(form: FormHandle): HTMLElement {
  return form.element.querySelector("fieldset") as HTMLElement;
}

function fundForms(fund: FundView): HTMLElement[] {
  const adminId = () => view?.adminId ?? null;
  // The fund as last shown: a deposit's answer replaces it, and the next confirmation uses it.
  const current = () => (view?.fund && view.fund.id === fund.id ? view.fund : fund);
  const fixed = () => ({ Id: fund.id });
  const forms: FormHandle[] = [];
  const deposit = buildForm({
    legend: "form.section.deposit",
    submitLabel: "form.submit.deposit",
    operation: "deposit",
    fields: [{ name: "DepositAmount", label: "form.amount", kind: "number" }],
    fixed,
    adminId,
    confirm: (values) => confirmMoney(current(), "deposit", values.DepositAmount, () => fieldsetOf(deposit)),
    send: (values, id) => send("depositToFund", values, id, () => deposit),
  });
  const withdraw = buildForm({
    legend: "form.section.withdraw",
    submitLabel: "form.submit.withdraw",
    operation: "withdraw",
    fields: [{ name: "WithdrawAmount", label: "form.amount", kind: "number" }],
    fixed,
    adminId,
    confirm: (values) =>
      confirmMoney(current(), "withdraw", values.WithdrawAmount, () => fieldsetOf(withdraw)),
    send: (values, id) => send("withdrawFromFund", values, id, () => withdraw),
  });
  const status: FormHandle = buildForm({
    legend: "form.section.status",
    submitLabel: "form.submit.status",
    operation: "setFundStatus",
    fields: [
      {
        name: "FundStatus",
        label: "form.status",
        kind: "select",
        choices: FUND_STATUSES.map((s) => [String(s), fundStatusLabel(view?.language ?? "en", s)]),
        value: String(fund.status),
      },
    ],
    fixed,
    adminId,
    confirm: (values) =>
      String(values.FundStatus) === "2"
        ? askInline(
            status.element.querySelector("fieldset") as HTMLElement,
            t("form.closeConfirm", { id: fund.id }),
          )
        : Promise.resolve(true),
    send: (values, id) => send("changeFundStatus", values, id, () => status),
  });
  const keep: [string, string][] = [
    ["", t("form.keep")],
    ["true", t("outbox.yes")],
    ["false", t("outbox.no")],
  ];
  const update = buildForm({
    legend: "form.section.update",
    submitLabel: "form.submit.update",
    operation: "updateFund",
    fields: [
      { name: "FundName", label: "form.name", kind: "text", value: fund.title },
      { name: "FundCode", label: "form.code", kind: "text", value: fund.code },
      { name: "FundComment", label: "form.comment", kind: "text" },
      { name: "FundFlexibility", label: "form.flexible", kind: "select", choices: keep },
      { name: "FundAutoDeposit", label: "form.autoDeposit", kind: "select", choices: keep },
      { name: "FundAutoBlock", label: "form.autoBlock", kind: "select", choices: keep },
      { name: "FundExpirationDate", label: "form.expirationDate", kind: "date", value: fund.expirationDate },
    ],
    fixed,
    adminId,
    send: (values, id) => send("updateFundDetails", values, id, () => update),
  });
  forms.push(deposit, withdraw, status, update);
  return forms.map((f) => f.element);
}

function createForm(): HTMLElement {
  const employees: [string, string][] = [
    ["", t("form.pickEmployee")],
    ...(view?.employees ?? []).map((e): [string, string] => [String(e.id), employeeLabel(e.id)]),
  ];
  const form: FormHandle = buildForm({
    legend: "form.section.create",
    submitLabel: "form.submit.create",
    operation: "createFund",
    fields: [
      { name: "IdEmployee", label: "form.employeeId", kind: "select", choices: employees },
      { name: "FundName", label: "form.name", kind: "text" },
      { name: "FundCurrency", label: "form.currency", kind: "text", hint: "CLP, USD, MXN, PEN…" },
      { name: "FundAmount", label: "form.initialAmount", kind: "number" },
      { name: "FundCode", label: "form.code", kind: "text" },
      { name: "FundComment", label: "form.comment", kind: "text" },
      { name: "FundFlexibility", label: "form.flexible", kind: "checkbox" },
      { name: "FundAutoDeposit", label: "form.autoDeposit", kind: "checkbox" },
      { name: "FundAutoBlock", label: "form.autoBlock", kind: "checkbox" },
      { name: "FundExpirationDate", label: "form.expirationDate", kind: "date" },
    ],
    fixed: () => {
      const typed =
        (document.getElementById("employee-typed") as HTMLInputElement | null)?.value.trim() ?? "";
      return typed ? { IdEmployee: typed } : {};
    },
    adminId: () => view?.adminId ?? null,
    send: (values, id) => send("createFundForEmployee", values, id, () => form),
  });
  // A typed id wins over the list: it is for employees not seen in the sheets yet.
  const typed = el("input", {
    id: "employee-typed",
    type: "text",
    inputmode: "numeric",
    name: "IdEmployeeTyped",
  });
  const select = form.element.querySelector('select[name="IdEmployee"]');
  select?.parentElement?.after(
    el("div", { class: "field" }, el("label", { for: "employee-typed" }, t("form.employeeTyped")), typed),
  );
  typed.addEventListener("input", () => select?.dispatchEvent(new Event("change")));
  return form.element;
}

function render(): void {
  app.replaceChildren();
  if (!view) return;
  const idInput = el("input", {
    id: "fund-id",
    type: "text",
    inputmode: "numeric",
    value: view.fundId ? String(view.fundId) : "",
  });
  const load = el("button", { type: "submit" }, t("form.load"));
  const idProblem = el("div", { class: "problem", id: "fund-id-problem", role: "alert" });
  idInput.setAttribute("aria-describedby", "fund-id-problem");
  const picker = el(
    "form",
    { class: "picker" },
    el("div", { class: "field" }, el("label", { for: "fund-id" }, t("form.fundId")), idInput, idProblem),
  );
  // Several companies: an Id is a company's (each has its fund 5001), so a typed Id needs one.
  const companySelect = companyPicker();
  if (companySelect)
    picker.append(
      el(
        "div",
        { class: "field" },
        el("label", { for: "fund-company" }, t("company.sidebar.pickLabel")),
        companySelect,
      ),
    );
  picker.append(load);
  picker.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = idInput.value.trim();
    // An Id that is no fund's is refused here, naming the field and the rule; nothing is read.
    const field = t("form.fundId");
    let problem = "";
    if (typed !== "" && !/^\d+$/.test(typed)) problem = t("api.rule.integer", { field, got: typed });
    else if (typed !== "" && Number(typed) < 1) problem = t("api.rule.min", { field, min: 1, got: typed });
    idProblem.textContent = problem;
    if (problem) {
      idInput.setAttribute("aria-invalid", "true");
      idInput.focus();
      return;
    }
    idInput.removeAttribute("aria-invalid");
    void loadView(typed, companySelect?.value);
  });
  app.append(picker);
  if (view.company && (view.companies ?? []).length > 1) {
    app.append(
      el(
        "p",
        { class: "company", "data-company-key": view.company.key },
        el("span", { class: "label" }, `${t("company.sidebar.label")}: `),
        el("strong", {}, view.company.name || view.company.key),
      ),
    );
  }
  if (view.error) {
    const shown = el("p", { class: "status error", role: "alert" });
    showMessage(shown, view.error);
    app.append(shown);
  }
  // Earlier requests that got no answer, settled (or still waiting) when the fund was opened.
  if (view.notice) app.append(el("p", { class: "status", role: "status" }, view.notice));
  // This user's own requests that reading cannot settle: the fund stays held until they say
  // they checked it in the service.
  for (const check of view.checks ?? []) app.append(acknowledgeButton(check.key));
  if (view.fund) {
    app.append(fundCard(view.fund), ...fundForms(view.fund));
  } else if (!view.error) {
    app.append(el("p", { class: "hint" }, t("form.noFund")));
  }
  app.append(createForm());
  app.setAttribute("data-ready", "1");
}

/** "I checked the fund": releases the fund held by one of this user's unsettled requests. */
function acknowledgeButton(key: string): HTMLElement {
  const button = el(
    "button",
    { type: "button", class: "acknowledge", "data-key": key },
    t("form.acknowledge"),
  );
  const said = el("p", { class: "status", role: "status" });
  button.addEventListener("click", async () => {
    button.setAttribute("disabled", "");
    try {
      const outcome = await server.acknowledgeFundCheck({ key });
      said.textContent = outcome.kind === "invalid" ? "" : outcome.message;
      if (outcome.kind === "done")
        await loadView(view?.fundId ? String(view.fundId) : undefined, view?.company?.key);
      else button.removeAttribute("disabled");
    } catch (error) {
      said.textContent = (error as { message?: string }).message ?? String(error);
      button.removeAttribute("disabled");
    }
  });
  return el("div", { class: "acknowledge" }, button, said);
}

/** The company picker of a typed Id, with two or more companies; null with one. */
function companyPicker(): HTMLSelectElement | null {
  // A view without the list (a server of a version before companies) has one company.
  if (!view || (view.companies ?? []).length < 2) return null;
  const select = el("select", { id: "fund-company", name: "company" }) as HTMLSelectElement;
  select.append(el("option", { value: "" }, t("company.sidebar.choose")));
  for (const c of view.companies) select.append(el("option", { value: c.key }, c.name || c.key));
  select.value = view.company?.key ?? "";
  return select;
}

async function loadView(fundId?: string, company?: string): Promise<void> {
  await loadSidebarView(
    app,
    () => server.getFundSidebarView({ ...(fundId ? { fundId } : {}), ...(company ? { company } : {}) }),
    (next) => {
      view = next;
      setLanguage(next.language);
      render();
    },
  );
}

void loadView();
