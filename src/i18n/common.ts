/** Strings shared by every part of the add-on. */
export const common = {
  en: {
    "menu.connection": "Connection…",
    "sidebar.connection.title": "Connection",
    "busy.refresh": "A refresh of this spreadsheet is running. Try again when it ends.",
    "busy.form": "A change sent from the Fund sidebar is being saved. Try again in a moment.",
  },
  es: {
    "menu.connection": "Conexión…",
    "sidebar.connection.title": "Conexión",
    "busy.refresh":
      "Hay una actualización de esta hoja de cálculo en curso. Intente de nuevo cuando termine.",
    "busy.form":
      "Se está guardando un cambio enviado desde la barra lateral de fondos. Intente de nuevo en un momento.",
  },
} as const;
