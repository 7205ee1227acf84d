/**
 * The eleven endpoints of the spec over the ledger: takes a parsed request (wire field names,
 * amounts already in cents, flags as booleans), applies it, and answers the spec's shape.
 */
import { dayOf } from "./dates";
import {
  ADMIN_ID,
  DEFAULT_SIZES,
  type DemoPlace,
  type DemoSizes,
  FIRST_PLACE,
  generateDemoData,
  MANAGER_ID,
} from "./demo";
import { invalid } from "./errors";
import { Ledger } from "./ledger";
import { ListTexts } from "./list-text";
import type { Fund, FundStatus } from "./model";
import {
  DEFAULT_RESULTS_PER_PAGE,
  type FundQuery,
  listFunds,
  listReports,
  MAX_RESULTS_PER_PAGE,
  type Paging,
  type ReportQuery,
} from "./queries";
import {
  customStatusResult,
  fundList,
  integrationResult,
  reportList,
  singleFund,
  singleReport,
} from "./shapes";

export type ParsedRequest = Record<string, unknown>;

export class SandboxService {
  ledger: Ledger;
  readonly adminId: number;
  readonly managerId: number;
  private readonly listTexts = new ListTexts();

  constructor(
    readonly now: () => Date,
    sizes: DemoSizes = DEFAULT_SIZES,
    readonly timeZone = "UTC",
    /** The company's place among the sandbox's companies: its users' ids, its file links. */
    readonly place: DemoPlace = FIRST_PLACE,
  ) {
    this.adminId = ADMIN_ID + place.userIdOffset;
    this.managerId = MANAGER_ID + place.userIdOffset;
    this.ledger = this.build(sizes);
  }

  /** Replaces the whole ledger with fresh demo data. */
  reset(sizes: DemoSizes): void {
    this.ledger = this.build(sizes);
  }

  private build(sizes: DemoSizes): Ledger {
    // The demo company is dated back from the service's own today (its time zone's), not UTC's.
    const today = dayOf(this.now(), this.timeZone);
    return new Ledger(generateDemoData(sizes, today, this.place), this.now, this.timeZone);
  }

  /**
   * The answer of a list call (getFunds, getExpenseReports) as JSON text, the same text as
   * `jsonText(call(...))`, from each record's text kept until the ledger's next write; undefined
   * for the other endpoints.
   */
  listText(endpoint: string, input: ParsedRequest, origin: string): string | undefined {
    const ledger = this.ledger;
    if (endpoint === "getFunds") return this.listTexts.fundList(listFunds(ledger, fundQuery(input)), ledger);
    if (endpoint === "getExpenseReports") {
      return this.listTexts.reportList(
        listReports(ledger, reportQuery(input, ledger.today())),
        ledger,
        origin,
      );
    }
    return undefined;
  }

  /** Answers one call of the spec; `origin` makes file links absolute. */
  call(endpoint: string, input: ParsedRequest, origin: string): unknown {
    const ledger = this.ledger;
    switch (endpoint) {
      case "getFunds":
        return fundList(listFunds(ledger, fundQuery(input)));
      case "getFund":
        return singleFund(ledger.fund(int(input, "Id")), "read");
      case "createFund":
        return fundWritten(
          ledger.createFund({
            idEmployee: int(input, "IdEmployee"),
            idAdmin: int(input, "IdAdmin"),
            name: text(input, "FundName") ?? "",
            currency: text(input, "FundCurrency") ?? "",
            code: text(input, "FundCode") ?? "",
            amountCents: int(input, "FundAmount"),
            comment: text(input, "FundComment") ?? "",
            flexible: flag(input, "FundFlexibility") ?? false,
            autoDeposit: flag(input, "FundAutoDeposit") ?? false,
            autoBlock: flag(input, "FundAutoBlock") ?? false,
            ...expiration(input),
          }),
        );
      case "updateFund": {
        const changes = {
          id: int(input, "Id"),
          idAdmin: int(input, "IdAdmin"),
          name: text(input, "FundName") ?? "",
          code: text(input, "FundCode"),
          comment: text(input, "FundComment"),
          flexible: flag(input, "FundFlexibility"),
          autoDeposit: flag(input, "FundAutoDeposit"),
          autoBlock: flag(input, "FundAutoBlock"),
        };
        const expires = flag(input, "FundExpiration");
        const date = text(input, "FundExpirationDate");
        return fundWritten(ledger.updateFund({ ...changes, expires, expirationDate: date }));
      }
      case "depositMoneyToFund":
        return fundWritten(
          ledger.depositToFund({
            id: int(input, "Id"),
            idAdmin: int(input, "IdAdmin"),
            amountCents: int(input, "DepositAmount"),
          }),
        );
      case "withdrawMoneyFromFund":
        return fundWritten(
          ledger.withdrawFromFund({
            id: int(input, "Id"),
            idAdmin: int(input, "IdAdmin"),
            amountCents: int(input, "WithdrawAmount"),
          }),
        );
      case "setFundStatus":
        return fundWritten(
          ledger.setFundStatus(
            int(input, "Id"),
            int(input, "IdAdmin"),
            int(input, "FundStatus") as FundStatus,
          ),
        );
      case "getExpenseReports":
        return reportList(listReports(ledger, reportQuery(input, ledger.today())), ledger, origin);
      case "getExpenseReport":
        return singleReport(ledger.report(int(input, "Id")), ledger, origin);
      case "setExpenseReportIntegration": {
        const integrated = int(input, "IntegrationStatus") === 1;
        return integrationResult(
          ledger.setReportIntegration({
            id: int(input, "Id"),
            integrated,
            code: text(input, "IntegrationCode") ?? "",
            date: text(input, "IntegrationDate") ?? "",
          }),
        );
      }
      case "setExpenseReportCustomStatus":
        return customStatusResult(
          ledger.setReportCustomStatus({
            id: int(input, "Id"),
            idAdmin: int(input, "IdAdmin"),
            customStatus: text(input, "CustomStatus") ?? "",
            customMessage: text(input, "CustomMessage") ?? "",
          }),
        );
      default:
        throw invalid("endpoint", `${endpoint} is not an endpoint of the service`);
    }
  }
}

/** A fund as the write endpoints answer it (FlexibleFund as a boolean). */
function fundWritten(fund: Fund) {
  return singleFund(fund, "write");
}

function expiration(input: ParsedRequest): { expires: boolean; expirationDate: string } {
  const expires = flag(input, "FundExpiration") ?? false;
  const date = text(input, "FundExpirationDate") ?? "";
  if (expires && date === "") throw invalid("FundExpirationDate", "required when FundExpiration is true");
  return { expires, expirationDate: expires ? date : "" };
}

function paging(input: ParsedRequest): Paging {
  const resultsPerPage = optionalInt(input, "ResultsPerPage") ?? DEFAULT_RESULTS_PER_PAGE;
  if (resultsPerPage < 1 || resultsPerPage > MAX_RESULTS_PER_PAGE) {
    throw invalid("ResultsPerPage", `must be between 1 and ${MAX_RESULTS_PER_PAGE}`);
  }
  const page = optionalInt(input, "Page") ?? 1;
  if (page < 1) throw invalid("Page", "must be 1 or more");
  const order = text(input, "Order")?.toUpperCase() ?? "DESC";
  if (order !== "ASC" && order !== "DESC") throw invalid("Order", "must be ASC or DESC");
  return { order, resultsPerPage, page };
}

function fundQuery(input: ParsedRequest): FundQuery {
  const query: FundQuery = {
    ...paging(input),
    orderBy: optionalInt(input, "OrderBy") === 2 ? "title" : "createdAt",
  };
  const status = optionalInt(input, "Status");
  if (status !== undefined) query.status = status as FundStatus;
  const from = text(input, "From");
  const to = text(input, "To");
  if (from !== undefined) query.from = from;
  if (to !== undefined) query.to = to;
  return query;
}

function reportQuery(input: ParsedRequest, today: string): ReportQuery {
  // Since required, date order and the one-year window are the contract's rules (requests.ts).
  const since = text(input, "Since");
  if (since === undefined) throw invalid("Since", "is required (YYYY-MM-DD)");
  const until = text(input, "Until") ?? today;
  const orderBy = optionalInt(input, "OrderBy") ?? 2;
  const query: ReportQuery = {
    ...paging(input),
    since,
    until,
    dateField: optionalInt(input, "TypeDateFilter") === 2 ? "sendDate" : "closeDate",
    orderBy: orderBy === 1 ? "closeDate" : orderBy === 3 ? "id" : "sendDate",
  };
  const currency = text(input, "Currency");
  if (currency !== undefined) query.currency = currency.toUpperCase();
  const status = optionalInt(input, "Status");
  if (status !== undefined) query.status = status as 0 | 1;
  const policyId = optionalInt(input, "ExpensePolicyId");
  if (policyId !== undefined) query.policyId = policyId;
  const integration = optionalInt(input, "IntegrationStatus");
  if (integration !== undefined) query.integrated = integration === 1;
  const code = text(input, "IntegrationCode");
  if (code !== undefined) query.integrationCode = code;
  const date = text(input, "IntegrationDate");
  if (date !== undefined) query.integrationDate = date;
  const userId = optionalInt(input, "UserId");
  if (userId !== undefined) query.userId = userId;
  return query;
}

function optionalInt(input: ParsedRequest, field: string): number | undefined {
  const value = input[field];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    throw invalid(field, "must be a whole number");
  return value;
}

function int(input: ParsedRequest, field: string): number {
  const value = optionalInt(input, field);
  if (value === undefined) throw invalid(field, "is required");
  return value;
}

function text(input: ParsedRequest, field: string): string | undefined {
  const value = input[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalid(field, "must be text");
  return value;
}

function flag(input: ParsedRequest, field: string): boolean | undefined {
  const value = input[field];
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw invalid(field, "must be true or false");
  return value;
}
