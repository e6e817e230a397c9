// A table's stream records as they arrive: DescribeStream for the shards, an iterator per shard
// from TRIM_HORIZON, then GetRecords once a second while the tab is open.
import { $, el } from "./dom.js";
import { stringify, toPlain } from "./json.js";

const POLL_MS = 1000;

export class StreamView {
  constructor(app) {
    this.app = app;
    this.timer = null;
  }

  reset(table) {
    this.stop();
    this.table = table;
    this.iterators = new Map();
    this.lastSequence = new Map();
    this.seen = 0;
    $("#stream-records").replaceChildren();
    const spec = table.StreamSpecification;
    $("#stream-state").textContent = spec?.StreamEnabled
      ? `Stream ${spec.StreamViewType} · ${table.LatestStreamArn}`
      : "This table has no stream. Create a table with a stream (or UpdateTable with a StreamSpecification) to watch its changes here.";
  }

  start() {
    if (this.timer || !this.table?.LatestStreamArn || !this.table.StreamSpecification?.StreamEnabled) return;
    const tick = async () => {
      try {
        await this.poll();
      } catch (error) {
        this.app.status(error.message, true);
      }
      if (this.timer) this.timer = setTimeout(tick, POLL_MS);
    };
    this.timer = setTimeout(tick, 0);
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async poll() {
    const arn = this.table.LatestStreamArn;
    const { StreamDescription } = await this.app.api.streams("DescribeStream", { StreamArn: arn });
    for (const shard of StreamDescription.Shards || []) {
      if (this.iterators.has(shard.ShardId)) continue;
      const { ShardIterator } = await this.app.api.streams("GetShardIterator",
        { StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: "TRIM_HORIZON" });
      this.iterators.set(shard.ShardId, ShardIterator);
    }
    for (const [shard, iterator] of this.iterators) {
      if (!iterator) continue;
      let output;
      try {
        output = await this.app.api.streams("GetRecords", { ShardIterator: iterator, Limit: 100 });
      } catch (error) {
        if (error.type !== "ExpiredIteratorException" && error.type !== "TrimmedDataAccessException") throw error;
        // An iterator lives 15 minutes: take a new one after the last record shown.
        const last = this.lastSequence.get(shard);
        const { ShardIterator } = await this.app.api.streams("GetShardIterator", last
          ? { StreamArn: arn, ShardId: shard, ShardIteratorType: "AFTER_SEQUENCE_NUMBER", SequenceNumber: last }
          : { StreamArn: arn, ShardId: shard, ShardIteratorType: "TRIM_HORIZON" });
        this.iterators.set(shard, ShardIterator);
        continue;
      }
      this.iterators.set(shard, output.NextShardIterator);
      for (const record of output.Records || []) {
        this.lastSequence.set(shard, record.dynamodb?.SequenceNumber);
        this.show(record);
      }
    }
  }

  show(record) {
    const change = record.dynamodb || {};
    const image = (name, value) => value ? el("details", {}, el("summary", { class: "muted small" }, name),
      el("pre", {}, stringify(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]))))) : null;
    const when = change.ApproximateCreationDateTime ? new Date(change.ApproximateCreationDateTime * 1000).toLocaleTimeString() : "";
    const keys = change.Keys ? stringify(Object.fromEntries(Object.entries(change.Keys).map(([k, v]) => [k, toPlain(v)])), 0) : "";
    this.seen++;
    $("#stream-records").prepend(el("li", { "data-event": record.eventName },
      el("div", { class: "head" },
        el("span", { class: `badge ${record.eventName}` }, record.eventName),
        el("code", {}, keys.length > 200 ? keys.slice(0, 200) + "…" : keys),
        el("span", { class: "spacer" }),
        el("span", { class: "muted small" }, `${when} · #${change.SequenceNumber}`)),
      image("new image", change.NewImage),
      image("old image", change.OldImage)));
  }

  bind() {
    $("#stream-clear").addEventListener("click", () => $("#stream-records").replaceChildren());
  }
}
