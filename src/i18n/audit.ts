/**
 * The audit's own check of its entry numbers, as a controller reads it in the audit sheet; the
 * summed row of a run's reads; what a write acts on; the words of the Outcome column.
 */
export const audit = {
  en: {
    "audit.check.action": "Audit check",
    "audit.foreignSheet":
      "The sheet \"{sheet}\" is protected and its first row is not the audit's header: it is someone's own, so the add-on writes no audit rows into it. Choose another name for the Audit sheet in Settings.",
    "audit.check.missing":
      "Entries {from} to {to} are not in this sheet: their rows were deleted or their entry numbers changed (or a run was stopped while writing them).",
    "audit.check.missingOne":
      "Entry {n} is not in this sheet: its row was deleted or its entry number changed (or a run was stopped while writing it).",
    "audit.check.outOfPlace":
      'Row {row} carries entry number "{value}", which the add-on did not write there: the row was added, copied, moved or edited by hand.',
    "audit.check.noNumber": "Row {row} has no entry number: the row was added or edited by hand.",
    "audit.check.unnumbered":
      "The {rows} rows above were written before the add-on numbered its entries; entries are numbered from here on.",
    "audit.check.header": "The header row of this sheet was missing or changed; the add-on wrote it again.",
    "audit.check.more": "And {count:n} more {count|difference|differences}.",
    "audit.reads.summed": "{calls:n} {calls|call|calls}, {pages:n} {pages|page|pages} read.",
    "audit.reads.failed": "{n:n} {n|call|calls} did not succeed; the last: {message}",
    "audit.reads.action": "Reads",
    "audit.target.fund": "Fund {id}",
    "audit.target.fundNamed": "Fund {id} · {name}",
    "audit.target.newFund": "New fund · {name} (employee {id})",
    "audit.target.report": "Report {id}",
    "audit.outcome.ok": "ok",
    "audit.outcome.refused": "refused",
    "audit.outcome.error": "error",
    "audit.outcome.unknown": "unknown",
    "audit.outcome.sending": "sending",
    "audit.outcome.irregular": "irregular",
  },
  es: {
    "audit.foreignSheet":
      'La hoja "{sheet}" está protegida y su primera fila no es el encabezado de la auditoría: es de otra persona, así que el complemento no escribe filas de auditoría en ella. Elija otro nombre para la hoja de auditoría en Configuración.',
    "audit.check.action": "Revisión de la auditoría",
    "audit.check.missing":
      "Las entradas {from} a {to} no están en esta hoja: sus filas se eliminaron o se cambiaron sus números de entrada (o una ejecución se detuvo mientras las escribía).",
    "audit.check.missingOne":
      "La entrada {n} no está en esta hoja: su fila se eliminó o se cambió su número de entrada (o una ejecución se detuvo mientras la escribía).",
    "audit.check.outOfPlace":
      'La fila {row} lleva el número de entrada "{value}", que el complemento no escribió ahí: la fila se agregó, copió, movió o editó a mano.',
    "audit.check.noNumber": "La fila {row} no tiene número de entrada: la fila se agregó o editó a mano.",
    "audit.check.unnumbered":
      "Las {rows} filas de arriba se escribieron antes de que el complemento numerara sus entradas; desde aquí las entradas van numeradas.",
    "audit.check.header":
      "La fila de encabezados de esta hoja faltaba o había cambiado; el complemento la volvió a escribir.",
    "audit.check.more": "Y {count:n} {count|diferencia|diferencias} más.",
    "audit.reads.summed":
      "{calls:n} {calls|llamada|llamadas}, {pages:n} {pages|página leída|páginas leídas}.",
    "audit.reads.failed": "{n:n} {n|llamada no tuvo|llamadas no tuvieron} éxito; la última: {message}",
    "audit.reads.action": "Lecturas",
    "audit.target.fund": "Fondo {id}",
    "audit.target.fundNamed": "Fondo {id} · {name}",
    "audit.target.newFund": "Fondo nuevo · {name} (empleado {id})",
    "audit.target.report": "Rendición {id}",
    "audit.outcome.ok": "correcto",
    "audit.outcome.refused": "rechazado",
    "audit.outcome.error": "error",
    "audit.outcome.unknown": "desconocido",
    "audit.outcome.sending": "enviando",
    "audit.outcome.irregular": "irregular",
  },
} as const;
