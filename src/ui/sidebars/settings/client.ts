/**
 * The settings sidebar: the connection first (service URL, IdAdmin, the user's own token,
 * write-only, and "Test connection"; the menu's "Connection…" opens the sidebar there), the
 * document settings, the schedule with its last runs and next run, the failure e-mail and
 * quota preferences.
 * Built with DOM nodes and textContent only, so nothing from the server or the service can
 * become markup.
 */
import { allowedByList, hostOf } from "../../../api/urls";
import type * as RefreshNowServer from "../../../app/schedule-refresh-now";
import type * as ScheduleSaveServer from "../../../app/schedule-save";
import type * as SettingsServer from "../../../app/settings";
import { type StringKey, translate } from "../../../i18n";
import type { ScheduleSidebarView } from "../../../schedule/view";
import type { SettingsField, SettingsForm, SettingsView } from "../../../settings/view";
import { el, showMessage, whileDisabled } from "../../client/dom";
import { pageLanguage, setLanguage, t } from "../../client/language";
import { serverFunctions } from "../../client/server";
import { companiesBlock, listsCompanies } from "./companies";

/**
 * The server's functions, typed by their own modules' exports and called as methods of
 * google.script.run (a detached call fails on Google): a renamed server function breaks this
 * page's compile.
 */
const server = serverFunctions<typeof SettingsServer & typeof ScheduleSaveServer & typeof RefreshNowServer>();

type Choice = [value: string, label: StringKey | string];
interface FieldDef {
  name: SettingsField;
  label: StringKey;
  type: "text" | "url" | "number" | "date" | "select";
  choices?: Choice[];
  /** Shown only when this returns true for the form's current values. */
  when?: (form: SettingsForm) => boolean;
  /** A line under the field saying what the current choice leaves out. */
  hint?: (form: SettingsForm) => StringKey;
}

const ANY: Choice = ["", "settings.any"];
const SECTIONS: { legend: StringKey; fields: FieldDef[] }[] = [
  {
    legend: "settings.section.connection",
    fields: [
      { name: "baseUrl", label: "settings.baseUrl", type: "url" },
      { name: "adminId", label: "settings.adminId", type: "number", hint: () => "settings.adminId.hint" },
      { name: "pageSize", label: "settings.pageSize", type: "number", hint: () => "settings.pageSize.hint" },
    ],
  },
  {
    legend: "settings.section.reports",
    fields: [
      {
        name: "windowMode",
        label: "settings.window.mode",
        type: "select",
        choices: [
          ["lastDays", "settings.window.lastDays"],
          ["range", "settings.window.range"],
        ],
      },
      {
        name: "windowDays",
        label: "settings.window.days",
        type: "number",
        when: (f) => f.windowMode !== "range",
      },
      {
        name: "windowFrom",
        label: "settings.window.from",
        type: "date",
        when: (f) => f.windowMode === "range",
      },
      { name: "windowTo", label: "settings.window.to", type: "date", when: (f) => f.windowMode === "range" },
      {
        name: "reportTypeDateFilter",
        label: "settings.reports.typeDateFilter",
        type: "select",
        choices: [
          ["2", "settings.reports.typeDateFilter.send"],
          ["1", "settings.reports.typeDateFilter.close"],
        ],
        hint: (f) =>
          f.reportTypeDateFilter === "1"
            ? "settings.reports.typeDateFilter.closeHint"
            : "settings.reports.typeDateFilter.sendHint",
      },
      {
        name: "reportStatus",
        label: "settings.reports.status",
        type: "select",
        choices: [ANY, ["0", "settings.reports.status.open"], ["1", "settings.reports.status.closed"]],
      },
      { name: "reportCurrency", label: "settings.reports.currency", type: "text" },
      { name: "reportPolicyId", label: "settings.reports.policyId", type: "number" },
      {
        name: "reportIntegrationStatus",
        label: "settings.reports.integrationStatus",
        type: "select",
        choices: [ANY, ["1", "settings.reports.integrated"], ["0", "settings.reports.notIntegrated"]],
      },
      { name: "reportIntegrationCode", label: "settings.reports.integrationCode", type: "text" },
      { name: "reportIntegrationDate", label: "settings.reports.integrationDate", type: "date" },
      { name: "reportUserId", label: "settings.reports.userId", type: "number" },
    ],
  },
  {
    legend: "settings.section.funds",
    fields: [
      {
        name: "fundStatus",
        label: "settings.funds.status",
        type: "select",
        choices: [
          ANY,
          ["1", "settings.funds.status.open"],
          ["2", "settings.funds.status.closed"],
          ["3", "settings.funds.status.blocked"],
        ],
      },
      {
        name: "fundOrderBy",
        label: "settings.funds.orderBy",
        type: "select",
        choices: [
          ["1", "settings.funds.orderBy.created"],
          ["2", "settings.funds.orderBy.title"],
        ],
      },
      {
        name: "fundOrder",
        label: "settings.funds.order",
        type: "select",
        choices: [
          ["DESC", "settings.funds.order.desc"],
          ["ASC", "settings.funds.order.asc"],
        ],
      },
      { name: "fundFrom", label: "settings.funds.from", type: "date" },
      { name: "fundTo", label: "settings.funds.to", type: "date" },
    ],
  },
  {
    legend: "settings.section.sheets",
    fields: [
      { name: "sheetFunds", label: "settings.sheet.funds", type: "text" },
      { name: "sheetTransactions", label: "settings.sheet.transactions", type: "text" },
      { name: "sheetReports", label: "settings.sheet.reports", type: "text" },
      { name: "sheetAudit", label: "settings.sheet.audit", type: "text" },
      { name: "sheetOutbox", label: "settings.sheet.outbox", type: "text" },
      {
        name: "missingRows",
        label: "settings.missingRows",
        type: "select",
        choices: [
          ["keep", "settings.missingRows.keep"],
          ["remove", "settings.missingRows.remove"],
        ],
        hint: (f) =>
          f.missingRows === "remove" ? "settings.missingRows.removeHint" : "settings.missingRows.keepHint",
      },
      {
        name: "auditReads",
        label: "settings.auditReads",
        type: "select",
        choices: [
          ["summed", "settings.auditReads.summed"],
          ["every", "settings.auditReads.every"],
        ],
        hint: (f) =>
          f.auditReads === "every" ? "settings.auditReads.everyHint" : "settings.auditReads.summedHint",
      },
    ],
  },
  {
    legend: "settings.section.general",
    fields: [
      {
        name: "language",
        label: "settings.language",
        type: "select",
        choices: [
          ["en", "settings.language.en"],
          ["es", "settings.language.es"],
        ],
      },
    ],
  },
];

function isKey(label: string): label is StringKey {
  return label.startsWith("settings.");
}

function fieldControl(def: FieldDef, value: string, form: SettingsForm): HTMLElement {
  const id = `f-${def.name}`;
  let control: HTMLInputElement | HTMLSelectElement;
  if (def.type === "select") {
    control = el("select", { id, name: def.name });
    for (const [v, label] of def.choices ?? []) {
      const option = el("option", { value: v }, isKey(label) ? t(label) : label);
      if (v === value) option.selected = true;
      control.append(option);
    }
  } else {
    control = el("input", { id, name: def.name, type: def.type === "number" ? "text" : def.type });
    if (def.type === "number") control.setAttribute("inputmode", "numeric");
    control.value = value;
  }
  control.setAttribute("aria-describedby", `${id}-problem`);
  return el(
    "div",
    { class: "field", "data-field": def.name },
    el("label", { for: id }, t(def.label)),
    control,
    ...(def.hint ? [el("p", { id: `${id}-hint`, class: "hint" }, t(def.hint(form)))] : []),
    el("div", { id: `${id}-problem`, class: "problem", role: "alert" }),
  );
}

function readForm(root: HTMLElement, current: SettingsForm): SettingsForm {
  const form = { ...current };
  for (const control of Array.from(root.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[name]"))) {
    const name = control.name as SettingsField;
    if (name in form) form[name] = control.value;
  }
  return form;
}

function applyVisibility(root: HTMLElement, form: SettingsForm): void {
  for (const section of SECTIONS) {
    for (const def of section.fields) {
      const box = root.querySelector<HTMLElement>(`[data-field="${def.name}"]`);
      if (box) box.hidden = def.when ? !def.when(form) : false;
      const hint = def.hint ? root.querySelector<HTMLElement>(`#f-${def.name}-hint`) : null;
      if (hint && def.hint) hint.textContent = t(def.hint(form));
    }
  }
}

function status(node: HTMLElement, text: string, kind: "ok" | "error" | "info" = "info"): void {
  showMessage(node, text);
  node.className = `status ${kind}`;
}

function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // A failure of the service comes in plain words with its details (src/api/plain.ts).
  return message.includes("\n\n") ? message : t("settings.error", { message });
}

/** Runs `action` with `button` disabled, so that a click cannot send twice. */
async function busy<T>(button: HTMLButtonElement, label: string, action: () => Promise<T>): Promise<T> {
  const original = button.textContent ?? "";
  button.textContent = label;
  try {
    return await whileDisabled([button], action);
  } finally {
    button.textContent = original;
  }
}

/**
 * Under the service URL, as it is typed: the host requests really go to (a URL such as
 * "https://api.rindegastos.com@other.example/v1" goes to other.example), and a warning when
 * the built manifest's allowlist does not cover it (Apps Script would refuse every request).
 * A host on this computer is never reached by a deployed add-on, only by a local emulation
 * that adds it as a test deployment would: it gets a note instead of the warning.
 */
function serviceUrlHint(form: HTMLElement, view: SettingsView): void {
  const input = form.querySelector<HTMLInputElement>("#f-baseUrl");
  if (!input) return;
  const hint = el("p", { id: "f-baseUrl-host", class: "hint" });
  const warning = el("p", { id: "f-baseUrl-allowlist", class: "status error", role: "alert" });
  const list = view.allowlist ?? [];
  const update = () => {
    const url = input.value.trim().replace(/\/+$/, "");
    const host = hostOf(url);
    const local = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i.test(host);
    hint.textContent = host
      ? [t("settings.baseUrl.host", { host }), local ? t("settings.baseUrl.local") : ""].join(" ").trim()
      : "";
    const refused = host !== "" && !local && list.length > 0 && !allowedByList(`${url}/getFunds`, list);
    warning.hidden = !refused;
    warning.textContent = refused ? t("settings.baseUrl.notAllowed", { host, allowed: list.join(", ") }) : "";
  };
  input.addEventListener("input", update);
  input.insertAdjacentElement("afterend", hint);
  hint.insertAdjacentElement("afterend", warning);
  update();
}

/**
 * The service URL another editor set, which this user's token is not sent to until they
 * confirm it here (re-binding a token is its owner's explicit act).
 */
function tokenBinding(view: SettingsView, rerender: (v: SettingsView) => void): HTMLElement[] {
  const url = view.token.confirmUrl ?? "";
  const bound = view.token.host ?? "";
  if (!view.token.saved) return [];
  if (!url)
    return bound
      ? [el("p", { id: "token-host", class: "hint" }, t("settings.token.host", { host: bound }))]
      : [];
  const host = hostOf(url);
  const text = bound
    ? t("settings.token.changed", { bound, url, host })
    : t("settings.token.unbound", { url, host });
  const confirm = el(
    "button",
    { type: "button", id: "token-confirm" },
    t("settings.token.confirm", { host }),
  );
  const box = el("div", { id: "token-binding", class: "notice", role: "alert" }, el("p", {}, text), confirm);
  confirm.addEventListener("click", () => {
    void busy(confirm, t("settings.saving"), () => server.confirmMyTokenUrl(url))
      .then((result) => {
        rerender(result.view);
        const node = document.getElementById("token-feedback");
        if (!node) return;
        if (result.ok) status(node, t("settings.token.confirmed", { host }), "ok");
        else status(node, result.message, "error");
      })
      .catch((err) => {
        const node = document.getElementById("token-feedback");
        if (node) status(node, errorText(err), "error");
      });
  });
  return [box];
}

function tokenSection(view: SettingsView, rerender: (v: SettingsView) => void): HTMLElement {
  const message = el(
    "p",
    { id: "token-status" },
    view.token.saved ? t("settings.token.set", { last4: view.token.last4 }) : t("settings.token.unset"),
  );
  const input = el("input", { id: "f-token", type: "password", autocomplete: "off", spellcheck: "false" });
  const remove = el("button", { type: "button", id: "token-remove" }, t("settings.token.remove"));
  remove.hidden = !view.token.saved;
  const feedback = el("div", { class: "status", role: "status" });
  remove.addEventListener("click", () => {
    void busy(remove, t("settings.saving"), () => server.removeMyToken())
      .then((next) => {
        rerender(next);
        const node = document.getElementById("token-feedback");
        if (node) status(node, t("settings.token.removed"), "ok");
      })
      .catch((err) => status(feedback, errorText(err), "error"));
  });
  feedback.id = "token-feedback";
  return el(
    "div",
    { class: "field" },
    el("span", { class: "label" }, t("settings.token")),
    message,
    // Which deployment the token's guarantees hold on (docs/deploy.md).
    el("p", { id: "token-deployment", class: "hint" }, t("settings.token.deployment")),
    ...tokenBinding(view, rerender),
    // "Leave empty to keep the saved one" only when there is one to keep.
    el("label", { for: "f-token" }, t(view.token.saved ? "settings.token.replace" : "settings.token.new")),
    input,
    remove,
    feedback,
  );
}

function scheduleSection(view: SettingsView, rerender: (v: SettingsView) => void): HTMLElement {
  const s: ScheduleSidebarView = view.schedule;
  const { frequency, hour, hourBox, triggerTime } = frequencyFields(s);
  const feedback = el("div", { class: "status", role: "status", id: "schedule-feedback" });
  const apply = el("button", { type: "button", id: "schedule-apply" }, t("settings.schedule.apply"));
  apply.addEventListener("click", () => {
    const input = scheduleInput(frequency.value, hour.value);
    void busy(apply, t("settings.saving"), () => server.saveSchedule(input))
      .then((next) => {
        rerender({ ...view, schedule: next });
        const node = document.getElementById("schedule-feedback");
        if (node)
          status(node, next.schedule.kind === "off" ? t("schedule.removed") : t("schedule.saved"), "ok");
      })
      .catch((err) => status(feedback, errorText(err), "error"));
  });

  return el(
    "fieldset",
    { id: "schedule" },
    el("legend", {}, t("settings.section.schedule")),
    scheduleSummary(s),
    el(
      "div",
      { class: "field" },
      el("label", { for: "f-schedule" }, t("settings.schedule.frequency")),
      frequency,
    ),
    hourBox,
    triggerTime,
    apply,
    refreshNowButton(view, rerender, feedback),
    feedback,
    ...preferenceFields(view, feedback),
  );
}

/** The schedule as it is: what it does, whose it is, its next run, and a repair if one was made. */
function scheduleSummary(s: ScheduleSidebarView): HTMLElement {
  const summary = el(
    "div",
    { id: "schedule-summary" },
    el("p", {}, s.label),
    ...(s.owner ? [el("p", {}, t("schedule.owner", { owner: s.owner }))] : []),
    ...(s.owner && !s.mine ? [el("p", { class: "hint" }, t("schedule.notOwner", { owner: s.owner }))] : []),
    el(
      "p",
      { id: "schedule-next" },
      s.nextRun ? t("schedule.next", { when: s.nextRunText || s.nextRun }) : t("schedule.next.none"),
    ),
  );
  if (s.repaired) summary.append(el("p", { class: "status ok" }, t("schedule.repaired")));
  return summary;
}

/**
 * The frequency to choose, the hour (shown for a daily refresh only) and the line that says how
 * much of the day's trigger time the chosen frequency would use, following the choice.
 */
function frequencyFields(s: ScheduleSidebarView): {
  frequency: HTMLSelectElement;
  hour: HTMLSelectElement;
  hourBox: HTMLElement;
  triggerTime: HTMLElement;
} {
  const frequency = el("select", { id: "f-schedule" });
  const choices: Choice[] = [
    ["off", t("settings.schedule.off")],
    ["hours:1", t("settings.schedule.everyHour")],
    ...[2, 4, 6, 8, 12].map((n): Choice => [`hours:${n}`, t("settings.schedule.every", { n })]),
    ["daily", t("settings.schedule.daily")],
  ];
  const currentValue = s.schedule.kind === "hours" ? `hours:${s.schedule.every}` : s.schedule.kind;
  for (const [value, label] of choices) {
    const option = el("option", { value }, label);
    if (value === currentValue) option.selected = true;
    frequency.append(option);
  }
  const hour = el("select", { id: "f-schedule-hour" });
  for (let h = 0; h < 24; h++) {
    const option = el("option", { value: String(h) }, `${h}:00`);
    if (s.schedule.kind === "daily" && s.schedule.hour === h) option.selected = true;
    hour.append(option);
  }
  const hourBox = el(
    "div",
    { class: "field" },
    el("label", { for: "f-schedule-hour" }, t("settings.schedule.hour")),
    hour,
  );
  const triggerTime = el("p", { id: "schedule-trigger-time", class: "hint" });
  const syncHour = () => {
    hourBox.hidden = frequency.value !== "daily";
    // Before saving: how much of the day's trigger time this frequency may use, warned when too much.
    const line = triggerTimeLine(s, frequency.value);
    triggerTime.textContent = line.text;
    triggerTime.className = line.over ? "status error" : "hint";
    triggerTime.hidden = line.text === "";
  };
  frequency.addEventListener("change", syncHour);
  syncHour();
  return { frequency, hour, hourBox, triggerTime };
}

/** The schedule to save for a frequency chosen ("off", "hours:N" or "daily") and an hour. */
function scheduleInput(frequency: string, hour: string) {
  return frequency === "off"
    ? { kind: "off" }
    : frequency === "daily"
      ? { kind: "daily", hour: Number(hour) }
      : { kind: "hours", every: Number(frequency.split(":")[1]) };
}

/**
 * Mail on a failed refresh, and the account type that sets the day's quota, with the quota
 * below them: each saved as soon as it changes, the quota drawn again for the account type.
 */
function preferenceFields(view: SettingsView, feedback: HTMLElement): HTMLElement[] {
  const s = view.schedule;
  const mail = el("input", { id: "f-mail", type: "checkbox" });
  mail.checked = s.mailOnFailure;
  const accountKind = el("select", { id: "f-account" });
  for (const [value, key] of [
    ["auto", "settings.quota.auto"],
    ["consumer", "settings.quota.consumer"],
    ["workspace", "settings.quota.workspace"],
  ] as const) {
    const option = el("option", { value }, t(key));
    if (value === s.accountKind) option.selected = true;
    accountKind.append(option);
  }
  let quota = quotaBox(s);
  const savePreferences = () => {
    void server
      .saveSchedulePreferences({
        mailOnFailure: mail.checked,
        accountKind: accountKind.value,
      })
      .then((next) => {
        // Not a re-render: a schedule or fields chosen but not applied yet stay as they are.
        view.schedule = {
          ...view.schedule,
          mailOnFailure: next.mailOnFailure,
          accountKind: next.accountKind,
          accountKindSource: next.accountKindSource,
          quotaResetsText: next.quotaResetsText,
          quota: next.quota,
        };
        // The account type sets the day's quota: the line below it follows at once.
        const shown = quotaBox(next);
        quota.replaceWith(shown);
        quota = shown;
        status(feedback, t("settings.preferencesSaved"), "ok");
      })
      .catch((err) => status(feedback, errorText(err), "error"));
  };
  mail.addEventListener("change", savePreferences);
  accountKind.addEventListener("change", savePreferences);
  return [
    el("div", { class: "field check" }, mail, el("label", { for: "f-mail" }, t("settings.mail"))),
    el("div", { class: "field" }, el("label", { for: "f-account" }, t("settings.quota")), accountKind),
    quota,
  ];
}

/** "Refresh now": runs the refresh piece after piece until done, then says how its run ended. */
function refreshNowButton(
  view: SettingsView,
  rerender: (v: SettingsView) => void,
  feedback: HTMLElement,
): HTMLButtonElement {
  const refreshNow = el("button", { type: "button", id: "schedule-refresh-now" }, t("settings.refreshNow"));
  refreshNow.addEventListener("click", () => {
    // A refresh longer than one execution goes on from here, piece after piece: each call runs
    // inside Google's time limit and keeps where it stopped (no extra trigger is made for it).
    const untilDone = async (): Promise<ScheduleSidebarView> => {
      let next = await server.runRefreshFromSettings();
      for (let piece = 2; next.continues && piece <= 200; piece += 1) {
        refreshNow.textContent = t("settings.refreshingPiece", { piece });
        next = await server.runRefreshFromSettings();
      }
      return next;
    };
    void busy(refreshNow, t("settings.refreshing"), untilDone)
      .then((next) => {
        rerender({ ...view, schedule: next });
        const last = next.runs[0];
        const node = document.getElementById("schedule-feedback");
        if (node && last)
          status(
            node,
            `${last.outcomeLabel}${last.message ? `: ${last.message}` : ""}`,
            last.outcome === "failed" || last.outcome === "refused" ? "error" : "ok",
          );
      })
      .catch((err) => status(feedback, errorText(err), "error"));
  });
  return refreshNow;
}

/**
 * What a frequency would use of the owner's daily trigger time (Google: 90 minutes on a personal
 * account, 6 hours on Workspace), measured on the last complete refresh; over it, a warning.
 */
function triggerTimeLine(s: ScheduleSidebarView, choice: string): { text: string; over: boolean } {
  const plan = s.triggerTime;
  const option = plan?.choices[choice];
  if (!option) return { text: "", over: false };
  const allowance = Math.round(plan.allowanceMs / 60_000);
  const account = t(plan.kind === "workspace" ? "settings.trigger.workspace" : "settings.trigger.consumer");
  if (option.dailyMs === null || plan.refreshMs === null) {
    return {
      text: t("settings.trigger.unmeasured", { runs: option.runsPerDay, allowance, account }),
      over: false,
    };
  }
  const values = {
    runs: option.runsPerDay,
    refresh: Math.max(1, Math.round(plan.refreshMs / 60_000)),
    minutes: Math.ceil(option.dailyMs / 60_000),
    allowance,
    account,
  };
  return option.over
    ? { text: t("settings.trigger.over", values), over: true }
    : { text: t("settings.trigger.use", values), over: false };
}

/** The quota window's calls against the day's quota, which account kind and why, and the warning when a refresh would go near it. */
function quotaBox(s: ScheduleSidebarView): HTMLElement {
  return el(
    "div",
    { id: "quota" },
    el("p", { id: "quota-today" }, t("settings.quota.today", { used: s.quota.used, limit: s.quota.limit })),
    ...(s.quotaResetsText
      ? [el("p", { id: "quota-resets" }, t("settings.quota.resets", { when: s.quotaResetsText }))]
      : []),
    el(
      "p",
      { id: "quota-kind", class: "hint" },
      t(
        s.accountKindSource === "assumed"
          ? "settings.quota.assumed"
          : s.accountKindSource === "deployment"
            ? "settings.quota.deployment"
            : "settings.quota.chosen",
      ),
    ),
    ...quotaWarning(s),
  );
}

/** Said before anyone starts a refresh that would go near or past today's UrlFetch quota. */
function quotaWarning(s: ScheduleSidebarView): HTMLElement[] {
  const q = s.quota;
  if (q.verdict === "ok") return [];
  const text =
    q.verdict === "refuse"
      ? t("quota.refuse", { estimate: q.estimate, remaining: q.remaining, limit: q.limit })
      : t("quota.warn", { estimate: q.estimate, used: q.used, limit: q.limit });
  return [
    el(
      "p",
      { id: "quota-warning", class: `status ${q.verdict === "refuse" ? "error" : "info"}`, role: "alert" },
      text,
    ),
  ];
}

function noticeBox(view: SettingsView, rerender: (v: SettingsView) => void): HTMLElement | null {
  const notice = view.schedule.notice;
  if (!notice) return null;
  const text = el("p", {});
  // The plain words first, the technical text behind "Details".
  showMessage(text, notice.text);
  const box = el("div", { id: "notice", class: "notice", role: "alert" }, text);
  const runId = notice.runId;
  if (runId) {
    const dismiss = el("button", { type: "button", id: "notice-dismiss" }, t("notice.dismiss"));
    dismiss.addEventListener("click", () => {
      void server.dismissScheduleNotice(runId).then((next) => rerender({ ...view, schedule: next }));
    });
    box.append(dismiss);
  }
  return box;
}

function historySection(view: SettingsView): HTMLElement {
  const runs = view.schedule.runs;
  const box = el("fieldset", { id: "history" }, el("legend", {}, t("settings.section.history")));
  if (runs.length === 0) {
    box.append(el("p", {}, t("settings.history.empty")));
    return box;
  }
  const list = el("ol", { class: "runs" });
  for (const run of runs) {
    // Times come formatted in the spreadsheet's time zone, never the browser's.
    const line = `${run.startedAtText || run.startedAt} · ${run.source} · ${run.outcomeLabel}`;
    const figures = `${t("settings.history.records")}: ${run.records} · ${t("settings.history.calls")}: ${run.calls}`;
    const item = el(
      "li",
      { class: `run ${run.outcome}`, "data-outcome": run.outcome },
      el("div", {}, line),
      el("div", { class: "hint" }, figures),
    );
    if (run.message) {
      const hint = el("div", { class: "hint" });
      showMessage(hint, run.message);
      item.append(hint);
    }
    list.append(item);
  }
  box.append(list);
  return box;
}

function render(root: HTMLElement, view: SettingsView): void {
  setLanguage(view.language);
  const rerender = (next: SettingsView) => render(root, next);
  root.replaceChildren();
  root.setAttribute("lang", pageLanguage());
  const notice = noticeBox(view, rerender);
  if (notice) root.append(notice);

  const form = el("form", { id: "settings-form", novalidate: "" });
  const test = el("button", { type: "button", id: "settings-test" }, t("settings.test"));
  const testStatus = el("div", { id: "connection-status", class: "status", role: "status" });
  // Once the document lists several companies, each has its URL, and each user's token and
  // IdAdmin for it, under Companies: the document-wide fields give way to them.
  const several = listsCompanies(view);
  const perCompany = new Set<SettingsField>(several ? ["baseUrl", "adminId"] : []);
  for (const section of SECTIONS) {
    const fieldset = el("fieldset", {}, el("legend", {}, t(section.legend)));
    for (const def of section.fields)
      if (!perCompany.has(def.name)) fieldset.append(fieldControl(def, view.form[def.name] ?? "", view.form));
    if (section.legend === "settings.section.connection" && several) {
      fieldset.id = "connection";
      fieldset.insertBefore(companiesBlock(view, rerender), fieldset.children[1] ?? null);
    } else if (section.legend === "settings.section.connection") {
      // Everything about the connection in one place: the token and the test live here too.
      fieldset.id = "connection";
      fieldset.insertBefore(
        el("p", { class: "hint" }, t("settings.connection.intro")),
        fieldset.children[1] ?? null,
      );
      fieldset.insertBefore(tokenSection(view, rerender), fieldset.children[3] ?? null);
      fieldset.append(test, testStatus, companiesBlock(view, rerender));
    }
    form.append(fieldset);
  }
  const save = el("button", { type: "submit", id: "settings-save", class: "action" }, t("settings.save"));
  const feedback = el("div", { id: "settings-feedback", class: "status", role: "status" });
  form.append(el("div", { class: "buttons" }, save), feedback);
  applyVisibility(form, view.form);
  serviceUrlHint(form, view);
  // Another editor's IdAdmin: a save of this form (for whatever reason) makes it this user's.
  if (view.adminIssue)
    form
      .querySelector("#f-adminId")
      ?.insertAdjacentElement(
        "afterend",
        el("p", { id: "f-adminId-mine", class: "status error", role: "alert" }, view.adminIssue),
      );
  form.addEventListener("change", () => applyVisibility(form, readForm(form, view.form)));

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    for (const node of Array.from(form.querySelectorAll(".problem"))) node.textContent = "";
    for (const node of Array.from(form.querySelectorAll("[aria-invalid]")))
      node.removeAttribute("aria-invalid");
    const values = readForm(form, view.form);
    const tokenInput = form.querySelector<HTMLInputElement>("#f-token");
    const token = tokenInput?.value ?? "";
    void busy(save, t("settings.saving"), () => server.saveSettings(values, token))
      .then((result) => {
        if (result.ok) {
          render(root, result.view);
          const node = document.getElementById("settings-feedback");
          if (node) status(node, translate(result.view.language, "settings.saved"), "ok");
          return;
        }
        for (const problem of result.problems) {
          const node = document.getElementById(`f-${problem.field}-problem`);
          if (node) node.textContent = problem.message;
          document.getElementById(`f-${problem.field}`)?.setAttribute("aria-invalid", "true");
        }
        status(feedback, result.problems.map((p) => p.message).join(" "), "error");
        document.getElementById(`f-${result.problems[0]?.field}`)?.focus();
      })
      .catch((err) => status(feedback, errorText(err), "error"));
  });
  test.addEventListener("click", () => {
    const values = readForm(form, view.form);
    const typedToken = form.querySelector<HTMLInputElement>("#f-token")?.value ?? "";
    void busy(test, t("settings.testing"), () =>
      server.testSettingsConnection({ baseUrl: values.baseUrl, token: typedToken }),
    )
      .then((check) => status(testStatus, check.message, check.ok ? "ok" : "error"))
      .catch((err) => status(testStatus, errorText(err), "error"));
  });

  root.append(form, scheduleSection(view, rerender), historySection(view));
  root.setAttribute("data-ready", "1");
}

/**
 * Opened from the menu's "Connection…" (the server appends the section's name to the page):
 * the Connection section is scrolled to, and the token field focused when none is saved yet,
 * else the service URL.
 */
function openOnSection(view: SettingsView): void {
  const asked = document.querySelector('meta[name="open-section"]')?.getAttribute("content");
  const section = asked === "connection" ? document.getElementById("connection") : null;
  if (!section) return;
  section.scrollIntoView();
  document.getElementById(view.token.saved ? "f-baseUrl" : "f-token")?.focus();
}

function start(): void {
  const root = document.getElementById("app");
  if (!root) return;
  root.textContent = t("settings.loading");
  server
    .getSettingsView()
    .then((view) => {
      render(root, view);
      openOnSection(view);
    })
    .catch((err) => {
      showMessage(root, errorText(err));
      root.setAttribute("data-ready", "error");
    });
}

start();
