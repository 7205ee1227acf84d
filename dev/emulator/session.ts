/** Session: the active and effective users, the user's locale, the script's time zone. */
import { createHash } from "node:crypto";
import { Fake } from "./realm";
import type { Implements } from "./typed";

export class FakeUser extends Fake implements Implements<GoogleAppsScript.Base.User, "getEmail"> {
  static override readonly service = "User";
  constructor(private readonly email: string) {
    super();
  }
  getEmail(): string {
    return this.email;
  }
}

export interface SessionHost {
  /** The active user's email as Apps Script reveals it ("" for consumer accounts, simple triggers). */
  activeUserEmail(): string;
  /** The user the script runs as (the trigger's creator in installable triggers). */
  effectiveUserEmail(): string;
  /** Stable id of the running user, even when the email is hidden. */
  userId(): string;
  locale(): string;
  scriptTimeZone(): string;
  scriptId: string;
}

type Members =
  | "getActiveUser"
  | "getEffectiveUser"
  | "getActiveUserLocale"
  | "getScriptTimeZone"
  | "getTemporaryActiveUserKey";

export class FakeSession extends Fake implements Implements<GoogleAppsScript.Base.Session, Members> {
  static override readonly service = "Session";
  constructor(private readonly host: SessionHost) {
    super();
  }
  getActiveUser(): FakeUser {
    return new FakeUser(this.host.activeUserEmail());
  }
  getEffectiveUser(): FakeUser {
    return new FakeUser(this.host.effectiveUserEmail());
  }
  getActiveUserLocale(): string {
    return this.host.locale();
  }
  getScriptTimeZone(): string {
    return this.host.scriptTimeZone();
  }
  /** Unique per user and script, the same across executions (Google rotates it monthly). */
  getTemporaryActiveUserKey(): string {
    return createHash("sha256")
      .update(`${this.host.scriptId}\u0000${this.host.userId()}`)
      .digest("base64")
      .replace(/[^A-Za-z0-9]/g, "")
      .slice(0, 43);
  }
}
