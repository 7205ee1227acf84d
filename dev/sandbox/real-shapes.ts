/**
 * The "real shapes" mode: answers of /v1 rewritten with the type variations the real service
 * shows (docs/real-apps-script.md, "The real service's types vary"): ids and report numbers as strings, amounts as numbers
 * or numeric strings, flags as "1"/"0"/"" or booleans, status codes and counts as strings on some
 * records, ExtraFields as JSON text on some reports, empty dates as null on some, and the numbers
 * of Records as strings; and the forms a database or a serialiser gives the same values: amounts
 * with four decimals ("1234.5000"), empty lists as null (or "" for ExtraFields), times with a "T"
 * ("2024-01-05T10:00:00") and dates with a midnight time ("2024-01-05 00:00:00"); flags also as
 * 1/0 or "true"/"false", IntegrationStatus of an answer as a boolean on some, empty dates as
 * "0000-00-00", a list as an object of its positions (a PHP array once items were filtered out of
 * it) and a report's only file as the file itself. The values stay the same; only their JSON
 * types and forms change.
 *
 * Every choice is a hash of the seed, the record and the member, never a running generator: the
 * same record comes back in the same shape however often and in whatever order it is asked for,
 * so a refresh against real shapes can be compared with one against exact shapes.
 */

export const SHAPES = ["exact", "real"] as const;
export type Shapes = (typeof SHAPES)[number];

/** Members holding an id: always strings, as the real service sends them. */
const ID_MEMBERS = new Set([
  "Id",
  "IdAssignTo",
  "IdCreator",
  "EmployeeId",
  "ApproverId",
  "PolicyId",
  "FundId",
  "ReportNumber",
]);
/** Members holding a small whole number (a code or a count): a number or a string, half each. */
const WHOLE_MEMBERS = new Set([
  "Status",
  "TransactionType",
  "NbrExpenses",
  "NbrApprovedExpenses",
  "NbrRejectedExpenses",
]);
/** Members holding money: a number or a numeric string. */
const AMOUNT_MEMBERS = new Set([
  "Deposits",
  "Withdrawals",
  "Charges",
  "Balance",
  "TransactionAmount",
  "ReportTotal",
  "ReportTotalApproved",
]);
/** Members holding a yes/no flag: "1"/"0"/"" or a boolean. */
const FLAG_MEMBERS = new Set(["FlexibleFund", "ManualDeposit", "AutomaticBlock", "Integrated"]);
/** Members holding a date that may be empty: an empty one is "" or null. */
const DATE_MEMBERS = new Set([
  "ExpirationDate",
  "SendDate",
  "CloseDate",
  "IntegrationDate",
  "TransactionDate",
]);

/** Members holding a list: an empty one may come as null ("" for ExtraFields). */
const LIST_MEMBERS = new Set(["Transactions", "ExtraFields", "Files", "Funds", "ExpenseReports"]);
/** Members holding a date and time. */
const TIME_MEMBERS = new Set(["CreatedAt", "IntegrationDate"]);

/** The answer of a /v1 call as the real service could have sent it. */
export function realShapes(body: unknown, seed: number): unknown {
  return reshape(body, seed, "answer", "");
}

function reshape(value: unknown, seed: number, record: string, member: string): unknown {
  if (Array.isArray(value)) {
    return value.map((item, i) => reshape(item, seed, `${record}/${member}[${i}]`, ""));
  }
  if (typeof value !== "object" || value === null) return value;
  const input = value as Record<string, unknown>;
  // A record is named by its own id where it has one, so that its shape does not depend on
  // which page or call it came in.
  const key = input.Id !== undefined ? `${member || "record"}#${String(input.Id)}` : `${record}/${member}`;
  const out: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(input)) {
    out[name] = reshapeMember(name, inner, seed, key, member === "Records");
  }
  return out;
}

function reshapeMember(name: string, value: unknown, seed: number, key: string, inRecords: boolean): unknown {
  const roll = (salt: string) => unitHash(seed, `${key}:${name}:${salt}`);
  if (inRecords && typeof value === "number") return String(value);
  if (ID_MEMBERS.has(name) && typeof value === "number") return String(value);
  if (WHOLE_MEMBERS.has(name) && typeof value === "number") {
    return roll("whole") < 0.5 ? String(value) : value;
  }
  if (AMOUNT_MEMBERS.has(name) && typeof value === "number") {
    // As text, with its two decimals ("1234.50"), four as a database column has them
    // ("1234.5000"), or as the number prints ("1234.5", "1000").
    const r = roll("amount");
    return r < 0.25 ? value.toFixed(2) : r < 0.35 ? value.toFixed(4) : r < 0.5 ? String(value) : value;
  }
  if (FLAG_MEMBERS.has(name) && (typeof value === "boolean" || value === "1" || value === "0")) {
    const on = value === true || value === "1";
    const r = roll("flag");
    if (on) return r < 0.4 ? "1" : r < 0.55 ? 1 : r < 0.7 ? "true" : true;
    return r < 0.3 ? "0" : r < 0.55 ? "" : r < 0.65 ? 0 : r < 0.75 ? "false" : false;
  }
  if (name === "IntegrationStatus" && typeof value === "number") {
    const r = roll("whole");
    return r < 0.35 ? String(value) : r < 0.7 ? value === 1 : value;
  }
  if (DATE_MEMBERS.has(name) && value === "") {
    const r = roll("date");
    return r < 0.4 ? null : r < 0.6 ? "0000-00-00" : "";
  }
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    if (TIME_MEMBERS.has(name) && value.length === 19)
      return roll("time") < 0.3 ? value.replace(" ", "T") : value;
    if (DATE_MEMBERS.has(name) && value.length === 10)
      return roll("time") < 0.2 ? `${value} 00:00:00` : value;
  }
  if (LIST_MEMBERS.has(name) && Array.isArray(value) && value.length === 0) {
    const r = roll("list");
    return r < 0.3 ? null : r < 0.45 && name === "ExtraFields" ? "" : value;
  }
  if (name === "ExtraFields" && Array.isArray(value)) {
    return roll("extra") < 0.4 ? JSON.stringify(value) : value;
  }
  if (name === "Files" && Array.isArray(value) && value.length === 1 && roll("one") < 0.3) {
    return reshape(value[0], seed, key, name);
  }
  if (name === "Transactions" && Array.isArray(value) && value.length > 0 && roll("positions") < 0.2) {
    return { ...(reshape(value, seed, key, name) as unknown[]) };
  }
  if (name === "Records") return reshape(value, seed, key, "Records");
  if (Array.isArray(value) || (typeof value === "object" && value !== null)) {
    return reshape(value, seed, key, name);
  }
  return value;
}

/** A number in [0, 1) from the seed and a text (FNV-1a, then a mulberry32 round to spread it). */
function unitHash(seed: number, text: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let t = (h + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
