"""Writes small files laid out as DynamoDB Local's SQLite databases (cf, dm with TableInfo JSON,
one SQLite table per DynamoDB table with ObjectJSON, sm/ss/us/tr), for the black-box migration
tests. The thorough, every-type check lives in the Swift suite (DynamoDBLocalImportTests); this
writer covers what the CLI must do with such a directory."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path


def write_file(path: Path, tables: list[dict], version: str = "v2.4.0") -> None:
    """tables: [{"name", "attributes": {name: type}, "hash", "range"?, "gsis": [{"name","hash","range"?}],
    "provisioned": (r, w) | None, "deletion_protection": bool, "stream": view type | None, "items": [item JSON]}]"""
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE cf (version TEXT);
        CREATE TABLE dm (TableName TEXT, CreationDateTime INTEGER, LastDecreaseDate INTEGER,
            LastIncreaseDate INTEGER, NumberOfDecreasesToday INTEGER, ReadCapacityUnits INTEGER,
            WriteCapacityUnits INTEGER, TableInfo BLOB, BillingMode INTEGER DEFAULT 0,
            PayPerRequestDateTime INTEGER DEFAULT 0, DeletionProtectionEnabled INTEGER DEFAULT 0,
            MaxReadRequestUnits INTEGER DEFAULT 0, MaxWriteRequestUnits INTEGER DEFAULT 0, PRIMARY KEY(TableName));
        CREATE TABLE sm (StreamID TEXT, StreamStatus TEXT, TableName TEXT, StreamInfo BLOB,
            CreationDateTime INTEGER, DeletionDateTime INTEGER, PRIMARY KEY(StreamID));
        CREATE TABLE ss (StreamID TEXT, ShardID TEXT, CreationDateTime INTEGER, DeletionDateTime INTEGER,
            ParentShardID TEXT, PRIMARY KEY(ShardID));
        CREATE TABLE us (StreamID TEXT, ShardID TEXT, SequenceNumber INTEGER, CreationDateTime INTEGER,
            StreamRecord BLOB, OperationType TEXT, PRIMARY KEY(SequenceNumber));
        CREATE TABLE tr (TransactionId TEXT, TransactionHash TEXT, CreationDateTime INTEGER, PRIMARY KEY(TransactionId));
        """
    )
    db.execute("INSERT INTO cf VALUES (?)", (version,))
    for table in tables:
        attributes = table["attributes"]

        def definition(name):
            return {"AttributeName": name, "AttributeType": attributes[name]}

        def elements(hash_key, range_key):
            keys = [{"DynamoDBAttribute": definition(hash_key), "KeyType": "HASH", "SQLiteColumnName": "hashKey"}]
            if range_key:
                keys.append({"DynamoDBAttribute": definition(range_key), "KeyType": "RANGE", "SQLiteColumnName": "rangeKey"})
            return keys

        def schema(hash_key, range_key):
            keys = [{"AttributeName": hash_key, "KeyType": "HASH"}]
            if range_key:
                keys.append({"AttributeName": range_key, "KeyType": "RANGE"})
            return keys

        provisioned = table.get("provisioned")
        gsis = []
        for gsi in table.get("gsis", []):
            described = {"IndexName": gsi["name"], "KeySchema": schema(gsi["hash"], gsi.get("range")),
                         "Projection": {"ProjectionType": "ALL"}, "IndexStatus": "ACTIVE"}
            if provisioned:
                described["ProvisionedThroughput"] = {"ReadCapacityUnits": provisioned[0], "WriteCapacityUnits": provisioned[1]}
            gsis.append(described)
        sqlite_index = {"": elements(table["hash"], table.get("range"))}
        for gsi in table.get("gsis", []):
            sqlite_index[gsi["name"]] = elements(gsi["hash"], gsi.get("range"))
        info = {"Attributes": [definition(name) for name in attributes], "GSIList": [], "GSIDescList": gsis,
                "SQLiteIndex": sqlite_index, "UniqueIndexes": elements(table["hash"], table.get("range"))}
        db.execute(
            "INSERT INTO dm (TableName, CreationDateTime, ReadCapacityUnits, WriteCapacityUnits, TableInfo, BillingMode,"
            " PayPerRequestDateTime, DeletionProtectionEnabled) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table["name"], 1_700_000_000_000, provisioned[0] if provisioned else 0, provisioned[1] if provisioned else 0,
             json.dumps(info).encode(), 0 if provisioned else 1, 0 if provisioned else 1_700_000_000_000,
             1 if table.get("deletion_protection") else 0),
        )
        db.execute(f'CREATE TABLE "{table["name"]}" (hashKey TEXT, rangeKey TEXT, hashValue BLOB NOT NULL, '
                   "rangeValue BLOB NOT NULL, itemSize INTEGER DEFAULT 0, ObjectJSON BLOB NOT NULL, PRIMARY KEY(hashKey, rangeKey))")
        for item in table["items"]:
            hash_text = json.dumps(item[table["hash"]], sort_keys=True)
            range_text = json.dumps(item[table["range"]], sort_keys=True) if table.get("range") else ""
            db.execute(f'INSERT INTO "{table["name"]}" VALUES (?, ?, ?, ?, ?, ?)',
                       (hash_text, range_text, hash_text.encode(), range_text.encode(), 0, json.dumps(item).encode()))
        if table.get("stream"):
            db.execute("INSERT INTO sm VALUES (?, 'ENABLED', ?, ?, ?, NULL)",
                       (f"stream-{table['name']}", table["name"],
                        json.dumps({"StreamViewType": table["stream"], "TableName": table["name"]}).encode(),
                        1_700_000_000_000))
    db.commit()
    db.close()
