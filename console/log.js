// The request log: the last calls the page made, each with what it sent and what came back.
import { $, el } from "./dom.js";

const KEEP = 50;
const SHOWN_CHARACTERS = 20000;

function shortJSON(value) {
  const text = JSON.stringify(value, null, 2);
  return text.length > SHOWN_CHARACTERS ? text.slice(0, SHOWN_CHARACTERS) + `\n… (${text.length - SHOWN_CHARACTERS} more characters)` : text;
}

export class RequestLog {
  constructor(api) {
    this.entries = [];
    api.listeners.push((entry) => this.add(entry));
  }

  add(entry) {
    this.entries.unshift({ ...entry, at: new Date() });
    this.entries.length = Math.min(this.entries.length, KEEP);
    $("#open-log").textContent = `Requests (${this.entries.length})`;
    if ($("#log-dialog").open) this.render();
  }

  render() {
    $("#log-entries").replaceChildren(...this.entries.map((entry) => el("li", {},
      el("details", {},
        el("summary", {},
          el("span", { class: `badge ${entry.status < 300 ? "INSERT" : "REMOVE"}` }, entry.status),
          el("code", {}, entry.operation),
          el("span", { class: "muted small" }, `${entry.at.toLocaleTimeString()} · ${entry.ms} ms`)),
        el("div", { class: "muted small" }, "sent"), el("pre", {}, shortJSON(entry.input)),
        el("div", { class: "muted small" }, "answered"), el("pre", {}, shortJSON(entry.output))))));
  }

  bind() {
    $("#open-log").addEventListener("click", () => { this.render(); $("#log-dialog").showModal(); });
  }
}
