/** The 11 endpoints of the service's spec, in the spec's order. */
export const SPEC_ENDPOINTS = [
  "getFunds",
  "getFund",
  "createFund",
  "updateFund",
  "depositMoneyToFund",
  "withdrawMoneyFromFund",
  "setFundStatus",
  "getExpenseReports",
  "getExpenseReport",
  "setExpenseReportIntegration",
  "setExpenseReportCustomStatus",
] as const;
