document.getElementById("app")?.setAttribute("data-ready", "0");
