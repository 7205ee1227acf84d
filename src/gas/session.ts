/** Who is running: what the audit's "User" column says. */
import { tolerate } from "../api/errors";
import type { AuditSource } from "../audit/log";
import { translate } from "../i18n";

function safe(read: () => string): string {
  return tolerate("shown only", () => read() || "", "");
}

/**
 * The active user's email; for consumer accounts and other domains (where Google returns "")
 * their temporary key; for scheduled runs "schedule (<trigger creator>)".
 */
export function auditUser(source: AuditSource): string {
  if (source === "schedule") {
    const creator =
      safe(() => Session.getEffectiveUser().getEmail()) || safe(() => Session.getTemporaryActiveUserKey());
    // Kept in English whatever the language: the sheets show it through whoText.
    return translate("en", "who.schedule", { who: creator || "unknown" });
  }
  return (
    safe(() => Session.getActiveUser().getEmail()) ||
    safe(() => Session.getTemporaryActiveUserKey()) ||
    "unknown"
  );
}
