/** Strings of the connection test (the settings sidebar's Connection section). */
export const connection = {
  en: {
    "connection.test": "Test connection",
    "connection.test.ok": "Connected: the service answered and lists {count:n} {count|fund|funds}.",
    "connection.test.otherCompany": "Connected, but this token opens {other}'s account, not {company}'s.",
    "connection.test.otherAccount":
      "Connected, but this token opens another account than {company}'s: {company}'s oldest fund {fund} is not in it as marked. Check that you copied {company}'s token.",
    "connection.test.noToken": "No access token is saved for you. Enter your token and save it first.",
    "connection.test.badSettings": "The settings are not valid: {message}",
    "connection.test.badUrl":
      "The service URL does not lead to the service ({detail}). Check the address: it should look like https://api.rindegastos.com/v1.",
    "connection.test.badToken":
      "The service refused the access token (HTTP {status}). Check that it was copied completely and is still valid.",
    "connection.test.serviceDown": "The service is down or unreachable ({detail}). Try again later.",
    "connection.test.serviceError": "The service reported an error inside a successful answer: {detail}",
    "connection.test.unexpected":
      "The address answered, but not like the expected service ({detail}). Check the service URL.",
    "connection.test.httpError": "The service answered with an error (HTTP {status}): {detail}",
    "connection.test.notAllowed":
      "Apps Script refused to call this address, sending nothing: {detail} The add-on's manifest (urlFetchWhitelist in appsscript.json) lists the services it may call; to use another one, add its https prefix there and deploy the add-on again.",
    "connection.test.redirect":
      "The service URL answered with a redirect (HTTP {status}) to host {host}. Redirects are not followed, so your token was not sent there: check the service URL.",
    // What a connection test was sent, refused before any rule: the same words in both languages.
    "connection.input.request": "request: must be an object of named fields.",
    "connection.input.unknown": "{key} is not a connection setting.",
    "connection.input.type": "{key} must be text.",
  },
  es: {
    "connection.test": "Probar conexión",
    "connection.test.ok": "Conectado: el servicio respondió e informa {count:n} {count|fondo|fondos}.",
    "connection.test.otherCompany":
      "Conectado, pero este token abre la cuenta de {other}, no la de {company}.",
    "connection.test.otherAccount":
      "Conectado, pero este token abre otra cuenta que la de {company}: el fondo más antiguo de {company}, {fund}, no está en ella como se marcó. Revise que copió el token de {company}.",
    "connection.test.noToken":
      "No hay un token de acceso guardado para usted. Ingrese su token y guárdelo primero.",
    "connection.test.badSettings": "La configuración no es válida: {message}",
    "connection.test.badUrl":
      "La URL del servicio no lleva al servicio ({detail}). Revise la dirección: debe parecerse a https://api.rindegastos.com/v1.",
    "connection.test.badToken":
      "El servicio rechazó el token de acceso (HTTP {status}). Revise que esté completo y siga vigente.",
    "connection.test.serviceDown": "El servicio no está disponible ({detail}). Intente más tarde.",
    "connection.test.serviceError": "El servicio informó un error dentro de una respuesta exitosa: {detail}",
    "connection.test.unexpected":
      "La dirección respondió, pero no como el servicio esperado ({detail}). Revise la URL del servicio.",
    "connection.test.httpError": "El servicio respondió con un error (HTTP {status}): {detail}",
    "connection.test.notAllowed":
      "Apps Script se negó a llamar a esta dirección y no envió nada: {detail} El manifiesto del complemento (urlFetchWhitelist en appsscript.json) enumera los servicios que puede llamar; para usar otro, agregue allí su prefijo https y vuelva a implementar el complemento.",
    "connection.test.redirect":
      "La URL del servicio respondió con una redirección (HTTP {status}) al host {host}. Las redirecciones no se siguen, así que su token no se envió allí: revise la URL del servicio.",
    // What a connection test was sent, refused before any rule: the same words in both languages.
    "connection.input.request": "request: must be an object of named fields.",
    "connection.input.unknown": "{key} is not a connection setting.",
    "connection.input.type": "{key} must be text.",
  },
} as const;
