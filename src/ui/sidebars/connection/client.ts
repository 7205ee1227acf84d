/**
 * The connection sidebar: service URL, the user's own access token (write-only: shown as saved
 * or not, replaceable, removable), IdAdmin, Save and Test connection. Built from DOM nodes
 * with textContent only, so nothing the server or the service sends can become markup.
 */
import type * as ConnectionServer from "../../../app/connection";
import type { ConnectionView, SaveConnectionResult } from "../../../settings/connection";
import type { SettingsIssue } from "../../../settings/model";
import { el, showMessage, whileDisabled } from "../../client/dom";
import { setLanguage, t } from "../../client/language";
import { serverFunctions } from "../../client/server";

const server = serverFunctions<typeof ConnectionServer>();

const FIELDS = ["baseUrl", "token", "adminId"] as const;
type Field = (typeof FIELDS)[number];

/** A labelled input with its hint and a place for its problem, linked for screen readers. */
function field(name: Field, label: string, input: HTMLInputElement, hint?: string): HTMLElement {
  input.id = `f-${name}`;
  input.name = name;
  const described = [`${name}-problem`];
  const box = el("div", { class: "field" }, el("label", { for: input.id }, label), input);
  if (hint) {
    box.append(el("div", { class: "hint", id: `${name}-hint` }, hint));
    described.unshift(`${name}-hint`);
  }
  box.append(el("div", { class: "problem", id: `${name}-problem`, role: "alert" }));
  input.setAttribute("aria-describedby", described.join(" "));
  return box;
}

function input(type: string, attrs: Record<string, string> = {}): HTMLInputElement {
  return el("input", { type, ...attrs });
}

function render(view: ConnectionView): void {
  setLanguage(view.language);
  const app = document.getElementById("app") as HTMLElement;
  app.textContent = "";

  const baseUrl = input("url", {
    placeholder: view.defaultBaseUrl,
    autocomplete: "url",
    spellcheck: "false",
  });
  baseUrl.value = view.baseUrl;
  const token = input("password", { autocomplete: "off", spellcheck: "false" });
  const adminId = input("text", { inputmode: "numeric", pattern: "[0-9]*" });
  adminId.value = view.adminId;

  const tokenStatus = el("p", { id: "token-status" });
  const removeToken = el("button", { type: "button", id: "remove-token" }, t("connection.token.remove"));
  const showToken = (saved: boolean, last4: string) => {
    tokenStatus.textContent = saved
      ? last4
        ? t("connection.token.saved", { last4 })
        : t("connection.token.savedShort")
      : t("connection.token.none");
    removeToken.hidden = !saved;
  };
  showToken(view.token.saved, view.token.last4);

  const save = el("button", { type: "submit", class: "action", id: "save" }, t("connection.save"));
  const test = el("button", { type: "button", id: "test" }, t("connection.test"));
  const status = el("div", { class: "status", id: "status", role: "status", "aria-live": "polite" });

  const form = el(
    "form",
    { id: "connection-form", novalidate: "" },
    el("h1", {}, t("connection.title")),
    el("p", { class: "hint" }, t("connection.intro")),
    field(
      "baseUrl",
      t("connection.baseUrl"),
      baseUrl,
      t("connection.baseUrl.hint", { default: view.defaultBaseUrl }),
    ),
    el(
      "fieldset",
      {},
      el("legend", {}, t("connection.token")),
      tokenStatus,
      field("token", t("connection.token.new"), token, t("connection.token.newHint")),
      removeToken,
    ),
    field("adminId", t("connection.adminId"), adminId, t("connection.adminId.hint")),
    el("div", { class: "buttons" }, save, test),
    status,
  );
  app.append(form);
  app.removeAttribute("aria-busy");

  const inputs: Record<Field, HTMLInputElement> = { baseUrl, token, adminId };
  const buttons = [save, test, removeToken];
  const setStatus = (text: string, kind: "ok" | "error" | "") => {
    showMessage(status, text);
    status.className = `status ${kind}`.trim();
  };
  const clearProblems = () => {
    for (const name of FIELDS) {
      (document.getElementById(`${name}-problem`) as HTMLElement).textContent = "";
      inputs[name].removeAttribute("aria-invalid");
    }
  };
  const showProblems = (issues: SettingsIssue[]) => {
    let first: HTMLInputElement | undefined;
    const elsewhere: string[] = [];
    for (const issue of issues) {
      const name = issue.field as Field;
      if (FIELDS.includes(name)) {
        const box = document.getElementById(`${name}-problem`) as HTMLElement;
        box.textContent = box.textContent ? `${box.textContent} ${issue.message}` : issue.message;
        inputs[name].setAttribute("aria-invalid", "true");
        first ??= inputs[name];
      } else {
        elsewhere.push(issue.message);
      }
    }
    setStatus([t("connection.problems"), ...elsewhere].join(" "), "error");
    first?.focus();
  };
  const busy = <T>(label: string, work: () => Promise<T>): Promise<T | undefined> =>
    whileDisabled(buttons, async () => {
      setStatus(label, "");
      try {
        return await work();
      } catch (err) {
        setStatus(failedText(err), "error");
        return undefined;
      }
    });
  const afterSave = (result: SaveConnectionResult | undefined) => {
    if (!result) return;
    if (!result.ok) {
      showProblems(result.issues);
      return;
    }
    token.value = "";
    baseUrl.value = result.view.baseUrl;
    adminId.value = result.view.adminId;
    showToken(result.view.token.saved, result.view.token.last4);
    setStatus(result.message, "ok");
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearProblems();
    const typed = token.value.trim();
    const result = await busy(t("connection.saving"), () =>
      server.saveConnectionSettings({
        baseUrl: baseUrl.value.trim(),
        adminId: adminId.value.trim(),
        ...(typed ? { token: typed } : {}),
      }),
    );
    afterSave(result);
  });

  removeToken.addEventListener("click", async () => {
    clearProblems();
    afterSave(await busy(t("connection.saving"), () => server.saveConnectionSettings({ removeToken: true })));
    token.focus();
  });

  test.addEventListener("click", async () => {
    clearProblems();
    const typed = token.value.trim();
    const result = await busy(t("connection.testing"), () =>
      server.testConnection({ baseUrl: baseUrl.value.trim(), ...(typed ? { token: typed } : {}) }),
    );
    if (result) setStatus(result.message, result.ok ? "ok" : "error");
  });

  app.setAttribute("data-ready", "1");
}

/** A failed call: a failure of the service comes in plain words with its details (src/api/plain.ts). */
function failedText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.includes("\n\n") ? message : t("connection.failed", { message });
}

async function start(): Promise<void> {
  const app = document.getElementById("app") as HTMLElement;
  app.textContent = t("connection.loading");
  try {
    render(await server.getConnectionSettings());
  } catch (err) {
    showMessage(app, failedText(err));
    app.removeAttribute("aria-busy");
    app.setAttribute("data-ready", "1");
  }
}

void start();
