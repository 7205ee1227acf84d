/** Menu items, progress and summaries of refreshes. */
export const refresh = {
  en: {
    "menu.refreshFunds": "Refresh funds",
    "menu.refreshTransactions": "Refresh funds and transactions",
    "menu.refreshReports": "Refresh expense reports",
    "menu.refreshAll": "Refresh all",
    "menu.refreshSelected": "Refresh selected rows",
    "refresh.title": "Refresh",
    "refresh.noToken": "No access token is saved for you: enter it in Settings.",
    "refresh.progress": "{stage}: {done} calls so far…",
    "refresh.stage.funds": "Funds",
    "refresh.stage.transactions": "Transactions",
    "refresh.stage.reports": "Expense reports",
    "refresh.summary":
      "{records:n} {records|record|records} refreshed with {calls:n} {calls|call|calls} in {seconds} s.",
    "refresh.paused":
      "The refresh stopped before the time limit after {calls:n} {calls|call|calls}; run it again to continue where it stopped.",
    "refresh.failed": "The refresh failed and the sheets were left as they were: {message}",
    "refresh.selection.none": "Select rows of the Funds, Fund transactions or Expense reports sheet first.",
    "refresh.selection.noIds": "The selected rows hold no Id to refresh.",
    "refresh.busy": "Another refresh of this document is running; try again in a minute.",
    "menu.refreshSidebar": "Refresh…",
    "refresh.sidebar.running": "{what}: running…",
  },
  es: {
    "menu.refreshFunds": "Actualizar fondos",
    "menu.refreshTransactions": "Actualizar fondos y movimientos",
    "menu.refreshReports": "Actualizar rendiciones",
    "menu.refreshAll": "Actualizar todo",
    "menu.refreshSelected": "Actualizar filas seleccionadas",
    "refresh.title": "Actualización",
    "refresh.noToken": "No hay un token de acceso guardado para usted: ingréselo en Configuración.",
    "refresh.progress": "{stage}: {done} llamadas hasta ahora…",
    "refresh.stage.funds": "Fondos",
    "refresh.stage.transactions": "Movimientos",
    "refresh.stage.reports": "Rendiciones",
    "refresh.summary":
      "{records:n} {records|registro actualizado|registros actualizados} con {calls:n} {calls|llamada|llamadas} en {seconds} s.",
    "refresh.paused":
      "La actualización se detuvo antes del límite de tiempo tras {calls:n} {calls|llamada|llamadas}; ejecútela de nuevo para continuar donde quedó.",
    "refresh.failed": "La actualización falló y las hojas quedaron como estaban: {message}",
    "refresh.selection.none": "Seleccione primero filas de la hoja de fondos, movimientos o rendiciones.",
    "refresh.selection.noIds": "Las filas seleccionadas no tienen un Id que actualizar.",
    "refresh.busy": "Otra actualización de este documento está en curso; intente de nuevo en un minuto.",
    "menu.refreshSidebar": "Actualizar…",
    "refresh.sidebar.running": "{what}: en curso…",
  },
} as const;
