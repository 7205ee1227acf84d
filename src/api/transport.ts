/**
 * What the client needs from the outside world, handed in so that the core runs anywhere:
 * a transport that sends HTTP requests (UrlFetchApp in Apps Script, a fake or Node's HTTP in
 * tests) and a clock (Utilities.sleep in Apps Script, a fake in tests).
 */

export interface HttpRequest {
  method: "GET" | "POST" | "PUT";
  url: string;
  headers: Record<string, string>;
  /** JSON text, for writes. */
  body?: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends requests synchronously, as Apps Script does. A failure to get any answer (DNS, refused
 * connection, timeout) is thrown as a TransportError; `sendAll` answers in request order and a
 * transport failure of any request throws for the whole batch (as UrlFetchApp.fetchAll does).
 */
export interface Transport {
  send(request: HttpRequest): HttpResponse;
  sendAll(requests: readonly HttpRequest[]): HttpResponse[];
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Blocks for `ms` milliseconds. */
  sleep(ms: number): void;
}

/** A header's value whatever its case ("Retry-After", "retry-after"). */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === wanted) return headers[key];
  return undefined;
}
