// The results grid: items as rows, attributes as columns (keys first), values cut short so a
// 400 KB attribute never reaches the DOM whole.
import { el } from "./dom.js";
import { preview } from "./json.js";

/** Fills `container` with `items`; a row opens with a click or Enter (`open`, when given). */
export function renderGrid(container, items, keyColumns, open) {
  if (!items.length) {
    container.replaceChildren(el("div", { class: "empty" }, "No items."));
    return;
  }
  const others = new Set();
  for (const item of items) for (const name of Object.keys(item)) if (!keyColumns.includes(name)) others.add(name);
  const columns = [...keyColumns, ...[...others].sort().slice(0, 40)];
  const row = (item) => el("tr", {
    tabindex: open ? "0" : undefined,
    onclick: open ? () => open(item) : undefined,
    onkeydown: (e) => {
      if (e.key === "Enter" && open) open(item);
      if (e.key === "ArrowDown") { e.preventDefault(); e.target.nextElementSibling?.focus(); }
      if (e.key === "ArrowUp") { e.preventDefault(); e.target.previousElementSibling?.focus(); }
    },
  }, columns.map((c) => {
    const value = item[c];
    if (!value) return el("td", {}, "");
    return el("td", { title: preview(value, 400) }, preview(value, 80), el("span", { class: "type" }, Object.keys(value)[0]));
  }));
  container.replaceChildren(el("table", {},
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { class: keyColumns.includes(c) ? "key" : "", title: c }, c)))),
    el("tbody", {}, items.map(row))));
}
