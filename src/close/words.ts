/** The close's data in the user's words: reasons, attention items, changes, vouchers. */
import { moneyText } from "../api/money";
import { type Language, translate } from "../i18n";
import type { BlockReason } from "./accounts";
import type { ApprovalCheck, JournalChange } from "./approval";
import type { AttentionItem } from "./attention";
import type { BlockedReport, JournalProblem, Voucher } from "./journal";
import type { MarkReason } from "./types";
import type { PatternProblem } from "./voucher";

export function reasonText(reason: BlockReason, currency: string, language: Language): string {
  switch (reason.code) {
    case "noPolicyAccount":
      return translate(language, "close.reason.noPolicyAccount", {
        policy: reason.policyName,
        id: reason.policyId,
      });
    case "noFundAccount":
      return translate(language, "close.reason.noFundAccount", { fund: reason.fundName, id: reason.fundId });
    case "noEmployeeAccount":
      return translate(language, "close.reason.noEmployeeAccount", {
        identification: reason.employeeIdentification || "—",
      });
    case "noCostCentre":
      return translate(language, "close.reason.noCostCentre", { code: reason.fieldCode });
    case "twoAccounts":
      return translate(language, "close.reason.twoAccounts", {
        rows: reason.rows.join(", "),
        key: reason.key,
      });
    case "nothingApproved":
      return translate(language, "close.reason.nothingApproved", {
        amount: moneyText(reason.cents, currency, language),
      });
    default:
      return translate(language, "close.reason.noCurrency");
  }
}

export function blockedText(b: BlockedReport, language: Language): string {
  return translate(language, "close.blockedLine", {
    number: b.reportNumber,
    employee: b.employeeName,
    amount: moneyText(b.cents, b.currency, language),
    reason: reasonText(b.reason, b.currency, language),
  });
}

export function attentionText(item: AttentionItem, language: Language): string {
  switch (item.kind) {
    case "openReport":
      return translate(language, "close.attention.openReport", {
        number: item.reportNumber,
        employee: item.employeeName,
      });
    case "expiredFund":
      return translate(language, "close.attention.expiredFund", {
        title: item.title,
        date: item.expirationDate,
        amount: moneyText(item.balanceCents, item.currency, language),
      });
    default:
      return translate(language, "close.attention.integrated", {
        number: item.reportNumber,
        code: item.code,
      });
  }
}

export function voucherText(v: Voucher, language: Language, several: boolean): string {
  return translate(language, "close.voucherLine", {
    code: v.code,
    company: several ? `${v.companyName} · ` : "",
    currency: v.currency,
    count: v.reports,
    debit: moneyText(v.debitCents, v.currency, language),
    credit: moneyText(v.creditCents, v.currency, language),
  });
}

export function patternText(problem: PatternProblem, company: string, language: Language): string {
  switch (problem.code) {
    case "unknownToken":
      return translate(language, "close.pattern.unknownToken", { token: problem.token });
    case "tooLong":
      return translate(language, "close.pattern.tooLong", { length: problem.length });
    case "notUnique":
      return translate(language, "close.pattern.notUnique", { company });
    default:
      return translate(language, "close.pattern.empty");
  }
}

function changeText(change: JournalChange, language: Language): string {
  switch (change.code) {
    case "lineChanged":
      return translate(language, "close.change.lineChanged", { row: change.row, voucher: change.voucher });
    case "linesAdded":
    case "linesRemoved":
      return translate(language, `close.change.${change.code}`, {
        count: change.count,
        voucher: change.voucher,
      });
    default:
      return translate(language, `close.change.${change.code}`, { voucher: change.voucher });
  }
}

/** Why the marking is refused, in words; "" when it is not. */
export function approvalText(check: ApprovalCheck, approvedBy: string, language: Language): string {
  if (check.ok) return "";
  if (check.reason === "notApproved") return translate(language, "close.notApproved");
  if (check.reason === "fourEyes") return translate(language, "close.fourEyes", { who: check.approvedBy });
  const shown = check.changes.slice(0, 10).map((c) => changeText(c, language));
  if (check.changes.length > 10) shown.push(`… (${check.changes.length - 10})`);
  return translate(language, "close.changed", {
    who: approvedBy,
    changes: shown.length > 0 ? shown.join("; ") : translate(language, "close.changed.unnamed"),
  });
}

/** Why the journal cannot be approved, in words. */
export function problemsText(problems: readonly JournalProblem[], language: Language): string {
  const texts = problems.slice(0, 10).map((p) => {
    switch (p.code) {
      case "unbalanced":
        return translate(language, "close.problem.unbalanced", {
          voucher: p.voucher,
          debit: amount(p.debitCents),
          credit: amount(p.creditCents),
        });
      case "mixedCurrencies":
        return translate(language, "close.problem.mixedCurrencies", {
          voucher: p.voucher,
          currencies: p.currencies.join(", "),
        });
      case "reportTwice":
        return translate(language, "close.problem.reportTwice", {
          id: p.reportId,
          vouchers: p.vouchers.join(", "),
        });
      default:
        return translate(language, "close.problem.noReport", { voucher: p.voucher });
    }
  });
  if (problems.length > 10) texts.push(`… (${problems.length - 10})`);
  return translate(language, "close.problems", { problems: texts.join("; ") });
}

/** Cents as a plain two-decimal amount (the currency may be mixed, so none is named). */
function amount(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Why a report was not marked or undone, in the user's words. */
export function markReasonText(reason: MarkReason, language: Language): string {
  switch (reason.code) {
    case "service":
    case "unusable":
      return reason.message;
    case "fourEyes":
      return translate(language, "close.why.fourEyes", { who: reason.who });
    case "twoVouchers":
      return translate(language, "close.why.twoVouchers", {
        report: reason.report,
        vouchers: reason.vouchers.join(", "),
      });
    case "mayStillLand":
      return translate(language, "close.why.mayStillLand", { sentAt: reason.sentAt, until: reason.until });
    case "sentNotRead":
      return translate(language, "close.why.sentNotRead", {
        message: reason.message || translate(language, "close.why.noAnswer"),
      });
    case "notRead":
      return translate(language, "close.why.notRead", { message: reason.message });
    case "otherReport":
      return translate(language, "close.why.otherReport", {
        id: reason.reportId,
        number: reason.number,
        currency: reason.currency,
        expectedNumber: reason.expectedNumber,
        expectedCurrency: reason.expectedCurrency,
      });
    case "notShownYet":
      return translate(language, "close.why.notShownYet");
    case "lost":
      return reason.message;
    default:
      return translate(language, "close.why.notReadBack", {
        first: markReasonText(reason.first, language),
        message: reason.message,
      });
  }
}
