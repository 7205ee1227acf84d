/**
 * The one error shape of the sandbox: HTTP status plus a JSON body
 * `{"Error": {"Code": "...", "Message": "<Field>: <rule>", "Field": "<Field>"}}`.
 * The top-level `Error` member is what v1 clients look for, so the same body also serves the
 * error-in-200 fault.
 */
export type ErrorCode =
  | "InvalidField"
  | "Unauthorized"
  | "Forbidden"
  | "NotFound"
  | "MethodNotAllowed"
  | "UnsupportedMediaType"
  | "Conflict"
  | "InjectedFault"
  | "Internal";

export class SandboxError extends Error {
  /** Extra response headers (Allow with 405, WWW-Authenticate with 401). */
  headers: Record<string, string> = {};

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "SandboxError";
  }

  body(): { Error: { Code: ErrorCode; Message: string; Field?: string } } {
    return {
      Error: { Code: this.code, Message: this.message, ...(this.field ? { Field: this.field } : {}) },
    };
  }
}

export function methodNotAllowed(
  path: string,
  allowed: readonly string[],
  got: string | undefined,
): SandboxError {
  const error = new SandboxError(
    405,
    "MethodNotAllowed",
    `method: ${path} takes ${allowed.join(" or ")}, not ${got}`,
    "method",
  );
  error.headers = { Allow: allowed.join(", ") };
  return error;
}

export function unauthorized(rule: string): SandboxError {
  const error = new SandboxError(401, "Unauthorized", `Authorization: ${rule}`, "Authorization");
  error.headers = { "WWW-Authenticate": 'Bearer realm="sandbox"' };
  return error;
}

/** 400 naming the field and the rule it breaks. */
export function invalid(field: string, rule: string): SandboxError {
  return new SandboxError(400, "InvalidField", `${field}: ${rule}`, field);
}

export function notFound(field: string, what: string): SandboxError {
  return new SandboxError(404, "NotFound", `${field}: ${what}`, field);
}

export function forbidden(field: string, why: string): SandboxError {
  return new SandboxError(403, "Forbidden", `${field}: ${why}`, field);
}

export function conflict(field: string, why: string): SandboxError {
  return new SandboxError(409, "Conflict", `${field}: ${why}`, field);
}
