/**
 * Strings of the Fund and Report sidebars once a spreadsheet has several companies: the company
 * a sidebar acts on, the picker for an Id typed in, and why a request is not sent to a company.
 */
export const companiesSidebars = {
  en: {
    "company.sidebar.label": "Company",
    "company.sidebar.pickLabel": "Company of the fund",
    "company.sidebar.choose": "Pick a company",
    "company.sidebar.unlisted":
      'The company key "{key}" is not one of this spreadsheet\'s companies (removed, or never added); nothing is sent.',
    "company.sidebar.pick":
      "Fund {id}: pick its company ({names}). Fund Ids repeat from one company to another; nothing is read until one is picked.",
    "company.sidebar.pickNew": "Pick the company the new fund is for ({names}); nothing is sent.",
    "company.sidebar.notShown":
      "Fund {id} of {company} is not the fund this sidebar showed last: load it again, then send. Nothing was sent.",
    "company.sidebar.notShownNew":
      "{company} is not the company this sidebar showed last: load it again, then send. Nothing was sent.",
  },
  es: {
    "company.sidebar.label": "Empresa",
    "company.sidebar.pickLabel": "Empresa del fondo",
    "company.sidebar.choose": "Elige una empresa",
    "company.sidebar.unlisted":
      'La clave de empresa "{key}" no es de ninguna empresa de esta hoja de cálculo (quitada o nunca agregada); no se envía nada.',
    "company.sidebar.pick":
      "Fondo {id}: elige su empresa ({names}). Los Id de fondo se repiten de una empresa a otra; no se lee nada hasta elegir una.",
    "company.sidebar.pickNew": "Elige la empresa del nuevo fondo ({names}); no se envía nada.",
    "company.sidebar.notShown":
      "El fondo {id} de {company} no es el que mostró este panel por última vez: cárgalo de nuevo y luego envía. No se envió nada.",
    "company.sidebar.notShownNew":
      "{company} no es la empresa que mostró este panel por última vez: cárgalo de nuevo y luego envía. No se envió nada.",
  },
} as const;
