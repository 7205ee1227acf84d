/** Who is running: what the audit's "User" column says. */
import { tolerate } from "../api/errors";
import type { AuditSource } from "../audit/log";

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
    return `schedule (${creator || "unknown"})`;
  }
  return (
    safe(() => Session.getActiveUser().getEmail()) ||
    safe(() => Session.getTemporaryActiveUserKey()) ||
    "unknown"
  );
}
