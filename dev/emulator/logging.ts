/** Logger, console and MailApp: everything is recorded for tests and the playground's log. */
import { ServiceError } from "./errors";
import { Fake } from "./realm";
import type { Implements } from "./typed";

export interface LogEntry {
  at: string;
  level: "log" | "info" | "warn" | "error" | "debug";
  source: "Logger" | "console";
  user: string;
  message: string;
}

export interface SentMail {
  at: string;
  from: string;
  to: string;
  subject: string;
  body: string;
  htmlBody?: string;
}

export interface LogHost {
  record(entry: Omit<LogEntry, "at" | "user">): void;
}

function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (
    value instanceof Error ||
    (value && typeof value === "object" && "stack" in value && "message" in value)
  ) {
    const e = value as Error;
    return `${e.name}: ${e.message}`;
  }
  try {
    return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  } catch {
    return String(value);
  }
}

/** console.log("a %s b", x) and Logger.log("a %s b", x) formatting. */
export function formatLogArgs(args: unknown[]): string {
  if (typeof args[0] === "string" && /%[sdifoO]/.test(args[0]) && args.length > 1) {
    let i = 1;
    const head = args[0].replace(/%[sdifoO%]/g, (m) =>
      m === "%%" ? "%" : i < args.length ? show(args[i++]) : m,
    );
    return [head, ...args.slice(i).map(show)].join(" ");
  }
  return args.map(show).join(" ");
}

export class FakeLogger
  extends Fake
  implements Implements<GoogleAppsScript.Base.Logger, "log" | "getLog" | "clear">
{
  static override readonly service = "Logger";
  private lines: string[] = [];
  constructor(private readonly host: LogHost) {
    super();
  }
  log(...args: unknown[]): this {
    const message = formatLogArgs(args);
    this.lines.push(message);
    this.host.record({ level: "info", source: "Logger", message });
    return this;
  }
  getLog(): string {
    return this.lines.join("\n");
  }
  clear(): void {
    this.lines = [];
  }
}

/** The console object of the script (not a Fake: console calls are not service calls). */
export function makeConsole(host: LogHost): Record<string, (...args: unknown[]) => void> {
  const at =
    (level: LogEntry["level"]) =>
    (...args: unknown[]) => {
      host.record({ level, source: "console", message: formatLogArgs(args) });
    };
  return { log: at("log"), info: at("info"), warn: at("warn"), error: at("error"), debug: at("debug") };
}

export interface MailHost {
  send(mail: Omit<SentMail, "at" | "from">): void;
}

export class FakeMailApp
  extends Fake
  implements Implements<GoogleAppsScript.Mail.MailApp, "sendEmail" | "getRemainingDailyQuota">
{
  static override readonly service = "MailApp";
  sent = 0;
  constructor(private readonly host: MailHost) {
    super();
  }
  sendEmail(...args: unknown[]): void {
    let mail: { to: string; subject: string; body: string; htmlBody?: string };
    if (args.length === 1 && args[0] && typeof args[0] === "object") {
      const m = args[0] as { to?: string; subject?: string; body?: string; htmlBody?: string };
      mail = { to: String(m.to ?? ""), subject: String(m.subject ?? ""), body: String(m.body ?? "") };
      if (m.htmlBody !== undefined) mail.htmlBody = String(m.htmlBody);
    } else {
      const opts = (args[3] ?? {}) as { htmlBody?: string };
      mail = { to: String(args[0] ?? ""), subject: String(args[1] ?? ""), body: String(args[2] ?? "") };
      if (opts.htmlBody !== undefined) mail.htmlBody = String(opts.htmlBody);
    }
    if (!mail.to) throw new ServiceError("Failed to send email: no recipient");
    this.sent++;
    this.host.send(mail);
  }
  getRemainingDailyQuota(): number {
    return Math.max(0, 100 - this.sent);
  }
}
