const app = document.getElementById("app");
if (app) app.setAttribute("data-ready", "1");
