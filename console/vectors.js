// The Vectors tab: the table's vector indexes and SearchVectors over one of them, its results
// ranked with their scores.
import { $, el, showError } from "./dom.js";
import { Num, checkItem, parseJSON, preview, toWire } from "./json.js";

export class VectorView {
  constructor(app) {
    this.app = app;
  }

  reset(table) {
    this.table = table;
    const indexes = table.VectorIndexes || [];
    $("#vector-index").replaceChildren(...indexes.map((index) =>
      el("option", { value: index.IndexName }, `${index.IndexName} · ${index.VectorAttribute?.AttributeName} · ` +
        `${index.Dimensions} dimensions · ${index.DistanceFunction} · ${index.IndexStatus}`)));
    $("#vector-none").hidden = indexes.length > 0;
    $("#vector-form").hidden = indexes.length === 0;
    $("#vector-results").replaceChildren();
    $("#vector-summary").textContent = "";
    showError($("#vector-error"), null);
  }

  /** The search vector: a JSON array of numbers (or DynamoDB numbers, {"N": "0.5"}). */
  vector() {
    const parsed = parseJSON($("#vector-values").value.trim() || "[]");
    if (!Array.isArray(parsed) || parsed.length === 0) throw new Error("The vector is a JSON array of numbers, e.g. [0.1, 0.7, 0.2]");
    return parsed.map((value, n) => {
      if (value instanceof Num) return { N: value.text };
      if (value && typeof value === "object" && typeof value.N === "string") return { N: value.N };
      throw new Error(`Element ${n + 1} of the vector is not a number`);
    });
  }

  /** The request: index, vector, TopK and the optional condition with its names and values. */
  input() {
    const input = {
      TableName: this.table.TableName, IndexName: $("#vector-index").value, SearchVector: this.vector(),
      TopK: Number($("#vector-topk").value), ReturnConsumedCapacity: "TOTAL",
    };
    const condition = $("#vector-condition").value.trim();
    if (condition) input.SearchConditionExpression = condition;
    const names = $("#vector-names").value.trim();
    if (names) input.ExpressionAttributeNames = parseJSON(names);
    const values = $("#vector-values-map").value.trim();
    if (values) input.ExpressionAttributeValues = toWire(checkItem(parseJSON(values)));
    return input;
  }

  async run() {
    const box = $("#vector-error");
    try {
      const output = await this.app.api.call("SearchVectors", this.input());
      showError(box, null);
      const results = output.SearchResults || [];
      $("#vector-summary").textContent = `${results.length} result${results.length === 1 ? "" : "s"}` +
        (output.ConsumedCapacity?.VectorSearchRequestBytes !== undefined
          ? ` · ${output.ConsumedCapacity.VectorSearchRequestBytes} vector search request bytes` : "");
      this.render(results);
    } catch (error) {
      showError(box, error);
    }
  }

  /** The ranked results: rank, score, the item's keys and a preview of the item; a row opens the item. */
  render(results) {
    if (!results.length) {
      $("#vector-results").replaceChildren(el("div", { class: "empty" }, "No items."));
      return;
    }
    const keys = this.table.KeySchema.map((k) => k.AttributeName);
    const rows = results.map((result, n) => el("tr", {
      tabindex: "0", "data-rank": n + 1,
      onclick: () => this.app.items.openEditor(result.Item),
      onkeydown: (e) => { if (e.key === "Enter") this.app.items.openEditor(result.Item); },
    },
    el("td", {}, String(n + 1)),
    el("td", { class: "score" }, String(result.Score)),
    keys.map((k) => el("td", {}, result.Item?.[k] ? preview(result.Item[k], 80) : "")),
    el("td", { title: preview({ M: result.Item || {} }, 400) }, preview({ M: result.Item || {} }, 120))));
    $("#vector-results").replaceChildren(el("table", {},
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "Score"), keys.map((k) => el("th", { class: "key" }, k)), el("th", {}, "Item"))),
      el("tbody", {}, rows)));
  }

  bind() {
    $("#vector-form").addEventListener("submit", (e) => { e.preventDefault(); this.run(); });
    $("#vector-values").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.run(); }
    });
  }
}
