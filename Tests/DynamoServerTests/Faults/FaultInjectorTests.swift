import DynamoAPI
@testable import DynamoServer
import Testing

/// Fault rules: matching, reproducible draws, retirement, and the `--fault` form.
@Suite struct FaultInjectorTests {
    @Test func matchesByTableAndOperation() {
        let faults = FaultInjector(rules: [FaultInjector.Rule(table: "Orders", operation: "PutItem", error: "InternalServerError")])
        #expect(
            faults.fault(operation: "PutItem", tables: ["Orders"])?.error
                == DynamoError(.internalServerError, "Internal server error"))
        #expect(faults.fault(operation: "GetItem", tables: ["Orders"]) == nil)
        #expect(faults.fault(operation: "PutItem", tables: ["Stock"]) == nil)
        #expect(faults.fault(operation: "BatchWriteItem", tables: ["Stock", "Orders"]) == nil)
        let any = FaultInjector(rules: [FaultInjector.Rule(error: "ThrottlingException")])
        #expect(any.fault(operation: "Scan", tables: [])?.error?.code == .throttling)
    }

    @Test func drawsAreReproducibleFromTheSeed() {
        func hits(seed: UInt64) -> [Bool] {
            let faults = FaultInjector(seed: seed, rules: [FaultInjector.Rule(error: "InternalServerError", rate: 0.3)])
            return (0..<1000).map { _ in faults.fault(operation: "GetItem", tables: ["T"]) != nil }
        }
        let first = hits(seed: 99)
        #expect(first == hits(seed: 99))
        #expect(first != hits(seed: 100))
        #expect((250...350).contains(first.filter { $0 }.count))
    }

    @Test func countRetiresTheRule() {
        let faults = FaultInjector(rules: [FaultInjector.Rule(error: "InternalServerError", remaining: 2)])
        #expect(faults.fault(operation: "GetItem", tables: []) != nil)
        #expect(faults.fault(operation: "GetItem", tables: []) != nil)
        #expect(faults.fault(operation: "GetItem", tables: []) == nil)
        #expect(!faults.isArmed && faults.rules.isEmpty)
    }

    @Test func transactionConflictsArmTheNamedTable() {
        let faults = FaultInjector(rules: [FaultInjector.Rule(operation: "TransactWriteItems", error: "TransactionConflict")])
        let fault = faults.fault(operation: "TransactWriteItems", tables: ["Accounts", "Ledger"])
        #expect(fault == FaultInjector.Fault(latencyMilliseconds: 0, error: nil, conflictTable: "Accounts"))
    }

    @Test func specsParseAndRefuseWhatIsWrong() throws {
        let rule = try FaultInjector.Rule(
            spec: "table=Orders,operation=PutItem,error=ProvisionedThroughputExceededException,rate=0.5,latency-ms=20,count=3,message=slow, down")
        #expect(
            rule
                == FaultInjector.Rule(
                    table: "Orders", operation: "PutItem", error: "ProvisionedThroughputExceededException",
                    message: "slow, down", latencyMilliseconds: 20, rate: 0.5, remaining: 3))
        for bad in [
            "error=Boom", "rate=2,error=InternalServerError", "latency-ms=-1", "table=T", "count=0,error=InternalServerError",
            "colour=red,error=InternalServerError", "error", "rate=x,error=InternalServerError",
        ] {
            #expect(throws: FaultInjector.Rule.Invalid.self, "\(bad)") { try FaultInjector.Rule(spec: bad) }
        }
    }

    @Test func tablesAreFoundInEveryRequestShape() throws {
        #expect(FaultInjector.tables(in: try JSONValue(parsing: #"{"TableName":"A"}"#)) == ["A"])
        #expect(FaultInjector.tables(in: try JSONValue(parsing: #"{"RequestItems":{"B":[],"A":[]}}"#)) == ["A", "B"])
        #expect(
            FaultInjector.tables(
                in: try JSONValue(
                    parsing:
                        #"{"TransactItems":[{"Put":{"TableName":"C","Item":{}}},{"ConditionCheck":{"TableName":"D"}}]}"#)) == ["C", "D"])
        #expect(FaultInjector.tables(in: .array([])) == [])
    }
}
