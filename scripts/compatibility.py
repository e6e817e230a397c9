#!/usr/bin/env python3
"""Writes docs/compatibility.md: one row per operation of botocore's DynamoDB and DynamoDB
Streams models, with whether this server answers it and the tests that call it.

Usage:
    scripts/compatibility.py                # rewrite docs/compatibility.md
    scripts/compatibility.py --check        # exit 1 (with a diff) if the file is out of date
    scripts/compatibility.py --data DIR     # botocore data directory (default: installed botocore)
    scripts/compatibility.py --json         # the rows as JSON (for tests)

Where the facts come from:
- the operations: botocore's `service-2.json.gz` models (as scripts/generate-shapes.py reads them);
  an operation a newer botocore adds appears as a row, "not yet" until the server answers it;
- the status: the server's operation rows, i.e. the `static let <operation> = OperationRow`
  declarations in Sources/DynamoServer/ (the rows the generated switch names), except the ones
  `OperationRows.notYetAnswered` lists (OperationRows.swift), whose row exists because the switch
  needs one but which are answered `UnknownOperationException`;
- the tests: files under Tests/ that call the operation (boto3 `snake_case(`, AWS CLI
  `"kebab-case"`, Swift `<Operation>Input`/`<Operation>Request`), except the model walk of
  test_compatibility.py, which calls every operation, and generated files (`Generated/`), which
  name every operation.
Notes per operation and the documented differences are kept in NOTES and DIFFERENCES below.
"""

import argparse
import difflib
import importlib.util
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "compatibility.md")
SERVER_SOURCES = os.path.join(ROOT, "Sources", "DynamoServer")
TESTS = os.path.join(ROOT, "Tests")
WALK_TEST = "test_compatibility.py"

NOTES = {
    "SearchVectors": "exact: the true nearest `TopK` (the service's is approximate), scored in f32 (COSINE 1 − cos, EUCLIDEAN distance, smallest first; DOT_PRODUCT largest first), ties by key order; "
    "boto3, the AWS CLI and every SDK reach LocalDynamo when given the endpoint (`endpoint_url`, `--endpoint-url`): without one, botocore sends SearchVectors to `search-dynamodb.<region>.amazonaws.com`; "
    "a new index on a table with items is CREATING with `Backfilling: true` until built and for one second of the server clock, then ACTIVE without `Backfilling` (the newer documentation, see below); see docs/vector-search.md for rules, messages and their sources",
    "UpdateTable": "`ReplicaUpdates` create real tables in the other regions' namespaces; replication is asynchronous, last writer wins; "
                   "`Disassociate` leaves the local replica a standalone table, guarded by `DisassociationProtectionEnabled`; "
                   "a new replica gets the table's global and vector indexes; `VectorIndexUpdates` made once replicas exist change every replica (each builds its index from its own items), "
                   "while `GlobalSecondaryIndexUpdates` still stay in the region that made them (a gap: global tables document a global index's definition as synchronized)",
    "DescribeEndpoints": "answers `dynamodb.<region>.amazonaws.com`",
    "DescribeLimits": "DynamoDB's default account and table quotas",
    "PutResourcePolicy": "documents validated (JSON object with `Statement`, 20 KB) and kept, never enforced",
    "GetResourcePolicy": "policies are kept, never enforced",
    "DeleteResourcePolicy": "policies are kept, never enforced",
    "UpdateContributorInsights": "state only: no CloudWatch rules or graphs",
    "DescribeContributorInsights": "state only: no CloudWatch rules or graphs",
    "ListContributorInsights": "state only",
    "EnableKinesisStreamingDestination": "records go to Kinesis with `serve --kinesis-endpoint` (PutRecords; a missing stream ends ENABLE_FAILED); state only without it",
    "DisableKinesisStreamingDestination": "state; records stop",
    "UpdateKinesisStreamingDestination": "state; the precision applies to records sent afterwards",
    "DescribeKinesisStreamingDestination": "status on the server clock",
    "CreateGlobalTable": "version 2017.11.29, which DynamoDB now refuses (see below); the tables must exist in each region's namespace",
    "UpdateGlobalTable": "version 2017.11.29, which DynamoDB now refuses (see below)",
    "DescribeGlobalTable": "version 2017.11.29",
    "ListGlobalTables": "version 2017.11.29",
    "DescribeGlobalTableSettings": "version 2017.11.29",
    "UpdateGlobalTableSettings": "version 2017.11.29; billing mode, write and read capacity, table class",
    "DescribeTableReplicaAutoScaling": "settings stored and reported; nothing scales",
    "UpdateTableReplicaAutoScaling": "settings stored and reported, also for a table without replicas; nothing scales",
    "ExportTableToPointInTime": "`FilterSpecification` for full and incremental exports: a Query's key condition, a Scan's filter "
                                "(a Query's with a key condition), a projection; reported back by DescribeExport",
    "GetShardIterator": "`AT_TIMESTAMP`: the first record whose `ApproximateCreationDateTime` (whole seconds, rounded down) "
                        "is at or after the `Timestamp`'s millisecond, on the server clock; before the trim horizon the oldest "
                        "retained record; a `Timestamp` after the server clock is a ValidationException",
    "StartBulkPutItems": "a background job on the server clock through `--s3-endpoint` or `--s3-dir`: each record goes through PutItem's checks, indexes and streams; paced by `MaxWriteRequestUnits`; crash-safe counts (an interrupted job ends FAILED)",
    "DescribeBulkOperation": "counts, bytes and usage per table and index while the job runs",
    "ListBulkOperations": "90 days, newest first",
    "CancelBulkOperation": "CANCELLING at once, CANCELLED before the next batch; what was written stays",
}

DIFFERENCES = [
    "Nothing is authorized: resource-based policies are stored and validated but never evaluated, and "
    "SigV4 signatures are parsed but not verified (like DynamoDB Local).",
    "Global tables need one namespace per region (the default per-region mode, or `--per-access-key`): "
    "with `--shared-db` every region is the same set of tables, so `ReplicaUpdates` and the "
    "2017.11.29 calls answer a ValidationException saying so.",
    "Replication is delivered right after the write commits (well within DynamoDB's usual second) by one "
    "delivery queue per server; conflicts resolve last writer wins by the server clock (writes in the same instant in the order they were made). "
    "DeleteTable on a replica takes it out of the other replicas' group at once.",
    "Transitional statuses (Contributor Insights ENABLING/DISABLING, Kinesis destinations "
    "ENABLING/DISABLING/UPDATING) last one second of the server clock (DynamoDB takes seconds, a Kinesis "
    "precision update minutes); move the clock with `POST /_localdynamo/clock` to skip them.",
    "Replicas are created and deleted while UpdateTable runs: the answer lists a new replica as CREATING "
    "(DynamoDB lists it only seconds later) and DescribeTable shows it ACTIVE right away; a second replica "
    "action is therefore never refused as in progress. DynamoDB refuses stream changes on a table with replicas; "
    "this server does not.",
    "CreateGlobalTable and UpdateGlobalTable (version 2017.11.29): DynamoDB now answers them with "
    "'One or more parameter values were invalid: DynamoDB global tables version 2017.11.29 is not supported...'; "
    "this server still runs them, for scripts and tests written for existing 2017.11.29 global tables.",
    "UpdateTableReplicaAutoScaling also works on a table without replicas (DynamoDB answers ResourceNotFoundException "
    "there, since Application Auto Scaling registers the targets, and it does not exist here): that is how a "
    "PROVISIONED table meets the write auto scaling prerequisite for replicas.",
    "Kinesis destinations: without `--kinesis-endpoint`, any ARN of a Kinesis stream in the table's region "
    "becomes ACTIVE (nothing checks that the stream exists); with one, a stream DescribeStreamSummary cannot "
    "find ends ENABLE_FAILED; any other ARN ends ENABLE_FAILED, as DynamoDB reports a stream it cannot use.",
    "Resource policies: the ARN's account id is not checked (a local server belongs to no account); a policy "
    "is visible to GetResourcePolicy at once and can be changed again at once (DynamoDB takes about two "
    "seconds to show it and refuses another change for 15 seconds); GetResourcePolicy answers the document as "
    "it was sent, where DynamoDB answers a canonical, minified form; principals and actions are not checked.",
    "Warm throughput is reported per table and per global index as DynamoDB's recorded descriptions show "
    "it (issue #42's reading of the 2025-2026 recordings): what was asked for, else a provisioned table's or "
    "index's provisioned capacity, else the on-demand baseline of 12,000 read and 4,000 write units per "
    "second; `UPDATING` for one second of the server clock after a change, then `ACTIVE`; CreateTable's "
    "answer carries none for a table created without one. It only grows, and changes nothing about "
    "throttling (`serve --throttle` throttles at the provisioned or on-demand capacity, never at the warm "
    "throughput). `BillingModeSummary` appears only for a table that is or was on demand, "
    "`OnDemandThroughput` only where maxima were set (`test_parity_descriptions.py`).",
    "Known divergences kept in the differential corpus as strict xfails (`Tests/conformance/corpus/`, "
    "`known_divergence`): us-east-1's 2026-08-12 answer to an empty number string (`...numeric value: `, "
    "superseded by the 2026-10 recordings); a case that diverges is kept there with the service's answer "
    "until it is fixed. Standalone UpdateItem measures the finished item and the attributes the update "
    "writes plus a per-clause cost against 400 KB, as DynamoDB does (in the 2025 wording the finished item "
    "alone, as its last two regions measure it; transactions and PartiQL measure the finished item only).",
    "Messages whose exact DynamoDB wording could not be confirmed (worded to say what is wrong): "
    "the 2017.11.29 calls' TableNotFoundException and join checks, a policy document without `Statement` or "
    "whose `Statement` is neither an object nor an array, replica auto scaling minimum above maximum.",
    "Bulk operations: the record and output layouts, the ARN, the quota on concurrent operations (50 here, "
    "as ImportTable's) and the words of their errors are this server's where the documentation is silent "
    "(docs/bulk-operations.md); `PerformanceTier` is recorded, not simulated; an operation interrupted by a "
    "restart ends FAILED with the counts of the batches it committed, never resumed.",
    "Known differences, measured and not yet matched: a tag set over DynamoDB's byte limit is accepted "
    "(the limit's value is not known).",
    "Replica disassociation (`ReplicationGroupUpdate.Disassociate`, `DisassociationProtectionEnabled`, new in botocore "
    "1.44; the API reference and the developer guide's \"Disassociating a global table replica\" describe the rules, not "
    "the error texts, so every message of it is worded here): the change is made at once, after the replication queue "
    "delivered what was queued before it (WAIT_FOR_REPLICATION); UpdateTable answers UPDATING with the former replicas "
    "listed, DescribeTable shows the table ACTIVE without Replicas right after. DisassociationProtectionEnabled is reported "
    "only for replicas of a 2019.11.21 global table (true by default), and setting it on any other table is a "
    "ValidationException. A Disassociate is refused (ValidationException) beside another replica update or change, then "
    "when it names any region but the request's own, then on a table that is no replica or a 2017.11.29 replica, then "
    "while protection is on: in that order, after the table is found.",
    "Filtered exports (`FilterSpecification`, new in botocore 1.44; the developer guide's \"Filtering a table export\" is the "
    "description): the expressions are checked after the table, its point-in-time recovery and the export times, "
    "with the expression module's messages for a Query (key condition given) or a Scan; ExpressionAttributeValues "
    "without a filter or key condition is refused naming both (`FilterExpression and KeyConditionExpression are null`), "
    "as a Query's is. An incremental export's OldImage is still the image at the period's start, so an item created "
    "and deleted within the period is not exported. `BilledSizeBytes` is the bytes written, as without a filter "
    "(the developer guide says a filter does not reduce the data an export reads). A ClientToken reused with another FilterSpecification returns the first "
    "export (the service documents ExportConflictException for changed parameters; not implemented for any of them).",
    "GetShardIterator `AT_TIMESTAMP` (botocore 1.44's model text is the only description: \"the first stream record whose "
    "ApproximateCreationDateTime is at or after the specified timestamp\", \"precision in milliseconds\", before the trim "
    "horizon the oldest untrimmed record, in the future a ValidationException): the comparison is made between the values "
    "a client sees, the record's ApproximateCreationDateTime as GetRecords reports it (whole seconds, rounded down) and the "
    "Timestamp truncated to the millisecond (its fraction first rounded to the microsecond, so 1767225600.123 is "
    "millisecond 123, never 122). A Timestamp with a fraction of a second therefore starts at the next second's records, "
    "even ones written after it within its own second; whether the service compares finer creation times is not known. "
    "A Timestamp with another iterator type, and a SequenceNumber with AT_TIMESTAMP, are refused (ValidationException) "
    "before the stream is looked up, as the SequenceNumber rules are.",
    "A vector index's `Backfilling` (two versions of the developer guide's \"Data synchronization between tables and vector "
    "indexes\"): docs.aws.amazon.com's English page (and its fr, id translations) says the index goes CREATING, then ACTIVE "
    "with `Backfilling` true while it fills; docs.amazonaws.cn (en_us and zh) and docs.aws.amazon.com's it_it Markdown say it "
    "stays CREATING with `Backfilling` true while it fills, then is ACTIVE with the field absent, and add a paragraph the "
    "others lack (backfill time is driven by index construction, not item count) and name the search error "
    "(ValidationException, where the others say \"an error\"). The API reference's VectorIndexDescription decides for the "
    "second: its newer text (docs.aws.amazon.com APIReference, zh_tw) says `CREATING` \"covers both provisioning the index "
    "and backfilling existing base table data. Check the Backfilling field to distinguish the two\", that SearchVectors "
    "answers a ValidationException while backfilling (no partial results) and that the field is absent for an index made "
    "by CreateTable, replacing the text botocore 1.44.8 still carries (\"SearchVectors operations might return incomplete "
    "results\"), and the rule matches the one documented for global indexes (CREATING with `Backfilling` true, then "
    "false). LocalDynamo follows it: CREATING with `Backfilling: false` in the UpdateTable answer, CREATING with "
    "`Backfilling: true` in DescribeTable until the build is done, then ACTIVE without the field "
    "(`test_update_table_adds_a_backfilling_index_on_the_server_clock`, `VectorBackfillTests`).",
    "Vector index changes on a global table (the developer guide's \"Using vector indexes with global tables\": the index "
    "definition reaches a new replica automatically, it is not created separately in each Region, and each replica's "
    "index backfills independently; the multi-account global tables page lists a global index's definition among the "
    "settings always synchronized across replicas): `VectorIndexUpdates` Create or Delete made in any replica's Region is "
    "made in every replica in the same UpdateTable, each replica's new index built from its own items (CREATING with "
    "`Backfilling` while it has items to index). The documentation has no example of the call on a table that already "
    "has replicas, so this is inferred, not measured (`test_vector_index_changes_on_a_global_table_reach_every_replica`).",
]


# How the pinned model is checked against newer ones (scripts/api-drift).
DRIFT = (
    "This table follows the pinned botocore named above (`Tests/conformance/requirements.txt`). `scripts/api-drift` "
    "compares it with the newest botocore the package index serves and lists what DynamoDB's and DynamoDB Streams' "
    "models gained or lost since: new and removed operations, shapes, structure members and enum values (`no drift`, "
    "exit 0, when there is nothing; exit 1 with the list otherwise; `--offline DIR` compares against a botocore data "
    "directory without the network). A listed change is taken in by raising the pin and regenerating the shapes "
    "(`scripts/generate-shapes.py`) and this file: a new operation appears here as \"not yet\" until the server answers it."
)

CLIENTS = (
    "Clients and 2026's operations (SearchVectors, the bulk operations): boto3 and botocore 1.44.5 or newer know them, "
    "and send SearchVectors to a vector-search host of its own (`search-dynamodb.<region>.amazonaws.com`, "
    "`<account>.search-ddb.<region>…`) unless an endpoint is given; with `endpoint_url`, `AWS_ENDPOINT_URL_DYNAMODB` or "
    "`AWS_ENDPOINT_URL` every operation goes to the one endpoint, so LocalDynamo on one port serves them all (checked "
    "for boto3 by botocore's endpoint rules; DynamoClient resolves the same rules, `docs/client-credentials.md`). "
    "The AWS CLI v1 (1.46.3, the newest on PyPI) carries its own older botocore without them: point it at a newer "
    "botocore's models with `AWS_DATA_PATH=<botocore>/data` (what the conformance tests do) or "
    "`aws configure add-model --service-model file://service-2.json --service-name dynamodb`."
)

# Which wording of DynamoDB's 2026 rewording we return, family by family (kept here because the
# whole document is generated).
WORDING = """## Validation message wording

DynamoDB reworded many validation errors in 2026, region by region, and LocalDynamo answers in either wording (the messages differ; what is accepted does not): `serve --error-wording 2026` (the default; `LOCALDYNAMO_ERROR_WORDING`, `LocalDynamoServer.Configuration.errorWording`, `withTestServer(errorWording:)`) or `--error-wording 2025`. The dated captures of the public dynamodb-conformance suites record the rollout: on 2026-06-09 (nubo-db `captures/2026-06-09-validation-rewording.json`, one request set sent to four regions) eu-west-2 and eu-central-1 answered in the 2026 words and us-east-1 and ap-southeast-2 in the 2025 ones (martinhicks.dev, "I watched DynamoDB change under my conformance suite", describes the same split); us-east-1 had moved by 2026-08-12 (`2026-08-12-wording-drift.json`); on 2026-10-07 (paritysuite `captures/2026-10-07-sweep-follow-up.json`, 33 regions) every region answered in the 2026 words but eu-south-2 and me-central-1, which still answered in the 2025 ones. The move is not on every operation: it is the request validator of the single-item writes (PutItem, UpdateItem, DeleteItem) that changed, for the checks it makes before looking the table up, Query's `Select` rules and, in a later wave, Scan's parameter checks. `Tests/conformance/corpus/wording_rollout_2026_06_09.json` replays the four-region capture against both wordings.

| Family | `--error-wording 2026` (default) | `--error-wording 2025` | Where measured |
|---|---|---|---|
| Constraint messages with a value (`Value '...' at 'tableName' failed to satisfy constraint: ...`, null, pattern, length over the maximum) | the `Value '...' at 'camelCase'` form | the same | unchanged in every region in every capture |
| Empty table name of PutItem, UpdateItem, DeleteItem | `1 validation error detected: Value at 'TableName' failed to satisfy constraint: Member must have length greater than or equal to 1`, alone (an invalid `ReturnValues` beside it is not reported) | `Value '' at 'tableName' failed to satisfy constraint: ...`, listed with the request's other violations (after `returnValues`) | 2026: eu-west-2, eu-central-1 (2026-06-09), us-east-1 (2026-08-12), 31 regions (2026-10-07); 2025: us-east-1, ap-southeast-2 (2026-06-09), eu-south-2, me-central-1 (2026-10-07). Other operations keep `Value '' at 'tableName'` in both |
| `ReturnValues` outside the enum | PutItem, DeleteItem: `Failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, NONE]` (DynamoDB's `UPDATE_NEW`), listed after `returnConsumedCapacity`; UpdateItem: that sentence alone | `Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]` with the others: PutItem and DeleteItem list it first, UpdateItem after `returnConsumedCapacity` | `o_put_three_bad_enums`, `o_del_two_bad_enums`, `o_upd_two_bad_enums` of the 2026-06-09 capture, both sides; `update-item-validation-error-aggregation` of 2026-10-07 |
| UpdateItem without `Key` | every violation in the 2025 form (values, lower-camel paths, the 2025 order) beside `Value null at 'key' failed to satisfy constraint: Member must not be null`: `4 validation errors detected: Value 'INVALID' at 'returnConsumedCapacity' ...; Value '' at 'tableName' ...; Value 'INVALID' at 'returnValues' ...; Value null at 'key' ...` | the same | paritysuite tests/tier3/validation-ordering/updateItem.test.ts, eu-west-2 and us-east-1 agree on 2026-10-09 (corpus `update_item_missing_key_2026_10.json`); PutItem without `Item` and DeleteItem without `Key` keep the 2026 form here: no recording of theirs |
| Bespoke messages of the request validator of PutItem, UpdateItem, DeleteItem (invalid attribute values: empty and duplicate sets, unreadable numbers; expression syntax and static checks; unused or missing names and values; expression and legacy parameters mixed) and Query's `Select` rules | in the `1 validation error detected: ` envelope | bare | every bespoke probe of the 2026-06-09 capture, both sides; Query's `Select` family per issue #42's reading of the 2026 recordings |
| Checks that need the table (`Cannot update attribute pk. This attribute is part of the key`, key schema, item size) | bare | bare | `u_upd_hashkey`, `u_upd_rangekey`, every region |
| GetItem, Query (but `Select`), Scan (but the five below), batches, transactions, PartiQL, control plane | their messages bare, as before | the same | no capture shows them moved (eu-west-2's June rewording left CreateTable's bespoke messages bare) |
| Scan's parameter checks, a later wave: `Limit: 0`, a negative `Segment`, `Segment` not below `TotalSegments`, an `ExclusiveStartKey` that does not fit the key schema, the `Select` rules | `1 validation error detected: Value at 'Limit' ...` / `Value at 'Segment' ...` (value-less, the wire name); `The Segment parameter is zero-based and must be less than parameter TotalSegments`; `The provided starting key is invalid` (Query's); the `Select` sentences in the envelope, as Query's | `Value '0' at 'limit' ...` / `Value '-1' at 'segment' ...`; the Segment sentence with `: Segment: 5 is not less than TotalSegments: 5`; `The provided starting key is invalid: The provided key element does not match the schema`; the `Select` sentences bare | paritysuite `registry/splits.json` rows `scan-limit-zero-message`, `scan-segment-negative-message`, `scan-segment-out-of-range-message`, `scan-bad-start-key-message`, `scan-specific-attributes-message` (the five move together in every region): the 2026 form in eu-central-1 and us-west-1 before 2026-09-19, ap-northeast-2 and the pinned eu-west-2 by 2026-09-26, ap-east-2 by 2026-10-03 (af-south-1 and ap-southeast-1, -3, -4, -5 answering it on all three 2026-10-07 runs); the 2025 form in the other 28 regions, us-east-1 among them, on 2026-10-07 (getmoto/moto's aws_verified `test_dynamodb_select.py`, us-east-1, also has Scan's `Select` sentences bare). **Conflict with the other later waves** (BatchWriteItem's and TransactWriteItems' empty lists, not modelled): this one is modelled because the suite pins eu-west-2's new answer and issue #42 asks for Scan's `Limit: 0` in the 2026 words. Only `SPECIFIC_ATTRIBUTES` of the `Select` family was recorded; its siblings follow it, as Query's do. Corpus `scan.json`, `scan_ordering.json` |
| Duplicate set members | `Input collection ["a", "a"] contains duplicates.` (members as JSON strings); binary sets `Input collection ["Yg==","Yg=="]of type BS contains duplicates.` | `Input collection [a, a] contains duplicates.`; binary sets `[Yg==, Yg==]of type BS` | `b_put_dup_ss` of 2026-06-09 (both sides); `esm_put_bs_dup_empty` of 2026-08-12 (2026) |
| An invalid value inside `ExpressionAttributeValues` of PutItem, UpdateItem, DeleteItem | the value's own message in the envelope | `ExpressionAttributeValues contains invalid value: <message> for key :v` (Query and Scan: this in both wordings) | issue #42's reading of the 2026 recordings; the 2025 form is what every older report quotes |
| `ExpressionAttributeValues` without an expression | PutItem, UpdateItem, DeleteItem: `ExpressionAttributeValues can only be specified when using expressions` (no tail) | `...: ConditionExpression is null`; Query and Scan keep the tail in both | `b_put_eav_no_expr` of 2026-06-09, both sides |
| An empty number string | `The parameter cannot be converted to a numeric value` (no colon) | the same (bare) | the 2026-10 recordings; **conflict**: us-east-1's 2026-08-12 capture (`esm_put_ns_empty`) had `...numeric value: `, with the colon. The newest report decides |
| Value-less violations (Query `Limit: 0`, BatchGetItem `Keys` over 100 or empty; Scan's below) | `Value at '<path>' ...` with the members' wire names: `Value at 'Limit' ...`, `Value at 'RequestItems.<table>.member.Keys' ...` | `Value '0' at 'limit' ...`, `Value '[]' at 'requestItems.<table>.member.keys' ...` (value and lower-camel path) | the suite's exact messages, 2026; the 2025 form is the validator's general one |
| `{"NULL": false}` (at any depth) | refused: `1 validation error detected: One or more parameter values were invalid: Null attribute value types must have the value of true` (PutItem's envelope) | refused, bare: `One or more parameter values were invalid: Null attribute value types must have the value of true` | `nullRoundTrip` of 2026-10-07 (paritysuite `captures/2026-10-07-batch-empty-request-items.json`, two runs, all 33 regions): refused everywhere, enveloped in the 31 regions of the 2026 wording, bare in eu-south-2 and me-central-1. **Conflict**: on 2026-06-09 eu-west-2 and eu-central-1 accepted it and stored `{"NULL": true}` (the martinhicks.dev write-up, nubo-db `2026-06-09-validation-rewording.json`), and issue #42 asked for that; the newest report decides, so neither wording accepts it |
| BatchGetItem with empty `RequestItems` | `1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1` | `The requestItems parameter is required for BatchGetItem` | the 2026 form in eu-west-2 from the 2026-08-15 sweep and in every region but me-central-1 by the 2026-09-02 sweep (paritysuite/dynamodb-conformance tests/tier3/error-messages/batchGetItem.test.ts, registry row batch-get-item-empty-request-items-message); the 2025 form in us-east-1 and most regions on 2026-08-12. nubo-db/dynamodb-conformance's copy of the test still asserts the 2025 sentence: the newer paritysuite report decides |
| BatchWriteItem with empty `RequestItems` | `The requestItems parameter is required for BatchWriteItem` | the same | 28 of 33 regions on 2026-10-07 (paritysuite `2026-10-07-batch-empty-request-items.json`); eu-central-1, eu-north-1, eu-west-2, ap-east-2 and ap-southeast-1 said `1 validation error detected: Value at 'RequestItems' failed to satisfy constraint: Member must have length greater than or equal to 1`, and eu-west-2 has moved back and forth (the suite's batchWriteItem test accepts both): a later wave of the rollout, not modelled |
| BatchWriteItem with a key attribute missing, of the wrong type or not scalar | `The provided key element does not match the schema` (a Put's item and a Delete's key alike) | the same | paritysuite `tests/tier3/error-messages/batchWriteItem.test.ts`: four regions on 2026-06-23, us-east-1 and eu-west-2 on 2026-10-09 (PutItem keeps `Missing the key pk in the item`) |
| TransactWriteItems with empty `TransactItems` | `1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1` | the same | 30 of 33 regions on 2026-10-08 (paritysuite `2026-10-08-transact-write-rollout.json`); eu-west-2, eu-north-1 and ap-northeast-2 answered `Value at 'TransactItems' ...`: a later wave, not modelled |
| An empty attribute name in an item (PutItem, BatchWriteItem, a TransactWriteItems Put) | `Empty attribute name`, checked for the item's own names before the nesting depth and for the keys of maps inside it after; TransactWriteItems checks action by action, in request order (an earlier action's nesting, syntax or unused-value error wins over a later action's, a key nested past the limit included) | the same | TransactWriteItems: paritysuite `tests/tier3/validation-ordering/deepRequests.test.ts`, ten regions on 2026-10-09 (the corpus replays eight of its cases); PutItem's and BatchWriteItem's sentence is inferred from it (no recording of those). The suite's cases past about 62 levels of nesting, where the single-item writes answer in an older form, are not modelled |
| UpdateTable redeclaring a defined attribute (a table key, an existing index's key) with another type while adding a global index | accepted; the stored type wins, for the new index too | the same | paritysuite/dynamodb-conformance#78, characterised in eu-west-2 (2026-07); `test_gsi_updates.py` |
| UpdateTable adding a global index keyed on an attribute the table defines (its sort key, another index's key) that the request's `AttributeDefinitions` leave out | refused as a key without a definition in that list: `Invalid KeySchema: Some index key attribute have no definition` when the list is shorter than the key schema, else `One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [<the index's keys>], AttributeDefinitions: [<the request's list>]` | the same | nubo-db/dynoxide#144 (eu-west-2, 2026-07-12: refused, the message not quoted); the first sentence quoted from the service for this very request (a new index on the table's sort key, left out) in alexdebrie/dynamodbguide.com#16 (2019); the second is CreateTable's, applied to the request's list (inferred). `test_gsi_updates.py` |
| UpdateItem with an `ExpressionAttributeValues` value nested past 32 levels (32 maps around a scalar) | refused before the table and the condition: `1 validation error detected: Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit` | accepted: the condition is evaluated with it | paritysuite `registry/splits.json` row `update-item-nesting-depth-expression-value` (tests/tier3/limits/nestingDepth.test.ts): refused in 31 regions (eu-west-2 pinned; us-east-1 among them), accepted in eu-south-2 and me-central-1, 2026-10-07 (corpus `paritysuite_nesting_depth_2026_10.json`). A check the rollout added, so it depends on the wording (`OperationContext.wording`, `ItemOperations.swift`); PutItem's and DeleteItem's values are not checked (no recording) |
| `Select` on an index that does not project every attribute | Query or Scan `ALL_ATTRIBUTES` on a global index projecting `KEYS_ONLY` or `INCLUDE`: `One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index <index> because its projection type is not ALL` (bare); on a local index it is accepted and reads the table's items; `ALL_PROJECTED_ATTRIBUTES` on a global index is accepted | the same | getmoto/moto `tests/test_dynamodb/test_dynamodb_select.py` (aws_verified, us-east-1: the bare sentence for both operations and both projections, the local index read, and the Query/Scan split of the envelope the 2026 rows above describe). Unchanged here: it already answered so; corpus `select_on_indexes.json` replays the cases in both wordings |
| Index capacity of a transaction (`TransactWriteItems` under `INDEXES`) | every part doubled, the index parts as the table's: the test's put reports `Table` 6 (its 3 write units twice) and its global index 2 (1 twice) | the same | **Conflict, unchanged**: a 2021 response of the service (rusoto#1919) has figures that fit doubling; nubo-db/dynoxide#188 (2026-08-14) doubles the table part alone and says it was checked against the service, but quotes no response. No newer recording was found (searched December 2026), so the older recorded figures stand; `test_capacity.py::test_transactions_cost_twice` |
| Over-long request targets and header blocks | a target over 16 KiB or a header block over 80 KiB: HTTP 400 with an empty body, before any signature check | the same | the service answers an over-long target 400 without reading its signature (scylladb/scylladb#23442, a test run against DynamoDB, 2025); no recording of its answer to an oversized header block was found (searched December 2026), so the header limit and its empty 400 are this server's; `test_parity_http.py`, docs/limits.md |
| UpdateItem's item-size ceiling | the finished item and, as a second ceiling, what the statement writes plus a fixed cost per clause (the key and untouched attributes left out), each against 409,600 bytes: `Item size to update has exceeded the maximum allowed size` | the finished item alone | paritysuite `registry/splits.json` rows `update-item-size-short-key`, `-key-name`, `-sort-key`, `-second-set`, `-remove`, `-clause-not-value`, `-untouched-attribute`, `-alias`, `-list-index`, `partiql-update-size-exclusion`, `transact-update-size-exclusion`: 31 regions, eu-west-2 among them, refuse the statement-sized write; eu-south-2 and me-central-1 store it (2026-10-07). Transactions and PartiQL measure the finished item in both (eu-north-1, ap-northeast-2 and, from 2026-10-08, eu-west-2 refusing the transacted Update earlier too: a later wave, not modelled). `Database.updateItem(_:sizedByStatement:)`; corpus `limits_item_size_by_surface.json` |
| The order of a set's members (GetItem, Query, Scan, ReturnValues, streams, exports) | the service's, whatever order they were written or added in: string and binary sets bytewise (the empty string first), number sets by value | the same | paritysuite/dynamodb-conformance `tests/tier1/updateItem/basic.test.ts`, eu-west-2 2026-10-09 (`ADD tags :v` of `[""]` onto `["a"]` reads back `["", "a"]`; the test's note states the rule for every set). Set in `AttributeValue.encode(to:)`, so every stored and answered set has it; `test_expressions_update.py` |
| ImportTable's outcome | a prefix without objects: `COMPLETED`, the empty table created and kept, every count and `ProcessedSizeBytes` 0; any line that is not an item (no `Item` member, not JSON, a key missing or of the wrong type, an empty attribute name, over 400 KB): `FAILED` with `FailureCode` `ItemValidationError`, the table kept with the valid items; in DynamoDB JSON the first such line ends the reading of its object (the lines after it are not counted); blank lines are neither items nor errors; `ProcessedItemCount` = `ImportedItemCount` + `ErrorCount`, `ImportedItemCount` counts every item written, duplicates of one key included; a missing bucket: `FAILED`, `S3NoSuchBucket`, counts 0, no table | the same | scylladb/scylladb `test/alternator/test_import.py` (pull request #31619, measured against the service in 2026-09), getmoto/moto `tests/test_dynamodb/test_dynamodb_import_table.py` (aws_verified; the empty bucket and the good-and-bad objects alike). The service's `FailureMessage` for `ItemValidationError` is not recorded: `<n> of the source's items failed validation and were not imported; the rest were imported into the table` is this server's. CSV keeps reading after a bad line (only DynamoDB JSON was measured) |
| Legacy `KeyConditions` on a multi-attribute global index | accepted with one condition per key attribute (up to eight), matched to the key schema as a `KeyConditionExpression` is; on a single-attribute key schema more than two are `Conditions can be of length 1 or 2 only` | the same | issue #42's reading of the 2026 recordings (no capture of the legacy form was found); `test_indexes.py` |
| ListTagsOfResource (and the other tagging calls) on a well-formed ARN of a missing table | `ResourceNotFoundException`: `Requested resource not found: ResourceArn: <arn> not found` | the same | **Conflict**: the newest reports answer `ResourceNotFoundException` (ack-api-quirks 2026-10; ExtendDB/extenddb#227, verified against the service in 2026-07; scylladb/scylladb#26179, 2025; steampipe-plugin-aws#1516, 2022, with the service's older `ResourcArn` misspelling); `AccessDeniedException` is what the service answers for an ARN of another account (extenddb#227) and what Alternator answered before #26179. The account id is not checked here (no accounts), so every missing table is not found |
| ExportTableToPointInTime of a missing table; a bare name as `TableArn` | `Table not found: <the ARN given>` (`TableNotFoundException`); `One or more parameter values were invalid: tableArn is not a valid ARN` | the same | the ack-api-quirks measurements of 2026-10-09 (DDB-EXPORT-001), us-west-2 |
| DynamoDB Streams, wording confirmed | `Requested resource not found: Shard does not exist` (GetShardIterator, unknown shard), `The data you are trying to access has been trimmed` (`TrimmedDataAccessException`) | quoted from the real service in opensearch-project/data-prepper#4401 (2024), ironSource/node-dynamodb-stream#13 (2019) and #16 (2021) |
| StreamSpecification of UpdateTable and CreateTable, wording confirmed | `Table already has an enabled stream: TableName: <name>` (enabling an enabled stream, with its StreamViewType or another); `Table has no stream to disable: TableName: <name>`; `One or more parameter values were invalid: If stream is being enabled then UpdateViewType is required`; `One or more parameter values were invalid: If stream is being disabled, then UpdateViewType must not be specified`; CreateTable's `One or more parameter values were invalid: Table is being created with a stream enabled, UpdateViewType is required` / `... with a stream disabled, UpdateViewType should not be specified`; no `StreamEnabled`: `1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: Member must not be null` | the ack-api-quirks lab's DynamoDB findings, measured against the service in us-west-2 and us-east-1 in October 2026 (DDB-TABLE-018, DDB-TABLE-437, DDB-TABLE-442); nubo-db/dynoxide#115 (2026, eu-west-2) for CreateTable's disabled case; aws-controllers-k8s/community#1000 (2021) and scylladb/scylladb#6939 (2020) for the enabled-stream text. Thrown by `Database.updateTable` and `Database.createTable` (`Database+UpdateTable.swift`, `Database+CreateTable.swift`); the null `StreamEnabled` by the generated validation |
| Control-plane texts replaced by the service's own, wording confirmed | tags: `The Tag Key provided is invalid, Key: <key>`, `The Tag Value provided is invalid, Value: <value>` (letters of any script, numbers, white space and `+ - = . _ : / @` allowed; keys of 1–128 and values of up to 256 characters, lengths checked in these words rather than as constraint violations; a tag without its key `Key: null`, without its value `Value: null`); an unknown `TableClass` on CreateTable or UpdateTable: `Invalid table-class parameter provided. Please try again with a valid table-class value: [STANDARD, STANDARD_INFREQUENT_ACCESS].` (not an enum constraint violation), `Tag Key cannot be prefixed with aws:, Key: <key>` (UntagResource too), `Duplicate Tag Keys provided as input: Duplicate Tag Key found <key>`, `Number of Tags exceed the current limit for the provided ResourceArn` (over 50 once merged; UntagResource with over 50 keys), `Atleast one Tag needs to be provided as Input.` / `Atleast one Tag Key needs to be provided as Input.`; the tagging calls' resource: `One or more parameter values were invalid: ARNs must start with 'arn:': <arn>`, an index's ARN `One or more parameter values were invalid: Invalid resource arn provided, only table or stream is accepted. Provided resource arn: <arn>`, a backup's `One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: <arn>`, another region's `Invalid TableArn: Invalid ResourceArn provided as input <arn>`, a missing table `Requested resource not found: ResourceArn: <arn> not found`; UpdateTable's `... must be the only operation in the request`, `You cannot create or delete index while ...` and `The only Updates for index: ...` under `One or more parameter values were invalid: `, `Replica modification must be the only operation in the request`; `Attribute Name is duplicated: <name>`; `One or more parameter values were invalid: Duplicate element in NonKeyAttributes: <name>`; SSESpecification's `SSEType can not be specified if Enabled is false`, `KMSMasterKeyId can not be specified if Enabled is false`, `SSEType KMS is required if KMSMasterKeyId is specified`, `SSEType AES256 is not supported`, under the prefix as their family's measured text is; `... is lower than current WarmThroughput, decreasing WarmThroughput is not supported` (UpdateTable below the current warm throughput, the 12,000 / 4,000 baseline included); `Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time recovery.`; RestoreTableToPointInTime's shape checks, made before the source, its recovery window and the target: `Must provide exactly one of: sourceTableArn, sourceTableName`, `The parameter 'TableName' is required but was not present in the request`, `Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both` (no time, or `UseLatestRestorableTime` false), `Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore request. Please specify either RestoreDateTime time or UseLatestRestorableTime`; `Invalid Backup ARN` / `Invalid Export ARN` / `Invalid Import ARN` for a string that is no such ARN; resource policies `Maximum policy size of 20480 bytes exceeded` and `Invalid policy document: This policy contains invalid Json` / `This text appears not to be a policy` (`null`) / `Could not parse the policy: Statement is empty!`, under the prefix; ListBackups `One or more parameter values were invalid: Time range lower bound must be less than or equal to upper bound`; on-demand maxima below 1 (-1, no maximum, only on UpdateTable): `One or more parameter values were invalid: Requested MaxReadRequestUnits for OnDemandThroughput for table is outside of valid range` (MaxWriteRequestUnits likewise), on a restore's override `Invalid Request: Requested MaxReadRequestUnits for OnDemandThroughput is outside of valid range`; UpdateKinesisStreamingDestination on a destination that is not ACTIVE ends `... Updates are only allowed in ACTIVE state. TableName: <name>, kdsArn: <stream arn>` | measurements of the service, 2026-10 (ack-api-quirks), us-east-1 and us-west-2 (DDB-TABLE-442's catalogue, DDB-TABLE-105–108, 372, 457, 272). The measured both-times text ends at `Pleas`; its tail is the one other emulator quotes. Thrown from the engine's catalogs (`TableMessages`, `DataProtectionMessages`, `SettingsMessages`, `GlobalTableMessages`); asserted in `test_parity_tags.py` and `test_parity_messages.py` |
| DynamoDB Streams, wording not yet confirmed | `Invalid StreamArn`; `Requested resource not found: Stream: <arn> not found`; ListStreams' `Requested resource not found: Table: <name> not found`; `Invalid ShardIterator`; `Invalid ShardId in ShardIterator`; `Iterator expired. The iterator was created at time <time> while right now it is <time> which is further in the future than the tolerated delay of 900000 milliseconds.` (times as `Thu Jan 01 00:15:01 UTC 2026`); `SequenceNumber is required when ShardIteratorType is <type>` / `SequenceNumber must not be given when ShardIteratorType is <type>`; `Timestamp is required when ShardIteratorType is AT_TIMESTAMP` / `Timestamp must not be given when ShardIteratorType is <type>`; `The Timestamp must not be in the future. Timestamp: <ms> milliseconds, current time: <ms> milliseconds` (AT_TIMESTAMP, new in botocore 1.44: Kinesis Data Streams' own texts name its internal `timestampInMillis`, quoted in aws/aws-sdk-ruby#1286 and awslabs/amazon-kinesis-connector-flink#13, and were not reused); `Invalid SequenceNumber <n> for shard <id>`; GetRecords `One or more parameter values were invalid: Limit should be less than or equal to 1000`; ListStreams `Value '<n>' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100` (a constraint of the generated validation, reported with the other members' violations) | no capture and no 2025–2026 report of the real service quotes them (searched November 2026); the exception types are the service's (scylladb's Alternator stream tests, run against DynamoDB: malformed ARNs and iterators, a Limit past its bound (GetRecords: scylladb/scylladb#23547, 2025) and a SequenceNumber with the wrong iterator type are `ValidationException`, an unknown shard `ResourceNotFoundException`). The `Stream: <arn> not found` and `Invalid ShardId in ShardIterator` texts are DynamoDB Local's (its stack traces in localstack/localstack#1655, 2019; DynamoDB Local 2.5.3 in formkiq/formkiq-core#524, 2026; localstack/localstack#11887, #12036); `Invalid StreamArn` is quoted in amazon-archives/logstash-input-dynamodb#18 (2016) from a setup that ran against both DynamoDB Local and the service. The expiry text is Kinesis Data Streams' `ExpiredIteratorException` text (awslabs/amazon-kinesis-client#701, 2020; metarank/metarank#1282, 2024) with DynamoDB Streams' 15 minutes |

Where the wording is rendered: a message the rollout changed is one `DynamoError` carrying both forms (`message`, the 2026 one, and `message2025`), made once in its catalog; the server picks the form when it writes the answer (`DynamoError.worded(_:)`, in `RequestRunner`), and the decoder receives the wording only for what changed behaviour (`{"NULL": false}`; `DynamoShape.decodeRequest(_:wording:)`). Constraint violations and the envelope in `ConstraintViolation` (DynamoAPI), which keeps each violation's 2025 value, path and enum value set and the 2025 order (`ConstraintViolation.order2025`); each member's rule in the generator's tables (`ENVELOPED_INPUTS`, `EMPTY_VALUE_ALONE_MEMBERS`, `BARE_ENUM_MEMBERS`, `REPORTED_ALONE_MEMBERS`, `VALIDATED_AFTER`, `MEMBER_MAXIMUMS` in `scripts/generate-shapes.py`), attribute-value sentences in `AttributeValueMessages`, JSON type errors in `SerializationMessages`, expression-parameter sentences in `ParameterMessages`, the rest of the expression module's in `ExpressionMessages`, PartiQL's in `PartiQLMessages`, the engine's in `EngineMessages` (DynamoDB Streams' in `StreamErrors`), the server's in `ServerMessages`: each sentence once, and no error message is written at its throw site (`Tests/scripts/test_error_catalogs.py` fails naming the line otherwise); the engine's PutItem, UpdateItem and DeleteItem put their pre-table checks in the envelope through one call (`Database.requestValidation`).

The differential corpus (`Tests/conformance/corpus/*.json`, replayed by `test_parity_corpus.py`) holds the suite's measured requests and answers; `captures_2026_08_us_east_1.json` holds the 2026-08-12 answers verbatim. Where an older file's case disagreed with that capture, its expected answer was moved to the newer wording and its `source` says so; where the suite asserts only the parts that are the same in every region, so does the corpus."""


def shapes_generator():
    """scripts/generate-shapes.py as a module: the one place that knows how to find and read
    botocore's models."""
    spec = importlib.util.spec_from_file_location("generate_shapes", os.path.join(ROOT, "scripts", "generate-shapes.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = shapes_generator()
load_models = GENERATOR.load_models
default_data_dir = GENERATOR.default_data_dir
botocore_version = GENERATOR.botocore_version


def snake(name):
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def walk(directory, suffixes):
    for base, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "Generated")
        for file in sorted(files):
            if file.endswith(suffixes):
                yield os.path.join(base, file)


def server_rows(names):
    """The operations the server has a row for: `static let <name> = OperationRow` in
    Sources/DynamoServer (the rows the generated switch of OperationTable.swift names)."""
    found, not_yet = set(), set()
    for path in walk(SERVER_SOURCES, (".swift",)):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        found.update(name.lower() for name in re.findall(r"static let (\w+) = (?:OperationRow\b|notYet\()", text))
        listed = re.search(r"static let notYetAnswered: Set<DynamoOperation> = \[([^\]]*)\]", text)
        if listed:
            not_yet.update(name.lower() for name in re.findall(r"\.(\w+)", listed.group(1)))
    return {name for name in names if name.lower() in found and name.lower() not in not_yet}


def covering_tests(names):
    texts = {}
    for path in walk(TESTS, (".py", ".swift")):
        if os.path.basename(path) == WALK_TEST:
            continue
        with open(path, encoding="utf-8") as f:
            texts[os.path.relpath(path, ROOT)] = f.read()
    covered = {}
    for name in names:
        patterns = [re.compile(r"\." + snake(name) + r"\("), re.compile('"' + snake(name).replace("_", "-") + '"'),
                    re.compile(r"\b" + name + r"(Input|Request)\b")]
        covered[name] = [path for path, text in texts.items() if any(p.search(text) for p in patterns)]
    return covered


def rows(data_dir):
    dynamodb, streams = load_models(data_dir)
    services = [("DynamoDB", sorted(dynamodb["operations"])), ("DynamoDB Streams", sorted(streams["operations"]))]
    every = [name for _, names in services for name in names]
    answered = server_rows(every)
    tests = covering_tests(every)
    return [
        {"service": service, "operation": name, "implemented": name in answered,
         "tests": tests[name], "notes": NOTES.get(name, "")}
        for service, names in services for name in names
    ]


def render(table, version):
    lines = [
        "# Compatibility: every DynamoDB operation",
        "",
        f"GENERATED by `scripts/compatibility.py` from botocore {version}'s DynamoDB and DynamoDB Streams models",
        "and the server's operation tables. Do not edit by hand: change the script (its NOTES and DIFFERENCES) and",
        "rerun it; `Tests/conformance/test_compatibility.py` fails when this file is out of date, and calls every",
        "operation below to check that the server answers exactly the ones marked implemented.",
        "",
    ]
    answered = sum(row["implemented"] for row in table)
    lines.append(f"{answered} of {len(table)} operations are implemented.")
    for service in ("DynamoDB", "DynamoDB Streams"):
        service_rows = [row for row in table if row["service"] == service]
        lines += ["", f"## {service} ({len(service_rows)} operations)", "",
                  "| Operation | Status | Tests | Notes |", "|---|---|---|---|"]
        for row in service_rows:
            status = "implemented" if row["implemented"] else "not yet"
            tests = ", ".join(f"`{os.path.basename(path)}`" for path in row["tests"]) or "—"
            lines.append(f"| {row['operation']} | {status} | {tests} | {row['notes']} |")
    lines += ["", "## Clients", "", CLIENTS]
    lines += ["", "## Keeping up with the service", "", DRIFT]
    lines += ["", "## Documented differences from DynamoDB", ""]
    lines += [f"- {difference}" for difference in DIFFERENCES]
    lines += ["", WORDING]
    return "\n".join(lines) + "\n"


def without_tests(text):
    """The document with the Tests cell of every operation row blanked."""
    lines = []
    for line in text.splitlines(True):
        cells = line.split(" | ")
        if line.startswith("| ") and len(cells) == 4 and cells[1] in ("implemented", "not yet", "state only"):
            cells[2] = "-"
            line = " | ".join(cells)
        lines.append(line)
    return "".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", help="botocore data directory")
    parser.add_argument("--check", action="store_true", help="fail if docs/compatibility.md is out of date")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    data_dir = args.data or default_data_dir()
    table = rows(data_dir)
    if args.json:
        json.dump(table, sys.stdout, indent=1)
        return 0
    text = render(table, botocore_version(data_dir))
    if args.check:
        current = open(DOC, encoding="utf-8").read() if os.path.exists(DOC) else ""
        # The Tests column follows the test files, which change far more often than the API: a
        # stale list of covering tests is refreshed by the next regeneration, not a failure.
        if without_tests(current) != without_tests(text):
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                                       "docs/compatibility.md", "regenerated"))
            print("docs/compatibility.md is out of date: run scripts/compatibility.py", file=sys.stderr)
            return 1
        return 0
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
