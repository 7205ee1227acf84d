/** Strings of the Outbox sheet: its columns, operations, states and the messages of a run. */
export const outbox = {
  en: {
    "menu.outbox.create": "Create Outbox sheet",
    "menu.outbox.preview": "Preview Outbox",
    "menu.outbox.run": "Run Outbox",
    "outbox.sheetName": "Outbox",

    "outbox.columnsMoved":
      "Outbox columns moved: column {column} should be “{expected}”, not “{found}”. Nothing was sent.",
    "outbox.col.operation": "Operation",
    "outbox.col.targetId": "Target Id",
    "outbox.col.amount": "Amount",
    "outbox.col.currency": "Currency",
    "outbox.col.fundStatus": "Fund status",
    "outbox.col.integrationCode": "Voucher code",
    "outbox.col.integrationDate": "Integration date",
    "outbox.col.customStatus": "Custom status",
    "outbox.col.customMessage": "Custom message",
    "outbox.col.employeeId": "Employee Id",
    "outbox.col.fundName": "Fund name",
    "outbox.col.fundCode": "Fund code",
    "outbox.col.fundComment": "Fund comment",
    "outbox.col.flexible": "Flexible",
    "outbox.col.autoDeposit": "Auto-deposit",
    "outbox.col.autoBlock": "Auto-block",
    "outbox.col.expirationDate": "Expiration date",
    "outbox.col.state": "State",
    "outbox.col.result": "Result",
    "outbox.col.time": "Time",
    "outbox.col.operationKey": "Operation key",
    "outbox.col.snapshot": "Sent (add-on)",

    "outbox.op.createFund": "Fund creation",
    "outbox.op.updateFund": "Fund update",
    "outbox.op.deposit": "Deposit",
    "outbox.op.withdraw": "Withdrawal",
    "outbox.op.setFundStatus": "Status change",
    "outbox.op.markIntegrated": "Integration mark",
    "outbox.op.markNotIntegrated": "Integration removal",
    "outbox.op.setCustomStatus": "Custom status change",
    // The verbs earlier versions put in the dropdown: cells holding them still read as these.
    "outbox.formerOp.createFund": "Create fund",
    "outbox.formerOp.updateFund": "Update fund",
    "outbox.formerOp.deposit": "Deposit",
    "outbox.formerOp.withdraw": "Withdraw",
    "outbox.formerOp.setFundStatus": "Set fund status",
    "outbox.formerOp.markIntegrated": "Mark integrated",
    "outbox.formerOp.markNotIntegrated": "Mark not integrated",
    "outbox.formerOp.setCustomStatus": "Set custom status",

    "outbox.state.Pending": "Pending",
    "outbox.state.Sending": "Sending",
    "outbox.state.Done": "Done",
    "outbox.state.Refused": "Refused",
    "outbox.state.Unknown": "Unknown",

    "outbox.fundStatus.1": "Open",
    "outbox.fundStatus.2": "Closed",
    "outbox.fundStatus.3": "Blocked",
    "outbox.yes": "Yes",
    "outbox.no": "No",

    "outbox.preview.title": "Outbox preview",
    "outbox.preview.nothing": "No pending rows in the Outbox.",
    "outbox.preview.rows": "{count:n} {count|row|rows} to send.",
    "outbox.preview.invalid": "{count:n} {count|row|rows} with errors will not be sent:",
    "outbox.preview.totals": "Totals:",
    "outbox.preview.warnings": "Warnings:",
    "outbox.preview.more": "…and {count} more.",
    "outbox.preview.reconcile":
      "{count:n} {count|row|rows} from an interrupted run will be checked against the service first.",
    "outbox.run.confirm":
      "Every row is sent with your own access token and account, whoever typed it. Send these operations now?",
    "outbox.run.cancelled": "Nothing was sent.",
    "outbox.run.busy":
      "A run of the Outbox is already in progress in this spreadsheet. Try again when it ends.",
    "outbox.run.summary":
      "Outbox run: {done} done, {refused} refused, {unknown} unknown, {skipped} left for later.",
    "outbox.run.stoppedForTime": "The run stopped before the time limit; run the Outbox again to continue.",
    "outbox.run.sheetsNotUpdated":
      "{count:n} done {count|write|writes} could not be shown on the Funds or Expense reports sheet (a protected range?): what was written stands; refresh those sheets to see them.",
    "outbox.run.noSheet": "There is no Outbox sheet yet. Use “Create Outbox sheet” first.",
    "outbox.created": "The Outbox sheet is ready.",
    "outbox.exists": "The Outbox sheet already exists.",

    "outbox.msg.sending": "Sending…",
    "outbox.msg.doneFund": "Done. Fund {id}: balance {balance}.",
    "outbox.msg.createdFund": "Done. Fund {id} created.",
    "outbox.msg.doneReport": "Done. Report {id} updated.",
    "outbox.msg.reconciledApplied":
      "Done (the interrupted request had been applied; confirmed by reading the fund).",
    "outbox.msg.reconciledCreated": "Done (the interrupted request had created fund {id}).",
    "outbox.msg.unknown":
      "Unknown outcome: the request may have been applied ({message}). The next run checks the fund before sending anything.",
    "outbox.msg.refused": "Refused: {message}",
    "outbox.msg.refusedYetApplied":
      "the service answered that it was not applied, yet reading again shows it was",
    "outbox.msg.invalid": "Not sent: {message}",
    "outbox.msg.waitingForRow": "Waiting: row {row} on the same fund must be settled first.",
    "outbox.msg.waitingForRowReport": "Waiting: row {row} on the same report must be settled first.",
    "outbox.msg.waitingForCreation": "Waiting: an earlier creation of this fund must be settled first.",
    "outbox.msg.currencyDiffers": "fund {id} is in {currency}, not {shown}: refresh the Funds sheet",
    "outbox.msg.fundWasNotFound":
      "fund {id} was not found when the run was confirmed, and it is in {currency}: run the Outbox again to confirm it",
    "outbox.msg.statusDiffers":
      "the status of fund {id} is {status} now, which the confirmation did not show: refresh the Funds sheet",
    "outbox.msg.notConfirmed": "Not sent: added or changed after the run was confirmed.",
    "outbox.msg.notConfirmedSame":
      "Not sent: the same request as an operation done on {date}; it is sent only after a confirmation that shows it as the same (run the Outbox again).",
    "outbox.msg.waitingForSameRow":
      "Waiting: the same request as row {row}, which is not settled yet; once it is, the confirmation shows this row as the same, and it is sent only if confirmed so.",
    "outbox.msg.waitingForSame":
      "Waiting: the same request as an earlier write (from a sidebar, or a row since deleted) that is not settled yet; once it is, the confirmation shows this row as the same, and it is sent only if confirmed so.",
    "outbox.company.otherAccount":
      "your token for {company} opens another account than {company}'s ({company}'s oldest fund {fund} is not in it as marked): nothing is sent or checked with it. Save {company}'s own token in Settings.",
    "outbox.company.accountUnchecked":
      "your token for {company} could not be checked against {company}'s account ({reason}): nothing is sent or checked with it until it can be.",
    "outbox.msg.sameAsSettledRow":
      "Same as row {row}, which was settled: it is sent if you confirm it in the next run.",
    "outbox.msg.sameAsSettled":
      "Same as an earlier write (from a sidebar, or a row since deleted), which was settled: it is sent if you confirm it in the next run.",
    "outbox.msg.sortedOrEdited":
      "Not sent: its Operation key names {sent}, whose cells this row does not show: the sheet was sorted without its hidden columns (undo the sort, or sort every column), or the row was copied with its key and edited. Nothing is sent for this row.",
    "outbox.msg.doneNoKey":
      "Not sent, and not taken as done: State says Done, but the add-on wrote no Done on this row (it has no Operation key of a done operation). Check the fund: if it was done, delete this row; to send it, clear its State, and the confirmation shows it (and whether it is the same as an operation already done).",
    "outbox.msg.doneKeyRestored":
      "Done on {date}: this row showed Done without its Operation key (cleared, or the sheet sorted without its hidden columns); its cells are that operation's, so its key was put back and nothing was sent. To send the same operation again, type it on a new row with no State: the confirmation shows it as the same as this one.",
    "outbox.msg.checkFailed": "Could not check ({message}); left for the next run.",
    "outbox.msg.editedAfterDone":
      "Row {row} was edited after it was done; it will not be sent again. Add a new row to send a new operation.",

    "outbox.msg.waitingForLanding":
      "Unknown outcome: waiting for the earlier request to land (until {until}). Nothing is concluded or sent again before then.",
    "outbox.msg.heldByLanding":
      "Waiting: an earlier request on fund {id} may still land (until {until}); this row is sent once it is settled.",
    "outbox.msg.heldBySidebar":
      "Waiting: an earlier request on fund {id} from the Fund sidebar is not settled yet; this row is sent once it is.",
    "outbox.msg.heldByReportSidebar":
      "Waiting: an earlier request on report {id} from the Expense reports sidebar is not settled yet; this row is sent once it is.",
    "outbox.msg.appliedByCount":
      "Done: a matching {movement} of {amount} appeared on fund {id} after this request (confirmed by reading the fund; movements carry no id, so one of the same amount by someone else at the same moment would look the same).",
    "outbox.msg.doneEdited": "Done for {sent} as first sent; {changes} afterwards: nothing more was sent.",
    "outbox.msg.doneEditedLater":
      "Done for {sent} on {date}; {changes} afterwards (the row was edited, or the sheet sorted without its hidden columns): nothing more was sent, and nothing is sent for what it shows now. If the sheet was sorted, undo the sort, or sort it again with every column.",
    "outbox.msg.notAppliedEdited":
      "Not sent: the interrupted request ({sent}) was not applied (checked by reading the service), and {changes} afterwards. The next run sends the row as it is now.",
    "outbox.msg.doneRestored":
      "Done on {date}: this operation was already sent, so its State was restored. To repeat it, copy the row to a new line.",
    "outbox.msg.answerWithoutMovement": "the answer (fund {id}) does not show exactly this movement",
    "outbox.msg.answerWithoutNewFund":
      "the answer (fund {id}) does not show the fund sent (employee, name, code, currency and amount)",
    "outbox.problem.cellTooLong":
      "{column} holds {length} characters, more than the add-on's record of a row can keep (9 KB in all)",
    "outbox.msg.cellTooLong":
      "Not sent: {column} holds {length} characters, more than the add-on's record of a row can keep (9 KB in all). Shorten it, then clear the row's State to send it.",
    "outbox.msg.noRecord":
      "Not sent: this document keeps no record of this row's request, so whether it was applied is unknown. Check the fund; to send the row, clear its State and Operation key.",
    "outbox.msg.cannotTell":
      "Unknown outcome: {message}. Check the fund, then set State to Done or Refused by hand; nothing is sent for this row meanwhile.",
    "outbox.problem.currencyTyped":
      "Currency says {typed}, but fund {id} is in {currency}: nothing is sent. Correct the Currency cell (or clear it) if the fund is the right one",
    "outbox.msg.otherFund":
      "fund {id} read now is not the fund the write was sent to ({differs}): the token in use may open another account than the company's, so the read settles nothing and nothing is sent again",
    "outbox.msg.noFundIdentity":
      "this write was recorded before the add-on kept which fund it was sent to, so no read can tell that fund {id} is still that fund (another account's fund may have the same Id); nothing is read or sent again for it",
    "outbox.msg.noReportIdentity":
      "this write was recorded before the add-on kept which report it was sent to, so no read can tell that report {id} is still that report (another account's report may have the same Id); nothing is read or sent again for it",
    "outbox.msg.otherReport":
      "report {id} read now is not the report the write was sent to ({differs}): the token in use may open another account than the company's, so the read settles nothing and nothing is sent again",
    "outbox.msg.settledByHand": "{state} by hand on {date}, after a check of the fund; nothing was sent.",
    "outbox.msg.byHandNotConfirmed":
      "State typed {state}, but the confirmation did not name it: nothing was settled or sent. Run the Outbox again; its confirmation names it.",
    "outbox.msg.changed": "{column} was changed from “{from}” to “{to}”",
    "outbox.msg.tooMany": "more matching movements than expected: check the fund",
    "outbox.note.notAppliedResend":
      "interrupted write was not applied (checked by reading the service): sending it now",
    "outbox.note.resend": "interrupted idempotent write: sending it again",
    "outbox.note.orphanNotApplied":
      "interrupted write was not applied (checked by reading the service); its row is gone: nothing sent",
    "outbox.note.editedNotApplied":
      "interrupted write was not applied (checked by reading the service); its row was changed: nothing sent",
    "outbox.note.orphanResend": "interrupted idempotent write; its row is gone or changed: not sent again",
    "outbox.describe.deposit": "Deposit of {amount} to fund {id}",
    "outbox.describe.withdraw": "Withdrawal of {amount} from fund {id}",
    "outbox.describe.createFund": "Creation of fund “{name}” for employee {employee} with {amount}",
    "outbox.describe.updateFund": "Update of fund {id}",
    "outbox.describe.setFundStatus": "Status change of fund {id} to {status}",
    "outbox.describe.markIntegrated": "Integration mark of report {id} ({code})",
    "outbox.describe.markNotIntegrated": "Integration removal of report {id}",
    "outbox.describe.setCustomStatus": "Custom status change of report {id} to “{status}”",
    "outbox.movement.1": "deposit",
    "outbox.movement.2": "withdrawal",
    "outbox.preview.operations": "Operations to send:",
    "outbox.preview.onSheet":
      "{count:n} operations may be sent: too many for this dialog, so each one (row, operation, target, amount and currency, or the status, mark or fields) is listed on the sheet “{sheet}”.",
    "outbox.previewSheet.name": "Outbox preview",
    "outbox.previewSheet.written":
      "Nothing was sent. Check the sheet “{sheet}”, then choose Run Outbox again: it asks you to confirm this list only if nothing in it changed meanwhile; otherwise it writes the new list there and stops again.",
    "outbox.previewSheet.confirmListed":
      "These are the operations listed on the sheet “{sheet}” by your last Run or Preview, unchanged since.",
    "outbox.previewSheet.protection": "Written by the add-on: the list of operations to confirm.",
    "outbox.previewSheet.row": "Row",
    "outbox.previewSheet.operation": "Operation",
    "outbox.previewSheet.sent": "What may be sent",
    "outbox.previewSheet.notOurs":
      "A sheet named “{sheet}” that the add-on did not write is in the way: the list of operations to confirm goes there. Rename that sheet, then try again. Nothing was sent.",
    "outbox.preview.rowLine": "Row {row}: {text}",
    "outbox.rowNote": "Preview: {text}",
    "outbox.rowNote.invalid": "will not be sent: {problems}",
    "outbox.preview.interrupted":
      "Row {row}, interrupted: {description}. Checked against the service first; sent again only if it was not applied.",
    "outbox.preview.byHandDone":
      "Row {row}: State typed Done — the interrupted {description} will be taken as applied if reading the fund cannot tell; nothing is sent for it.",
    "outbox.preview.byHandRefused":
      "Row {row}: State typed Refused — the interrupted {description} will be taken as not applied if reading the fund cannot tell; nothing is sent for it.",
    "outbox.preview.interruptedWaiting":
      "Row {row}, interrupted: {description}. It may still land: nothing is concluded before {until}.",
    "outbox.preview.interruptedEdited":
      "Row {row}, interrupted: {description}; {changes} afterwards. Only what was first sent is checked; nothing new is sent for this row in this run.",
    "outbox.preview.totalsNote": "Totals include interrupted rows that may be sent again.",
    "outbox.warn.copyOfDone":
      "same as row {other}, done on {date}; it is sent again only because you confirm it as the same.",
    "outbox.warn.sameAsDone":
      "same as an operation done on {date}; it is sent again only because you confirm it as the same.",
    "outbox.warn.sameAsRefusedByHand":
      "same as an operation whose outcome was unknown, set to Refused by hand on {date} (it may have been applied); it is sent again only because you confirm it as the same.",
    "outbox.warn.waitsForRow":
      "same request as row {other}, not settled yet: nothing is sent for this row until that one is settled and a confirmation shows this one as the same.",
    "outbox.warn.waitsForWrite":
      "same request as an earlier write not settled yet (from a sidebar, or a row since deleted): nothing is sent for this row until it is settled and a confirmation shows this one as the same.",
    "outbox.warn.sortedOrEdited":
      "its Operation key names {sent}, whose cells it does not show (the sheet sorted without its hidden columns, or the row copied with its key and edited): nothing is sent for it.",
    "outbox.warn.doneNoKey":
      "State says Done, but the add-on wrote no Done on this row: it is marked Refused, not taken as done, and nothing is sent. Check the fund; to send it, clear its State.",
    "outbox.warn.keyRestored":
      "shows Done without its Operation key; its cells are those of an operation done on {date}, so it is taken as that one (its key put back) and nothing is sent.",
    "outbox.warn.editedDone":
      "Row {row} was changed after it was done on {date} ({changes}); nothing more is sent for it.",
    "outbox.warn.restoreDone":
      "Row {row}: its State was cleared, but it was done on {date}; it is not sent again (State is restored).",
    "outbox.warn.noRecord":
      "this document keeps no record of its request; it is marked Refused and nothing is sent.",
    "outbox.warn.overBalance":
      "withdrawing {amount} exceeds the balance {balance} of fund {id}, which is not flexible.",
    "outbox.warn.duplicate": "same operation on the same target as row {other}.",
    "outbox.warn.closedFund": "fund {id} is closed.",
    "outbox.warn.blockedFund": "fund {id} is blocked.",
    "outbox.warn.notOpenFund": "fund {id} has status {status}, which is not open.",
    "outbox.warn.unknownFund": "fund {id} was not found.",
    "outbox.fundNotFound": "(fund not found)",
    "outbox.total.line": "{operation} {currency}: {amount} ({count:n} {count|row|rows})",
    "outbox.total.noCurrency": "{operation}: {count:n} {count|row|rows}",
    "outbox.problem.noOperation": "Operation is required: pick one from the list.",
    "outbox.noToken": "No access token is saved for you: enter it in Settings. Nothing was sent.",
    "outbox.operationsNote":
      "Each operation reads only these columns (blank options are not sent); the others are shaded on its row.",
    "outbox.migrated":
      "The Outbox now shows State and Result first; its own record (time, operation key, what was sent) is hidden at the right. Every row kept its state.",
    "outbox.snapshotNote":
      "What the add-on sent for this row, for reading only. Its own record of each write is kept in the document, out of the cells: editing this column changes nothing.",
    "outbox.problem.unknownOperation": 'Operation "{text}" is not in the list.',
  },
  es: {
    "menu.outbox.create": "Crear hoja Bandeja de salida",
    "menu.outbox.preview": "Vista previa de la Bandeja de salida",
    "menu.outbox.run": "Ejecutar la Bandeja de salida",
    "outbox.sheetName": "Bandeja de salida",

    "outbox.columnsMoved":
      "Columnas movidas: la columna {column} debe ser “{expected}”, no “{found}”. No se envió nada.",
    "outbox.col.operation": "Operación",
    "outbox.col.targetId": "Id destino",
    "outbox.col.amount": "Monto",
    "outbox.col.currency": "Moneda",
    "outbox.col.fundStatus": "Estado del fondo",
    "outbox.col.integrationCode": "Código de comprobante",
    "outbox.col.integrationDate": "Fecha de integración",
    "outbox.col.customStatus": "Estado personalizado",
    "outbox.col.customMessage": "Mensaje personalizado",
    "outbox.col.employeeId": "Id empleado",
    "outbox.col.fundName": "Nombre del fondo",
    "outbox.col.fundCode": "Código del fondo",
    "outbox.col.fundComment": "Comentario del fondo",
    "outbox.col.flexible": "Flexible",
    "outbox.col.autoDeposit": "Depósito automático",
    "outbox.col.autoBlock": "Bloqueo automático",
    "outbox.col.expirationDate": "Fecha de vencimiento",
    "outbox.col.state": "Estado",
    "outbox.col.result": "Resultado",
    "outbox.col.time": "Hora",
    "outbox.col.operationKey": "Clave de operación",
    "outbox.col.snapshot": "Enviado (complemento)",

    "outbox.op.createFund": "Creación de fondo",
    "outbox.op.updateFund": "Actualización de fondo",
    "outbox.op.deposit": "Depósito",
    "outbox.op.withdraw": "Retiro",
    "outbox.op.setFundStatus": "Cambio de estado",
    "outbox.op.markIntegrated": "Marca de integración",
    "outbox.op.markNotIntegrated": "Anulación de integración",
    "outbox.op.setCustomStatus": "Cambio de estado personalizado",
    "outbox.formerOp.createFund": "Crear fondo",
    "outbox.formerOp.updateFund": "Actualizar fondo",
    "outbox.formerOp.deposit": "Depositar",
    "outbox.formerOp.withdraw": "Retirar",
    "outbox.formerOp.setFundStatus": "Cambiar estado del fondo",
    "outbox.formerOp.markIntegrated": "Marcar integrado",
    "outbox.formerOp.markNotIntegrated": "Marcar no integrado",
    "outbox.formerOp.setCustomStatus": "Estado personalizado",

    "outbox.state.Pending": "Pendiente",
    "outbox.state.Sending": "Enviando",
    "outbox.state.Done": "Hecho",
    "outbox.state.Refused": "Rechazado",
    "outbox.state.Unknown": "Desconocido",

    "outbox.fundStatus.1": "Abierto",
    "outbox.fundStatus.2": "Cerrado",
    "outbox.fundStatus.3": "Bloqueado",
    "outbox.yes": "Sí",
    "outbox.no": "No",

    "outbox.preview.title": "Vista previa de la Bandeja de salida",
    "outbox.preview.nothing": "No hay filas pendientes en la Bandeja de salida.",
    "outbox.preview.rows": "{count:n} {count|fila|filas} por enviar.",
    "outbox.preview.invalid": "{count:n} {count|fila|filas} con errores no se {count|enviará|enviarán}:",
    "outbox.preview.totals": "Totales:",
    "outbox.preview.warnings": "Advertencias:",
    "outbox.preview.more": "…y {count} más.",
    "outbox.preview.reconcile":
      "{count:n} {count|fila|filas} de una ejecución interrumpida se {count|verificará|verificarán} primero contra el servicio.",
    "outbox.run.confirm":
      "Cada fila se envía con su propio token de acceso y su cuenta, sin importar quién la escribió. ¿Enviar estas operaciones ahora?",
    "outbox.run.cancelled": "No se envió nada.",
    "outbox.run.busy":
      "Ya hay una ejecución de la Bandeja de salida en curso en esta hoja de cálculo. Inténtelo cuando termine.",
    "outbox.run.summary":
      "Bandeja de salida: {done} hechas, {refused} rechazadas, {unknown} desconocidas, {skipped} para después.",
    "outbox.run.stoppedForTime":
      "La ejecución se detuvo antes del límite de tiempo; ejecute de nuevo la Bandeja de salida para continuar.",
    "outbox.run.sheetsNotUpdated":
      "{count:n} {count|escritura hecha no se pudo|escrituras hechas no se pudieron} mostrar en la hoja Fondos o Rendiciones (¿un rango protegido?): lo escrito se mantiene; actualice esas hojas para verlas.",
    "outbox.run.noSheet":
      "Aún no existe la hoja Bandeja de salida. Use primero “Crear hoja Bandeja de salida”.",
    "outbox.created": "La hoja Bandeja de salida está lista.",
    "outbox.exists": "La hoja Bandeja de salida ya existe.",

    "outbox.msg.sending": "Enviando…",
    "outbox.msg.doneFund": "Hecho. Fondo {id}: saldo {balance}.",
    "outbox.msg.createdFund": "Hecho. Fondo {id} creado.",
    "outbox.msg.doneReport": "Hecho. Informe {id} actualizado.",
    "outbox.msg.reconciledApplied":
      "Hecho (la solicitud interrumpida se había aplicado; confirmado leyendo el fondo).",
    "outbox.msg.reconciledCreated": "Hecho (la solicitud interrumpida había creado el fondo {id}).",
    "outbox.msg.unknown":
      "Resultado desconocido: la solicitud pudo aplicarse ({message}). La próxima ejecución revisa el fondo antes de enviar nada.",
    "outbox.msg.refused": "Rechazado: {message}",
    "outbox.msg.refusedYetApplied":
      "el servicio respondió que no se aplicó, pero al leer de nuevo se ve aplicada",
    "outbox.msg.invalid": "No enviado: {message}",
    "outbox.msg.waitingForRow": "En espera: antes debe resolverse la fila {row} del mismo fondo.",
    "outbox.msg.waitingForRowReport": "En espera: antes debe resolverse la fila {row} de la misma rendición.",
    "outbox.msg.waitingForCreation": "En espera: antes debe resolverse una creación anterior de este fondo.",
    "outbox.msg.currencyDiffers": "el fondo {id} es en {currency}, no en {shown}: actualice la hoja Fondos",
    "outbox.msg.fundWasNotFound":
      "el fondo {id} no se encontró cuando se confirmó la ejecución, y es en {currency}: ejecute la Bandeja de salida otra vez para confirmarlo",
    "outbox.msg.statusDiffers":
      "el estado del fondo {id} es {status} ahora, lo que la confirmación no mostraba: actualice la hoja Fondos",
    "outbox.msg.notConfirmed": "No enviado: se agregó o cambió después de confirmar la ejecución.",
    "outbox.msg.notConfirmedSame":
      "No enviado: es la misma solicitud que una operación hecha el {date}; se envía solo tras una confirmación que la muestre como igual (ejecute la Bandeja de salida otra vez).",
    "outbox.msg.waitingForSameRow":
      "En espera: es la misma solicitud que la fila {row}, que aún no se resuelve; cuando se resuelva, la confirmación muestra esta fila como igual y se envía solo si se confirma así.",
    "outbox.msg.waitingForSame":
      "En espera: es la misma solicitud que una escritura anterior (de una barra lateral, o de una fila ya borrada) que aún no se resuelve; cuando se resuelva, la confirmación muestra esta fila como igual y se envía solo si se confirma así.",
    "outbox.company.otherAccount":
      "su token de {company} abre otra cuenta que la de {company} (el fondo más antiguo de {company}, {fund}, no está en ella como se marcó): no se envía ni se comprueba nada con él. Guarde el token propio de {company} en Configuración.",
    "outbox.company.accountUnchecked":
      "su token de {company} no se pudo verificar contra la cuenta de {company} ({reason}): no se envía ni se comprueba nada con él hasta que se pueda.",
    "outbox.msg.sameAsSettledRow":
      "Igual a la fila {row}, que ya se resolvió: se envía si la confirma en la próxima ejecución.",
    "outbox.msg.sameAsSettled":
      "Igual a una escritura anterior (de una barra lateral, o de una fila ya borrada), que ya se resolvió: se envía si la confirma en la próxima ejecución.",
    "outbox.msg.sortedOrEdited":
      "No enviado: su Clave de operación corresponde a {sent}, cuyas celdas esta fila no muestra: la hoja se ordenó sin sus columnas ocultas (deshaga el orden, u ordene todas las columnas), o la fila se copió con su clave y se editó. No se envía nada de esta fila.",
    "outbox.msg.doneNoKey":
      "No enviado, y no se toma como hecho: el Estado dice Hecho, pero el complemento no escribió Hecho en esta fila (no tiene la Clave de operación de una operación hecha). Revise el fondo: si se hizo, borre esta fila; para enviarla, borre su Estado, y la confirmación la muestra (y si es igual a una operación ya hecha).",
    "outbox.msg.doneKeyRestored":
      "Hecho el {date}: esta fila mostraba Hecho sin su Clave de operación (borrada, o la hoja ordenada sin sus columnas ocultas); sus celdas son las de esa operación, así que se repuso su clave y no se envió nada. Para enviar la misma operación otra vez, escríbala en una fila nueva sin Estado: la confirmación la muestra como igual a esta.",
    "outbox.msg.checkFailed": "No se pudo revisar ({message}); queda para la próxima ejecución.",
    "outbox.msg.editedAfterDone":
      "La fila {row} se editó después de hecha; no se enviará de nuevo. Agregue una fila nueva para enviar otra operación.",

    "outbox.msg.waitingForLanding":
      "Resultado desconocido: esperando a que llegue la solicitud anterior (hasta las {until}). Antes de esa hora no se concluye ni se reenvía nada.",
    "outbox.msg.heldByLanding":
      "En espera: una solicitud anterior sobre el fondo {id} aún puede llegar (hasta las {until}); esta fila se envía cuando se resuelva.",
    "outbox.msg.heldBySidebar":
      "En espera: una solicitud anterior sobre el fondo {id} hecha desde la barra lateral de Fondo aún no se resuelve; esta fila se envía cuando se resuelva.",
    "outbox.msg.heldByReportSidebar":
      "En espera: una solicitud anterior sobre la rendición {id} hecha desde la barra lateral de Rendiciones aún no se resuelve; esta fila se envía cuando se resuelva.",
    "outbox.msg.appliedByCount":
      "Hecho: apareció en el fondo {id} un {movement} de {amount} que coincide, después de esta solicitud (confirmado leyendo el fondo; los movimientos no traen id, así que uno del mismo monto hecho por otra persona en el mismo momento se vería igual).",
    "outbox.msg.doneEdited":
      "Hecho para {sent} tal como se envió primero; {changes} después: no se envió nada más.",
    "outbox.msg.doneEditedLater":
      "Hecho para {sent} el {date}; {changes} después (la fila se editó, o la hoja se ordenó sin sus columnas ocultas): no se envió nada más, y no se envía nada por lo que muestra ahora. Si la hoja se ordenó, deshaga el orden, u ordénela otra vez con todas las columnas.",
    "outbox.msg.notAppliedEdited":
      "No enviado: la solicitud interrumpida ({sent}) no se aplicó (revisado leyendo el servicio) y {changes} después. La próxima ejecución envía la fila tal como está ahora.",
    "outbox.msg.doneRestored":
      "Hecho el {date}: esta operación ya se envió, así que se restauró su Estado. Para repetirla, copie la fila en una línea nueva.",
    "outbox.msg.answerWithoutMovement": "la respuesta (fondo {id}) no muestra exactamente este movimiento",
    "outbox.msg.answerWithoutNewFund":
      "la respuesta (fondo {id}) no muestra el fondo enviado (empleado, nombre, código, moneda y monto)",
    "outbox.problem.cellTooLong":
      "{column} tiene {length} caracteres, más de lo que el registro de una fila del complemento puede guardar (9 KB en total)",
    "outbox.msg.cellTooLong":
      "No enviado: {column} tiene {length} caracteres, más de lo que el registro de una fila del complemento puede guardar (9 KB en total). Acórtelo y luego borre el Estado de la fila para enviarla.",
    "outbox.msg.noRecord":
      "No enviado: este documento no guarda registro de la solicitud de esta fila; no se sabe si se aplicó. Revise el fondo; para enviar la fila, borre su Estado y su Clave de operación.",
    "outbox.msg.cannotTell":
      "Resultado desconocido: {message}. Revise el fondo y luego escriba Hecho o Rechazado en Estado; mientras tanto no se envía nada de esta fila.",
    "outbox.problem.currencyTyped":
      "Moneda dice {typed}, pero el fondo {id} está en {currency}: no se envía nada. Corrija la celda Moneda (o bórrela) si el fondo es el correcto",
    "outbox.msg.otherFund":
      "el fondo {id} leído ahora no es el fondo al que se envió la escritura ({differs}): el token en uso puede abrir otra cuenta que la de la empresa, así que la lectura no resuelve nada y no se vuelve a enviar nada",
    "outbox.msg.noFundIdentity":
      "esta escritura se registró antes de que el complemento guardara a qué fondo se envió, así que ninguna lectura puede decir que el fondo {id} sigue siendo ese fondo (un fondo de otra cuenta puede tener el mismo Id); no se lee ni se vuelve a enviar nada por ella",
    "outbox.msg.noReportIdentity":
      "esta escritura se registró antes de que el complemento guardara a qué rendición se envió, así que ninguna lectura puede decir que la rendición {id} sigue siendo esa rendición (una rendición de otra cuenta puede tener el mismo Id); no se lee ni se vuelve a enviar nada por ella",
    "outbox.msg.otherReport":
      "la rendición {id} leída ahora no es la rendición a la que se envió la escritura ({differs}): el token en uso puede abrir otra cuenta que la de la empresa, así que la lectura no resuelve nada y no se vuelve a enviar nada",
    "outbox.msg.settledByHand": "{state} a mano el {date}, tras revisar el fondo; no se envió nada.",
    "outbox.msg.byHandNotConfirmed":
      "Estado escrito {state}, pero la confirmación no lo mencionó: no se resolvió ni se envió nada. Ejecute la Bandeja de salida otra vez; su confirmación lo menciona.",
    "outbox.msg.changed": "{column} cambió de “{from}” a “{to}”",
    "outbox.msg.tooMany": "hay más movimientos coincidentes de los esperados: revise el fondo",
    "outbox.note.notAppliedResend":
      "la escritura interrumpida no se aplicó (revisado leyendo el servicio): se envía ahora",
    "outbox.note.resend": "escritura idempotente interrumpida: se envía de nuevo",
    "outbox.note.orphanNotApplied":
      "la escritura interrumpida no se aplicó (revisado leyendo el servicio); su fila ya no está: no se envió nada",
    "outbox.note.editedNotApplied":
      "la escritura interrumpida no se aplicó (revisado leyendo el servicio); su fila cambió: no se envió nada",
    "outbox.note.orphanResend":
      "escritura idempotente interrumpida; su fila ya no está o cambió: no se reenvía",
    "outbox.describe.deposit": "Depósito de {amount} al fondo {id}",
    "outbox.describe.withdraw": "Retiro de {amount} del fondo {id}",
    "outbox.describe.createFund": "Creación del fondo “{name}” para el empleado {employee} con {amount}",
    "outbox.describe.updateFund": "Actualización del fondo {id}",
    "outbox.describe.setFundStatus": "Cambio de estado del fondo {id} a {status}",
    "outbox.describe.markIntegrated": "Marca de integración de la rendición {id} ({code})",
    "outbox.describe.markNotIntegrated": "Anulación de la integración de la rendición {id}",
    "outbox.describe.setCustomStatus": "Cambio de estado personalizado de la rendición {id} a “{status}”",
    "outbox.movement.1": "depósito",
    "outbox.movement.2": "retiro",
    "outbox.preview.operations": "Operaciones por enviar:",
    "outbox.preview.onSheet":
      "Pueden enviarse {count:n} operaciones: demasiadas para este diálogo, así que cada una (fila, operación, destino, monto y moneda, o el estado, la marca o los campos) figura en la hoja “{sheet}”.",
    "outbox.previewSheet.name": "Vista previa de Outbox",
    "outbox.previewSheet.written":
      "No se envió nada. Revise la hoja “{sheet}” y luego elija de nuevo Ejecutar la Bandeja de salida: le pedirá confirmar esta lista solo si nada en ella cambió mientras tanto; si cambió, escribe ahí la nueva lista y se detiene otra vez.",
    "outbox.previewSheet.confirmListed":
      "Estas son las operaciones que su última ejecución o vista previa listó en la hoja “{sheet}”, sin cambios desde entonces.",
    "outbox.previewSheet.protection": "Escrita por el complemento: la lista de operaciones por confirmar.",
    "outbox.previewSheet.row": "Fila",
    "outbox.previewSheet.operation": "Operación",
    "outbox.previewSheet.sent": "Lo que puede enviarse",
    "outbox.previewSheet.notOurs":
      "Una hoja llamada “{sheet}” que el complemento no escribió está en el camino: ahí va la lista de operaciones por confirmar. Cambie el nombre de esa hoja e intente de nuevo. No se envió nada.",
    "outbox.preview.rowLine": "Fila {row}: {text}",
    "outbox.rowNote": "Vista previa: {text}",
    "outbox.rowNote.invalid": "no se enviará: {problems}",
    "outbox.preview.interrupted":
      "Fila {row}, interrumpida: {description}. Primero se revisa en el servicio; se reenvía solo si no se aplicó.",
    "outbox.preview.byHandDone":
      "Fila {row}: Estado escrito Hecho — la operación interrumpida ({description}) se dará por aplicada si leer el fondo no permite saberlo; no se envía nada por ella.",
    "outbox.preview.byHandRefused":
      "Fila {row}: Estado escrito Rechazado — la operación interrumpida ({description}) se dará por no aplicada si leer el fondo no permite saberlo; no se envía nada por ella.",
    "outbox.preview.interruptedWaiting":
      "Fila {row}, interrumpida: {description}. Aún puede llegar: no se concluye nada antes de las {until}.",
    "outbox.preview.interruptedEdited":
      "Fila {row}, interrumpida: {description}; {changes} después. Solo se revisa lo que se envió primero; en esta ejecución no se envía nada nuevo de esta fila.",
    "outbox.preview.totalsNote": "Los totales incluyen las filas interrumpidas que podrían reenviarse.",
    "outbox.warn.copyOfDone":
      "igual a la fila {other}, hecha el {date}; se reenvía solo porque usted la confirma como igual.",
    "outbox.warn.sameAsDone":
      "igual a una operación hecha el {date}; se reenvía solo porque usted la confirma como igual.",
    "outbox.warn.sameAsRefusedByHand":
      "igual a una operación de resultado desconocido, marcada Rechazada a mano el {date} (puede haberse aplicado); se reenvía solo porque usted la confirma como igual.",
    "outbox.warn.waitsForRow":
      "misma solicitud que la fila {other}, aún sin resolver: no se envía nada de esta fila hasta que esa se resuelva y una confirmación muestre esta como igual.",
    "outbox.warn.waitsForWrite":
      "misma solicitud que una escritura anterior aún sin resolver (de una barra lateral, o de una fila ya borrada): no se envía nada de esta fila hasta que se resuelva y una confirmación muestre esta como igual.",
    "outbox.warn.sortedOrEdited":
      "su Clave de operación corresponde a {sent}, cuyas celdas no muestra (la hoja ordenada sin sus columnas ocultas, o la fila copiada con su clave y editada): no se envía nada de ella.",
    "outbox.warn.doneNoKey":
      "el Estado dice Hecho, pero el complemento no escribió Hecho en esta fila: se marca Rechazada, no se toma como hecha y no se envía nada. Revise el fondo; para enviarla, borre su Estado.",
    "outbox.warn.keyRestored":
      "muestra Hecho sin su Clave de operación; sus celdas son las de una operación hecha el {date}, así que se toma como esa (se repone su clave) y no se envía nada.",
    "outbox.warn.editedDone":
      "La fila {row} cambió después de hacerse el {date} ({changes}); no se envía nada más por ella.",
    "outbox.warn.restoreDone":
      "Fila {row}: se borró su Estado, pero se hizo el {date}; no se reenvía (se restaura el Estado).",
    "outbox.warn.noRecord":
      "este documento no guarda registro de su solicitud; se marca Rechazada y no se envía nada.",
    "outbox.warn.overBalance":
      "retirar {amount} supera el saldo {balance} del fondo {id}, que no es flexible.",
    "outbox.warn.duplicate": "misma operación sobre el mismo destino que la fila {other}.",
    "outbox.warn.closedFund": "el fondo {id} está cerrado.",
    "outbox.warn.blockedFund": "el fondo {id} está bloqueado.",
    "outbox.warn.notOpenFund": "el fondo {id} tiene el estado {status}, que no es abierto.",
    "outbox.warn.unknownFund": "no se encontró el fondo {id}.",
    "outbox.fundNotFound": "(fondo no encontrado)",
    "outbox.total.line": "{operation} {currency}: {amount} ({count:n} {count|fila|filas})",
    "outbox.total.noCurrency": "{operation}: {count:n} {count|fila|filas}",
    "outbox.problem.noOperation": "Operación es obligatoria: elija una de la lista.",
    "outbox.noToken":
      "No hay un token de acceso guardado para usted: ingréselo en Configuración. No se envió nada.",
    "outbox.operationsNote":
      "Cada operación lee solo estas columnas (las opciones en blanco no se envían); las demás se sombrean en su fila.",
    "outbox.migrated":
      "La Bandeja de salida muestra ahora Estado y Resultado primero; su propio registro (hora, clave de operación, lo enviado) queda oculto a la derecha. Cada fila conservó su estado.",
    "outbox.snapshotNote":
      "Lo que el complemento envió por esta fila, solo para leer. Su propio registro de cada escritura se guarda en el documento, fuera de las celdas: editar esta columna no cambia nada.",
    "outbox.problem.unknownOperation": 'La operación "{text}" no está en la lista.',
  },
} as const;
