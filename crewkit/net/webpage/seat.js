// A crewkit seat's page: the invite code stays in the link's fragment (#CODE), which the browser never sends in a
// request; it travels as the first message of the page's WebSocket, before textual-serve's terminal script
// (textual.js) sends its own. The server's words about the seat ("crewkit-refused", "crewkit-closed") are shown
// in the page; textual.js ignores them.
(function () {
  "use strict";
  const code = decodeURIComponent(window.location.hash.slice(1));
  let said = false;

  function show(text) {
    said = true;
    document.getElementById("closed-text").textContent = text;
    document.body.classList.add("-closed");
  }

  const Native = window.WebSocket;
  class SeatSocket extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      // registered before textual.js's own listeners: the code is the connection's first message
      this.addEventListener("open", () => this.send(JSON.stringify(["join", code])));
      this.addEventListener("message", (event) => {
        if (typeof event.data !== "string") return;
        let message;
        try { message = JSON.parse(event.data); } catch (e) { return; }
        if (!Array.isArray(message)) return;
        const text = String(message[1]);
        if (message[0] === "crewkit-refused") show("The host refused this page: " + text);
        if (message[0] === "crewkit-closed") show(text.charAt(0).toUpperCase() + text.slice(1));
      });
      this.addEventListener("close", () => {
        if (!said) show("The connection to the table closed. Join again with your link: your seat waits for you.");
      });
    }
  }
  window.WebSocket = SeatSocket;

  window.addEventListener("DOMContentLoaded", () => {
    const terminal = document.getElementById("terminal");
    document.getElementById("again").addEventListener("click", () => window.location.reload());
    if (!code) {
      terminal.classList.remove("textual-terminal"); // nothing to join with: textual.js opens no connection
      show("This link has no invite code: open the whole link the host sent you (it ends with #CODE).");
      return;
    }
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    terminal.dataset.sessionWebsocketUrl = scheme + "//" + window.location.host + "/ws/" + terminal.dataset.table;
  });
})();
