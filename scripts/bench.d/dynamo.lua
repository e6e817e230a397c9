-- wrk script for scripts/bench: DynamoDB JSON requests against a table with a string partition
-- key `pk` and a number sort key `sk`, preloaded as partitions p00000000.. with sort keys 0..K-1.
--
-- Configured by environment variables (wrk passes none of its own):
--   BENCH_OP          get | put | query | ql-get | ql-query | batch | mix | update | transact |
--                     put-gsi2 | put-stream
--   BENCH_TABLE       table name
--   BENCH_PARTITIONS  number of preloaded partitions
--   BENCH_PER_PART    items per partition (the query's expected item count)
--   BENCH_NONCE       string that makes this run's new keys unique
--   BENCH_OUT         file that done() writes its JSON summary to
--
-- Read requests are pre-generated in init() (a pool per thread, picked at random) so the client
-- spends as little CPU as possible on the two cores it shares with the server. Writes of new
-- keys are built per request (their key must be new each time).
--
-- No response() function is defined: wrk then skips handing headers and bodies to Lua, and its
-- summary counts every status > 399 in errors.status, which the harness reports as non-2xx.

local op = os.getenv("BENCH_OP") or "get"
local tableName = os.getenv("BENCH_TABLE") or "bench"
local partitions = tonumber(os.getenv("BENCH_PARTITIONS") or "1000")
local perPartition = tonumber(os.getenv("BENCH_PER_PART") or "10")
local nonce = os.getenv("BENCH_NONCE") or "x"
local out = os.getenv("BENCH_OUT")

local payload = string.rep("abcdefghij", 12)  -- 120 bytes, as in the preloaded items

local threadCounter = 0
function setup(thread)
  threadCounter = threadCounter + 1
  thread:set("tid", threadCounter)
end

local function headers(target)
  return {
    ["Content-Type"] = "application/x-amz-json-1.0",
    ["X-Amz-Target"] = "DynamoDB_20120810." .. target,
    ["X-Amz-Date"] = "20260101T000000Z",
    ["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x",
  }
end

local function pkOf(p)
  return string.format("p%08d", p)
end

local function itemJSON(pk, sk, n)
  return string.format('{"pk":{"S":"%s"},"sk":{"N":"%d"},"data":{"S":"%s"},"n":{"N":"%d"}}',
    pk, sk, payload, n)
end

local function getRequest()
  local p = math.random(0, partitions - 1)
  local s = math.random(0, perPartition - 1)
  local body = string.format('{"TableName":"%s","Key":{"pk":{"S":"%s"},"sk":{"N":"%d"}}}',
    tableName, pkOf(p), s)
  return wrk.format("POST", "/", headers("GetItem"), body)
end

local function queryRequest()
  local p = math.random(0, partitions - 1)
  local body = string.format(
    '{"TableName":"%s","KeyConditions":{"pk":{"AttributeValueList":[{"S":"%s"}],"ComparisonOperator":"EQ"}}}',
    tableName, pkOf(p))
  return wrk.format("POST", "/", headers("Query"), body)
end

-- PartiQL: the same reads as GetItem and Query, as ExecuteStatement with parameters.
local function statementRequest(byKey)
  local p = math.random(0, partitions - 1)
  local body
  if byKey then
    body = string.format(
      '{"Statement":"SELECT * FROM \\"%s\\" WHERE pk = ? AND sk = ?","Parameters":[{"S":"%s"},{"N":"%d"}]}',
      tableName, pkOf(p), math.random(0, perPartition - 1))
  else
    body = string.format('{"Statement":"SELECT * FROM \\"%s\\" WHERE pk = ?","Parameters":[{"S":"%s"}]}',
      tableName, pkOf(p))
  end
  return wrk.format("POST", "/", headers("ExecuteStatement"), body)
end

-- Overwrites an existing item (the mix keeps the table's size steady).
local function overwriteRequest()
  local p = math.random(0, partitions - 1)
  local s = math.random(0, perPartition - 1)
  local body = string.format('{"TableName":"%s","Item":%s}', tableName, itemJSON(pkOf(p), s, math.random(0, 999999)))
  return wrk.format("POST", "/", headers("PutItem"), body)
end

local counter = 0
local putHeaders
local batchHeaders

local function newKey()
  counter = counter + 1
  return string.format("n%s-%d-%d", nonce, tid or 0, counter)
end

local function putRequest()
  local body = string.format('{"TableName":"%s","Item":%s}', tableName, itemJSON(newKey(), 0, counter))
  return wrk.format("POST", "/", putHeaders, body)
end

-- PutItem of a new key into one of the other tables scripts/bench creates (two GSIs, a stream).
local function putIntoRequest(otherTable)
  return function()
    local body = string.format('{"TableName":"%s","Item":%s}', otherTable, itemJSON(newKey(), 0, counter))
    return wrk.format("POST", "/", putHeaders, body)
  end
end

local transactHeaders

local function transactRequest()
  local pk = newKey()
  local actions = {}
  for i = 0, 9 do
    actions[#actions + 1] = string.format('{"Put":{"TableName":"%s","Item":%s}}', tableName, itemJSON(pk, i, counter))
  end
  return wrk.format("POST", "/", transactHeaders, '{"TransactItems":[' .. table.concat(actions, ",") .. ']}')
end

-- SET and ADD on an existing item under a condition (benchkit/workloads.py's update_request).
local function updateRequest()
  local p = math.random(0, partitions - 1)
  local s = math.random(0, perPartition - 1)
  local body = string.format(
    '{"TableName":"%s","Key":{"pk":{"S":"%s"},"sk":{"N":"%d"}},' ..
    '"UpdateExpression":"SET #d = :d ADD #c :one",' ..
    '"ConditionExpression":"attribute_exists(pk) AND #n >= :zero",' ..
    '"ExpressionAttributeNames":{"#d":"data","#c":"count","#n":"n"},' ..
    '"ExpressionAttributeValues":{":d":{"S":"%s"},":one":{"N":"1"},":zero":{"N":"0"}},"ReturnValues":"NONE"}',
    tableName, pkOf(p), s, payload)
  return wrk.format("POST", "/", headers("UpdateItem"), body)
end

local function batchRequest()
  local pk = newKey()
  local items = {}
  for i = 0, 24 do
    items[#items + 1] = '{"PutRequest":{"Item":' .. itemJSON(pk, i, counter) .. '}}'
  end
  local body = string.format('{"RequestItems":{"%s":[%s]}}', tableName, table.concat(items, ","))
  return wrk.format("POST", "/", batchHeaders, body)
end

local pool = {}
local poolSize = 4096

function init(args)
  math.randomseed(os.time() * 1000 + (tid or 0) * 7919 + string.len(nonce))
  putHeaders = headers("PutItem")
  batchHeaders = headers("BatchWriteItem")
  transactHeaders = headers("TransactWriteItems")
  if op == "get" then
    for i = 1, poolSize do pool[i] = getRequest() end
  elseif op == "query" then
    for i = 1, poolSize do pool[i] = queryRequest() end
  elseif op == "update" then
    for i = 1, poolSize do pool[i] = updateRequest() end
  elseif op == "ql-get" or op == "ql-query" then
    for i = 1, poolSize do pool[i] = statementRequest(op == "ql-get") end
  elseif op == "mix" then
    -- 80% GetItem, 20% PutItem overwriting an existing item, shuffled.
    for i = 1, poolSize do
      if i % 5 == 0 then pool[i] = overwriteRequest() else pool[i] = getRequest() end
    end
    for i = poolSize, 2, -1 do
      local j = math.random(1, i)
      pool[i], pool[j] = pool[j], pool[i]
    end
  end
end

if op == "put" then
  request = putRequest
elseif op == "batch" then
  request = batchRequest
elseif op == "transact" then
  request = transactRequest
elseif op == "put-gsi2" then
  request = putIntoRequest(tableName .. "_gsi")
elseif op == "put-stream" then
  request = putIntoRequest(tableName .. "_stream")
else
  request = function()
    return pool[math.random(1, poolSize)]
  end
end

function done(summary, latency, requests)
  local e = summary.errors
  local json = string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"mean":%.1f,"max":%d}}',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean, latency.max)
  if out then
    local f = assert(io.open(out, "w"))
    f:write(json, "\n")
    f:close()
  else
    io.write(json, "\n")
  end
end
