/**
 * Keeps the control API a tool of this machine's own browser and scripts. It drives an emulator
 * holding a user's token, so a web page open in the same browser must not reach it:
 *
 * - it listens on a loopback address only (`isLoopbackHost`);
 * - a request must name this machine in `Host` (localhost, 127.0.0.1 or [::1], any port): a page
 *   of attacker.example whose name was made to resolve to 127.0.0.1 (DNS rebinding) sends
 *   `Host: attacker.example` and is refused;
 * - a request carrying an `Origin` must come from the page's own origin
 *   (http://localhost:PORT, http://127.0.0.1:PORT or http://[::1]:PORT);
 * - a POST, PUT or PATCH must be `Content-Type: application/json`: any web page can send a
 *   "simple" cross-site request (text/plain, a form) without asking first, never a JSON one.
 *   (A DELETE is never simple: the browser asks first, and this server never says yes.)
 */
import type { IncomingMessage } from "node:http";

const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"] as const;

/** Whether `host` (an address to listen on) is this machine's loopback. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h === "::1" || h === "[::1]" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** A `Host` header naming this machine: localhost, 127.0.0.1 or [::1], with or without a port. */
function isLocalHostHeader(value: string | undefined): boolean {
  if (value === undefined) return false;
  const match = /^(localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/i.exec(value.trim());
  return match !== null;
}

/** The origins the page itself can have when served on `port`. */
function pageOrigins(port: number): Set<string> {
  const origins = new Set<string>();
  for (const name of LOOPBACK_NAMES) {
    origins.add(`http://${name}:${port}`);
    if (port === 80) origins.add(`http://${name}`);
  }
  return origins;
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

export interface Refusal {
  status: number;
  error: string;
}

/** Why a request to the server listening on `port` is refused, or null when it may go on. */
export function refusalOf(req: IncomingMessage, port: number): Refusal | null {
  if (!isLocalHostHeader(req.headers.host)) {
    return { status: 403, error: "Host: this local tool answers only to localhost, 127.0.0.1 or [::1]" };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !pageOrigins(port).has(origin.toLowerCase())) {
    return { status: 403, error: "Origin: only the playground's own page may call this local tool" };
  }
  const method = (req.method ?? "GET").toUpperCase();
  if (BODY_METHODS.has(method)) {
    const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") {
      return { status: 415, error: `Content-Type: a ${method} must send application/json` };
    }
  }
  return null;
}
