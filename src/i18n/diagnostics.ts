/** Strings of the Diagnostics self-check: its menu item, the sheet's columns and each check. */
export const diagnostics = {
  en: {
    "menu.diagnostics": "Diagnostics…",
    "diagnostics.title": "Diagnostics",
    "diagnostics.off":
      "Diagnostics is turned off here: set the document or script property diagnostics.enabled to 1.",
    "diagnostics.done": "{count} {count|check|checks} written to the sheet “{sheet}”.",
    "diagnostics.header.check": "Check",
    "diagnostics.header.result": "Result",
    "diagnostics.header.details": "Details",
    "diagnostics.header.when": "When",
    "diagnostics.check.clockTrigger60s": "Clock trigger after 60 s",
    "diagnostics.check.userTriggersListClock": "getUserTriggers(spreadsheet) lists clock triggers",
    "diagnostics.check.triggerSpreadsheet": "Time trigger: active spreadsheet",
    "diagnostics.check.triggerDocumentLock": "Time trigger: document lock",
    "diagnostics.check.fetchOutsideAllowlist": "Fetch outside the allowlist",
    "diagnostics.check.write100kCells": "Time to write 100,000 cells",
    "diagnostics.check.plainTextFormula": "Plain-text cell keeps =1+1 as text",
    "diagnostics.check.twoDocumentLocks": "Two getDocumentLock() objects share state",
    "diagnostics.check.sessionMenu": "Session e-mail: menu item",
    "diagnostics.check.sessionOpen": "Session e-mail: onOpen",
    "diagnostics.check.sessionTrigger": "Session e-mail: time trigger",
    "diagnostics.result.accepted": "accepted",
    "diagnostics.result.refused": "refused",
    "diagnostics.result.notRefused": "not refused",
    "diagnostics.result.notChecked": "not checked",
    "diagnostics.result.failed": "failed",
    "diagnostics.result.listed": "listed",
    "diagnostics.result.notListed": "not listed",
    "diagnostics.result.pending": "pending",
    "diagnostics.result.notMeasurable": "not measurable here",
    "diagnostics.result.thisSpreadsheet": "this spreadsheet",
    "diagnostics.result.otherSpreadsheet": "another spreadsheet",
    "diagnostics.result.null": "null",
    "diagnostics.result.acquired": "acquired",
    "diagnostics.result.notAcquired": "not acquired",
    "diagnostics.result.ms": "{ms} ms",
    "diagnostics.result.empty": "(empty)",
    "diagnostics.result.keptAsText": "kept as text",
    "diagnostics.result.becameFormula": "became a formula",
    "diagnostics.result.shared": "shared",
    "diagnostics.result.separate": "separate",
    "diagnostics.details.shortAccepted":
      "ScriptApp.newTrigger(…).timeBased().after(60000).create() succeeded; the trigger was deleted at once.",
    "diagnostics.details.noProbe": "No clock trigger could be created: {message}",
    "diagnostics.details.notMeasurable":
      "The probe trigger {handler}, due {when}, never ran: Google runs no installable triggers where the add-on is tried as a test deployment, so what a time trigger sees cannot be measured here. Run Diagnostics once on the real, versioned deployment before relying on the schedule.",
    "diagnostics.details.pendingTrigger":
      "A trigger runs {handler} at about {when}; run Diagnostics again after that.",
    "diagnostics.details.listing": "Right after creating a clock trigger, it returned {count}: {list}.",
    "diagnostics.details.triggerSpreadsheet":
      "SpreadsheetApp.getActiveSpreadsheet() in a time trigger (authMode {authMode}); document properties: {properties}.",
    "diagnostics.details.triggerLock":
      "LockService.getDocumentLock() in a time trigger, then tryLock(1000) (released after SpreadsheetApp.flush()).",
    "diagnostics.details.fetchSent": "UrlFetchApp.fetch({url}) was sent and answered HTTP {status}.",
    "diagnostics.details.cells":
      "setValues of {cells} numbers ({rows} rows × {columns} columns) on a scratch sheet, then SpreadsheetApp.flush(); the sheet was deleted.",
    "diagnostics.details.session":
      "getActiveUser().getEmail(): {active}; getEffectiveUser().getEmail(): {effective}; authMode {authMode}.",
    "diagnostics.details.plainText":
      'setNumberFormat("@"), then setValues([["=1+1"]]) on a scratch sheet: getFormulas() gave {formula}, getValues() gave {value}; the sheet was deleted.',
    "diagnostics.details.twoLocks":
      "first = getDocumentLock(), first.tryLock(1000): {first}; second = getDocumentLock(): second.hasLock() {has}, second.tryLock(100) {second}; both released.",
    "diagnostics.details.pendingOpen":
      "onOpen records what it sees while Diagnostics is on: reload the spreadsheet, then run Diagnostics again.",
  },
  es: {
    "menu.diagnostics": "Diagnóstico…",
    "diagnostics.title": "Diagnóstico",
    "diagnostics.off":
      "El diagnóstico está desactivado aquí: ponga la propiedad de documento o de script diagnostics.enabled en 1.",
    "diagnostics.done": "{count} {count|comprobación escrita|comprobaciones escritas} en la hoja «{sheet}».",
    "diagnostics.header.check": "Comprobación",
    "diagnostics.header.result": "Resultado",
    "diagnostics.header.details": "Detalles",
    "diagnostics.header.when": "Cuándo",
    "diagnostics.check.clockTrigger60s": "Activador de tiempo a los 60 s",
    "diagnostics.check.userTriggersListClock": "getUserTriggers(spreadsheet) lista los activadores de tiempo",
    "diagnostics.check.triggerSpreadsheet": "Activador de tiempo: hoja de cálculo activa",
    "diagnostics.check.triggerDocumentLock": "Activador de tiempo: bloqueo del documento",
    "diagnostics.check.fetchOutsideAllowlist": "Solicitud fuera de la lista de URL permitidas",
    "diagnostics.check.write100kCells": "Tiempo para escribir 100.000 celdas",
    "diagnostics.check.plainTextFormula": "Celda de texto sin formato mantiene =1+1 como texto",
    "diagnostics.check.twoDocumentLocks": "Dos objetos getDocumentLock() comparten estado",
    "diagnostics.check.sessionMenu": "Correo de Session: elemento de menú",
    "diagnostics.check.sessionOpen": "Correo de Session: onOpen",
    "diagnostics.check.sessionTrigger": "Correo de Session: activador de tiempo",
    "diagnostics.result.accepted": "aceptado",
    "diagnostics.result.refused": "rechazado",
    "diagnostics.result.notRefused": "no rechazado",
    "diagnostics.result.notChecked": "no comprobado",
    "diagnostics.result.failed": "falló",
    "diagnostics.result.listed": "listado",
    "diagnostics.result.notListed": "no listado",
    "diagnostics.result.pending": "pendiente",
    "diagnostics.result.notMeasurable": "no medible aquí",
    "diagnostics.result.thisSpreadsheet": "esta hoja de cálculo",
    "diagnostics.result.otherSpreadsheet": "otra hoja de cálculo",
    "diagnostics.result.null": "null",
    "diagnostics.result.acquired": "obtenido",
    "diagnostics.result.notAcquired": "no obtenido",
    "diagnostics.result.ms": "{ms} ms",
    "diagnostics.result.empty": "(vacío)",
    "diagnostics.result.keptAsText": "se mantuvo como texto",
    "diagnostics.result.becameFormula": "se volvió fórmula",
    "diagnostics.result.shared": "compartido",
    "diagnostics.result.separate": "separado",
    "diagnostics.details.shortAccepted":
      "ScriptApp.newTrigger(…).timeBased().after(60000).create() funcionó; el activador se borró en seguida.",
    "diagnostics.details.noProbe": "No se pudo crear un activador de tiempo: {message}",
    "diagnostics.details.notMeasurable":
      "El activador de prueba {handler}, previsto para el {when}, nunca se ejecutó: Google no ejecuta activadores instalables cuando el complemento se prueba como implementación de prueba, así que lo que ve un activador de tiempo no se puede medir aquí. Ejecute Diagnóstico una vez en la implementación real, con versión, antes de confiar en la programación.",
    "diagnostics.details.pendingTrigger":
      "Un activador ejecuta {handler} hacia las {when}; vuelva a ejecutar el diagnóstico después.",
    "diagnostics.details.listing": "Justo después de crear un activador de tiempo, devolvió {count}: {list}.",
    "diagnostics.details.triggerSpreadsheet":
      "SpreadsheetApp.getActiveSpreadsheet() en un activador de tiempo (authMode {authMode}); propiedades del documento: {properties}.",
    "diagnostics.details.triggerLock":
      "LockService.getDocumentLock() en un activador de tiempo, luego tryLock(1000) (liberado tras SpreadsheetApp.flush()).",
    "diagnostics.details.fetchSent": "UrlFetchApp.fetch({url}) se envió y respondió HTTP {status}.",
    "diagnostics.details.cells":
      "setValues de {cells} números ({rows} filas × {columns} columnas) en una hoja temporal, luego SpreadsheetApp.flush(); la hoja se borró.",
    "diagnostics.details.session":
      "getActiveUser().getEmail(): {active}; getEffectiveUser().getEmail(): {effective}; authMode {authMode}.",
    "diagnostics.details.plainText":
      'setNumberFormat("@") y luego setValues([["=1+1"]]) en una hoja temporal: getFormulas() dio {formula}, getValues() dio {value}; la hoja se eliminó.',
    "diagnostics.details.twoLocks":
      "first = getDocumentLock(), first.tryLock(1000): {first}; second = getDocumentLock(): second.hasLock() {has}, second.tryLock(100) {second}; ambos liberados.",
    "diagnostics.details.pendingOpen":
      "onOpen anota lo que ve mientras el diagnóstico está activo: recargue la hoja de cálculo y vuelva a ejecutar el diagnóstico.",
  },
} as const;
