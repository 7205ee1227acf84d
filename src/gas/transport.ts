/**
 * The client's transport and clock over Apps Script: UrlFetchApp with muteHttpExceptions (so
 * every status and its body reach the client), redirects not followed, and Utilities.sleep.
 */
import {
  type Clock,
  type HttpRequest,
  type HttpResponse,
  type Transport,
  TransportError,
  withCause,
} from "../api";

type FetchRequest = GoogleAppsScript.URL_Fetch.URLFetchRequest;

function toFetchRequest(request: HttpRequest): FetchRequest {
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const [key, value] of Object.entries(request.headers)) {
    if (key.toLowerCase() === "content-type") contentType = value;
    else headers[key] = value;
  }
  const fetchRequest: FetchRequest = {
    url: request.url,
    method: request.method.toLowerCase() as GoogleAppsScript.URL_Fetch.HttpMethod,
    headers,
    muteHttpExceptions: true,
    // A redirect would carry the Authorization header to wherever it points: a 3xx comes back
    // as an answer, and the client reports it naming that host.
    followRedirects: false,
  };
  if (request.body !== undefined) {
    fetchRequest.payload = request.body;
    fetchRequest.contentType = contentType ?? "application/json";
  }
  return fetchRequest;
}

function fromFetchResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  const headers: Record<string, string> = {};
  const all = response.getAllHeaders() as Record<string, string | string[]>;
  for (const [key, value] of Object.entries(all))
    headers[key] = Array.isArray(value) ? value.join(", ") : String(value);
  return { status: response.getResponseCode(), headers, body: response.getContentText() };
}

/**
 * UrlFetchApp still throws when no answer came ("DNS error: …", "Timeout: …", "Address
 * unavailable: …"), even with muteHttpExceptions; those become TransportError.
 */
function transportFailure(err: unknown): TransportError {
  const message = err instanceof Error ? err.message : String(err);
  return withCause(new TransportError(message.replace(/^Exception: /, "")), err);
}

/** A transport over UrlFetchApp: fetch for one request, fetchAll for a batch (in order). */
export function urlFetchTransport(): Transport {
  return {
    send(request) {
      try {
        return fromFetchResponse(UrlFetchApp.fetch(request.url, toFetchRequest(request)));
      } catch (err) {
        throw transportFailure(err);
      }
    },
    sendAll(requests) {
      if (requests.length === 0) return [];
      try {
        // One transport failure in fetchAll throws for the whole batch; the client retries it.
        return UrlFetchApp.fetchAll(requests.map(toFetchRequest)).map(fromFetchResponse);
      } catch (err) {
        throw transportFailure(err);
      }
    },
  };
}

/** The real clock: Date for now, Utilities.sleep to wait (there is no setTimeout). */
export function appsScriptClock(): Clock {
  return {
    now: () => Date.now(),
    sleep: (ms) => {
      if (ms > 0) Utilities.sleep(Math.ceil(ms));
    },
  };
}
