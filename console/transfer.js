// Import and export of a table as JSON lines files, through Scan and BatchWriteItem, and the
// table's bulk operations (ListBulkOperations, DescribeBulkOperation, CancelBulkOperation).
import { $, el } from "./dom.js";
import { checkItem, itemFromPlain, parseJSON, toWire } from "./json.js";

const BATCH = 25;

/** Whether a parsed line is DynamoDB JSON (every attribute a one-key object of a known type). */
function looksTyped(value) {
  const types = new Set(["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"]);
  return Object.values(value).every((v) => v && typeof v === "object" && !Array.isArray(v) &&
    Object.keys(v).length === 1 && types.has(Object.keys(v)[0]));
}

export class TransferView {
  constructor(app) {
    this.app = app;
  }

  reset(table) {
    this.table = table;
    $("#export-status").textContent = "";
    $("#import-status").textContent = "";
    $("#import-errors").replaceChildren();
    $("#bulk-status").textContent = "";
    $("#bulk-list").replaceChildren();
    this.listBulkOperations();
  }

  /** Lists the table's bulk operations (ListBulkOperations, every page), each described for its counts. */
  async listBulkOperations() {
    const table = this.table;
    const list = $("#bulk-list");
    const status = $("#bulk-status");
    const marker = `:table/${table.TableName}/bulk-operation/`;
    try {
      const summaries = [];
      let token;
      do {
        const output = await this.app.api.call("ListBulkOperations", token ? { NextToken: token } : {});
        summaries.push(...(output.BulkOperationsSummaryList || []).filter((s) => s.BulkOperationArn.includes(marker)));
        token = output.NextToken;
      } while (token);
      const rows = [];
      for (const summary of summaries) {
        const { BulkOperationDescription: d } = await this.app.api.call("DescribeBulkOperation", { BulkOperationArn: summary.BulkOperationArn });
        const id = d.BulkOperationArn.split("/").pop();
        const counts = `${d.ProcessedItemCount ?? 0} processed, ${d.FailedItemCount ?? 0} failed` +
          (d.TotalInputBytes !== undefined ? ` · ${d.ProcessedInputBytes ?? 0} of ${d.TotalInputBytes} bytes` : "");
        const failure = d.FailureCode ? ` · ${d.FailureCode}: ${d.FailureMessage || ""}` : "";
        const cancel = d.BulkOperationStatus === "IN_PROGRESS"
          ? el("button", { type: "button", class: "bulk-cancel", onclick: () => this.cancelBulkOperation(d.BulkOperationArn) }, "Cancel")
          : null;
        rows.push(el("li", { "data-arn": d.BulkOperationArn }, el("code", {}, id), ` ${d.BulkOperationStatus} · ${counts}${failure} `, cancel));
      }
      if (table !== this.table) return;
      list.replaceChildren(...rows);
      status.textContent = rows.length ? "" : "No bulk operations for this table.";
    } catch (error) {
      if (table === this.table) status.textContent = error.message;
    }
  }

  async cancelBulkOperation(arn) {
    try {
      const output = await this.app.api.call("CancelBulkOperation", { BulkOperationArn: arn });
      $("#bulk-status").textContent = `${arn.split("/").pop()}: ${output.BulkOperationStatus}`;
    } catch (error) {
      $("#bulk-status").textContent = error.message;
    }
    await this.listBulkOperations();
  }

  async exportTable() {
    const status = $("#export-status");
    const lines = [];
    let start;
    try {
      do {
        const input = { TableName: this.table.TableName };
        if (start) input.ExclusiveStartKey = start;
        const output = await this.app.api.call("Scan", input);
        for (const item of output.Items) lines.push(JSON.stringify(item));
        status.textContent = `${lines.length} items read…`;
        start = output.LastEvaluatedKey;
      } while (start);
    } catch (error) {
      status.textContent = error.message;
      return;
    }
    const blob = new Blob([lines.join("\n") + (lines.length ? "\n" : "")], { type: "application/x-ndjson" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `${this.table.TableName}.jsonl` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    status.textContent = `Exported ${lines.length} items to ${this.table.TableName}.jsonl`;
  }

  /** Sends one batch, resending unprocessed items (with a growing pause) until none remain. */
  async writeBatch(items) {
    let requests = items.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length; attempt++) {
      if (attempt) await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 50 * 2 ** attempt)));
      const output = await this.app.api.call("BatchWriteItem", { RequestItems: { [this.table.TableName]: requests } });
      requests = output.UnprocessedItems?.[this.table.TableName] || [];
    }
  }

  async importFile() {
    const file = $("#import-file").files[0];
    const status = $("#import-status");
    const errors = $("#import-errors");
    errors.replaceChildren();
    if (!file) { status.textContent = "Choose a file first."; return; }
    const lines = (await file.text()).split(/\r?\n/);
    const items = [];
    lines.forEach((line, n) => {
      if (!line.trim()) return;
      try {
        const parsed = parseJSON(line);
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("a line holds one JSON object (an item)");
        items.push(looksTyped(parsed) ? toWire(checkItem(parsed)) : itemFromPlain(parsed));
      } catch (error) {
        errors.append(el("li", {}, `line ${n + 1}: ${error.message}`));
      }
    });
    let written = 0;
    try {
      for (let i = 0; i < items.length; i += BATCH) {
        await this.writeBatch(items.slice(i, i + BATCH));
        written += Math.min(BATCH, items.length - i);
        status.textContent = `${written} of ${items.length} items written…`;
      }
    } catch (error) {
      status.textContent = `Stopped after ${written} items: ${error.message}`;
      return;
    }
    const skipped = errors.children.length;
    status.textContent = `Imported ${written} items from ${file.name}` + (skipped ? `; ${skipped} bad line${skipped === 1 ? "" : "s"} skipped` : "");
    await this.app.openTable(this.table.TableName);
    this.app.items.loaded = false;
  }

  bind() {
    $("#export-button").addEventListener("click", () => this.exportTable());
    $("#import-button").addEventListener("click", () => this.importFile());
    $("#bulk-refresh").addEventListener("click", () => this.listBulkOperations());
  }
}
