/** The forms' recent submissions in the user's cache, so that a double click never sends twice. */
import { tolerate } from "../api/errors";
import type { FormOutcome, RecentSubmissions } from "../outbox/forms";
import { runtime } from "./runtime";
import { auditUser } from "./session";

/**
 * Who sends a form, as its records keep it: a digest of the user the audit names (their email,
 * else their temporary key), never the email itself.
 */
export function formWriter(): string {
  return runtime().digest(`form-writer:${auditUser("sidebar")}`);
}

/** Recent submissions per user, so that a double click never sends twice. */
export function recentSubmissions(): RecentSubmissions {
  const cache = runtime().userCache();
  return {
    get(requestId) {
      const text = cache?.get(`form:${requestId}`);
      if (!text) return null;
      return tolerate("unreadable", () => JSON.parse(text) as FormOutcome | "pending", null);
    },
    put(requestId, value) {
      cache?.put(`form:${requestId}`, JSON.stringify(value), 600);
    },
  };
}
