// The console's shell: namespaces (credentials and region), the table list, the table view's
// tabs and the keyboard. The views live in their own modules.
import { Api } from "./api.js";
import { $, $$, bytes, el, isTyping } from "./dom.js";
import { ItemsView } from "./items.js";
import { RequestLog } from "./log.js";
import { PartiQLView } from "./partiql.js";
import { StreamView } from "./stream.js";
import { openCreateTable, confirmDelete, renderOverview } from "./tables.js";
import { TransferView } from "./transfer.js";
import { VectorView } from "./vectors.js";

const STORAGE_KEY = "localdynamo.console.namespaces";
const DEFAULT_NAMESPACE = { label: "us-east-1", region: "us-east-1", accessKeyId: "local", secretAccessKey: "local" };

class Console {
  constructor() {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
    this.namespaces = stored?.list?.length ? stored.list : [DEFAULT_NAMESPACE];
    this.current = Math.min(stored?.current ?? 0, this.namespaces.length - 1);
    this.api = new Api(() => this.namespaces[this.current]);
    this.tables = [];
    this.descriptions = {};
    this.table = null;
    this.tab = "overview";
    this.cursor = -1;
    this.log = new RequestLog(this.api);
    this.items = new ItemsView(this);
    this.partiql = new PartiQLView(this);
    this.stream = new StreamView(this);
    this.transfer = new TransferView(this);
    this.vectors = new VectorView(this);
  }

  /** One line in the top bar: what just happened, or what went wrong. */
  status(message, bad = false) {
    const box = $("#status");
    box.textContent = message;
    box.title = message;
    box.classList.toggle("bad", bad);
  }

  save() {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ list: this.namespaces, current: this.current }));
  }

  renderNamespaces() {
    const select = $("#namespace");
    select.replaceChildren(...this.namespaces.map((ns, n) =>
      el("option", { value: n, selected: n === this.current }, `${ns.label} · ${ns.accessKeyId} @ ${ns.region}`)));
  }

  async switchNamespace(index) {
    this.current = (index + this.namespaces.length) % this.namespaces.length;
    this.save();
    this.renderNamespaces();
    this.table = null;
    this.showTable(null);
    await this.loadTables();
  }

  /** Lists the namespace's tables (every page) and describes each for the sidebar. */
  async loadTables() {
    const names = [];
    let start;
    try {
      do {
        const page = await this.api.call("ListTables", start ? { ExclusiveStartTableName: start } : {});
        names.push(...page.TableNames);
        start = page.LastEvaluatedTableName;
      } while (start);
    } catch (error) {
      this.status(error.message, true);
      return;
    }
    this.tables = names;
    const described = await Promise.allSettled(names.map((name) => this.api.call("DescribeTable", { TableName: name })));
    this.descriptions = {};
    described.forEach((result, n) => { if (result.status === "fulfilled") this.descriptions[names[n]] = result.value.Table; });
    this.renderTableList();
    const ns = this.namespaces[this.current];
    this.status(`${names.length} table${names.length === 1 ? "" : "s"} in ${ns.region} as ${ns.accessKeyId}`);
  }

  renderTableList() {
    const filter = $("#table-filter").value.trim().toLowerCase();
    const visible = this.tables.filter((name) => name.toLowerCase().includes(filter));
    $("#table-list").replaceChildren(...visible.map((name, n) => {
      const table = this.descriptions[name];
      const info = table ? `${table.ItemCount} item${table.ItemCount === 1 ? "" : "s"} · ${bytes(table.TableSizeBytes)}` +
        (table.GlobalSecondaryIndexes || table.LocalSecondaryIndexes ? ` · ${(table.GlobalSecondaryIndexes || []).length + (table.LocalSecondaryIndexes || []).length} idx` : "") : "";
      return el("li", {
        role: "option", "data-table": name, title: name, "aria-selected": String(this.table?.TableName === name),
        class: [this.table?.TableName === name ? "selected" : "", n === this.cursor ? "cursor" : ""].join(" "),
        onclick: () => this.openTable(name),
      }, el("span", { class: "name" }, name), el("span", { class: "info" }, info));
    }));
    $("#table-list-note").textContent = this.tables.length ? "" : "No tables yet in this namespace.";
  }

  moveCursor(step) {
    const items = $$("#table-list li");
    if (!items.length) return;
    this.cursor = Math.max(0, Math.min(items.length - 1, this.cursor + step));
    items.forEach((li, n) => li.classList.toggle("cursor", n === this.cursor));
    items[this.cursor].scrollIntoView({ block: "nearest" });
  }

  async openTable(name) {
    try {
      const { Table } = await this.api.call("DescribeTable", { TableName: name });
      this.descriptions[name] = Table;
      this.showTable(Table);
    } catch (error) {
      this.status(error.message, true);
    }
  }

  /** Shows a table (or the welcome page for `null`) on its current tab. */
  showTable(table) {
    const changed = this.table?.TableName !== table?.TableName;
    this.table = table;
    $("#welcome").hidden = !!table;
    $("#table-view").hidden = !table;
    this.renderTableList();
    if (!table) { this.stream.stop(); return; }
    $("#table-name").textContent = table.TableName;
    $("#table-summary").textContent = `${table.TableStatus.toLowerCase()} · ${table.ItemCount} item${table.ItemCount === 1 ? "" : "s"} · ${bytes(table.TableSizeBytes)}`;
    renderOverview(this, table);
    if (changed) {
      this.items.reset(table);
      this.partiql.reset(table);
      this.stream.reset(table);
      this.transfer.reset(table);
      this.vectors.reset(table);
    }
    this.selectTab(this.tab);
  }

  selectTab(tab) {
    this.tab = tab;
    // Cancel buttons are not submit buttons, so Enter in a dialog's field submits its main action.
    $$(".close-dialog").forEach((b) => b.addEventListener("click", () => b.closest("dialog").close("cancel")));
    $$(".tabs button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === tab)));
    $$(".panel").forEach((p) => { p.hidden = p.dataset.panel !== tab; });
    if (tab === "stream") this.stream.start(); else this.stream.stop();
    if (tab === "items" && !this.items.loaded) this.items.run();
  }

  async refresh() {
    await this.loadTables();
    if (this.table) await this.openTable(this.table.TableName);
  }

  editNamespace(asNew) {
    const dialog = $("#settings-dialog");
    const form = $("#settings-form");
    const ns = this.namespaces[this.current];
    for (const field of ["label", "region", "accessKeyId", "secretAccessKey"]) form.elements[field].value = ns[field];
    $("#remove-namespace").disabled = this.namespaces.length < 2;
    dialog.returnValue = "";
    dialog.showModal();
    this.pendingNew = asNew;
  }

  bind() {
    $("#namespace").addEventListener("change", (e) => this.switchNamespace(Number(e.target.value)));
    $("#open-settings").addEventListener("click", () => this.editNamespace(false));
    $("#open-help").addEventListener("click", () => $("#help-dialog").showModal());
    const form = $("#settings-form");
    const read = () => Object.fromEntries(["label", "region", "accessKeyId", "secretAccessKey"].map((f) => [f, form.elements[f].value.trim()]));
    $("#save-as-new").addEventListener("click", () => {
      if (!form.reportValidity()) return;
      this.namespaces.push(read());
      $("#settings-dialog").close();
      this.switchNamespace(this.namespaces.length - 1);
    });
    $("#remove-namespace").addEventListener("click", () => {
      this.namespaces.splice(this.current, 1);
      $("#settings-dialog").close();
      this.switchNamespace(0);
    });
    $("#settings-dialog").addEventListener("close", () => {
      if ($("#settings-dialog").returnValue !== "save") return;
      this.namespaces[this.current] = read();
      this.switchNamespace(this.current);
    });
    $("#table-filter").addEventListener("input", () => { this.cursor = -1; this.renderTableList(); });
    $("#table-filter").addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown") { e.preventDefault(); $("#table-list").focus(); this.moveCursor(1); }
      if (e.key === "Enter") { const first = $("#table-list li"); if (first) this.openTable(first.dataset.table); }
    });
    $("#table-list").addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "j") { e.preventDefault(); this.moveCursor(1); }
      if (e.key === "ArrowUp" || e.key === "k") { e.preventDefault(); this.moveCursor(-1); }
      if (e.key === "Enter") { const li = $$("#table-list li")[this.cursor]; if (li) this.openTable(li.dataset.table); }
    });
    $("#new-table").addEventListener("click", () => openCreateTable(this));
    $("#refresh-table").addEventListener("click", () => this.refresh());
    $("#delete-table").addEventListener("click", () => confirmDelete(this, this.table.TableName));
    // Cancel buttons are not submit buttons, so Enter in a dialog's field submits its main action.
    $$(".close-dialog").forEach((b) => b.addEventListener("click", () => b.closest("dialog").close("cancel")));
    $$(".tabs button").forEach((b) => b.addEventListener("click", () => this.selectTab(b.dataset.tab)));
    document.addEventListener("keydown", (e) => this.shortcut(e));
    this.log.bind();
    this.items.bind();
    this.partiql.bind();
    this.stream.bind();
    this.transfer.bind();
    this.vectors.bind();
  }

  shortcut(event) {
    if (document.querySelector("dialog[open]") || event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
    const tabs = ["overview", "items", "partiql", "stream", "transfer", "vectors"];
    const key = event.key;
    if (key === "/") { event.preventDefault(); $("#table-filter").focus(); }
    else if (key === "?") $("#help-dialog").showModal();
    else if (key === "c") { event.preventDefault(); openCreateTable(this); }
    else if (key === "n") this.switchNamespace(this.current + 1);
    else if (key === "r") this.refresh();
    else if (key === "l") $("#open-log").click();
    else if (this.table && key >= "1" && key <= "6") this.selectTab(tabs[Number(key) - 1]);
    else if (this.table && key === "a") { event.preventDefault(); this.items.openEditor(null); }
  }
}

const app = new Console();
window.localDynamoConsole = app;
app.bind();
app.renderNamespaces();
app.loadTables();
