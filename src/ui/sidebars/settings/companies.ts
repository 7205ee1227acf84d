/**
 * The Settings sidebar's Companies (docs/design/several-companies.md §2): the document's
 * companies with this user's status for each (ready, read only, no token, needs confirmation),
 * this user's token and IdAdmin per company (saved, confirmed, tested, removed), and the list's
 * changes any editor may make (add, rename, change URL, remove, restore). Every change sends
 * the list's `rev` or the company as shown (`seen`): a stale form comes back with the list as it
 * is now and the message. With one company, only "Add a company" is shown, below today's fields.
 */
import type * as SettingsServer from "../../../app/settings";
import type { CompanyStatus } from "../../../settings/store";
import type { CompaniesResult, SettingsView } from "../../../settings/view";
import { el, showMessage, whileDisabled } from "../../client/dom";
import { t } from "../../client/language";
import { serverFunctions } from "../../client/server";

const server = serverFunctions<typeof SettingsServer>();

type Rerender = (view: SettingsView) => void;

/** How a company's name shows: its name, or its host while it has none. */
function labelOf(c: Pick<CompanyStatus, "name" | "host">): string {
  return c.name || c.host;
}

/** The short line of a company's status for this user (its full sentence comes from the server). */
function badgeOf(c: CompanyStatus): { key: Parameters<typeof t>[0]; kind: "ok" | "info" | "error" } {
  if (c.removed) return { key: "companies.badge.removed", kind: "info" };
  if (c.status === "ready")
    return c.writeStatus === "ready"
      ? { key: "companies.badge.ready", kind: "ok" }
      : { key: "companies.badge.readOnly", kind: "info" };
  if (c.status === "noToken") return { key: "companies.badge.noToken", kind: "info" };
  return { key: "companies.badge.confirm", kind: "error" };
}

function feedback(text: string, kind: "ok" | "error"): void {
  const node = document.getElementById("companies-feedback");
  if (!node) return;
  showMessage(node, text);
  node.className = `status ${kind}`;
}

/**
 * Sends one action with `button` disabled, then shows the list as the server answers it (also
 * when refused: a stale form is replaced by the list as it is now) and the outcome.
 */
function act(button: HTMLButtonElement, rerender: Rerender, call: () => Promise<CompaniesResult>): void {
  const original = button.textContent ?? "";
  button.textContent = t("settings.saving");
  void whileDisabled([button], call)
    .then((result) => {
      rerender(result.view);
      if (result.ok) feedback(result.message, "ok");
      else feedback(result.problems.map((p) => p.message).join(" "), "error");
    })
    .catch((err) => {
      button.textContent = original;
      feedback(err instanceof Error ? err.message : String(err), "error");
    });
}

/** Enter in a field runs that field's own button, never the settings form's Save. */
function enterRuns(input: HTMLElement, button: HTMLButtonElement): void {
  input.addEventListener("keydown", (event) => {
    if ((event as KeyboardEvent).key !== "Enter") return;
    event.preventDefault();
    button.click();
  });
}

let fieldCount = 0;
function labelled(text: string, input: HTMLInputElement | HTMLSelectElement): HTMLElement {
  const id = input.id || `company-field-${++fieldCount}`;
  input.id = id;
  return el("div", { class: "field" }, el("label", { for: id }, text), input);
}

function textInput(cls: string, value = "", type = "text"): HTMLInputElement {
  const input = el("input", { type, class: cls, autocomplete: "off", spellcheck: "false" });
  input.value = value;
  return input;
}

function companyCard(view: SettingsView, c: CompanyStatus, rerender: Rerender): HTMLElement {
  const rev = view.companies?.rev ?? 0;
  const label = labelOf(c);
  const seen = { name: c.name, apiUrl: c.apiUrl };
  const badge = badgeOf(c);
  const card = el(
    "section",
    { class: "company", "data-key": c.key, "data-status": c.status, "data-write-status": c.writeStatus },
    el("h3", { class: "company-name" }, label),
    el("p", { class: "hint company-host" }, t("companies.host", { host: c.host })),
    el("p", { class: `company-badge status ${badge.kind}` }, t(badge.key)),
    el("p", { class: "hint company-message" }, c.message),
  );
  const account = view.companies?.accounts?.[c.key];
  if (account && !c.removed) card.append(accountBox(c, account, rerender));
  if (c.confirm) {
    const confirm = el(
      "button",
      { type: "button", class: "company-confirm action" },
      t("companies.confirm", { company: labelOf(c), host: c.host }),
    );
    const shown = c.confirm;
    confirm.addEventListener("click", () =>
      act(confirm, rerender, () => server.confirmMyCompanyToken(c.key, shown)),
    );
    card.append(confirm);
  }
  if (c.last4)
    card.append(el("p", { class: "company-last4" }, t("companies.token.saved", { last4: c.last4 })));

  const token = textInput("company-token", "", "password");
  const adminId = textInput("company-adminId", c.adminId === null ? "" : String(c.adminId));
  adminId.setAttribute("inputmode", "numeric");
  const save = el("button", { type: "button", class: "company-save" }, t("companies.saveToken"));
  save.addEventListener("click", () =>
    act(save, rerender, () => server.saveMyCompanyToken(c.key, token.value, adminId.value, seen)),
  );
  enterRuns(token, save);
  enterRuns(adminId, save);
  const test = el("button", { type: "button", class: "company-test" }, t("settings.test"));
  const testStatus = el("div", { class: "status company-test-status", role: "status" });
  test.addEventListener("click", () => {
    const original = test.textContent ?? "";
    test.textContent = t("settings.testing");
    void whileDisabled([test], () =>
      server.testSettingsConnection({ key: c.key, ...(token.value.trim() ? { token: token.value } : {}) }),
    )
      .then((check) => {
        showMessage(testStatus, check.message);
        testStatus.className = `status company-test-status ${check.ok ? "ok" : "error"}`;
      })
      .catch((err) => {
        showMessage(testStatus, err instanceof Error ? err.message : String(err));
        testStatus.className = "status company-test-status error";
      })
      .finally(() => {
        test.textContent = original;
      });
  });
  card.append(
    labelled(t("companies.token", { company: label }), token),
    ...(c.last4 ? [el("p", { class: "hint" }, t("companies.token.keep"))] : []),
    labelled(t("companies.adminId", { company: label }), adminId),
    save,
    test,
  );
  if (c.last4 || c.status !== "noToken") {
    const remove = el(
      "button",
      { type: "button", class: "company-remove-token" },
      t("companies.removeToken"),
    );
    remove.addEventListener("click", () => act(remove, rerender, () => server.removeMyCompanyToken(c.key)));
    card.append(remove);
  }
  card.append(testStatus, editBox(view, c, rev, rerender));
  return card;
}

/**
 * The company's account mark: what Settings says of it, and (once marked, with a token of this
 * user's) taking it again, in two steps: the server's question naming what changes, then yes.
 */
function accountBox(
  c: CompanyStatus,
  account: { marked: boolean; message: string },
  rerender: Rerender,
): HTMLElement {
  const box = el(
    "div",
    { class: "company-account", "data-marked": String(account.marked) },
    el("p", { class: "hint company-account-message" }, account.message),
  );
  if (!account.marked || c.status !== "ready") return box;
  const question = el("p", { class: "hint company-account-question" });
  const retake = el("button", { type: "button", class: "company-account-retake" }, t("account.retake"));
  const yes = el("button", { type: "button", class: "company-account-confirm" }, t("account.retakeConfirm"));
  yes.hidden = true;
  // The confirmation carries what the question showed: the server takes the mark only if so.
  let shown: unknown = null;
  const ask = (confirmed: boolean, button: HTMLButtonElement) =>
    void whileDisabled([button], () => server.retakeCompanyAccountMark(c.key, confirmed ? shown : false))
      .then((result) => {
        if (result.ask) {
          shown = result.shown ?? null;
          showMessage(question, result.message);
          yes.hidden = false;
          return;
        }
        rerender(result.view);
        feedback(result.message, result.ok ? "ok" : "error");
      })
      .catch((err) => feedback(err instanceof Error ? err.message : String(err), "error"));
  retake.addEventListener("click", () => ask(false, retake));
  yes.addEventListener("click", () => ask(true, yes));
  box.append(retake, question, yes);
  return box;
}

/** What any editor may change of a company: its name, its URL; or remove it with its rows. */
function editBox(view: SettingsView, c: CompanyStatus, rev: number, rerender: Rerender): HTMLElement {
  const name = textInput("company-new-name", c.name);
  const rename = el("button", { type: "button", class: "company-rename" }, t("companies.rename"));
  rename.addEventListener("click", () =>
    act(rename, rerender, () => server.saveCompanies({ kind: "rename", rev, key: c.key, name: name.value })),
  );
  enterRuns(name, rename);
  const url = textInput("company-new-url", c.apiUrl, "url");
  const repoint = el("button", { type: "button", class: "company-repoint" }, t("companies.repoint"));
  repoint.addEventListener("click", () =>
    act(repoint, rerender, () =>
      server.saveCompanies({ kind: "repoint", rev, key: c.key, apiUrl: url.value }),
    ),
  );
  enterRuns(url, repoint);
  const box = el(
    "details",
    { class: "company-edit" },
    el("summary", {}, t("companies.edit")),
    labelled(t("companies.newName"), name),
    rename,
    labelled(t("settings.baseUrl"), url),
    repoint,
  );
  // The only company listed cannot be removed (the server says so too).
  const listed = (view.companies?.entries ?? []).filter((e) => !e.removed).length;
  if (listed > 1) {
    const rows = el("select", { class: "company-remove-rows" });
    rows.append(
      el("option", { value: "keep" }, t("companies.removeRows.keep")),
      el("option", { value: "remove" }, t("companies.removeRows.remove")),
    );
    const remove = el("button", { type: "button", class: "company-remove" }, t("companies.remove"));
    remove.addEventListener("click", () =>
      act(remove, rerender, () =>
        server.saveCompanies({ kind: "remove", rev, key: c.key, rows: rows.value }),
      ),
    );
    box.append(labelled(t("companies.removeRows"), rows), remove);
  }
  return box;
}

function addBox(view: SettingsView, rerender: Rerender): HTMLElement {
  const companies = view.companies;
  const listed = (companies?.entries ?? []).filter((e) => !e.removed);
  const box = el("details", { id: "company-add" }, el("summary", {}, t("companies.add")));
  if (!companies) return box;
  if (listed.length >= companies.max) {
    box.append(el("p", { class: "hint" }, t("companies.full", { max: companies.max })));
    return box;
  }
  // Adding a second company names the first in the same form, while it has no name.
  const unnamed = listed.length === 1 && listed[0]?.name === "" ? listed[0] : undefined;
  const firstName = textInput("company-add-first");
  firstName.id = "company-add-first";
  const name = textInput("company-add-name");
  name.id = "company-add-name";
  const url = textInput("company-add-url", "", "url");
  url.id = "company-add-url";
  const add = el(
    "button",
    { type: "button", id: "company-add-submit", class: "action" },
    t("companies.add.submit"),
  );
  add.addEventListener("click", () =>
    act(add, rerender, () =>
      server.saveCompanies({
        kind: "add",
        rev: companies.rev,
        name: name.value,
        apiUrl: url.value,
        ...(unnamed ? { firstName: firstName.value } : {}),
      }),
    ),
  );
  for (const input of [firstName, name, url]) enterRuns(input, add);
  if (unnamed) box.append(labelled(t("companies.add.firstName", { host: unnamed.host }), firstName));
  box.append(labelled(t("companies.add.name"), name), labelled(t("companies.add.url"), url), add);
  return box;
}

function removedBox(view: SettingsView, rerender: Rerender): HTMLElement[] {
  const removed = (view.companies?.entries ?? []).filter((e) => e.removed);
  if (removed.length === 0) return [];
  const list = el("ul", { id: "companies-removed", class: "runs" });
  for (const c of removed) {
    const restore = el("button", { type: "button", class: "company-restore" }, t("companies.restore"));
    restore.addEventListener("click", () =>
      act(restore, rerender, () =>
        server.saveCompanies({ kind: "restore", rev: view.companies?.rev ?? 0, key: c.key }),
      ),
    );
    list.append(el("li", { "data-key": c.key }, `${labelOf(c)} · ${c.host} `, restore));
  }
  return [el("details", {}, el("summary", {}, t("companies.removedList")), list)];
}

/** Whether the Connection section lists companies (once a second one was added, for good). */
export function listsCompanies(view: SettingsView): boolean {
  return view.companies?.several === true;
}

/**
 * The Companies block of the Connection section: with several companies, each one's card, the
 * removed ones and "Add a company"; with one, "Add a company" alone (below today's fields).
 */
export function companiesBlock(view: SettingsView, rerender: Rerender): HTMLElement {
  const block = el("div", { id: "companies" });
  const feedbackNode = el("div", { id: "companies-feedback", class: "status", role: "status" });
  if (listsCompanies(view) && view.companies) {
    const listed = view.companies.entries.filter((e) => !e.removed);
    block.append(
      el("h3", { class: "companies-title" }, t("companies.legend")),
      el("p", { class: "hint" }, t("companies.intro")),
      el(
        "p",
        { id: "companies-count", class: "hint" },
        t("companies.count", { count: listed.length, max: view.companies.max }),
      ),
      feedbackNode,
      ...listed.map((c) => companyCard(view, c, rerender)),
      ...removedBox(view, rerender),
      addBox(view, rerender),
    );
    return block;
  }
  block.append(addBox(view, rerender), feedbackNode);
  return block;
}
