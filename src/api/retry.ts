/**
 * When a read is tried again, and after how long: exponential backoff with jitter, within a
 * total time per call; a Retry-After longer than the policy allows is not waited for. Writes
 * are never retried (./client).
 */
import { type ApiError, HttpError, ServiceError, TransportError } from "./errors";

/** Bounds of the retries of reads. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the first retry; doubles on each further retry. */
  baseDelayMs: number;
  /** Ceiling of the computed delay. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails instead. */
  maxRetryAfterMs: number;
  /** All waits of one call together stay under this, so one call cannot eat the execution's time. */
  maxTotalDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  maxTotalDelayMs: 60_000,
};

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Whether a failed read is worth another try. */
export function retryableRead(err: ApiError): boolean {
  if (err instanceof TransportError) return !err.notAllowed;
  if (err instanceof HttpError) return isRetryableStatus(err.status);
  if (err instanceof ServiceError)
    return err.bodyStatusCode !== undefined && isRetryableStatus(err.bodyStatusCode);
  return false;
}

/** Delay before retry number `retryNumber` (1 for the first), or null when not to wait. */
function backoff(
  retry: RetryPolicy,
  random: () => number,
  retryNumber: number,
  retryAfter: number | undefined,
): number | null {
  if (retryAfter !== undefined && retryAfter > retry.maxRetryAfterMs) return null;
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (retryNumber - 1));
  // "Equal jitter": at least half the ceiling, so retries of many clients spread out.
  const delay = Math.floor(ceiling / 2 + random() * (ceiling / 2));
  return Math.max(delay, retryAfter ?? 0);
}

/**
 * Delay before the next attempt of reads that failed with `errors` (the longest Retry-After
 * any of them asked for counts), or null when none of them is retried: not retryable, out of
 * attempts, or past the total time to wait.
 */
export function nextReadDelay(
  retry: RetryPolicy,
  random: () => number,
  attempt: number,
  errors: readonly ApiError[],
  waited: number,
): number | null {
  const again = errors.filter(retryableRead);
  if (attempt >= retry.maxAttempts || again.length === 0) return null;
  const retryAfter = again.reduce<number | undefined>((max, error) => {
    // Only an HttpError or a ServiceError carries one.
    const ra = (error as { retryAfterMs?: number }).retryAfterMs;
    return ra === undefined ? max : Math.max(max ?? 0, ra);
  }, undefined);
  const delay = backoff(retry, random, attempt, retryAfter);
  return delay !== null && waited + delay <= retry.maxTotalDelayMs ? delay : null;
}
