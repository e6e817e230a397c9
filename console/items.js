// Browsing items: the scan / query builder with paging, the results grid and the item editor.
import { $, $$, bytes, el, showError } from "./dom.js";
import { renderGrid } from "./grid.js";
import { ItemError, approximateSize, checkItem, itemFromPlain, parseJSON, plainIsLossy, preview, stringify, toPlain, toWire } from "./json.js";

const KEY_OPERATORS = ["", "=", "<", "<=", ">", ">=", "between", "begins_with"];
const FILTER_OPERATORS = ["=", "<>", "<", "<=", ">", ">=", "begins_with", "contains", "attribute_exists", "attribute_not_exists"];

/** A typed value from a form field: `{S: "x"}`, `{N: "1"}`, `{B: "..."}`, `{BOOL: true}`. */
function typed(type, text) {
  if (type === "BOOL") return { BOOL: text.trim() === "true" };
  if (type === "N" && !/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text)) throw new Error(`${JSON.stringify(text)} is not a number`);
  return { [type]: type === "N" ? text.trim() : text };
}

export class ItemsView {
  constructor(app) {
    this.app = app;
    this.loaded = false;
  }

  reset(table) {
    this.table = table;
    this.loaded = false;
    this.pages = [undefined];
    this.page = 0;
    const indexes = [...(table.GlobalSecondaryIndexes || []), ...(table.LocalSecondaryIndexes || [])];
    $("#index-choice").replaceChildren(el("option", { value: "" }, "table"),
      ...indexes.map((i) => el("option", { value: i.IndexName }, i.IndexName)));
    $("#filters").replaceChildren();
    $("#results").replaceChildren();
    $("#request-json").textContent = "";
    $("#capacity").textContent = "";
    this.renderKeyConditions();
  }

  /** The key schema and attribute types of the chosen index (or the table). */
  keys() {
    const name = $("#index-choice").value;
    const source = name ? [...(this.table.GlobalSecondaryIndexes || []), ...(this.table.LocalSecondaryIndexes || [])].find((i) => i.IndexName === name) : this.table;
    const types = Object.fromEntries(this.table.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]));
    const hash = source.KeySchema.find((k) => k.KeyType === "HASH").AttributeName;
    const range = source.KeySchema.find((k) => k.KeyType === "RANGE")?.AttributeName;
    return { hash, range, types };
  }

  renderKeyConditions() {
    const { hash, range, types } = this.keys();
    const operator = el("select", { name: "skOp", "aria-label": "Sort key condition" }, KEY_OPERATORS.map((op) => el("option", { value: op }, op || "any")));
    const second = el("input", { name: "skValue2", placeholder: "and", hidden: true, "aria-label": "Sort key upper bound" });
    operator.addEventListener("change", () => { second.hidden = operator.value !== "between"; });
    $("#key-conditions").replaceChildren(
      el("span", { class: "key-name" }, `${hash} (${types[hash]}) =`),
      el("input", { name: "pkValue", placeholder: "partition key value", "aria-label": "Partition key value" }),
      range ? el("span", { class: "key-name" }, `${range} (${types[range]})`) : null,
      range ? operator : null,
      range ? el("input", { name: "skValue", placeholder: "sort key value", "aria-label": "Sort key value" }) : null,
      range ? second : null);
  }

  addFilter() {
    const row = el("div", { class: "filter-row" },
      el("span", { class: "muted small" }, "filter"),
      el("input", { name: "fName", placeholder: "attribute", "aria-label": "Filter attribute" }),
      el("select", { name: "fOp", "aria-label": "Filter operator" }, FILTER_OPERATORS.map((op) => el("option", {}, op))),
      el("select", { name: "fType", "aria-label": "Filter value type" }, ["S", "N", "BOOL"].map((t) => el("option", {}, t))),
      el("input", { name: "fValue", placeholder: "value", "aria-label": "Filter value" }),
      el("button", { type: "button", class: "ghost", onclick: () => row.remove() }, "Remove"));
    $("#filters").append(row);
    row.querySelector("input").focus();
  }

  /** The Scan or Query input the builder describes (without paging). */
  request() {
    const form = $("#builder");
    const mode = form.elements.mode.value;
    const input = { TableName: this.table.TableName, ReturnConsumedCapacity: "INDEXES" };
    const names = {}, values = {};
    if (form.elements.index.value) input.IndexName = form.elements.index.value;
    const limit = Number(form.elements.limit.value);
    if (limit > 0) input.Limit = limit;
    if (mode === "Query") {
      const { hash, range, types } = this.keys();
      names["#pk"] = hash;
      values[":pk"] = typed(types[hash], form.elements.pkValue.value);
      let condition = "#pk = :pk";
      const op = range ? form.elements.skOp.value : "";
      if (op) {
        names["#sk"] = range;
        values[":sk"] = typed(types[range], form.elements.skValue.value);
        if (op === "between") {
          values[":sk2"] = typed(types[range], form.elements.skValue2.value);
          condition += " AND #sk BETWEEN :sk AND :sk2";
        } else if (op === "begins_with") condition += " AND begins_with(#sk, :sk)";
        else condition += ` AND #sk ${op} :sk`;
      }
      input.KeyConditionExpression = condition;
      input.ScanIndexForward = form.elements.order.value === "asc";
    }
    const filters = $$("#filters .filter-row").map((row, n) => {
      const field = (name) => row.querySelector(`[name=${name}]`).value;
      if (!field("fName").trim()) throw new Error("A filter needs an attribute name");
      names[`#f${n}`] = field("fName").trim();
      const op = field("fOp");
      if (op.startsWith("attribute_")) return `${op}(#f${n})`;
      values[`:f${n}`] = typed(field("fType"), field("fValue"));
      if (op === "begins_with" || op === "contains") return `${op}(#f${n}, :f${n})`;
      return `#f${n} ${op} :f${n}`;
    });
    if (filters.length) input.FilterExpression = filters.join(" AND ");
    if (Object.keys(names).length) input.ExpressionAttributeNames = names;
    if (Object.keys(values).length) input.ExpressionAttributeValues = values;
    return { mode, input };
  }

  /** Runs the builder's request for the current page. */
  async run() {
    this.loaded = true;
    const box = $("#builder-error");
    let mode, input;
    try {
      ({ mode, input } = this.request());
    } catch (error) {
      showError(box, error);
      return;
    }
    if (this.pages[this.page]) input.ExclusiveStartKey = this.pages[this.page];
    $("#request-json").textContent = `${mode}\n${JSON.stringify(input, null, 2)}`;
    try {
      const output = await this.app.api.call(mode, input);
      showError(box, null);
      const capacity = output.ConsumedCapacity;
      $("#capacity").textContent = capacity ? `· ${capacity.CapacityUnits} capacity units consumed` +
        (capacity.Table?.CapacityUnits !== undefined && capacity.GlobalSecondaryIndexes ? ` (table ${capacity.Table.CapacityUnits})` : "") : "";
      this.pages.length = this.page + 1;
      if (output.LastEvaluatedKey) this.pages.push(output.LastEvaluatedKey);
      $("#prev-page").disabled = this.page === 0;
      $("#next-page").disabled = !output.LastEvaluatedKey;
      $("#page-info").textContent = `page ${this.page + 1} · ${output.Count} item${output.Count === 1 ? "" : "s"}` +
        (output.ScannedCount !== output.Count ? ` of ${output.ScannedCount} read` : "");
      this.showItems(output.Items || []);
      $("#results").dataset.runs = String(Number($("#results").dataset.runs || 0) + 1); // for tests: a new answer is shown
    } catch (error) {
      showError(box, error);
    }
  }

  /** Runs from the first page (after the builder changed). */
  restart() {
    this.pages = [undefined];
    this.page = 0;
    return this.run();
  }

  showItems(items) {
    const { hash, range } = this.keys();
    const keyColumns = [...new Set([...this.table.KeySchema.map((k) => k.AttributeName), hash, range].filter(Boolean))];
    renderGrid($("#results"), items, keyColumns, (item) => this.openEditor(item));
  }

  /** The key of an item under the table's key schema. */
  keyOf(item) {
    return Object.fromEntries(this.table.KeySchema.map((k) => [k.AttributeName, item[k.AttributeName]]));
  }

  /** The item with the table's key attributes first, the rest in name order. */
  keysFirst(item) {
    const keys = this.table.KeySchema.map((k) => k.AttributeName);
    const rest = Object.keys(item).filter((name) => !keys.includes(name)).sort();
    return Object.fromEntries([...keys, ...rest].filter((name) => name in item).map((name) => [name, item[name]]));
  }

  openEditor(item) {
    this.editing = item;
    const dialog = $("#item-dialog");
    $("#item-title").textContent = item ? "Edit item" : "New item";
    $("#item-delete").hidden = !item;
    $("#item-delete").textContent = "Delete item";
    $("#item-form").elements.format.value = "ddb";
    const template = item || Object.fromEntries(this.table.KeySchema.map((k) => {
      const type = this.table.AttributeDefinitions.find((d) => d.AttributeName === k.AttributeName).AttributeType;
      return [k.AttributeName, { [type]: "" }];
    }));
    $("#item-text").value = JSON.stringify(this.keysFirst(template), null, 2);
    const lossy = item && plainIsLossy(item);
    $("#item-note").hidden = !lossy;
    $("#item-note").textContent = lossy ? "This item holds sets or binary values: plain JSON shows them as arrays and base64 text, and saving plain JSON stores lists and strings." : "";
    $("#item-size").textContent = item ? `about ${bytes(approximateSize(item))}` : "";
    showError($("#item-error"), null);
    dialog.showModal();
    $("#item-text").focus();
    $("#item-text").setSelectionRange(0, 0);
    $("#item-text").scrollTop = 0;
  }

  /** The editor's text as a DynamoDB item, checked; throws `ItemError` with a location. */
  editedItem(format = $("#item-form").elements.format.value) {
    const parsed = parseJSON($("#item-text").value);
    return format === "plain" ? itemFromPlain(parsed) : toWire(checkItem(parsed));
  }

  switchFormat(format) {
    const previous = format === "plain" ? "ddb" : "plain";
    try {
      const item = this.editedItem(previous);
      $("#item-text").value = format === "plain" ? stringify(Object.fromEntries(Object.entries(item).map(([k, v]) => [k, toPlain(v)])))
        : JSON.stringify(item, null, 2);
      showError($("#item-error"), null);
    } catch (error) {
      $("#item-form").elements.format.value = previous;
      showError($("#item-error"), error);
    }
  }

  async saveItem() {
    let item;
    try {
      item = this.editedItem();
    } catch (error) {
      showError($("#item-error"), error instanceof ItemError ? error : new ItemError(error.message));
      return;
    }
    try {
      const output = await this.app.api.call("PutItem", { TableName: this.table.TableName, Item: item, ReturnConsumedCapacity: "TOTAL" });
      $("#item-dialog").close();
      const moved = this.editing && JSON.stringify(this.keyOf(item)) !== JSON.stringify(this.keyOf(this.editing));
      this.app.status(moved ? "Saved a new item: its key changed, so the original item is still there"
        : `Saved the item (${output.ConsumedCapacity?.CapacityUnits ?? "?"} write units)`);
      await this.afterWrite();
    } catch (error) {
      showError($("#item-error"), error);
    }
  }

  async deleteItem() {
    const button = $("#item-delete");
    if (button.textContent !== "Confirm delete") { button.textContent = "Confirm delete"; return; }
    try {
      await this.app.api.call("DeleteItem", { TableName: this.table.TableName, Key: this.keyOf(this.editing) });
      $("#item-dialog").close();
      this.app.status("Deleted the item");
      await this.afterWrite();
    } catch (error) {
      showError($("#item-error"), error);
    }
  }

  async afterWrite() {
    await this.run();
    await this.app.openTable(this.table.TableName);
  }

  bind() {
    const form = $("#builder");
    form.addEventListener("submit", (e) => { e.preventDefault(); this.restart(); });
    form.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.restart(); } });
    form.addEventListener("change", (e) => {
      if (e.target.name === "mode") form.classList.toggle("query", form.elements.mode.value === "Query");
      if (e.target.name === "index") this.renderKeyConditions();
    });
    $("#add-filter").addEventListener("click", () => this.addFilter());
    $("#add-item").addEventListener("click", () => this.openEditor(null));
    $("#next-page").addEventListener("click", () => { this.page++; this.run(); });
    $("#prev-page").addEventListener("click", () => { this.page = Math.max(0, this.page - 1); this.run(); });
    $("#item-save").addEventListener("click", () => this.saveItem());
    $("#item-delete").addEventListener("click", () => this.deleteItem());
    $("#item-text").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.saveItem(); }
    });
    $("#item-wrap").addEventListener("change", (e) => $("#item-text").classList.toggle("wrap", e.target.checked));
    $$("#item-form input[name=format]").forEach((r) => r.addEventListener("change", () => this.switchFormat(r.value)));
  }
}
