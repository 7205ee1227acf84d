/**
 * What getSettingsView answers in the settings sidebar's browser tests: one document, its
 * settings form filled as a new one is, this user's token saved, no schedule. Each test patches
 * what it looks at.
 */
import { triggerTimePlan } from "../../src/schedule/trigger-time";
import type { ScheduleSidebarView } from "../../src/schedule/view";
import type { SettingsView } from "../../src/settings/view";

/** The settings form of the view (no service URL yet). */
export function settingsForm(patch: Partial<SettingsView["form"]> = {}): SettingsView["form"] {
  return {
    baseUrl: "",
    adminId: "7",
    pageSize: "",
    windowMode: "lastDays",
    windowDays: "30",
    windowFrom: "",
    windowTo: "",
    reportTypeDateFilter: "2",
    reportStatus: "",
    reportCurrency: "",
    reportPolicyId: "",
    reportIntegrationStatus: "",
    reportIntegrationCode: "",
    reportIntegrationDate: "",
    reportUserId: "",
    fundStatus: "",
    fundOrderBy: "1",
    fundOrder: "DESC",
    fundFrom: "",
    fundTo: "",
    sheetFunds: "Funds",
    sheetTransactions: "Fund transactions",
    sheetReports: "Expense reports",
    sheetAudit: "Audit",
    sheetOutbox: "Outbox",
    missingRows: "keep",
    auditReads: "summed",
    language: "en",
    ...patch,
  } as SettingsView["form"];
}

/** The schedule section of the view: no schedule, this user's, nothing run. */
export function scheduleView(patch: Partial<ScheduleSidebarView> = {}): ScheduleSidebarView {
  return {
    schedule: { kind: "off" },
    label: "No schedule",
    owner: "",
    mine: true,
    nextRun: null,
    runs: [],
    notice: null,
    mailOnFailure: false,
    quota: { verdict: "ok", used: 0, limit: 20000, estimate: 3, remaining: 20000 },
    accountKind: "auto",
    accountKindSource: "assumed",
    quotaResetsText: "",
    triggerTime: triggerTimePlan([], "consumer"),
    repaired: false,
    ...patch,
  };
}

/** The whole view, in English, with this user's token for api.rindegastos.com saved. */
export function settingsView(patch: Partial<SettingsView> = {}): SettingsView {
  return {
    language: "en",
    form: settingsForm(),
    token: { saved: true, last4: "9f3a", host: "api.rindegastos.com", confirmUrl: "" },
    schedule: scheduleView(),
    allowlist: [],
    ...patch,
  } as SettingsView;
}
