/**
 * What the Fund and Report sidebars share: the server functions through the typed
 * google.script.run wrapper of src/ui/client, DOM building with text nodes only (nothing from the server or the
 * service can become markup), labelled fields, validation as the user types with the
 * contract's own rules and messages, and a submit button that cannot send twice.
 */
import type { Issue } from "../../api/messages";
import { issueText } from "../../api/words";
import type * as FundServer from "../../app/fund-sidebar";
import type * as ReportServer from "../../app/report-sidebar";
import type { StringKey } from "../../i18n";
import type { FormOutcome } from "../../outbox/forms";
import type { OutboxOperation } from "../../outbox/operations";
import { checkWrite, type FieldProblem, type ServiceInput } from "../../outbox/requests";
import { el, showMessage } from "./dom";
import { pageLanguage, t } from "./language";
import { serverFunctions } from "./server";

/** The server functions of both sidebars, as promises (the shared typed google.script.run wrapper). */
export const server = serverFunctions<typeof FundServer & typeof ReportServer>();

let ids = 0;
const nextId = (prefix: string) => `${prefix}-${++ids}`;

export type FieldKind = "text" | "number" | "date" | "datetime" | "checkbox" | "select";

export interface FieldDef {
  /** The service's field name: the contract's messages name it. */
  name: string;
  label: StringKey;
  kind: FieldKind;
  choices?: [value: string, label: string][];
  value?: string | boolean;
  hint?: string;
  /** Offered as the user types (a datalist): any other text is still accepted. */
  suggestions?: string[];
}

export interface Shown {
  text: string;
  tone: "ok" | "error" | "info";
}

export interface FormHandle {
  element: HTMLFormElement;
  values(): ServiceInput;
  setValue(name: string, value: string | boolean): void;
  validate(): FieldProblem[];
  showResult(text: string, tone: "ok" | "error" | "info"): void;
}

export interface FormOptions {
  legend: StringKey;
  submitLabel: StringKey;
  operation: OutboxOperation;
  fields: FieldDef[];
  /** Values the form sends without showing them (the fund's Id). */
  fixed?: () => ServiceInput;
  adminId: () => number | null;
  /** Asked before sending; resolves false to cancel (closing a fund). */
  confirm?: (values: ServiceInput) => Promise<boolean>;
  send: (values: ServiceInput, requestId: string) => Promise<Shown>;
}

/** A request id for one submission: the server answers a repeated id with its first result. */
export function newRequestId(): string {
  const bytes = new Uint8Array(12);
  const cryptoApi = (globalThis as { crypto?: Crypto }).crypto;
  if (cryptoApi?.getRandomValues) cryptoApi.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

type FieldInput = HTMLInputElement | HTMLSelectElement;

/** A built form's parts, and which fields the user edited. */
interface FormParts {
  options: FormOptions;
  form: HTMLFormElement;
  /** Says the form has problems, above the fields it speaks of: read before them, not after. */
  summaryLine: HTMLElement;
  inputs: Map<string, FieldInput>;
  /** Each field's problems, beside it. */
  problems: Map<string, HTMLElement>;
  /** The fields the user edited: their problems show as the user types. */
  touched: Set<string>;
  /** Problems of no field shown here. */
  formProblem: HTMLElement;
  submit: HTMLButtonElement;
  status: HTMLElement;
}

/** A fieldset with labelled inputs, problems shown as the user types, and a guarded submit. */
export function buildForm(options: FormOptions): FormHandle {
  const form = el("form", { novalidate: "" });
  const summaryLine = el("div", { class: "status error", role: "alert" });
  const fieldset = el("fieldset", {}, el("legend", {}, t(options.legend)), summaryLine);
  form.append(fieldset);
  const parts: FormParts = {
    options,
    form,
    summaryLine,
    inputs: new Map(),
    problems: new Map(),
    touched: new Set(),
    formProblem: el("div", { class: "problem", role: "alert" }),
    submit: el("button", { type: "submit", class: "action" }, t(options.submitLabel)),
    status: el("div", { class: "status", role: "status", "aria-live": "polite" }),
  };
  for (const def of options.fields) {
    const { row, input, problem } = fieldRow(def);
    fieldset.append(row);
    parts.inputs.set(def.name, input);
    parts.problems.set(def.name, problem);
    if (def.value !== undefined) setInput(input, def.value);
    const onEdit = () => {
      parts.touched.add(def.name);
      validateForm(parts, false);
    };
    input.addEventListener("input", onEdit);
    input.addEventListener("change", onEdit);
  }
  const confirmBox = el("div", { class: "confirm", hidden: "" });
  fieldset.append(parts.formProblem, confirmBox, parts.submit, parts.status);
  form.addEventListener("submit", guardedSubmit(parts));

  return {
    element: form,
    values: () => formValues(parts),
    setValue(name, value) {
      const input = parts.inputs.get(name);
      if (input) setInput(input, value);
    },
    validate: () => validateForm(parts, true),
    showResult: (text, tone) => showResult(parts, text, tone),
  };
}

/** One field: its label, its input (with suggestions if it has any), its problem line and hint. */
function fieldRow(def: FieldDef): { row: HTMLElement; input: FieldInput; problem: HTMLElement } {
  const id = nextId(def.name);
  const problemId = `${id}-problem`;
  const input = fieldInput(def, id, problemId);
  let datalist: HTMLDataListElement | null = null;
  if (def.kind === "text" && def.suggestions && def.suggestions.length > 0) {
    datalist = el("datalist", { id: `${id}-suggestions` });
    for (const suggestion of def.suggestions) datalist.append(el("option", { value: suggestion }));
    input.setAttribute("list", datalist.id);
  }
  const problem = el("div", { class: "problem", id: problemId, role: "alert" });
  const label = el("label", { for: id }, t(def.label));
  const row =
    def.kind === "checkbox"
      ? el("div", { class: "field check" }, input, label, problem)
      : el("div", { class: "field" }, label, input, problem);
  if (datalist) row.append(datalist);
  if (def.hint) row.append(el("div", { class: "hint" }, def.hint));
  return { row, input, problem };
}

/** The input of a field's kind: a select of its choices, or an input typed for what it takes. */
function fieldInput(def: FieldDef, id: string, problemId: string): FieldInput {
  if (def.kind === "select") {
    const select = el("select", { id, name: def.name, "aria-describedby": problemId });
    for (const [value, label] of def.choices ?? []) select.append(el("option", { value }, label));
    return select;
  }
  const type = def.kind === "checkbox" ? "checkbox" : def.kind === "date" ? "date" : "text";
  const input = el("input", { id, name: def.name, type, "aria-describedby": problemId });
  if (def.kind === "number" || def.kind === "datetime")
    input.setAttribute("inputmode", def.kind === "number" ? "decimal" : "text");
  if (def.kind === "number")
    input.setAttribute("placeholder", pageLanguage() === "es" ? "1234,50" : "1234.50");
  if (def.kind === "datetime") input.setAttribute("placeholder", "YYYY-MM-DD HH:MM:SS");
  return input;
}

function setInput(input: FieldInput, value: string | boolean): void {
  if (input instanceof HTMLInputElement && input.type === "checkbox") input.checked = value === true;
  else input.value = typeof value === "string" ? value : "";
}

/** What the form would send: each filled field (a checkbox as true or false), then the fixed values. */
function formValues(parts: FormParts): ServiceInput {
  const out: ServiceInput = {};
  for (const [name, input] of parts.inputs) {
    if (input instanceof HTMLInputElement && input.type === "checkbox") out[name] = input.checked;
    else if (input.value.trim() !== "") out[name] = input.value;
    else if (input instanceof HTMLSelectElement && input.value === "") continue;
    else out[name] = "";
  }
  // Fixed values (the fund's Id, an employee id typed beside the list) win over inputs.
  Object.assign(out, parts.options.fixed?.() ?? {});
  for (const [name, value] of Object.entries(out)) {
    if (value === "true") out[name] = true;
    else if (value === "false") out[name] = false;
  }
  return out;
}

/** The contract's problems; shown beside the fields the user touched (all of them on submit). */
function validateForm(parts: FormParts, all: boolean): FieldProblem[] {
  const { options, inputs, problems } = parts;
  const checked = checkWrite(options.operation, formValues(parts), {
    adminId: options.adminId(),
    typed: pageLanguage(),
  });
  const list = checked.ok
    ? []
    : checked.problems.map((p) => ({
        field: p.field,
        message:
          "message" in p ? p.message : (inFieldWords(options.fields, p) ?? issueText(p, pageLanguage())),
      }));
  const unplaced: string[] = [];
  for (const node of problems.values()) node.textContent = "";
  for (const p of list) {
    const node = problems.get(p.field);
    if (node && (all || parts.touched.has(p.field))) {
      node.textContent = node.textContent ? `${node.textContent} ${p.message}` : p.message;
      inputs.get(p.field)?.setAttribute("aria-invalid", "true");
    } else if (!node) unplaced.push(p.message);
  }
  for (const [name, input] of inputs) {
    if (!list.some((p) => p.field === name)) input.removeAttribute("aria-invalid");
  }
  parts.formProblem.textContent = all || unplaced.length > 0 ? unplaced.join(" ") : "";
  if (list.length === 0) parts.summaryLine.textContent = "";
  return list;
}

/** A broken rule beside its field, in a person's words, the field named by its label. */
function inFieldWords(fields: readonly FieldDef[], issue: Issue): string | null {
  const def = fields.find((f) => f.name === issue.field);
  if (!def) return null;
  const key = `form.rule.${issue.rule}` as StringKey;
  const text = t(key, { ...issue.params, field: t(def.label) });
  // A rule without words of its own here keeps the contract's, the field named by its label.
  return text === key ? issueText(issue, pageLanguage()).replace(issue.field, t(def.label)) : text;
}

function showResult(parts: FormParts, text: string, tone: Shown["tone"]): void {
  parts.status.className = `status ${tone}`;
  showMessage(parts.status, text);
}

/**
 * The form's submit: every field checked, then (once confirmed, if the form asks) the values
 * sent and the result shown; a submit while one is being sent is ignored.
 */
function guardedSubmit(parts: FormParts): (event: Event) => void {
  const { options, form, submit } = parts;
  let sending = false;
  // Kept until a result is shown: a retry after a failed call reuses it, so the server can
  // answer with the first attempt's result instead of applying the form twice.
  let requestId = newRequestId();
  return (event) => {
    event.preventDefault();
    if (sending) return;
    const list = validateForm(parts, true);
    if (list.length > 0) {
      parts.summaryLine.textContent = t("form.problems");
      showResult(parts, "", "error");
      return;
    }
    const current = formValues(parts);
    sending = true;
    submit.disabled = true;
    const proceed = options.confirm ? options.confirm(current) : Promise.resolve(true);
    proceed
      .then((yes) => {
        if (!yes) return null;
        showResult(parts, t("form.sending"), "info");
        form.setAttribute("aria-busy", "true");
        return options.send(current, requestId).then((shown) => {
          requestId = newRequestId();
          return shown;
        });
      })
      .catch((error: Error): Shown => {
        const message = error?.message ?? String(error);
        // A failure of the service comes in plain words with its details (src/api/plain.ts).
        return { text: message.includes("\n\n") ? message : t("form.failed", { message }), tone: "error" };
      })
      .then((shown) => {
        if (shown !== null) showResult(parts, shown.text, shown.tone);
      })
      .finally(() => {
        sending = false;
        submit.disabled = false;
        form.removeAttribute("aria-busy");
      });
  };
}

/** An inline yes/no question inside the form (no window.confirm in a sandboxed sidebar). */
export function askInline(container: HTMLElement, question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const box = el("div", { class: "confirm", role: "alertdialog", "aria-label": question });
    const yes = el("button", { type: "button", class: "action" }, t("form.confirm"));
    const no = el("button", { type: "button" }, t("form.cancel"));
    box.append(el("p", {}, question), yes, no);
    container.append(box);
    const done = (answer: boolean) => {
      box.remove();
      resolve(answer);
    };
    yes.addEventListener("click", () => done(true));
    no.addEventListener("click", () => done(false));
    no.focus();
  });
}

/** The text to show for a form's outcome; problems from the server go beside their fields. */
export function outcomeText(outcome: FormOutcome, form?: FormHandle): Shown {
  switch (outcome.kind) {
    case "done":
      return { text: outcome.message, tone: "ok" };
    case "refused":
      return { text: outcome.message, tone: "error" };
    case "invalid":
      form?.validate();
      return { text: outcome.problems.map((p) => p.message).join(" "), tone: "error" };
    case "unknown":
      return { text: outcome.message, tone: outcome.applied === true ? "ok" : "error" };
  }
}
