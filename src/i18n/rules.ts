/** Messages of the contract's rules for refused requests: each starts with the field and says the rule. */
export const rules = {
  en: {
    "api.rule.request": "{field}: the request must be an object of named parameters (got {got}).",
    "api.rule.required": "{field} is required.",
    "api.rule.unknownField": "{field} is not a parameter of {endpoint}.",
    "api.rule.integer": '{field} must be a whole number (got "{got}").',
    "api.rule.min": "{field} must be at least {min} (got {got}).",
    "api.rule.max": "{field} must be at most {max} (got {got}).",
    "api.rule.oneOf": '{field} must be one of {values} (got "{got}").',
    "api.rule.text": "{field} must be text (got {got}).",
    "api.rule.maxLength": "{field} must be at most {max} characters long (got {length}).",
    "api.rule.currency": '{field} must be a 3-letter currency code such as CLP or USD (got "{got}").',
    "api.rule.amountComma":
      '{field} contains a comma: write amounts with a dot as the decimal separator and no thousands separator, e.g. 1234.50 (got "{got}").',
    "api.rule.amountAmbiguous":
      '{field}: "{got}" could mean thousands or decimals; write it without a thousands separator, e.g. 1234.50 or 1.23.',
    "api.rule.amountFormat": '{field} must be an amount such as 1234.50 (got "{got}").',
    "api.rule.amountDecimals": '{field} must have at most two decimals (got "{got}").',
    "api.rule.amountPositive": '{field} must be greater than zero (got "{got}").',
    "api.rule.amountTooLarge":
      '{field} must be at most {max}: the add-on cannot read larger amounts back exactly (got "{got}").',
    "api.rule.totalTooLarge":
      '{field}: with this amount the fund\'s {total} would reach {after}, above {max}, the largest total the add-on can read back exactly; nothing was sent (got "{got}").',
    "api.rule.date": '{field} must be a date in the form YYYY-MM-DD (got "{got}").',
    "api.rule.datetime": '{field} must be a date and time in the form YYYY-MM-DD HH:MM:SS (got "{got}").',
    "api.rule.boolean": '{field} must be true or false (got "{got}").',
    "api.rule.dateOrder": "{field} must not be before {other} ({got} is before {otherValue}).",
    "api.rule.dateRange":
      "{field}: the range from Since to {untilName} must be at most one year ({since} to {until}; latest allowed {latest}).",
    "api.rule.dependsOn":
      "{field} is used only when {other} is true: set {other} to true or leave {field} empty.",
    "settings.issue.url": '{field} must be a web address such as {example} (got "{got}").',
    "settings.issue.https":
      '{field} must start with https:// so that the token travels encrypted (got "{got}").',
    "settings.issue.userInfo":
      '{field} must not hold a user name or password before the host ("name@"): requests would go to host {host}, whatever comes before "@" (got "{got}").',
    "settings.issue.unique":
      '{field}: "{got}" is already the name of {other}; each sheet needs its own name.',
    "settings.issue.uniqueDefault":
      '{field}: "{got}" is the default name of {other} (in English or Spanish); each sheet needs its own name.',
    "settings.issue.requiredWith": '{field} is required when {other} is "{value}".',
    "settings.issue.token": "{field} {reason}.",
    "settings.token.label": "The access token",
    "settings.token.empty": "is empty",
    "settings.token.text": "must be text",
    "settings.token.long": "is longer than {max} characters",
    "settings.token.spaces": "contains spaces or line breaks; paste the token alone",
    "settings.adminNotConfirmed":
      "IdAdmin {id} is not the one you saved ({mine}): save it in Settings to write as {id}.",
    "settings.adminNotSaved": "IdAdmin {id} is not the one you saved: save it in Settings to write as {id}.",
    "api.rule.today": "today",
    "settings.notBound.changed":
      "The service URL was changed by another editor to {url}: confirm it in Settings to use your token there.",
    "settings.notBound.unbound":
      "Your access token was saved before tokens were tied to one service URL. The service URL is {url}: confirm it in Settings to use your token there.",
    "settings.notBound.elsewhere":
      "Your access token is for host {bound}, not {host}: type your token again to use it with {url}.",
  },
  es: {
    "api.rule.request":
      "{field}: la solicitud debe ser un objeto con parámetros con nombre (se recibió {got}).",
    "api.rule.required": "{field} es obligatorio.",
    "api.rule.unknownField": "{field} no es un parámetro de {endpoint}.",
    "api.rule.integer": '{field} debe ser un número entero (se recibió "{got}").',
    "api.rule.min": "{field} debe ser al menos {min} (se recibió {got}).",
    "api.rule.max": "{field} debe ser como máximo {max} (se recibió {got}).",
    "api.rule.oneOf": '{field} debe ser uno de {values} (se recibió "{got}").',
    "api.rule.text": "{field} debe ser texto (se recibió {got}).",
    "api.rule.maxLength": "{field} debe tener como máximo {max} caracteres (tiene {length}).",
    "api.rule.currency":
      '{field} debe ser un código de moneda de 3 letras, como CLP o USD (se recibió "{got}").',
    "api.rule.amountComma":
      '{field} contiene una coma: escriba los montos con punto decimal y sin separador de miles, p. ej. 1234.50 (se recibió "{got}").',
    "api.rule.amountAmbiguous":
      '{field}: "{got}" puede leerse como miles o como decimales; escríbalo sin separador de miles, p. ej. 1234,50 o 1,23.',
    "api.rule.amountFormat": '{field} debe ser un monto como 1234.50 (se recibió "{got}").',
    "api.rule.amountDecimals": '{field} debe tener como máximo dos decimales (se recibió "{got}").',
    "api.rule.amountPositive": '{field} debe ser mayor que cero (se recibió "{got}").',
    "api.rule.amountTooLarge":
      '{field} debe ser como máximo {max}: el complemento no puede volver a leer con exactitud montos mayores (se recibió "{got}").',
    "api.rule.totalTooLarge":
      '{field}: con este monto el total {total} del fondo llegaría a {after}, más que {max}, el mayor total que el complemento puede volver a leer con exactitud; no se envió nada (se recibió "{got}").',
    "api.rule.date": '{field} debe ser una fecha con el formato AAAA-MM-DD (se recibió "{got}").',
    "api.rule.datetime":
      '{field} debe ser una fecha y hora con el formato AAAA-MM-DD HH:MM:SS (se recibió "{got}").',
    "api.rule.boolean": '{field} debe ser verdadero o falso (se recibió "{got}").',
    "api.rule.dateOrder": "{field} no puede ser anterior a {other} ({got} es anterior a {otherValue}).",
    "api.rule.dateRange":
      "{field}: el rango desde Since hasta {untilName} debe ser de un año como máximo ({since} a {until}; máximo permitido {latest}).",
    "api.rule.dependsOn":
      "{field} solo se usa cuando {other} es verdadero: ponga {other} en verdadero o deje {field} vacío.",
    "settings.issue.url": '{field} debe ser una dirección web como {example} (se recibió "{got}").',
    "settings.issue.https":
      '{field} debe comenzar con https:// para que el token viaje cifrado (se recibió "{got}").',
    "settings.issue.userInfo":
      '{field} no debe llevar usuario ni contraseña antes del host ("nombre@"): las solicitudes irían al host {host}, diga lo que diga antes de "@" (se recibió "{got}").',
    "settings.issue.unique":
      '{field}: "{got}" ya es el nombre de {other}; cada hoja necesita su propio nombre.',
    "settings.issue.uniqueDefault":
      '{field}: "{got}" es el nombre que {other} tiene por omisión (en inglés o en español); cada hoja necesita su propio nombre.',
    "settings.issue.requiredWith": '{field} es obligatorio cuando {other} es "{value}".',
    "settings.issue.token": "{field} {reason}.",
    "settings.token.label": "El token de acceso",
    "settings.token.empty": "está vacío",
    "settings.token.text": "debe ser texto",
    "settings.token.long": "tiene más de {max} caracteres",
    "settings.token.spaces": "contiene espacios o saltos de línea; pegue solo el token",
    "settings.adminNotConfirmed":
      "IdAdmin {id} no es el que usted guardó ({mine}): guárdelo en Configuración para escribir como {id}.",
    "settings.adminNotSaved":
      "IdAdmin {id} no es el que usted guardó: guárdelo en Configuración para escribir como {id}.",
    "api.rule.today": "hoy",
    "settings.notBound.changed":
      "Otro editor cambió la URL del servicio a {url}: confírmela en Configuración para usar su token allí.",
    "settings.notBound.unbound":
      "Su token de acceso se guardó antes de que cada token quedara ligado a una URL del servicio. La URL del servicio es {url}: confírmela en Configuración para usar su token allí.",
    "settings.notBound.elsewhere":
      "Su token de acceso es para el host {bound}, no para {host}: escriba su token de nuevo para usarlo con {url}.",
  },
} as const;
