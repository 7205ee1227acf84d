/**
 * Fault injection for /v1 calls: a latency and an ordered list of rules, one plan per company.
 * The first rule that matches the endpoint and still has uses left fires and uses one up.
 */
import { invalid } from "./errors";

export const FAULT_KINDS = [
  "status",
  "error-in-200",
  "error-in-200-v2",
  "malformed-json",
  "html-page",
  "empty-200",
  "wrong-movement",
  "floor-pages",
  "drop-before-apply",
  "drop-after-apply",
  "slow",
  "hold",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** An endpoint name such as "depositMoneyToFund", or "*" for every endpoint. */
  endpoint: string;
  fault: FaultKind;
  /** HTTP status of a "status" or "html-page" fault; 503 when absent. */
  status: number;
  /** Seconds sent in Retry-After with a "status" fault; no header when absent. */
  retryAfter?: number;
  /**
   * A "status" or "error-in-200" fault normally refuses before applying; with `apply: true` the
   * request is applied first and the error answered after (a 5xx whose write took effect).
   */
  apply: boolean;
  /** Uses left; absent in the request means every matching call until cleared. */
  times: number;
  /**
   * Extra delay of a "slow" fault, in milliseconds; 3000 when absent. For a "hold" fault, the
   * longest the call is held before it goes on by itself; 60000 when absent.
   */
  delayMs: number;
  /**
   * The company whose calls the rule faults: the plan's own (each company has one, chosen with
   * `?company=`). Shown on every rule; a posted rule may name it, and only it.
   */
  company?: string;
}

export interface FaultSettings {
  latencyMs: number;
  rules: FaultRule[];
}

export class FaultPlan {
  private settings: FaultSettings = { latencyMs: 0, rules: [] };
  /** Calls a "hold" fault keeps, with their endpoint, each let go by release() (or by its own time limit). */
  private readonly held = new Map<() => void, string>();

  constructor(
    latencyMs = 0,
    /** The name of the company whose calls this plan faults. */
    readonly company?: string,
  ) {
    this.settings.latencyMs = latencyMs;
  }

  get latencyMs(): number {
    return this.settings.latencyMs;
  }

  /** Replaces latency (when given) and rules with those of a POST /_sandbox/faults body. */
  configure(body: unknown, endpointNames: readonly string[]): ReturnType<FaultPlan["describe"]> {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw invalid("body", 'must be a JSON object such as {"latencyMs": 0, "rules": []}');
    }
    const input = body as Record<string, unknown>;
    refuseUnknown(input, ["latencyMs", "rules"], "");
    let latencyMs = this.settings.latencyMs;
    if (input.latencyMs !== undefined) latencyMs = wholeNumber(input.latencyMs, "latencyMs", 0, 600_000);
    const rulesInput = input.rules ?? [];
    if (!Array.isArray(rulesInput)) throw invalid("rules", "must be a list of fault rules");
    const rules = rulesInput.map((rule, i) => parseRule(rule, `rules[${i}]`, endpointNames, this.company));
    this.settings = { latencyMs, rules };
    return this.describe();
  }

  clear(): void {
    this.settings = { latencyMs: 0, rules: [] };
    this.release();
  }

  /**
   * Keeps a call (a "hold" fault) until release() or `limitMs` has passed: a test holds a writer
   * inside its request for exactly as long as it needs, with no real time to wait out.
   */
  hold(limitMs: number, endpoint: string): Promise<void> {
    return new Promise((done) => {
      const go = () => {
        clearTimeout(timer);
        this.held.delete(go);
        done();
      };
      const timer = setTimeout(go, limitMs);
      this.held.set(go, endpoint);
    });
  }

  /** How many calls a "hold" fault keeps now. */
  get heldCalls(): number {
    return this.held.size;
  }

  /** Lets every held call go on, or only those of `endpoint`; how many there were. */
  release(endpoint?: string): number {
    const calls = [...this.held].filter(([, of]) => endpoint === undefined || of === endpoint);
    for (const [go] of calls) go();
    return calls.length;
  }

  /** The endpoints of the calls held now, one entry per call, in the order they came. */
  get heldEndpoints(): string[] {
    return [...this.held.values()];
  }

  /** The settings as JSON can carry them: unlimited uses show as `"times": null`. */
  describe(): {
    latencyMs: number;
    rules: Array<Omit<FaultRule, "times"> & { times: number | null }>;
    held: number;
    /** Only while a call is held. */
    heldEndpoints?: string[];
  } {
    return {
      latencyMs: this.settings.latencyMs,
      rules: this.settings.rules.map((r) => ({ ...r, times: Number.isFinite(r.times) ? r.times : null })),
      held: this.held.size,
      ...(this.held.size > 0 ? { heldEndpoints: this.heldEndpoints } : {}),
    };
  }

  /** Whether a fault is planned for the next call of `endpoint` (nothing used). */
  planned(endpoint: string): boolean {
    return this.settings.rules.some((r) => r.times > 0 && (r.endpoint === "*" || r.endpoint === endpoint));
  }

  /** The fault for this call, if any, using one of its uses. */
  take(endpoint: string): FaultRule | undefined {
    const rule = this.settings.rules.find(
      (r) => r.times > 0 && (r.endpoint === "*" || r.endpoint === endpoint),
    );
    if (rule) rule.times -= 1;
    return rule;
  }
}

function parseRule(
  value: unknown,
  path: string,
  endpointNames: readonly string[],
  company: string | undefined,
): FaultRule {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid(path, 'must be an object such as {"endpoint": "*", "fault": "status", "status": 503}');
  }
  // null counts as absent, as for `times`.
  const r = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
  refuseUnknown(r, RULE_MEMBERS, `${path}.`);
  const endpoint = r.endpoint ?? "*";
  if (typeof endpoint !== "string" || (endpoint !== "*" && !endpointNames.includes(endpoint))) {
    throw invalid(`${path}.endpoint`, `must be "*" or one of ${endpointNames.join(", ")}`);
  }
  if (typeof r.fault !== "string" || !(FAULT_KINDS as readonly string[]).includes(r.fault)) {
    throw invalid(`${path}.fault`, `must be one of ${FAULT_KINDS.join(", ")}`);
  }
  const rule: FaultRule = {
    endpoint,
    fault: r.fault as FaultKind,
    status: r.status === undefined ? 503 : wholeNumber(r.status, `${path}.status`, 400, 599),
    times:
      r.times === undefined || r.times === null
        ? Number.POSITIVE_INFINITY
        : wholeNumber(r.times, `${path}.times`, 1, 1_000_000),
    delayMs:
      r.delayMs === undefined
        ? r.fault === "hold"
          ? 60_000
          : 3000
        : wholeNumber(r.delayMs, `${path}.delayMs`, 0, 600_000),
    apply: false,
  };
  if (r.apply !== undefined && typeof r.apply !== "boolean")
    throw invalid(`${path}.apply`, "must be true or false");
  rule.apply = r.apply === true;
  if (r.retryAfter !== undefined)
    rule.retryAfter = wholeNumber(r.retryAfter, `${path}.retryAfter`, 0, 86_400);
  if (
    r.company !== undefined &&
    (typeof r.company !== "string" || r.company.trim().toLowerCase() !== company?.toLowerCase())
  ) {
    // Each company has its own rules: a rule for another goes to its route.
    throw invalid(
      `${path}.company`,
      `must be ${JSON.stringify(company)}, the company of this route; post another company's rules to /_sandbox/faults?company=<name>`,
    );
  }
  if (company !== undefined) rule.company = company;
  return rule;
}

const RULE_MEMBERS = ["endpoint", "fault", "status", "retryAfter", "times", "apply", "delayMs", "company"];

/** A misspelt member ("staus") would otherwise fall back to its default without a word. */
function refuseUnknown(input: Record<string, unknown>, known: readonly string[], prefix: string): void {
  for (const key of Object.keys(input)) {
    if (!known.includes(key))
      throw invalid(`${prefix}${key}`, `is not a member; members are ${known.join(", ")}`);
  }
}

function wholeNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be a whole number from ${min} to ${max}`);
  }
  return value;
}
