/** The month-end close's marking continued past the time limit: progress, stop, outcome. */
export const closeContinuation = {
  en: {
    "close.continue.progress": "{done} of {count} {count|report|reports} marked, continuing automatically.",
    "close.continue.progressOther":
      "{done} of {count} {count|report|reports} marked, continuing automatically as {who}: only they go on with it, with their token.",
    "close.continue.next":
      "It goes on while this sidebar is open; closed, it goes on by itself after {time}.",
    "close.continue.noTrigger":
      "It goes on while this sidebar is open, or when it is opened again: no clock trigger could be made for it (an add-on holds one per person and document, and a refresh schedule's comes first).",
    "close.continue.notMine":
      "This marking was started by {who}: only they go on with it, with their token. Stop it, or mark the journal yourself.",
    "close.continue.stopped": "The marking stopped after {done} of {count} {count|report|reports}: {reason}",
    "close.continue.cancelled": "stopped by {who}.",
    "close.continue.reapproved": "the journal was approved again since the marking started. Mark it again.",
    "close.continue.none": "No marking is going on.",
    "close.continue.stopping":
      "The marking stops at the end of the piece running now; nothing is marked twice.",
    "close.continue.last": "Last marking ({when}):",
    "close.continue.stop": "Stop the marking",
    "close.continue.noticeTitle": "Month-end close",
    "close.continue.noSpreadsheet":
      "Google started the close's continuation without its spreadsheet: it goes on when the Month-end close sidebar is opened.",
  },
  es: {
    "close.continue.progress":
      "{done} de {count} {count|rendición marcada|rendiciones marcadas}, sigue automáticamente.",
    "close.continue.progressOther":
      "{done} de {count} {count|rendición marcada|rendiciones marcadas}, sigue automáticamente como {who}: solo esa persona sigue, con su token.",
    "close.continue.next":
      "Sigue mientras este panel esté abierto; cerrado, sigue solo después de las {time}.",
    "close.continue.noTrigger":
      "Sigue mientras este panel esté abierto, o al abrirlo otra vez: no se pudo crear un activador de reloj (un complemento tiene uno por persona y documento, y el de una programación de actualización va primero).",
    "close.continue.notMine":
      "Esta marcación la inició {who}: solo esa persona sigue, con su token. Deténgala, o marque usted el asiento.",
    "close.continue.stopped":
      "La marcación se detuvo tras {done} de {count} {count|rendición|rendiciones}: {reason}",
    "close.continue.cancelled": "detenida por {who}.",
    "close.continue.reapproved":
      "el asiento se aprobó otra vez desde que empezó la marcación. Márquelo de nuevo.",
    "close.continue.none": "No hay una marcación en curso.",
    "close.continue.stopping":
      "La marcación se detiene al terminar la parte que corre ahora; nada se marca dos veces.",
    "close.continue.last": "Última marcación ({when}):",
    "close.continue.stop": "Detener la marcación",
    "close.continue.noticeTitle": "Cierre de mes",
    "close.continue.noSpreadsheet":
      "Google inició la continuación del cierre sin su hoja de cálculo: sigue al abrir el panel Cierre de mes.",
  },
};
