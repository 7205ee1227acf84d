/**
 * Web addresses read without the URL class (Apps Script has none): the parts of a URL, the
 * origin a token is bound to, the host a person should see, and whether a URL falls under an
 * Apps Script allowlist prefix (`urlFetchWhitelist` of appsscript.json). Pure.
 */

export interface UrlParts {
  /** Lower case, without "://": "https". */
  scheme: string;
  /** What comes before "@" in the authority ("user:pw"); "" when none. */
  userInfo: string;
  /** Lower case; an IPv6 address keeps its brackets. */
  hostname: string;
  /** "" when none was written or it is the scheme's default (443 for https, 80 for http). */
  port: string;
  /** "" or starting with "/". */
  path: string;
}

const DEFAULT_PORTS: Record<string, string> = { https: "443", http: "80" };

/** The parts of an absolute http(s) URL, or null when `url` is not one. */
export function urlParts(url: string): UrlParts | null {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\s]*)([^?#\s]*)/i.exec(url.trim());
  if (!m) return null;
  const scheme = (m[1] ?? "").toLowerCase();
  if (scheme !== "https" && scheme !== "http") return null;
  const authority = m[2] ?? "";
  // The host is what follows the last "@": "https://api.example.com@other.example/" goes to other.example.
  const at = authority.lastIndexOf("@");
  const userInfo = at >= 0 ? authority.slice(0, at) : "";
  const hostPort = at >= 0 ? authority.slice(at + 1) : authority;
  const hp = /^(\[[0-9a-f:.]+\]|[^:[\]]*)(?::(\d*))?$/i.exec(hostPort);
  if (!hp?.[1]) return null;
  const written = hp[2] ?? "";
  const port = written === "" || written === DEFAULT_PORTS[scheme] ? "" : String(Number(written));
  return { scheme, userInfo, hostname: (hp[1] ?? "").toLowerCase(), port, path: m[3] ?? "" };
}

/** Host and port as a person reads them: "api.rindegastos.com", "127.0.0.1:8080". */
export function hostOf(url: string): string {
  const parts = urlParts(url);
  if (!parts) return "";
  return parts.port ? `${parts.hostname}:${parts.port}` : parts.hostname;
}

/**
 * Scheme, host and port ("https://api.rindegastos.com"): where a request really goes, and
 * what a token is bound to. "" when `url` is not an http(s) URL.
 */
export function originOf(url: string): string {
  const parts = urlParts(url);
  return parts ? `${parts.scheme}://${hostOf(url)}` : "";
}

/**
 * Whether `url` falls under `prefix` as Apps Script reads an allowlist: same scheme, host
 * (a leading "*." matches any subdomain), port, and a path equal to the prefix's or below it
 * (the prefix "https://example.com/foo" covers /foo, /foo/bar, /foo?x; not /foobar). Path
 * matching is case-sensitive. A URL with user info matches nothing.
 */
export function allowedByPrefix(url: string, prefix: string): boolean {
  const u = urlParts(url);
  const p = urlParts(prefix.replace("://*.", "://wildcard."));
  if (!u || !p || u.userInfo !== "" || p.userInfo !== "") return false;
  if (u.scheme !== p.scheme || u.port !== p.port) return false;
  const wildcard = /^[a-z]+:\/\/\*\./i.test(prefix);
  const base = wildcard ? p.hostname.slice("wildcard.".length) : p.hostname;
  if (wildcard ? !u.hostname.endsWith(`.${base}`) : u.hostname !== base) return false;
  const path = u.path === "" ? "/" : u.path;
  if (path === p.path) return true;
  if (!path.startsWith(p.path)) return false;
  return p.path.endsWith("/") || path.charAt(p.path.length) === "/";
}

/** Whether `url` falls under any of `prefixes` (see allowedByPrefix). */
export function allowedByList(url: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => allowedByPrefix(url, prefix));
}
