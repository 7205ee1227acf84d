/**
 * The sandbox over plain Node HTTP: the spec's endpoints under /v1 (auth, methods, faults) and
 * the simulation and control routes under /_sandbox.
 */
import { isUtf8 } from "node:buffer";
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName, isEndpointName } from "../../src/api/endpoints";
import { parseAmountToCents } from "../../src/api/money";
import { type CompanyOptions, companiesFrom, companyNamed } from "./companies";
import { isTimeZone, parseDay } from "./dates";
import { DEFAULT_SIZES, type DemoSizes } from "./demo";
import { conflict, invalid, methodNotAllowed, notFound, SandboxError, unauthorized } from "./errors";
import { FaultPlan, type FaultRule } from "./faults";
import { jsonText } from "./json-text";
import type { Ledger } from "./ledger";
import { type IntegrationMethod, methodsBody, methodsOf, SWITCHED_ENDPOINT } from "./methods";
import type { ExtraField } from "./model";
import { realShapes, SHAPES, type Shapes } from "./real-shapes";
import { languageOf, parseRequest } from "./requests";
import { SandboxService } from "./service";
import { simulatedReport, userShape } from "./shapes";

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: number;
  funds?: number;
  reports?: number;
  employees?: number;
  /** Delay added to every /v1 answer. */
  latencyMs?: number;
  /** The access token clients must send; DEFAULT_TOKEN when absent. */
  token?: string;
  /** Fixes "today" (YYYY-MM-DD): the clock starts at noon UTC of that day and runs from there. */
  today?: string;
  /** A clock to use instead (same thread only). */
  now?: () => Date;
  /**
   * "exact" (default): every answer in the spec's exact types. "real": the same values with the
   * type variations of the real service (see real-shapes.ts and the README).
   */
  shapes?: Shapes;
  /**
   * The time zone whose wall clock the service writes its times in (CreatedAt, integration and
   * timeline times, "today" of new movements): they carry no offset. Default UTC; the playground
   * uses the spreadsheet's zone, as a service in the company's own country would.
   */
  timeZone?: string;
  /**
   * The companies served on the one URL, told apart by the token (default one). A number gives
   * that many named Alpha, Beta…; a list names them and may give each its token, admin Id and
   * seed. Company i defaults to seed `seed + i`, admin Id 1001 + 1000·i (its other users move
   * with it), and the token `token` for the first, `<DEFAULT_TOKEN>-<i+1>` for the others (a
   * token in the list wins). Fund and report ids overlap: every company's funds start at 5001.
   */
  companies?: number | CompanyOptions[];
  /**
   * The method setExpenseReportIntegration takes: "PUT" (default, as the spec says) or "POST"
   * (as the service's Python SDK sends it); the other is answered 405. Every company starts with
   * it, a reset brings it back; `POST /_sandbox/methods` switches one company's.
   */
  integrationMethod?: IntegrationMethod;
}

/** The demo access token: printed by `npm run sandbox`, not a secret of anyone. */
export const DEFAULT_TOKEN = "sandbox-demo-token";

export { jsonText } from "./json-text";

const JSON_TYPE = "application/json; charset=utf-8";
const MAX_BODY_BYTES = 5 * 1024 * 1024;
/**
 * The header a caller on this machine puts the time it sent a call in (milliseconds since the
 * epoch, `performance.timeOrigin + performance.now()`): dev/emulator/http-worker.mjs sends it.
 */
export const SENT_AT_HEADER = "x-sandbox-sent-at";
/** How old a sent time may be and still count: older, the call waits out its whole latency. */
const SENT_AT_WINDOW_MS = 1_000;
/** Largest demo company a reset may ask for; bigger would only slow the machine down. */
const MAX_SIZES = { funds: 100_000, reports: 200_000, employees: 20_000 };

/** One company of the sandbox: its token picks it on /v1, its name on /_sandbox (`?company=`). */
export interface SandboxCompany {
  name: string;
  token: string;
  service: SandboxService;
  faults: FaultPlan;
}

export interface SandboxServer {
  server: Server;
  /** The first company's service, faults and token: the only ones when there is one company. */
  service: SandboxService;
  faults: FaultPlan;
  token: string;
  /** Every company, the first first. */
  companies: SandboxCompany[];
}

/** A company as the server keeps it: the shapes of its answers change with its resets. */
interface ServedCompany extends SandboxCompany {
  resetSeed: number;
  shapes: Shapes;
  shapeSeed: number;
  /** The method setExpenseReportIntegration takes now (PUT or POST). */
  integrationMethod: IntegrationMethod;
  /** The ledger POST /_sandbox/snapshot kept, for /restore. */
  saved?: Ledger;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The body's JSON text when already made (list answers in exact shapes). */
  text?: string;
}

export function createSandboxServer(options: SandboxOptions = {}): SandboxServer {
  const now = options.now ?? clockFrom(options.today);
  const sizes = sizesFrom({ ...options }, DEFAULT_SIZES);
  const timeZone = options.timeZone ?? "UTC";
  if (!isTimeZone(timeZone))
    throw new Error(`timeZone: "${timeZone}" is not a time zone name such as America/Santiago`);
  const startShapes = shapesFrom(options.shapes, "shapes") ?? "exact";
  const startMethod = integrationMethodOption(options.integrationMethod);
  const plans = companiesFrom(options.companies, {
    token: options.token ?? DEFAULT_TOKEN,
    seed: options.seed,
    demoToken: DEFAULT_TOKEN,
  });
  const companies = plans.map(
    (plan): ServedCompany => ({
      name: plan.name,
      token: plan.token,
      service: new SandboxService(now, { ...sizes, seed: plan.seed }, timeZone, plan.place),
      faults: new FaultPlan(options.latencyMs ?? 0, plan.name),
      resetSeed: plan.resetSeed,
      shapes: startShapes,
      shapeSeed: plan.seed,
      integrationMethod: startMethod,
    }),
  );
  /**
   * When the call left its caller, on this thread's clock: a client on this machine (the
   * emulation's UrlFetch) says so in SENT_AT_HEADER, and the latency then counts from there, as a
   * real call's does, rather than from when this one thread got round to the request after the
   * other calls of the same batch. Without the header, or with a time that is not in the last
   * `SENT_AT_WINDOW_MS` (another clock, a claim from the future), when the request was parsed.
   */
  function sentAt(req: IncomingMessage, now: number): number {
    const claimed = Number(req.headers[SENT_AT_HEADER]);
    if (!Number.isFinite(claimed)) return now;
    const ago = performance.timeOrigin + now - claimed;
    return ago >= 0 && ago <= SENT_AT_WINDOW_MS ? now - ago : now;
  }
  const firstCompany = companies[0] as ServedCompany;
  const byToken = new Map(companies.map((c) => [c.token, c]));
  const server = createServer((req, res) => {
    // When the request reached the service: its latency counts from here, not from when this
    // one thread got round to it after the other requests of the same batch.
    const arrived = sentAt(req, performance.now());
    route(req, res, arrived).catch((err: unknown) => {
      const error =
        err instanceof SandboxError
          ? err
          : new SandboxError(500, "Internal", "request: internal error in the sandbox", "request");
      if (!(err instanceof SandboxError)) console.error(err);
      if (!res.headersSent && !res.destroyed)
        send(res, { status: error.status, body: error.body(), headers: error.headers });
    });
  });
  // Clients that keep connections alive must not hold close() hostage.
  server.keepAliveTimeout = 2_000;

  async function route(req: IncomingMessage, res: ServerResponse, arrived: number): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox.local");
    const origin = originOf(req);
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
      res.writeHead(204, {
        "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE",
        "Access-Control-Allow-Headers": "Authorization, Content-Type",
      });
      res.end();
      return;
    }
    if (url.pathname.startsWith("/v1/")) return api(req, res, url, origin, arrived);
    if (url.pathname === "/_sandbox" || url.pathname.startsWith("/_sandbox/")) {
      const body = await readJson(req);
      return send(res, control(req.method ?? "GET", url, body, origin));
    }
    throw notFound("path", `${url.pathname} is not a route of the sandbox; the API lives under /v1`);
  }

  async function api(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    origin: string,
    arrived: number,
  ): Promise<void> {
    const name = url.pathname.slice("/v1/".length);
    const endpoint = isEndpointName(name) ? ENDPOINTS[name] : undefined;
    // Faults come before authentication: a call without a known token meets the first company's.
    const company = byToken.get(bearerOf(req) ?? "") ?? firstCompany;
    const allowed = endpoint && isEndpointName(name) ? methodsOf(name, company.integrationMethod) : [];
    // Every call needs the token (spec 5): without it, not even whether a route exists is told.
    if (!allowed.includes(req.method as (typeof allowed)[number])) authorize(req);
    const faults = company.faults;
    if (!isEndpointName(name) || !endpoint) {
      throw notFound("endpoint", `/v1/${name} is not an endpoint; endpoints: ${ENDPOINT_NAMES.join(", ")}`);
    }
    if (!allowed.includes(req.method as (typeof allowed)[number])) {
      throw methodNotAllowed(`/v1/${name}`, allowed, req.method);
    }
    // null when the bytes are not UTF-8: refused once the token and Content-Type are checked.
    const bytes = await readBytes(req);
    const bodyText = isUtf8(bytes) ? bytes.toString("utf8") : null;
    // A read with no fault planned is answered on arrival and sent once the latency has passed
    // since it arrived: the sandbox works on one thread, and answering a batch's calls one after
    // another after their common wait would add its own work to the latency it simulates, where
    // a real service answers them side by side within it.
    const early =
      faults.latencyMs > 0 && endpoint.method === "GET" && !faults.planned(name)
        ? withText(answerOf(company, req, name, url, bodyText, origin))
        : undefined;
    if (faults.latencyMs > 0) {
      await delay(early ? Math.max(0, faults.latencyMs - (performance.now() - arrived)) : faults.latencyMs);
    }
    const fault = faults.take(name);
    if (fault?.fault === "drop-before-apply") return void req.socket.destroy();
    if (fault?.fault === "status" && !fault.apply) return send(res, injectedStatus(fault, name));
    if (fault?.fault === "html-page" && !fault.apply) return send(res, htmlPage(fault));
    const injectedError = () =>
      new SandboxError(
        200,
        "InjectedFault",
        `request: ${name} ${fault?.apply ? "applied, then failed" : "refused"} by an injected error-in-200 fault`,
        "request",
      );
    if (fault?.fault === "error-in-200" && !fault.apply)
      return send(res, { status: 200, body: injectedError().body() });
    if (fault?.fault === "error-in-200-v2" && !fault.apply) return send(res, errorIn200(fault.fault, name));
    if (fault?.fault === "slow") await delay(fault.delayMs);
    if (fault?.fault === "hold") await faults.hold(fault.delayMs, name);
    // A fault planned during the wait: the call is answered in its turn, as any other.
    const answer = early && !fault ? early : answerOf(company, req, name, url, bodyText, origin);
    if (fault?.fault === "drop-after-apply") return void req.socket.destroy();
    if (fault?.fault === "status") return send(res, injectedStatus(fault, name));
    if (fault?.fault === "html-page") return send(res, htmlPage(fault));
    if (fault?.fault === "empty-200")
      return send(res, { status: 200, body: "", headers: { "Content-Type": "text/plain" } });
    if (fault?.fault === "error-in-200" && answer.status === 200) {
      // Applied, then failed after: the record as answered, with an Error member beside it.
      return send(res, { status: 200, body: { ...(answer.body as object), ...injectedError().body() } });
    }
    // Applied, then the v2 service's error alone.
    if (fault?.fault === "error-in-200-v2") return send(res, errorIn200(fault.fault, name));
    if (fault?.fault === "wrong-movement") return send(res, wrongMovement(answer));
    if (fault?.fault === "floor-pages") return send(res, floorPages(answer, url));
    if (fault?.fault === "malformed-json") {
      const text = answer.text ?? jsonText(answer.body);
      res.writeHead(answer.status, { "Content-Type": JSON_TYPE });
      res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return;
    }
    send(res, answer);
  }

  /**
   * A list answer whose Records.Pages is counted by a floor division, as some services count it
   * (12 records at 5 a page: 2 pages, where there are 3); any other answer as it is.
   */
  function floorPages(answer: Answer, url: URL): Answer {
    // Exact list answers come as text only.
    const body = (answer.body ?? JSON.parse(answer.text ?? "null")) as {
      Records?: Record<string, unknown>;
    } | null;
    const per = Number(url.searchParams.get("ResultsPerPage"));
    if (answer.status !== 200 || !body?.Records || !(per > 0)) return answer;
    const pages = Math.floor(Number(body.Records.TotalRecords) / per);
    return { ...answer, text: undefined, body: { ...body, Records: { ...body.Records, Pages: pages } } };
  }

  /**
   * A fund's answer whose newest movement, deposits and balance are one unit more than the
   * ledger holds (the write itself applied as asked): an answer that does not show the movement
   * that was sent. Any other answer as it is.
   */
  function wrongMovement(answer: Answer): Answer {
    const body = answer.body as Record<string, unknown> | null | undefined;
    if (answer.status !== 200 || !body || typeof body !== "object" || !("Balance" in body)) return answer;
    const more = (value: unknown) => Math.round((Number(value) + 1) * 100) / 100;
    const out: Record<string, unknown> = {
      ...body,
      Deposits: more(body.Deposits),
      Balance: more(body.Balance),
    };
    if (Array.isArray(body.Transactions) && body.Transactions.length > 0) {
      const list = [...(body.Transactions as Record<string, unknown>[])];
      const last = list[list.length - 1] as Record<string, unknown>;
      list[list.length - 1] = { ...last, TransactionAmount: more(last.TransactionAmount) };
      out.Transactions = list;
    }
    return { ...answer, text: undefined, body: out };
  }

  /** HTTP 200 whose body says the call failed: an `Error` member, or v2's statusCode and message. */
  function errorIn200(fault: string, name: EndpointName): Answer {
    if (fault === "error-in-200-v2") {
      // The v2 service's way: HTTP 200 with a status code and a message in the body.
      const message = `${name} refused by an injected error-in-200-v2 fault`;
      return { status: 200, body: { statusCode: 400, message } };
    }
    const error = new SandboxError(
      200,
      "InjectedFault",
      `request: ${name} refused by an injected error-in-200 fault`,
      "request",
    );
    return { status: 200, body: error.body() };
  }

  /** The answer of a call of the spec, in the shapes of the company's last start or reset. */
  function answerOf(
    company: ServedCompany,
    req: IncomingMessage,
    name: EndpointName,
    url: URL,
    bodyText: string | null,
    origin: string,
  ): Answer {
    const exact = answerApi(company.service, req, name, url, bodyText, origin, company.shapes === "exact");
    return company.shapes === "real" && exact.status === 200
      ? { ...exact, body: realShapes(exact.body, company.shapeSeed) }
      : exact;
  }

  function answerApi(
    service: SandboxService,
    req: IncomingMessage,
    name: EndpointName,
    url: URL,
    bodyText: string | null,
    origin: string,
    asText: boolean,
  ): Answer {
    try {
      authorize(req);
      if (ENDPOINTS[name].in === "body") {
        requireJson(req);
        // Spec 1: a write's parameters travel in its JSON body; one in the query string too
        // (an amount sent two ways) is refused rather than silently ignored.
        for (const key of url.searchParams.keys())
          throw invalid(key, "is a query parameter; a write sends its parameters in the JSON body");
      }
      const raw = ENDPOINTS[name].in === "query" ? queryObject(url.searchParams) : jsonObject(bodyText);
      const input = parseRequest(
        name,
        raw,
        service.ledger.today(),
        languageOf(req.headers["accept-language"]),
      );
      const text = asText ? service.listText(name, input, origin) : undefined;
      if (text !== undefined) return { status: 200, body: undefined, text };
      return { status: 200, body: service.call(name, input, origin) };
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      return { status: err.status, body: err.body(), headers: err.headers };
    }
  }

  /** A call needs the token of one of the companies; it picks the company the call reaches. */
  function authorize(req: IncomingMessage): void {
    const header = req.headers.authorization;
    if (!header) throw unauthorized("header missing; send Authorization: Bearer <token>");
    const token = bearerOf(req);
    if (token === undefined) throw unauthorized("must be of the form Bearer <token>");
    // Never echo the token back: error bodies end up in logs and cells.
    if (!byToken.has(token)) throw unauthorized("the access token is not valid");
  }

  /** Spec 1: a write sends its JSON body with Content-Type: application/json. */
  function requireJson(req: IncomingMessage): void {
    const type = req.headers["content-type"] ?? "";
    const [media, ...params] = type.toLowerCase().split(";");
    // JSON travels in UTF-8 (RFC 8259): a charset parameter may only say so.
    const charset = params.map((p) => p.trim()).find((p) => p.startsWith("charset="));
    const utf8 = !charset || /^charset="?utf-8"?$/.test(charset);
    if (media?.trim() === "application/json" && utf8) return;
    throw new SandboxError(
      415,
      "UnsupportedMediaType",
      `Content-Type: a write sends its JSON body with Content-Type: application/json (got ${type ? JSON.stringify(type) : "none"})`,
      "Content-Type",
    );
  }

  function control(method: string, url: URL, body: unknown, origin: string): Answer {
    const parts = url.pathname.split("/").filter(Boolean).slice(1);
    const [first, second, third] = parts;
    const company = companyNamed(companies, url.searchParams.get("company"));
    if (!company) {
      throw notFound(
        "company",
        `no company is named ${JSON.stringify(url.searchParams.get("company"))}; companies: ${companies.map((c) => c.name).join(", ")}`,
      );
    }
    const { service, faults } = company;
    const ledger = service.ledger;
    const only = (...methods: string[]) => {
      if (!methods.includes(method)) throw methodNotAllowed(url.pathname, methods, method);
    };
    if (first === undefined) {
      only("GET");
      return ok({
        api: `${origin}/v1`,
        adminId: service.adminId,
        managerId: service.managerId,
        today: ledger.today(),
        funds: ledger.funds.size,
        reports: ledger.reports.size,
        shapes: company.shapes,
        company: company.name,
        companies: companies.map((c) => ({ name: c.name, adminId: c.service.adminId })),
      });
    }
    if (first === "reset" && parts.length === 1) {
      only("POST");
      const options = resetBody(objectBody(body));
      // Company i's default seed is 42 + i, as at the start: ids overlap, data differs.
      const sizes = sizesFrom(options, { ...DEFAULT_SIZES, seed: company.resetSeed }, "body.");
      const nextShapes = shapesFrom(options.shapes, "body.shapes") ?? startShapes;
      service.reset(sizes);
      faults.clear();
      company.integrationMethod = startMethod;
      company.shapes = nextShapes;
      company.shapeSeed = sizes.seed;
      return ok({
        ...sizes,
        shapes: company.shapes,
        adminId: service.adminId,
        managerId: service.managerId,
        users: service.ledger.users.size,
      });
    }
    if (first === "snapshot" && parts.length === 1) {
      only("POST");
      company.saved = ledger.copy();
      return ok({ saved: true, funds: ledger.funds.size, reports: ledger.reports.size });
    }
    if (first === "restore" && parts.length === 1) {
      only("POST");
      if (!company.saved) throw conflict("snapshot", "nothing was saved; POST /_sandbox/snapshot first");
      // A copy: the snapshot can be restored again. Faults are cleared, as by a reset.
      service.ledger = company.saved.copy();
      faults.clear();
      return ok({ restored: true, funds: service.ledger.funds.size, reports: service.ledger.reports.size });
    }
    if (first === "methods" && parts.length === 1) {
      only("GET", "POST");
      if (method === "POST") company.integrationMethod = methodsBody(body);
      return ok({ [SWITCHED_ENDPOINT]: company.integrationMethod });
    }
    if (first === "state" && parts.length === 1) {
      only("GET");
      return ok(stateOf(service));
    }
    if (first === "users" && parts.length === 1) {
      only("GET");
      return ok({ Users: [...ledger.users.values()].map(userShape) });
    }
    if (first === "faults" && parts[1] === "release" && parts.length === 2) {
      only("POST");
      return ok({ released: faults.release(releaseEndpoint(body)) });
    }
    if (first === "faults" && parts.length === 1) {
      only("GET", "POST", "DELETE");
      if (method === "POST") return ok(faults.configure(body, ENDPOINT_NAMES));
      if (method === "DELETE") faults.clear();
      return ok(faults.describe());
    }
    if (first === "reports" && parts.length === 1) {
      only("POST");
      const b = knownMembers(objectBody(body), [
        "EmployeeId",
        "FundId",
        "ReportTotal",
        "Title",
        "ExtraFields",
      ]);
      const totalCents = b.ReportTotal === undefined ? 10_000 : amountField(b, "ReportTotal", false);
      const report = ledger.createDraftReport({
        employeeId: wholeField(b, "EmployeeId", 1, Number.MAX_SAFE_INTEGER, true) as number,
        fundId: wholeField(b, "FundId", 0, Number.MAX_SAFE_INTEGER, false) ?? 0,
        totalCents,
        title: typeof b.Title === "string" && b.Title.trim() ? b.Title.trim() : "Informe de prueba",
        extraFields: extraFieldsOf(b.ExtraFields),
      });
      return { status: 201, body: simulatedReport(report, ledger, origin) };
    }
    if (first === "reports" && second !== undefined && parts.length === 2) {
      only("GET");
      return ok(simulatedReport(ledger.report(reportIdOf(second)), ledger, origin));
    }
    if (
      first === "reports" &&
      second !== undefined &&
      (third === "send" || third === "close") &&
      parts.length === 3
    ) {
      only("POST");
      const id = reportIdOf(second);
      if (third === "send") return ok(simulatedReport(ledger.sendReport(id), ledger, origin));
      const b = knownMembers(objectBody(body), ["ReportTotalApproved"]);
      let approved: number | undefined;
      if (b.ReportTotalApproved !== undefined) {
        approved = amountField(b, "ReportTotalApproved", true);
      }
      return ok(simulatedReport(ledger.closeReport(id, approved), ledger, origin));
    }
    if (first === "policies" && second !== undefined && third === "statuses" && parts.length === 3) {
      only("POST");
      const b = knownMembers(objectBody(body), ["CustomStatus"]);
      const text = b.CustomStatus;
      if (typeof text !== "string" || text.trim() === "" || Array.from(text).length > 20) {
        throw invalid("CustomStatus", "must be a text of 1 to 20 characters");
      }
      const policy = ledger.definePolicyStatus(reportIdOf(second), text);
      return ok({
        Id: policy.id,
        Name: policy.name,
        Currency: policy.currency,
        CustomStatuses: policy.customStatuses,
      });
    }
    if (first === "files" && second !== undefined && third !== undefined && parts.length === 3) {
      only("GET");
      const report = ledger.report(Number(second));
      const file = report.files.find((f) => f.Name === decodeURIComponent(third));
      if (!file) throw notFound("file", `report ${report.id} has no file ${third}`);
      return {
        status: 200,
        body: `Archivo de ejemplo ${file.Name} del informe ${report.reportNumber} (sandbox).\n`,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      };
    }
    throw notFound("path", `${url.pathname} is not a route of the sandbox`);
  }

  return {
    server,
    service: firstCompany.service,
    faults: firstCompany.faults,
    token: firstCompany.token,
    companies,
  };
}

/** The token of an `Authorization: Bearer <token>` header; undefined without one. */
function bearerOf(req: IncomingMessage): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization?.trim() ?? "")?.[1];
}

/** The whole ledger, for checks: amounts in cents, balances included. */
export function stateOf(service: SandboxService) {
  const ledger = service.ledger;
  return {
    today: ledger.today(),
    adminId: service.adminId,
    managerId: service.managerId,
    scenarios: scenariosOf(ledger),
    users: [...ledger.users.values()].map(userShape),
    policies: [...ledger.policies.values()],
    funds: [...ledger.funds.values()].map((f) => ({ ...f, balanceCents: f.depositsCents - f.chargesCents })),
    reports: [...ledger.reports.values()],
  };
}

/**
 * Records ready for the state rules that need an employee's move, named in the spec's words so
 * that a check need not search the ledger: each is `{ReportId, FundId, route}` or null when the
 * ledger no longer has one (after a reset there always is).
 */
function scenariosOf(ledger: Ledger) {
  // Two candidates of each kind are enough to offer two different reports.
  const toSend: Array<{ ReportId: number; FundId: number }> = [];
  const toClose: Array<{ ReportId: number; FundId: number }> = [];
  for (const report of ledger.reports.values()) {
    if (report.status !== 0 || report.fundId === 0) continue;
    const fund = ledger.funds.get(report.fundId);
    if (!fund) continue;
    const pair = { ReportId: report.id, FundId: fund.id };
    const fits = fund.flexible || report.totalCents <= fund.depositsCents - fund.chargesCents;
    if (toSend.length < 2 && fund.status === 1 && fund.autoBlock && fits) toSend.push(pair);
    if (toClose.length < 2 && report.sendDate !== "" && fund.autoDeposit) toClose.push(pair);
    if (toSend.length === 2 && toClose.length === 2) break;
  }
  let send = toSend[0];
  let close = toClose.find((c) => c.ReportId !== send?.ReportId);
  if (!close && toSend[1]) {
    send = toSend[1];
    close = toClose[0];
  }
  return {
    /** An open report linked to an open fund with AutomaticBlock: sending it blocks the fund. */
    sendBlocksFund: send ? { ...send, route: `POST /_sandbox/reports/${send.ReportId}/send` } : null,
    /** A sent, open report linked to a fund with FundAutoDeposit: closing it deposits the approved amount back. */
    closeDepositsBack: close ? { ...close, route: `POST /_sandbox/reports/${close.ReportId}/close` } : null,
  };
}

function reportIdOf(text: string): number {
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id)) throw invalid("id", `${text} is not an id`);
  return id;
}

function injectedStatus(fault: FaultRule, name: string): Answer {
  const error = new SandboxError(
    fault.status,
    "InjectedFault",
    `request: ${name} answered ${fault.status} by an injected fault`,
    "request",
  );
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers["Retry-After"] = String(fault.retryAfter);
  return { status: fault.status, body: error.body(), headers };
}

/** The error page a proxy in front of the service answers with: HTML, not the service's JSON. */
function htmlPage(fault: FaultRule): Answer {
  const title = `${fault.status} ${STATUS_CODES[fault.status] ?? "Error"}`;
  const headers: Record<string, string> = { "Content-Type": "text/html; charset=utf-8" };
  if (fault.retryAfter !== undefined) headers["Retry-After"] = String(fault.retryAfter);
  const body = `<!DOCTYPE html>\n<html>\n<head><title>${title}</title>\n<style>body { font-family: sans-serif; }</style>\n</head>\n<body>\n<center><h1>${title}</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n`;
  return { status: fault.status, body, headers };
}

/** An API answer with its JSON text made now. */
function withText(answer: Answer): Answer {
  return answer.text === undefined ? { ...answer, text: jsonText(answer.body) } : answer;
}

function ok(body: unknown): Answer {
  return { status: 200, body };
}

function send(res: ServerResponse, answer: Answer): void {
  const headers = { "Content-Type": JSON_TYPE, ...(answer.headers ?? {}) };
  const text =
    answer.text ??
    (typeof answer.body === "string" && headers["Content-Type"] !== JSON_TYPE
      ? answer.body
      : jsonText(answer.body));
  res.writeHead(answer.status, headers);
  res.end(text);
}

function originOf(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? "127.0.0.1";
  const host =
    req.headers.host ?? `${address.includes(":") ? `[${address}]` : address}:${req.socket.localPort}`;
  return `http://${host}`;
}

async function readText(req: IncomingMessage): Promise<string> {
  return (await readBytes(req)).toString("utf8");
}

async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw invalid("body", `must be at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readText(req);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalid("body", "is not valid JSON");
  }
}

/** Query parameters by name; one given twice is refused rather than silently taking one value. */
function queryObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) {
    if (Object.hasOwn(out, key)) throw invalid(key, "is given more than once; send each parameter once");
    out[key] = value;
  }
  return out;
}

/** A JSON write body; an empty body counts as {} so that the contract names the missing fields. */
function jsonObject(text: string | null): unknown {
  if (text === null) throw invalid("body", "is not valid UTF-8; send the JSON text in UTF-8");
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid("body", "is not valid JSON; send a JSON object with Content-Type: application/json");
  }
  const key = repeatedKey(text);
  if (key !== undefined) throw invalid(key, "is given more than once; send each parameter once");
  return body;
}

/**
 * The first member name that a JSON object (already known valid) gives twice at its top level,
 * where JSON.parse would silently keep the last value, as a parameter given twice in a query.
 */
function repeatedKey(text: string): string | undefined {
  const seen = new Set<string>();
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      let next = end + 1;
      while (" \t\r\n".includes(text[next] ?? "x")) next++;
      if (depth === 1 && text[next] === ":") {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (seen.has(key)) return key;
        seen.add(key);
      }
      i = end;
    }
  }
  return undefined;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalid("body", "must be a JSON object");
  return body as Record<string, unknown>;
}

/** A simulation body with only the members the route knows; another (a misspelling) is a 400 naming it. */
function knownMembers(body: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  for (const key of Object.keys(body)) {
    if (!known.includes(key))
      throw invalid(key, `is not a member of this route's body; members are ${known.join(", ")}`);
  }
  return body;
}

/** An amount of a simulation body in cents, with the contract's amount rules. */
function amountField(body: Record<string, unknown>, field: string, allowZero: boolean): number {
  const parsed = parseAmountToCents(body[field], { allowZero });
  if (!parsed.ok) {
    throw invalid(
      field,
      `must be an amount ${allowZero ? "of zero or more" : "above zero"} with at most two decimals, dot separator`,
    );
  }
  return parsed.cents;
}

/** A draft's ExtraFields: absent is none; else a list of {Name, Value, Code?} texts. */
function extraFieldsOf(value: unknown): ExtraField[] {
  if (value === undefined) return [];
  const text = (v: unknown) => typeof v === "string";
  if (
    !Array.isArray(value) ||
    !value.every(
      (f) =>
        f && typeof f === "object" && text(f.Name) && text(f.Value) && (f.Code === undefined || text(f.Code)),
    )
  )
    throw invalid("ExtraFields", "must be a list of {Name, Value, Code?} texts");
  return value.map((f) => ({ Name: f.Name, Value: f.Value, Code: f.Code ?? "" }));
}

function wholeField(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required: boolean,
): number | undefined {
  const value = body[field];
  if (value === undefined) {
    if (required) throw invalid(field, "is required");
    return undefined;
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}

const SIZE_FIELDS = ["seed", "funds", "reports", "employees"] as const;

/**
 * A reset body: `{"seed", "funds", "reports", "employees"}`, or the sizes nested as
 * `{"seed", "sizes": {"funds", "reports", "employees"}}`. Any other member is refused by name so
 * that a misspelt size never silently gives the default company.
 */
function resetBody(body: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === "sizes") {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw invalid("body.sizes", 'must be an object such as {"funds": 40, "reports": 300}');
      }
      for (const [inner, size] of Object.entries(value)) {
        if (!(SIZE_FIELDS as readonly string[]).includes(inner) || inner === "seed") {
          throw invalid(`body.sizes.${inner}`, "is not a size; sizes are funds, reports and employees");
        }
        flat[inner] = size;
      }
    } else if ((SIZE_FIELDS as readonly string[]).includes(key) || key === "shapes") {
      flat[key] = value;
    } else {
      throw invalid(
        `body.${key}`,
        `is not a reset option; options are ${SIZE_FIELDS.join(", ")}, shapes and sizes`,
      );
    }
  }
  return flat;
}

/** Demo sizes from options or a reset body; `prefix` names fields as the caller sent them. */
function sizesFrom(source: Record<string, unknown>, defaults: DemoSizes, prefix = ""): DemoSizes {
  const pick = (name: "seed" | "funds" | "reports" | "employees", max: number) => {
    const value = source[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
      throw invalid(`${prefix}${name}`, `must be a whole number from 0 to ${max}`);
    }
    return value;
  };
  const sizes: DemoSizes = {
    seed: pick("seed", 2 ** 32 - 1) ?? defaults.seed,
    funds: pick("funds", MAX_SIZES.funds) ?? defaults.funds,
    reports: pick("reports", MAX_SIZES.reports) ?? defaults.reports,
  };
  const employees = pick("employees", MAX_SIZES.employees);
  if (employees !== undefined && employees > 0) sizes.employees = employees;
  return sizes;
}

/** The shapes option of the start options or a reset body; absent gives undefined. */
function shapesFrom(value: unknown, field: string): Shapes | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !(SHAPES as readonly string[]).includes(value)) {
    throw invalid(field, `must be one of ${SHAPES.map((s) => `"${s}"`).join(", ")}`);
  }
  return value as Shapes;
}

function clockFrom(today: string | undefined): () => Date {
  if (today === undefined) return () => new Date();
  const start = parseDay(today);
  if (!start) throw invalid("today", "must be a date YYYY-MM-DD");
  const startedAt = Date.now();
  const noon = start.getTime() + 12 * 3_600_000;
  return () => new Date(noon + (Date.now() - startedAt));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The optional `endpoint` of a POST /_sandbox/faults/release body: release only its calls. */
function releaseEndpoint(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "object" || Array.isArray(body)) {
    throw invalid("body", 'must be a JSON object such as {} or {"endpoint": "depositMoneyToFund"}');
  }
  const { endpoint, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) throw invalid(unknown, "is not a field of a release; only endpoint is");
  if (endpoint === undefined) return undefined;
  if (typeof endpoint !== "string" || !isEndpointName(endpoint)) {
    throw invalid("endpoint", "must be one of the service's endpoint names, such as depositMoneyToFund");
  }
  return endpoint;
}

/** The start option `integrationMethod`: PUT when absent; throws naming it when wrong. */
function integrationMethodOption(value: unknown): IntegrationMethod {
  if (value !== undefined && value !== "PUT" && value !== "POST") {
    throw new Error(`integrationMethod: must be "PUT" or "POST" (got ${JSON.stringify(value)})`);
  }
  return value ?? "PUT";
}
