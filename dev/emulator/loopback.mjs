// Whether a URL's host name is this machine's loopback: where the sandbox runs. Plain
// JavaScript, as http-worker.mjs (which imports it) is.

/** @param {string} hostname a URL's `hostname` ("127.0.0.1", "[::1]", "localhost"…) */
export function isLoopbackHost(hostname) {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "[::1]" || host === "::1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
