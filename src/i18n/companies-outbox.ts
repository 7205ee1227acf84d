/**
 * Strings of the Outbox with several companies: the Company column, why a row's company is
 * refused (the row, its cell and what it holds), a company this user cannot write to yet, and
 * the confirmation's groups per company.
 */
export const companiesOutbox = {
  en: {
    "outbox.col.company": "Company",
    "outbox.company.empty":
      "The Company cell {cell} is empty and this document has had several companies: an empty cell names none of them. Pick one of {names}.",
    "outbox.company.unknown":
      'The Company cell {cell} holds "{value}", which is not a company of this document: pick one of {names}.',
    "outbox.company.removed":
      'The Company cell {cell} holds "{value}", a company removed from this document: nothing is sent to it.',
    "outbox.company.former": '"{value}" is now {name}.',
    "outbox.company.unusable": "Not sent yet: {message}",
    "outbox.company.settleUnusable": "Not checked yet: {message}",
    "outbox.company.noCompany": "(unnamed)",
    "outbox.company.noConnection": "this run has no connection to company {company}.",
    "outbox.preview.company": "{company}:",
    "outbox.preview.allCompanies": "All companies, per currency:",
    "outbox.preview.noUsable":
      "You have no usable access token for any company of this document: open Settings.",
  },
  es: {
    "outbox.col.company": "Empresa",
    "outbox.company.empty":
      "La celda Empresa {cell} está vacía y este documento ha tenido varias empresas: una celda vacía no nombra a ninguna. Elija una de {names}.",
    "outbox.company.unknown":
      'La celda Empresa {cell} contiene "{value}", que no es una empresa de este documento: elija una de {names}.',
    "outbox.company.removed":
      'La celda Empresa {cell} contiene "{value}", una empresa quitada de este documento: no se le envía nada.',
    "outbox.company.former": '"{value}" ahora se llama {name}.',
    "outbox.company.unusable": "Aún no enviado: {message}",
    "outbox.company.settleUnusable": "Aún no comprobado: {message}",
    "outbox.company.noCompany": "(sin nombre)",
    "outbox.company.noConnection": "esta ejecución no tiene conexión con la empresa {company}.",
    "outbox.preview.company": "{company}:",
    "outbox.preview.allCompanies": "Todas las empresas, por moneda:",
    "outbox.preview.noUsable":
      "No tiene un token de acceso utilizable para ninguna empresa de este documento: abra Configuración.",
  },
} as const;
