// A table's overview, the create-table dialog and table deletion.
import { $, $$, bytes, el, keyText, showError } from "./dom.js";

function definitionList(pairs) {
  return el("dl", {}, pairs.filter(([, v]) => v !== undefined && v !== "").flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

function indexCard(index, kind, definitions) {
  const projection = index.Projection || {};
  return el("div", { class: "card" },
    el("h2", {}, index.IndexName),
    definitionList([
      ["Kind", kind],
      ["Keys", keyText(index.KeySchema, definitions)],
      ["Projection", projection.ProjectionType + (projection.NonKeyAttributes ? `: ${projection.NonKeyAttributes.join(", ")}` : "")],
      ["Status", index.IndexStatus],
      ["Items", index.ItemCount],
      ["Size", bytes(index.IndexSizeBytes)],
    ]));
}

/** Fills the overview tab: key schema, counts, sizes, capacity, stream and every index. */
export function renderOverview(app, table) {
  const definitions = table.AttributeDefinitions || [];
  const stream = table.StreamSpecification?.StreamEnabled ? `${table.StreamSpecification.StreamViewType}` : "off";
  const billing = table.BillingModeSummary?.BillingMode || "PROVISIONED";
  const throughput = table.ProvisionedThroughput;
  $("#overview").replaceChildren(
    el("div", { class: "cards" },
      el("div", { class: "card" }, el("div", { class: "muted" }, "Items"), el("div", { class: "stat" }, table.ItemCount)),
      el("div", { class: "card" }, el("div", { class: "muted" }, "Size"), el("div", { class: "stat" }, bytes(table.TableSizeBytes))),
      el("div", { class: "card" }, el("div", { class: "muted" }, "Keys"), el("div", { class: "stat" }, keyText(table.KeySchema, definitions)))),
    el("h3", {}, "Table"),
    el("div", { class: "card" }, definitionList([
      ["Status", table.TableStatus],
      ["Billing", billing === "PAY_PER_REQUEST" ? "on demand" : `provisioned: ${throughput?.ReadCapacityUnits} read, ${throughput?.WriteCapacityUnits} write`],
      ["Stream", stream],
      ["Stream ARN", table.LatestStreamArn],
      ["Created", table.CreationDateTime ? new Date(table.CreationDateTime * 1000).toLocaleString() : ""],
      ["ARN", table.TableArn],
      ["Attributes", definitions.map((d) => `${d.AttributeName} (${d.AttributeType})`).join(", ")],
    ])),
    el("h3", {}, "Indexes"),
    (table.GlobalSecondaryIndexes || table.LocalSecondaryIndexes)
      ? el("div", { class: "cards fill" },
        (table.GlobalSecondaryIndexes || []).map((i) => indexCard(i, "global", definitions)),
        (table.LocalSecondaryIndexes || []).map((i) => indexCard(i, "local", definitions)))
      : el("p", { class: "muted" }, "No secondary indexes."),
    el("h3", {}, "Vector indexes"),
    table.VectorIndexes?.length
      ? el("div", { class: "cards fill" }, table.VectorIndexes.map((i) => vectorIndexCard(i, definitions)))
      : el("p", { class: "muted" }, "No vector indexes."),
  );
}

function vectorIndexCard(index, definitions) {
  const types = Object.fromEntries(definitions.map((d) => [d.AttributeName, d.AttributeType]));
  const projection = index.Projection || {};
  return el("div", { class: "card", "data-vector-index": index.IndexName },
    el("h2", {}, index.IndexName),
    definitionList([
      ["Vector", `${index.VectorAttribute?.AttributeName} · ${index.Dimensions} dimensions · ${index.DistanceFunction}`],
      ["Search schema", (index.SearchSchema || []).map((e) => `${e.AttributeName} (${types[e.AttributeName] || "?"}, ${e.SearchSchemaElementType})`).join(", ")],
      ["Projection", projection.ProjectionType + (projection.NonKeyAttributes ? `: ${projection.NonKeyAttributes.join(", ")}` : "")],
      ["Status", index.IndexStatus + (index.Backfilling ? " (backfilling)" : "")],
      ["Items", index.ItemCount],
      ["Size", bytes(index.IndexSizeBytes)],
    ]));
}

function indexRow(kind) {
  const row = el("div", { class: "index-row", "data-kind": kind },
    el("span", { class: "kind" }, kind === "global" ? "Global secondary index" : "Local secondary index (same partition key)"),
    el("label", { class: "grow" }, "Index name", el("input", { name: "name", required: true, spellcheck: "false" })),
    kind === "global" ? el("label", {}, "Partition key", el("input", { name: "pk", required: true, spellcheck: "false" })) : null,
    kind === "global" ? el("label", {}, "Type", typeSelect("pkType")) : null,
    el("label", {}, kind === "global" ? "Sort key (optional)" : "Sort key",
      el("input", { name: "sk", required: kind === "local", spellcheck: "false" })),
    el("label", {}, "Type", typeSelect("skType")),
    el("button", { type: "button", class: "ghost", onclick: () => row.remove(), "aria-label": "Remove index" }, "Remove"));
  return row;
}

function typeSelect(name) {
  return el("select", { name }, ["S", "N", "B"].map((t) => el("option", {}, t)));
}

/** The CreateTable input the dialog describes. */
function createInput(form) {
  const value = (name, root = form) => root.querySelector(`[name=${name}]`).value.trim();
  const definitions = new Map();
  const define = (name, type) => {
    if (definitions.has(name) && definitions.get(name) !== type) throw new Error(`${name} is given two types (${definitions.get(name)} and ${type})`);
    definitions.set(name, type);
  };
  const keys = (pk, sk) => [{ AttributeName: pk, KeyType: "HASH" }, ...(sk ? [{ AttributeName: sk, KeyType: "RANGE" }] : [])];
  define(value("pk"), value("pkType"));
  if (value("sk")) define(value("sk"), value("skType"));
  const input = { TableName: value("TableName"), KeySchema: keys(value("pk"), value("sk")), BillingMode: value("billing") };
  if (input.BillingMode === "PROVISIONED") input.ProvisionedThroughput = { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
  if (value("stream")) input.StreamSpecification = { StreamEnabled: true, StreamViewType: value("stream") };
  for (const row of $$(".index-row", form)) {
    const global = row.dataset.kind === "global";
    const pk = global ? value("pk", row) : value("pk");
    if (global) define(pk, value("pkType", row));
    if (value("sk", row)) define(value("sk", row), value("skType", row));
    const index = { IndexName: value("name", row), KeySchema: keys(pk, value("sk", row)), Projection: { ProjectionType: "ALL" } };
    if (global && input.ProvisionedThroughput) index.ProvisionedThroughput = input.ProvisionedThroughput;
    const list = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";
    (input[list] ||= []).push(index);
  }
  input.AttributeDefinitions = [...definitions].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType }));
  return input;
}

/** Opens the create-table dialog; creating opens the new table. */
export function openCreateTable(app) {
  const dialog = $("#create-dialog");
  const form = $("#create-form");
  form.reset();
  $("#index-rows").replaceChildren();
  showError($("#create-error"), null);
  dialog.showModal();
  form.elements.TableName.focus();
  $("#add-gsi").onclick = () => $("#index-rows").append(indexRow("global"));
  $("#add-lsi").onclick = () => $("#index-rows").append(indexRow("local"));
  form.onsubmit = async (event) => {
    if (event.submitter?.value === "cancel") return;
    event.preventDefault();
    try {
      const input = createInput(form);
      await app.api.call("CreateTable", input);
      dialog.close();
      await app.loadTables();
      await app.openTable(input.TableName);
      app.status(`Created ${input.TableName}`);
    } catch (error) {
      showError($("#create-error"), error);
    }
  };
}

/** Asks for the table's name, then deletes it. */
export function confirmDelete(app, name) {
  const dialog = $("#confirm-dialog");
  $("#confirm-title").textContent = `Delete ${name}?`;
  $("#confirm-text").textContent = "The table, its indexes, items and stream records are deleted. This cannot be undone.";
  $("#confirm-expected").textContent = name;
  $("#confirm-typed-label").hidden = false;
  const typed = $("#confirm-typed");
  typed.value = "";
  const ok = $("#confirm-ok");
  ok.disabled = true;
  typed.oninput = () => { ok.disabled = typed.value !== name; };
  dialog.returnValue = "";
  dialog.onclose = async () => {
    if (dialog.returnValue !== "ok") return;
    try {
      await app.api.call("DeleteTable", { TableName: name });
      app.showTable(null);
      await app.loadTables();
      app.status(`Deleted ${name}`);
    } catch (error) {
      app.status(error.message, true);
    }
  };
  dialog.showModal();
  typed.focus();
}
