/** The Summary of a document with several companies: groups per company, totals, rows left out. */
export const summaryCompanies = {
  en: {
    "summary.co.total": "All companies (total per currency)",
    "summary.co.attention.header": "What|Company|Id|Reason",
    "summary.co.leftOut.funds":
      "Funds: {count:n} {count|row|rows} left out of these figures ({reasons}). Correct their Company cells, or refresh.",
    "summary.co.leftOut.transactions":
      "Fund transactions: {count:n} {count|row|rows} left out of these figures ({reasons}). Correct their Company cells, or refresh.",
    "summary.co.leftOut.reports":
      "Expense reports: {count:n} {count|row|rows} left out of these figures ({reasons}). Correct their Company cells, or refresh.",
    "summary.co.reason.noKey": "{count:n} without a company key",
    "summary.co.reason.unknownKey": "{count:n} of no company of this spreadsheet",
    "summary.co.reason.nameMismatch": "{count:n} whose Company does not match its key",
    "summary.co.reason.removed": "{count:n} of a removed company",
  },
  es: {
    "summary.co.total": "Todas las empresas (total por moneda)",
    "summary.co.attention.header": "Qué|Empresa|Id|Motivo",
    "summary.co.leftOut.funds":
      "Fondos: {count:n} {count|fila quedó|filas quedaron} fuera de estas cifras ({reasons}). Corrija sus celdas Empresa, o actualice.",
    "summary.co.leftOut.transactions":
      "Movimientos de fondos: {count:n} {count|fila quedó|filas quedaron} fuera de estas cifras ({reasons}). Corrija sus celdas Empresa, o actualice.",
    "summary.co.leftOut.reports":
      "Rendiciones: {count:n} {count|fila quedó|filas quedaron} fuera de estas cifras ({reasons}). Corrija sus celdas Empresa, o actualice.",
    "summary.co.reason.noKey": "{count:n} sin clave de empresa",
    "summary.co.reason.unknownKey": "{count:n} de ninguna empresa de esta hoja de cálculo",
    "summary.co.reason.nameMismatch": "{count:n} cuya Empresa no coincide con su clave",
    "summary.co.reason.removed": "{count:n} de una empresa eliminada",
  },
} as const;
