/**
 * The audit log of the Settings sidebar's own calls (a connection test, an account check, the
 * retaking of an account mark) and of the close's four-eyes change: into the Audit sheet the
 * settings name, made when its first row is written, hiding the user's saved tokens and `more`
 * (a token being tried).
 */

import type { AuditLog } from "../audit/log";
import { lazyAuditSink } from "../gas/outbox-sheet";
import { runtime } from "../gas/runtime";
import type { Language } from "../i18n";
import { sheetNamesIn } from "../refresh/words";
import { auditLimits, auditLog, secrets, settingsStore } from "./entry";

export function sidebarAuditLog(language: Language, more: readonly string[] = []): AuditLog {
  const form = settingsStore().fields();
  const names = sheetNamesIn(form, language);
  const sink = lazyAuditSink(runtime().spreadsheet(), {
    name: names.audit,
    archiveName: names.auditArchive,
    language,
    limits: auditLimits(form),
  });
  return auditLog(sink, "sidebar", [...more, ...secrets()]);
}
