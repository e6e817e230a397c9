// The PartiQL box: ExecuteStatement with optional parameters, its results and its pages.
import { $, showError } from "./dom.js";
import { renderGrid } from "./grid.js";
import { checkItem, parseJSON, toWire } from "./json.js";

export class PartiQLView {
  constructor(app) {
    this.app = app;
  }

  reset(table) {
    this.table = table;
    this.nextToken = undefined;
    $("#partiql-statement").value = `SELECT * FROM "${table.TableName}"`;
    $("#partiql-parameters").value = "";
    $("#partiql-results").replaceChildren();
    $("#partiql-capacity").textContent = "";
    $("#partiql-next").hidden = true;
    showError($("#partiql-error"), null);
  }

  /** The statement's parameters: a JSON array of DynamoDB values, each checked. */
  parameters() {
    const text = $("#partiql-parameters").value.trim();
    if (!text) return undefined;
    const parsed = parseJSON(text);
    if (!Array.isArray(parsed)) throw new Error("Parameters are a JSON array of values, e.g. [{\"S\": \"a\"}]");
    return parsed.map((value, n) => toWire(checkItem({ [`parameter ${n + 1}`]: value }))[`parameter ${n + 1}`]);
  }

  async run(next = false) {
    const box = $("#partiql-error");
    try {
      const input = { Statement: $("#partiql-statement").value, ReturnConsumedCapacity: "TOTAL" };
      const parameters = this.parameters();
      if (parameters) input.Parameters = parameters;
      if (next && this.nextToken) input.NextToken = this.nextToken;
      const output = await this.app.api.call("ExecuteStatement", input);
      showError(box, null);
      this.nextToken = output.NextToken;
      $("#partiql-next").hidden = !output.NextToken;
      const items = output.Items || [];
      $("#partiql-capacity").textContent = `${items.length} item${items.length === 1 ? "" : "s"}` +
        (output.ConsumedCapacity ? ` · ${output.ConsumedCapacity.CapacityUnits} capacity units` : "");
      const keys = this.table.KeySchema.map((k) => k.AttributeName);
      renderGrid($("#partiql-results"), items, keys, (item) => this.app.items.openEditor(item));
      if (!/^\s*select/i.test(input.Statement)) this.app.openTable(this.table.TableName);
    } catch (error) {
      showError(box, error);
    }
  }

  bind() {
    $("#run-partiql").addEventListener("click", () => this.run());
    $("#partiql-next").addEventListener("click", () => this.run(true));
    for (const field of ["#partiql-statement", "#partiql-parameters"]) {
      $(field).addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); this.run(); }
      });
    }
  }
}
