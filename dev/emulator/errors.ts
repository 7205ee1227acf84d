/**
 * Errors as the script sees them. Apps Script throws service errors as `Error`s named
 * "Exception" whose message has no "Exception: " prefix; the emulation raises `ServiceError` in
 * Node and the service guard re-creates it inside the script's realm (so `instanceof Error`
 * holds there too).
 */

/** Messages copied from Apps Script, where the wording matters to callers and tests. */
export const MESSAGES = {
  timeout: "Exceeded maximum execution time",
  noUi: "Cannot call SpreadsheetApp.getUi() from this context.",
  lockTimeout: "Lock timeout: another process was holding the lock for too long.",
  propertyQuota: "You have exceeded the property storage quota. Please remove some properties and try again.",
  tooManyTriggers:
    "This script has too many triggers. Triggers must be deleted from the script before more can be added.",
  rowsAtLeastOne: "The number of rows in the range must be at least 1.",
  columnsAtLeastOne: "The number of columns in the range must be at least 1.",
  outsideSheet: "The coordinates of the range are outside the dimensions of the sheet.",
  urlFetchQuota: "Service invoked too many times for one day: urlfetch.",
  /** The same wording for the Properties quota (the service's name as Google's quotas page calls it). */
  propertiesQuota: "Service invoked too many times for one day: properties.",
  /** Trigger total runtime per day spent (wording as Google's failure e-mails report it). */
  triggerRuntime: "Service using too much computer time for one day",
} as const;

/** An error of an Apps Script service (name "Exception" once inside the script). */
export class ServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Exception";
  }
}

/**
 * The execution was stopped from outside (time budget, `stopAt`): Apps Script kills the
 * execution, so a script that catches this keeps failing at its next service call and the run
 * ends with this error whatever the script returns.
 */
export class ExecutionStopped extends ServiceError {}

/** Misuse of the emulator by a test or the control API (not something a script sees). */
export class EmulatorUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmulatorUsageError";
  }
}
