// A crewkit seat's page: the invite code stays in the link's fragment (#CODE), which the browser never sends in a
// request; it travels as the first message of the page's WebSocket, before textual-serve's terminal script
// (textual.js) sends its own. The server's words about the seat ("crewkit-refused", "crewkit-closed") are shown
// in the page; "crewkit-gone" (the host stopping) starts the page's coming back; textual.js ignores them.
(function () {
  "use strict";
  const code = decodeURIComponent(window.location.hash.slice(1));
  let said = false;

  function show(text) {
    said = true;
    document.getElementById("closed-text").textContent = text;
    document.body.classList.add("-closed");
  }

  // The host stopped or the connection dropped (not the person's leaving, not a refusal): the page tries the
  // host's web address again, with backoff (at most 5 s apart) for up to 10 minutes, and opens the seat again
  // once it answers; the seat waits for its person meanwhile.
  const RETRY_FOR = 600000;
  let retryingSince = 0;

  function comeBack(attempt) {
    if (!retryingSince) retryingSince = Date.now();
    if (Date.now() - retryingSince > RETRY_FOR) {
      show("The host did not come back. Open your link again when it is back: your seat waits for you.");
      return;
    }
    show("Reconnecting (attempt " + attempt + ")… the host is not answering; your seat waits for you.");
    setTimeout(() => {
      fetch(window.location.pathname, { cache: "no-store" })
        .then((answer) => { if (answer.ok) window.location.reload(); else comeBack(attempt + 1); })
        .catch(() => comeBack(attempt + 1));
    }, Math.min(5000, 250 * 2 ** attempt));
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
        if (message[0] === "crewkit-gone") comeBack(1);
      });
      this.addEventListener("close", () => {
        if (!said) comeBack(1);
      });
    }
  }
  window.WebSocket = SeatSocket;

  // The keys go to the terminal from the start (no click first), and come back to it whenever something else
  // of the page took them (a click beside the terminal, the page's own focus moving): the terminal's textarea is
  // the only input of the page while the table is open.
  function keysToTerminal() {
    if (document.body.classList.contains("-closed")) return; // the note's button may have the keys then
    const input = document.querySelector(".xterm-helper-textarea");
    if (input && document.activeElement !== input) input.focus({ preventScroll: true });
  }

  window.addEventListener("load", () => {
    setTimeout(keysToTerminal, 0); // after textual.js's own load handler has made the terminal
    new MutationObserver(keysToTerminal).observe(document.body, { attributes: true, attributeFilter: ["class"] });
    document.addEventListener("focusout", () => setTimeout(keysToTerminal, 0));
    document.addEventListener("mouseup", () => setTimeout(keysToTerminal, 0));
  });

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
