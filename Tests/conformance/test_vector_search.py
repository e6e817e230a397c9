"""Vector indexes and SearchVectors (issue #40), through boto3 and the AWS CLI.

The service's rules and words are those of the developer guide's vector-search chapters
(Creating and searching vector indexes, Troubleshooting, Requirements and limitations) and of
the SearchVectors API reference; see docs/compatibility.md (NOTES, SearchVectors) for the
messages that come from other emulators' recordings of the service instead.
"""

from __future__ import annotations

import json
import math
import random
import time

import pytest

from ddb_helpers import admin_call, expect_error, unique_name


def vector(values) -> dict:
    return {"L": [{"N": repr(float(v))} for v in values]}


def search_vector(values) -> list[dict]:
    return [{"N": repr(float(v))} for v in values]


def index_spec(name="vix", attribute="emb", dimensions=3, function="COSINE", schema=None, projection=None) -> dict:
    spec = {
        "IndexName": name,
        "VectorAttribute": {"AttributeName": attribute},
        "Projection": projection or {"ProjectionType": "ALL"},
        "Dimensions": dimensions,
        "DistanceFunction": function,
    }
    if schema:
        spec["SearchSchema"] = [{"AttributeName": a, "SearchSchemaElementType": t} for a, t in schema]
    return spec


@pytest.fixture
def vector_table(ddb):
    """Factory: a PAY_PER_REQUEST table keyed `pk` (S) with the vector indexes given."""
    created = []

    def create(indexes, definitions=(), **extra):
        name = unique_name("vec")
        attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
        attrs += [{"AttributeName": a, "AttributeType": t} for a, t in definitions]
        ddb.create_table(
            TableName=name, BillingMode="PAY_PER_REQUEST", AttributeDefinitions=attrs,
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], VectorIndexes=indexes, **extra)
        created.append(name)
        return name

    yield create
    for name in created:
        try:
            ddb.delete_table(TableName=name)
        except Exception:
            pass


def advance_clock(endpoint_url, seconds: float) -> None:
    status, _ = admin_call(endpoint_url, "POST", "/_localdynamo/clock", {"advanceSeconds": seconds})
    assert status == 200


# ---------------------------------------------------------------------------
# The catalog: CreateTable, DescribeTable, UpdateTable, DeleteTable
# ---------------------------------------------------------------------------


def test_create_table_describes_the_vector_index(ddb, vector_table):
    name = vector_table(
        [index_spec(schema=[("tenant", "HASH"), ("kind", "INLINE_FILTER")], dimensions=4, function="EUCLIDEAN")],
        definitions=[("tenant", "S"), ("kind", "S")])
    table = ddb.describe_table(TableName=name)["Table"]
    [index] = table["VectorIndexes"]
    assert index["IndexName"] == "vix"
    assert index["VectorAttribute"] == {"AttributeName": "emb"}
    assert index["Dimensions"] == 4 and index["DistanceFunction"] == "EUCLIDEAN"
    assert index["SearchSchema"] == [
        {"AttributeName": "tenant", "SearchSchemaElementType": "HASH"},
        {"AttributeName": "kind", "SearchSchemaElementType": "INLINE_FILTER"},
    ]
    assert index["Projection"] == {"ProjectionType": "ALL"}
    assert index["IndexStatus"] == "ACTIVE" and "Backfilling" not in index
    assert index["IndexArn"] == table["TableArn"] + "/index/vix"
    assert index["ItemCount"] == 0 and index["IndexSizeBytes"] == 0
    # The search-schema attributes are accepted as attribute definitions; the vector is not one.
    assert {a["AttributeName"] for a in table["AttributeDefinitions"]} == {"pk", "tenant", "kind"}


@pytest.mark.parametrize(
    "indexes, definitions, billing, message",
    [
        ([index_spec()], [], "PROVISIONED",
         "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables"),
        ([index_spec(schema=[("tenant", "HASH")])], [], "PAY_PER_REQUEST",
         "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions"),
        ([index_spec(dimensions=5000)], [], "PAY_PER_REQUEST",
         "One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 inclusive."),
        ([index_spec(name=f"vix{i}") for i in range(6)], [], "PAY_PER_REQUEST",
         "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5"),
        ([index_spec(name="three"), index_spec(name="four", dimensions=4)], [], "PAY_PER_REQUEST",
         "One or more parameter values were invalid: Conflicting attribute definition for 'emb'. "
         "All VectorIndexes on the same vector attribute must use the same dimensions."),
        ([index_spec()], [("emb", "S")], "PAY_PER_REQUEST",
         "One or more parameter values were invalid: Conflicting attribute definition for 'emb'. "
         "An attribute cannot be defined in AttributeDefinitions when used as a VectorAttribute."),
        ([index_spec(name="dup"), index_spec(name="dup")], [], "PAY_PER_REQUEST",
         "One or more parameter values were invalid: Duplicate index name: dup"),
        ([index_spec(projection={"ProjectionType": "INCLUDE"})], [], "PAY_PER_REQUEST",
         "One or more parameter values were invalid: ProjectionType is INCLUDE, but NonKeyAttributes is not specified"),
    ],
)
def test_create_table_refuses_invalid_vector_indexes(ddb, indexes, definitions, billing, message):
    attrs = [{"AttributeName": "pk", "AttributeType": "S"}] + [
        {"AttributeName": a, "AttributeType": t} for a, t in definitions]
    params = dict(TableName=unique_name("vbad"), AttributeDefinitions=attrs,
                  KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}], VectorIndexes=indexes)
    if billing == "PROVISIONED":
        params["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
    else:
        params["BillingMode"] = billing
    with expect_error("ValidationException", message):
        ddb.create_table(**params)


def test_update_table_adds_a_backfilling_index_on_the_server_clock(ddb, vector_table, endpoint_url):
    name = vector_table([index_spec(name="first")])
    for i in range(5):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}, "vec2": vector([i, 1])})
    response = ddb.update_table(
        TableName=name, VectorIndexUpdates=[{"Create": index_spec(name="second", attribute="vec2", dimensions=2)}])
    created = [i for i in response["TableDescription"]["VectorIndexes"] if i["IndexName"] == "second"][0]
    assert created["IndexStatus"] == "CREATING" and created["Backfilling"] is False
    described = [i for i in ddb.describe_table(TableName=name)["Table"]["VectorIndexes"] if i["IndexName"] == "second"][0]
    assert described["IndexStatus"] == "CREATING" and described["Backfilling"] is True
    with expect_error("ValidationException", "Cannot search backfilling vector index: second"):
        ddb.search_vectors(TableName=name, IndexName="second", SearchVector=search_vector([1, 0]), TopK=1)
    advance_clock(endpoint_url, 2)
    # The clock is past the backfilling second; the build runs in the background: waited for,
    # as an application waits (the SDK waiters poll DescribeTable).
    for _ in range(300):
        described = [i for i in ddb.describe_table(TableName=name)["Table"]["VectorIndexes"] if i["IndexName"] == "second"][0]
        if described["IndexStatus"] == "ACTIVE":
            break
        time.sleep(0.1)
    assert described["IndexStatus"] == "ACTIVE" and "Backfilling" not in described
    assert described["ItemCount"] == 5
    found = ddb.search_vectors(TableName=name, IndexName="second", SearchVector=search_vector([4, 1]), TopK=2)
    assert [r["Item"]["pk"]["S"] for r in found["SearchResults"]] == ["k4", "k3"]


def test_update_table_refusals(ddb, vector_table, make_table):
    name = vector_table([index_spec()])
    with expect_error("ValidationException", "Attempting to create an index which already exists"):
        ddb.update_table(TableName=name, VectorIndexUpdates=[{"Create": index_spec()}])
    with expect_error("LimitExceededException",
                      "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"):
        ddb.update_table(TableName=name, VectorIndexUpdates=[
            {"Create": index_spec(name="idx1")}, {"Create": index_spec(name="idx2")}])
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions"):
        ddb.update_table(TableName=name, VectorIndexUpdates=[{"Create": index_spec(name="idx3", schema=[("pk", "HASH")])}])
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables"):
        ddb.update_table(TableName=name, BillingMode="PROVISIONED",
                         ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    provisioned = make_table(billing_mode="PROVISIONED")
    with expect_error("ValidationException",
                      "One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables"):
        ddb.update_table(TableName=provisioned, VectorIndexUpdates=[{"Create": index_spec()}])


def test_update_table_deletes_an_index(ddb, vector_table):
    name = vector_table([index_spec(schema=[("tenant", "HASH")])], definitions=[("tenant", "S")])
    ddb.update_table(TableName=name, VectorIndexUpdates=[{"Delete": {"IndexName": "vix"}}])
    table = ddb.describe_table(TableName=name)["Table"]
    assert "VectorIndexes" not in table
    assert [a["AttributeName"] for a in table["AttributeDefinitions"]] == ["pk"]
    with expect_error("ValidationException", "The table does not have the specified index: vix"):
        ddb.search_vectors(TableName=name, IndexName="vix", SearchVector=search_vector([1, 0, 0]), TopK=1)
    with expect_error("ResourceNotFoundException"):
        ddb.update_table(TableName=name, VectorIndexUpdates=[{"Delete": {"IndexName": "vix"}}])


# ---------------------------------------------------------------------------
# Writes keep the index; the service's write rules
# ---------------------------------------------------------------------------


def test_writes_of_bad_vectors_are_refused(ddb, vector_table):
    name = vector_table([index_spec(schema=[("tenant", "HASH")])], definitions=[("tenant", "S")])
    cases = [
        ({"emb": vector([1, 0])},
         "One or more parameter values were invalid. Invalid size for parameter emb, Expected: 3, Actual: 2 IndexName: vix"),
        ({"emb": {"L": [{"N": "1"}, {"S": "x"}, {"N": "0"}]}},
         "One or more parameter values were invalid. Invalid type for parameter emb[1], Expected: 32-bit floating "
         "point number, Actual: S. IndexName: vix"),
        ({"emb": {"S": "not a vector"}},
         "One or more parameter values were invalid. Invalid type for parameter emb, Expected: 32-bit floating "
         "point number list IndexName: vix"),
        ({"emb": vector([1, 0, 0]), "tenant": {"S": ""}},
         "One or more parameter values are not valid. A value specified for a secondary index key is not supported. "
         "The AttributeValue for a key attribute cannot contain an empty string value. IndexName: vix, IndexKey: tenant"),
        ({"emb": vector([1, 0, 0]), "tenant": {"N": "1"}},
         "One or more parameter values were invalid: Type mismatch for Index Key tenant Expected: S Actual: N IndexName: vix"),
    ]
    for extra, message in cases:
        with expect_error("ValidationException", message):
            ddb.put_item(TableName=name, Item={"pk": {"S": "bad"}, **extra})
    assert "Item" not in ddb.get_item(TableName=name, Key={"pk": {"S": "bad"}})
    # Without the HASH attribute (or the vector) the write succeeds and the item is not indexed.
    ddb.put_item(TableName=name, Item={"pk": {"S": "nohash"}, "emb": vector([1, 0, 0])})
    ddb.put_item(TableName=name, Item={"pk": {"S": "novec"}, "tenant": {"S": "a"}})
    index = ddb.describe_table(TableName=name)["Table"]["VectorIndexes"][0]
    assert index["ItemCount"] == 0


def test_every_write_path_keeps_the_index(ddb, vector_table):
    name = vector_table([index_spec(dimensions=2, function="EUCLIDEAN")])

    def nearest(point, k=10):
        found = ddb.search_vectors(TableName=name, IndexName="vix", SearchVector=search_vector(point), TopK=k)
        return [r["Item"]["pk"]["S"] for r in found["SearchResults"]]

    ddb.put_item(TableName=name, Item={"pk": {"S": "put"}, "emb": vector([0, 0])})
    ddb.update_item(TableName=name, Key={"pk": {"S": "upd"}}, UpdateExpression="SET emb = :v",
                    ExpressionAttributeValues={":v": vector([1, 0])})
    ddb.batch_write_item(RequestItems={name: [{"PutRequest": {"Item": {"pk": {"S": "batch"}, "emb": vector([2, 0])}}}]})
    ddb.transact_write_items(TransactItems=[{"Put": {"TableName": name, "Item": {"pk": {"S": "tx"}, "emb": vector([3, 0])}}}])
    ddb.execute_statement(Statement=f"INSERT INTO \"{name}\" VALUE {{'pk': 'sql', 'emb': [4, 0]}}")
    assert nearest([0, 0]) == ["put", "upd", "batch", "tx", "sql"]
    ddb.update_item(TableName=name, Key={"pk": {"S": "put"}}, UpdateExpression="SET emb = :v",
                    ExpressionAttributeValues={":v": vector([9, 0])})
    ddb.update_item(TableName=name, Key={"pk": {"S": "upd"}}, UpdateExpression="REMOVE emb")
    ddb.delete_item(TableName=name, Key={"pk": {"S": "batch"}})
    ddb.transact_write_items(TransactItems=[{"Delete": {"TableName": name, "Key": {"pk": {"S": "tx"}}}}])
    assert nearest([0, 0]) == ["sql", "put"]
    with expect_error("ValidationException"):
        ddb.transact_write_items(TransactItems=[{"Put": {"TableName": name, "Item": {"pk": {"S": "tx2"}, "emb": vector([1])}}}])
    assert nearest([0, 0]) == ["sql", "put"]


# ---------------------------------------------------------------------------
# SearchVectors
# ---------------------------------------------------------------------------


def test_scores_and_order_for_every_distance_function(ddb, vector_table):
    name = vector_table([
        index_spec(name="cos", function="COSINE", dimensions=2),
        index_spec(name="euclid", function="EUCLIDEAN", dimensions=2),
        index_spec(name="dot", function="DOT_PRODUCT", dimensions=2),
    ])
    points = {"east": [1, 0], "north": [0, 2], "west": [-3, 0], "northeast": [1, 1]}
    for key, point in points.items():
        ddb.put_item(TableName=name, Item={"pk": {"S": key}, "emb": vector(point)})

    def search(index):
        found = ddb.search_vectors(TableName=name, IndexName=index, SearchVector=search_vector([1, 0]), TopK=4)
        return [(r["Item"]["pk"]["S"], r["Score"]) for r in found["SearchResults"]]

    cos = search("cos")
    assert [k for k, _ in cos] == ["east", "northeast", "north", "west"]
    assert cos[0][1] == pytest.approx(0.0) and cos[1][1] == pytest.approx(1 - 1 / math.sqrt(2), rel=1e-6)
    assert cos[2][1] == pytest.approx(1.0) and cos[3][1] == pytest.approx(2.0)
    l2 = search("euclid")
    assert [k for k, _ in l2] == ["east", "northeast", "north", "west"]
    assert [s for _, s in l2] == pytest.approx([0, 1, math.sqrt(5), 4], rel=1e-6)
    dot = search("dot")
    assert [k for k, _ in dot] == ["east", "northeast", "north", "west"]
    assert [s for _, s in dot] == pytest.approx([1, 1, 0, -3])
    # Ties (east and northeast both score 1): the smaller key first.
    assert dot[0][0] < dot[1][0]


def test_search_condition_projection_and_capacity(ddb, vector_table):
    name = vector_table(
        [index_spec(schema=[("tenant", "HASH"), ("kind", "INLINE_FILTER")], dimensions=2)],
        definitions=[("tenant", "S"), ("kind", "S")])
    rows = [("a1", "acme", "doc", [1, 0]), ("a2", "acme", "img", [1, 0.1]), ("a3", "acme", "doc", [0, 1]),
            ("b1", "other", "doc", [1, 0])]
    for key, tenant, kind, point in rows:
        ddb.put_item(TableName=name, Item={"pk": {"S": key}, "tenant": {"S": tenant}, "kind": {"S": kind},
                                           "title": {"S": key.upper()}, "emb": vector(point)})
    base = dict(TableName=name, IndexName="vix", SearchVector=search_vector([1, 0]), TopK=10)
    found = ddb.search_vectors(**base, SearchConditionExpression="tenant = :t", ExpressionAttributeValues={":t": {"S": "acme"}})
    assert [r["Item"]["pk"]["S"] for r in found["SearchResults"]] == ["a1", "a2", "a3"]
    # The vector is left out unless asked for.
    assert "emb" not in found["SearchResults"][0]["Item"] and found["SearchResults"][0]["Item"]["title"] == {"S": "A1"}
    assert "ConsumedCapacity" not in found
    filtered = ddb.search_vectors(
        **base, SearchConditionExpression="#t = :t AND kind = :k", ExpressionAttributeNames={"#t": "tenant"},
        ExpressionAttributeValues={":t": {"S": "acme"}, ":k": {"S": "doc"}}, ProjectionExpression="pk, emb",
        ReturnConsumedCapacity="TOTAL")
    # Stored numbers come back as written (the index holds f32 copies; the item is unchanged).
    assert [r["Item"] for r in filtered["SearchResults"]] == [
        {"pk": {"S": "a1"}, "emb": {"L": [{"N": "1"}, {"N": "0"}]}},
        {"pk": {"S": "a3"}, "emb": {"L": [{"N": "0"}, {"N": "1"}]}}]
    assert filtered["ConsumedCapacity"]["VectorSearchRequestBytes"] >= 1024

    cases = [
        (dict(), "SearchConditionExpression must be provided when SearchSchema has a HASH key"),
        (dict(SearchConditionExpression="tenant < :t", ExpressionAttributeValues={":t": {"S": "acme"}}),
         "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"),
        (dict(SearchConditionExpression="tenant = :t OR kind = :k",
              ExpressionAttributeValues={":t": {"S": "acme"}, ":k": {"S": "doc"}}),
         "Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"),
        (dict(SearchConditionExpression="kind = :k", ExpressionAttributeValues={":k": {"S": "doc"}}),
         "SearchConditionExpression must have all HASH attributes in configured SearchSchema"),
        (dict(SearchConditionExpression="tenant = :t AND title = :x",
              ExpressionAttributeValues={":t": {"S": "acme"}, ":x": {"S": "A1"}}),
         "SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: title"),
        (dict(SearchConditionExpression="tenant = :t", ExpressionAttributeValues={":t": {"S": "acme"}, ":u": {"S": "x"}}),
         "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"),
        (dict(SearchConditionExpression="tenant = :t"),
         "Invalid SearchConditionExpression: An expression attribute value used in expression is not defined; "
         "attribute value: :t"),
        (dict(SearchConditionExpression="tenant = :t", ExpressionAttributeValues={":t": {"N": "1"}}),
         "One or more parameter values were invalid: Condition parameter type does not match schema type"),
    ]
    for extra, message in cases:
        with expect_error("ValidationException", message):
            ddb.search_vectors(**base, **extra)


def test_search_validation_order_and_words(ddb, vector_table):
    name = vector_table([index_spec()])
    good = search_vector([1, 0, 0])
    with expect_error("ValidationException",
                      "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"):
        ddb.search_vectors(TableName="NoSuchVectorTable", IndexName="vix", SearchVector=good, TopK=101)
    with expect_error("ResourceNotFoundException", "Requested resource not found"):
        ddb.search_vectors(TableName="NoSuchVectorTable", IndexName="vix", SearchVector=good, TopK=1)
    with expect_error("ValidationException", "The table does not have the specified index: other"):
        ddb.search_vectors(TableName=name, IndexName="other", SearchVector=good, TopK=1)
    with expect_error("ValidationException", "Input search vector dimension 2 does not match vector index dimension 3"):
        ddb.search_vectors(TableName=name, IndexName="vix", SearchVector=search_vector([1, 0]), TopK=1)
    with expect_error("ValidationException",
                      "Search vector contains invalid values. All values in the search vector must be a 32-bit "
                      "floating-point number attribute"):
        ddb.search_vectors(TableName=name, IndexName="vix", SearchVector=[{"N": "1"}, {"S": "x"}, {"N": "0"}], TopK=1)
    with expect_error("ValidationException",
                      "SearchConditionExpression must not contain any attributes that is not in SearchSchema. "
                      "Invalid attribute: tenant"):
        ddb.search_vectors(TableName=name, IndexName="vix", SearchVector=good, TopK=1,
                           SearchConditionExpression="tenant = :t", ExpressionAttributeValues={":t": {"S": "a"}})


def test_query_scan_and_partiql_refuse_a_vector_index(ddb, vector_table):
    name = vector_table([index_spec()])
    with expect_error("ValidationException", "Query operation not supported on this index type"):
        ddb.query(TableName=name, IndexName="vix", KeyConditionExpression="pk = :p",
                  ExpressionAttributeValues={":p": {"S": "a"}})
    with expect_error("ValidationException", "Scan operation not supported on this index type"):
        ddb.scan(TableName=name, IndexName="vix")
    with expect_error("ValidationException", "Scan operation not supported on this index type"):
        ddb.execute_statement(Statement=f"SELECT * FROM \"{name}\".\"vix\" WHERE pk = 'a'")


def test_projection_within_the_index_projection(ddb, vector_table):
    name = vector_table([index_spec(projection={"ProjectionType": "INCLUDE", "NonKeyAttributes": ["title"]}, dimensions=2)])
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "title": {"S": "T"}, "body": {"S": "B"}, "emb": vector([1, 0])})
    found = ddb.search_vectors(TableName=name, IndexName="vix", SearchVector=search_vector([1, 0]), TopK=1)
    assert found["SearchResults"][0]["Item"] == {"pk": {"S": "a"}, "title": {"S": "T"}}
    with expect_error("ValidationException"):
        ddb.search_vectors(TableName=name, IndexName="vix", SearchVector=search_vector([1, 0]), TopK=1,
                           ProjectionExpression="body")


def test_randomized_search_matches_brute_force(ddb, vector_table):
    rng = random.Random(40)
    dims = 7
    name = vector_table([index_spec(name=f, function=f.upper(), dimensions=dims)
                         for f in ("cosine", "euclidean", "dot_product")])
    points = {}
    for i in range(60):
        point = [rng.uniform(-1, 1) for _ in range(dims)]
        points[f"k{i:02d}"] = point
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i:02d}"}, "emb": vector(point)})
    query = [rng.uniform(-1, 1) for _ in range(dims)]

    def reference(function):
        def score(p):
            dot = sum(a * b for a, b in zip(query, p))
            if function == "dot_product":
                return -dot
            if function == "euclidean":
                return math.dist(query, p)
            return 1 - dot / (math.hypot(*query) * math.hypot(*p))
        return sorted(points, key=lambda k: (score(points[k]), k))[:10]

    for function in ("cosine", "euclidean", "dot_product"):
        found = ddb.search_vectors(TableName=name, IndexName=function, SearchVector=search_vector(query), TopK=10)
        assert [r["Item"]["pk"]["S"] for r in found["SearchResults"]] == reference(function)


def test_backup_and_restore_keep_vector_indexes(ddb, vector_table):
    name = vector_table([index_spec(dimensions=2)])
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "emb": vector([1, 0])})
    backup = ddb.create_backup(TableName=name, BackupName="vbackup")["BackupDetails"]["BackupArn"]
    described = ddb.describe_backup(BackupArn=backup)["BackupDescription"]
    assert described["SourceTableFeatureDetails"]["VectorIndexes"][0]["IndexName"] == "vix"
    target = unique_name("vrest")
    restored = ddb.restore_table_from_backup(TargetTableName=target, BackupArn=backup)["TableDescription"]
    try:
        assert restored["VectorIndexes"][0]["IndexName"] == "vix"
        found = ddb.search_vectors(TableName=target, IndexName="vix", SearchVector=search_vector([1, 0]), TopK=1)
        assert found["SearchResults"][0]["Item"]["pk"] == {"S": "a"}
    finally:
        ddb.delete_table(TableName=target)
    other = unique_name("vrest")
    restored = ddb.restore_table_from_backup(
        TargetTableName=other, BackupArn=backup,
        VectorIndexOverride=[index_spec(name="renamed", dimensions=2, function="DOT_PRODUCT")])["TableDescription"]
    try:
        assert [i["IndexName"] for i in restored["VectorIndexes"]] == ["renamed"]
        found = ddb.search_vectors(TableName=other, IndexName="renamed", SearchVector=search_vector([1, 0]), TopK=1)
        assert found["SearchResults"][0]["Score"] == pytest.approx(1.0)
    finally:
        ddb.delete_table(TableName=other)
        ddb.delete_backup(BackupArn=backup)


def test_aws_cli_search_vectors(aws_cli, ddb, vector_table):
    name = vector_table([index_spec(dimensions=2)])
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "emb": vector([1, 0])})
    ddb.put_item(TableName=name, Item={"pk": {"S": "b"}, "emb": vector([0, 1])})
    result = aws_cli("search-vectors", "--table-name", name, "--index-name", "vix",
                     "--search-vector", json.dumps(search_vector([0, 1])), "--top-k", "1")
    assert result.returncode == 0, result.stderr
    assert result.json["SearchResults"][0]["Item"]["pk"] == {"S": "b"}


def test_boto3_with_endpoint_url_reaches_the_server(ddb, endpoint_url):
    """botocore's endpoint rules send SearchVectors to `search-dynamodb.<region>.amazonaws.com` unless
    an endpoint is given: with `endpoint_url` the request goes to that endpoint."""
    captured = []
    ddb.meta.events.register("before-send.dynamodb.SearchVectors", lambda request, **_: captured.append(request.url))
    try:
        with expect_error("ResourceNotFoundException"):
            ddb.search_vectors(TableName="NoSuchVectorTable", IndexName="vix", SearchVector=search_vector([1]), TopK=1)
    finally:
        ddb.meta.events.unregister("before-send.dynamodb.SearchVectors")
    assert captured and captured[0].startswith(endpoint_url)
