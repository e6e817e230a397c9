// Small DOM helpers shared by the views.

/** `el("td", {class: "key", title: "x"}, child, "text")`: an element with attributes and children. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

/** Bytes as a short human text: 1.2 KB, 3.4 MB. */
export function bytes(count) {
  if (count === undefined || count === null) return "–";
  if (count < 1024) return `${count} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = count / 1024, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Shows an error (or hides the box when `error` is null). */
export function showError(box, error) {
  box.hidden = !error;
  box.textContent = error ? (error.message || String(error)) : "";
}

/** A key schema as text: `pk (S), sk (N)`. */
export function keyText(keySchema, definitions = []) {
  const types = Object.fromEntries(definitions.map((d) => [d.AttributeName, d.AttributeType]));
  return keySchema.map((k) => `${k.AttributeName} (${types[k.AttributeName] || "?"})`).join(", ");
}

/** Whether a keyboard event comes from a place that types text. */
export function isTyping(event) {
  const target = event.target;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement || target.isContentEditable;
}
