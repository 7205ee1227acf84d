/** Strings of the scheduled refresh: menu notices, run outcomes, the failure e-mail. */
export const schedule = {
  en: {
    "menu.settings": "Settings…",
    "menu.notice.failed": "⚠ Last scheduled refresh failed",
    "notice.toast.failed":
      "The last scheduled refresh failed; the sheets keep the data of the refresh before it. Open Settings from the add-on's menu to see why.",
    "menu.notice.stalled": "⚠ Scheduled refresh has stopped",
    "schedule.off": "No scheduled refresh",
    "schedule.hours": "Every {n} hours",
    "schedule.hour": "Every hour",
    "schedule.daily": "Every day between {hour}:00 and {next}:00",
    "schedule.owner": "Runs as {owner}",
    "schedule.next": "Next run: {when}",
    "schedule.next.none": "Next run: none",
    "schedule.notOwner": "This schedule runs as {owner}. Changing it makes it run as you, with your token.",
    "schedule.saved": "Schedule saved.",
    "schedule.removed": "Schedule removed.",
    "schedule.repaired": "The scheduled refresh had stopped firing; it was set up again.",
    "run.outcome.running": "running",
    "run.outcome.ok": "done",
    "run.outcome.failed": "failed",
    "run.outcome.skipped": "skipped (another refresh was running)",
    "run.outcome.continued": "continued in a follow-up run",
    "run.outcome.refused": "not started (daily quota)",
    "run.source.schedule": "schedule",
    "run.source.continuation": "continuation",
    "run.source.menu": "menu",
    "run.source.sidebar": "sidebar",
    "run.source.outbox": "outbox",
    "run.message.skipped": "Another refresh was running; this one was skipped.",
    "run.message.skippedOutbox": "An Outbox run was using the spreadsheet; this refresh was skipped.",
    "run.message.skippedForm": "A change from the Fund sidebar was being saved; this refresh was skipped.",
    "schedule.tooManyTriggers":
      "The schedule was not saved: your Google account already holds 20 triggers of this add-on, the most Google allows one person. Turn off a schedule you set in another spreadsheet (Settings → Schedule → Off), then save again.",
    "run.message.noSpreadsheet":
      "Google started the scheduled run without the spreadsheet (getActiveSpreadsheet gave nothing), so nothing was refreshed; while Google does so, no scheduled run can refresh. Refresh from the menu meanwhile, and ask whoever deployed the add-on to run Diagnostics' “Time trigger: active spreadsheet” check on the published version.",
    "run.message.noDocumentLock":
      "Google started the scheduled run without the document lock (getDocumentLock gave nothing), so it did not refresh: two refreshes at once could mix up the sheets. The next run tries again.",
    "run.message.noDocumentProperties":
      "Google started the scheduled run without the document's properties (getDocumentProperties gave nothing), so nothing was refreshed; this entry waited in your own properties until the settings were opened. The next run tries again.",
    "run.message.notSaved":
      "This schedule is not the one you saved here (another editor changed it, or an earlier version saved it): nothing was refreshed with your token. Save it in Settings to run it.",
    "run.message.quotaStop":
      "Stopped at {used} of the {limit} UrlFetch calls allowed in 24 hours: a scheduled run stops at 80% of them, leaving the rest for your own work, a refresh by hand at all of them.",
    "run.message.quotaNext": "The next scheduled run continues where it stopped.",
    "run.message.skippedRetry":
      "Another refresh was running; this one was skipped and will try again shortly.",
    "run.message.finishedIn": "Finished in {executions} executions.",
    "run.message.storeFailed": "Could not store where the refresh stopped: {message}",
    "run.message.followUp": "Stopped near the time limit; it continues in a follow-up execution.",
    "run.message.nextRun":
      "Stopped near the time limit; the next scheduled run continues where it stopped (an add-on may not add a sooner trigger).",
    "run.message.sidebarContinues":
      "Stopped near the time limit; the sidebar continues it piece by piece (or the next scheduled run does).",
    "run.message.mailFailed": "(The failure e-mail could not be sent: {message})",
    "run.message.abandoned": "The run stopped without finishing (time limit or error).",
    "notice.failed": "The scheduled refresh of {when} failed: {message}",
    "notice.stalled":
      "The scheduled refresh has not run since {when}. {owner} should open Settings to set it up again.",
    "notice.dismiss": "Dismiss",
    "quota.warn":
      "This refresh needs about {estimate:n} calls; {used:n} of the {limit:n} UrlFetch calls allowed in 24 hours are already used.",
    "quota.refuse":
      "Not started: this refresh needs about {estimate} calls and only {remaining} of the {limit} UrlFetch calls allowed in 24 hours are left.",
    "mail.failed.subject": "Scheduled refresh failed: {document}",
    "mail.failed.noDocument": "the spreadsheet of this schedule",
    "mail.failed.noUrl": "(not known: Google gave the scheduled run no spreadsheet)",
    "mail.failed.body":
      "The scheduled refresh of “{document}” failed on {when}.\n\n{message}\n\nOpen the spreadsheet: {url}\n\nYou receive this e-mail because you asked for it in the add-on's settings.",
  },
  es: {
    "menu.settings": "Configuración…",
    "menu.notice.failed": "⚠ Falló la última actualización programada",
    "notice.toast.failed":
      "Falló la última actualización programada; las hojas conservan los datos de la anterior. Abra Configuración en el menú del complemento para ver por qué.",
    "menu.notice.stalled": "⚠ La actualización programada se detuvo",
    "schedule.off": "Sin actualización programada",
    "schedule.hours": "Cada {n} horas",
    "schedule.hour": "Cada hora",
    "schedule.daily": "Todos los días entre las {hour}:00 y las {next}:00",
    "schedule.owner": "Se ejecuta como {owner}",
    "schedule.next": "Próxima ejecución: {when}",
    "schedule.next.none": "Próxima ejecución: ninguna",
    "schedule.notOwner":
      "Esta programación se ejecuta como {owner}. Si la cambia, se ejecutará como usted, con su token.",
    "schedule.saved": "Programación guardada.",
    "schedule.removed": "Programación eliminada.",
    "schedule.repaired": "La actualización programada había dejado de ejecutarse; se volvió a configurar.",
    "run.outcome.running": "en curso",
    "run.outcome.ok": "terminada",
    "run.outcome.failed": "falló",
    "run.outcome.skipped": "omitida (había otra actualización en curso)",
    "run.outcome.continued": "continúa en otra ejecución",
    "run.outcome.refused": "no iniciada (cuota diaria)",
    "run.source.schedule": "programada",
    "run.source.continuation": "continuación",
    "run.source.menu": "menú",
    "run.source.sidebar": "panel",
    "run.source.outbox": "bandeja de salida",
    "run.message.skipped": "Había otra actualización en curso; esta se omitió.",
    "run.message.skippedOutbox":
      "Una ejecución de la bandeja de salida usaba la hoja de cálculo; esta actualización se omitió.",
    "run.message.skippedForm":
      "Se guardaba un cambio de la barra lateral de fondos; esta actualización se omitió.",
    "schedule.tooManyTriggers":
      "La programación no se guardó: su cuenta de Google ya tiene 20 activadores de este complemento, el máximo que Google permite a una persona. Desactive una programación que haya hecho en otra hoja de cálculo (Configuración → Programación → Desactivada) y guarde de nuevo.",
    "run.message.noSpreadsheet":
      "Google inició la ejecución programada sin la hoja de cálculo (getActiveSpreadsheet no dio nada), así que no se actualizó nada; mientras Google lo haga así, ninguna ejecución programada puede actualizar. Mientras tanto actualice desde el menú, y pida a quien desplegó el complemento que ejecute en la versión publicada la comprobación «Activador de tiempo: hoja de cálculo activa» de Diagnóstico.",
    "run.message.noDocumentLock":
      "Google inició la ejecución programada sin el bloqueo del documento (getDocumentLock no dio nada), así que no actualizó: dos actualizaciones a la vez podrían mezclar las hojas. La próxima ejecución lo intenta de nuevo.",
    "run.message.noDocumentProperties":
      "Google inició la ejecución programada sin las propiedades del documento (getDocumentProperties no dio nada), así que no se actualizó nada; esta entrada esperó en sus propias propiedades hasta que se abrió la configuración. La próxima ejecución lo intenta de nuevo.",
    "run.message.notSaved":
      "Esta programación no es la que usted guardó aquí (otro editor la cambió, o la guardó una versión anterior): no se actualizó nada con su token. Guárdela en Configuración para ejecutarla.",
    "run.message.quotaStop":
      "Se detuvo en {used} de las {limit} llamadas UrlFetch permitidas en 24 horas: una ejecución programada se detiene en el 80 % de ellas, dejando el resto para su propio trabajo, y una actualización a mano en todas.",
    "run.message.quotaNext": "La próxima ejecución programada continúa donde se detuvo.",
    "run.message.skippedRetry":
      "Había otra actualización en curso; esta se omitió y se reintentará en breve.",
    "run.message.finishedIn": "Terminada en {executions} ejecuciones.",
    "run.message.storeFailed": "No se pudo guardar dónde se detuvo la actualización: {message}",
    "run.message.followUp": "Se detuvo cerca del límite de tiempo; continúa en otra ejecución.",
    "run.message.nextRun":
      "Se detuvo cerca del límite de tiempo; la próxima ejecución programada continúa donde quedó (un complemento no puede agregar un activador antes).",
    "run.message.sidebarContinues":
      "Se detuvo cerca del límite de tiempo; la barra lateral la continúa por partes (o la próxima ejecución programada).",
    "run.message.mailFailed": "(No se pudo enviar el correo del fallo: {message})",
    "run.message.abandoned": "La ejecución se detuvo sin terminar (límite de tiempo o error).",
    "notice.failed": "La actualización programada del {when} falló: {message}",
    "notice.stalled":
      "La actualización programada no se ejecuta desde el {when}. {owner} debe abrir Configuración para volver a activarla.",
    "notice.dismiss": "Descartar",
    "quota.warn":
      "Esta actualización necesita unas {estimate:n} llamadas; ya se usaron {used:n} de las {limit:n} llamadas UrlFetch permitidas en 24 horas.",
    "quota.refuse":
      "No se inició: esta actualización necesita unas {estimate} llamadas y solo quedan {remaining} de las {limit} llamadas UrlFetch permitidas en 24 horas.",
    "mail.failed.subject": "Falló la actualización programada: {document}",
    "mail.failed.noDocument": "la hoja de cálculo de esta programación",
    "mail.failed.noUrl": "(desconocida: Google no dio la hoja de cálculo a la ejecución programada)",
    "mail.failed.body":
      "La actualización programada de «{document}» falló el {when}.\n\n{message}\n\nAbra la hoja de cálculo: {url}\n\nRecibe este correo porque lo pidió en la configuración del complemento.",
  },
} as const;
