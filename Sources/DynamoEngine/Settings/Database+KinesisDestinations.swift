import DynamoAPI

extension Database {
    /// A Kinesis data stream ARN: `arn:<partition>:kinesis:<region>:<account>:stream/<name>`.
    private static func checkStreamARN(_ arn: String) throws(DynamoError) {
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[2] == "kinesis", !parts[3].isEmpty,
              parts[5].hasPrefix("stream/"), parts[5].count > "stream/".count else {
            throw DynamoError.validation("Invalid StreamArn: \(arn)")
        }
    }

    /// The status a destination shows at `now` on the server clock.
    static func destinationStatus(_ destination: StoredKinesisDestination, now: Double) -> DestinationStatus {
        DestinationStatus(rawValue: Transition.settled(since: destination.changedAt, now: now)
            ? destination.settledStatus : destination.transitionalStatus)
    }

    /// Applies `change` to the destination for `streamARN` of a table, inside one catalog write.
    private func changeDestinations(
        table reference: String, _ change: (inout [StoredKinesisDestination], Double) throws -> Void
    ) throws -> TableDefinition {
        _ = try table(named: reference)
        let now = clock.now()
        return try updateDefinition(named: reference) { definition in
            var settings = definition.controlSettings
            var destinations = settings.kinesisDestinations ?? []
            try change(&destinations, now)
            settings.kinesisDestinations = destinations
            definition.controlSettings = settings
        }
    }

    /// EnableKinesisStreamingDestination: records the destination as ENABLING, then ACTIVE
    /// (state only: no records are sent, there is no Kinesis here).
    package func enableKinesisStreamingDestination(_ input: KinesisStreamingDestinationInput) throws -> KinesisStreamingDestinationOutput {
        try Self.checkStreamARN(input.streamArn)
        let precision = input.enableKinesisStreamingConfiguration?.approximateCreationDateTimePrecision ?? .microsecond
        let definition = try changeDestinations(table: input.tableName) { destinations, now in
            let position = destinations.firstIndex { $0.streamARN == input.streamArn }
            if let position, Self.destinationStatus(destinations[position], now: now) != .disabled {
                throw DynamoError.validation(
                    "Table \(input.tableName) is already streaming to the Kinesis data stream \(input.streamArn)")
            }
            let live = destinations.filter { Self.destinationStatus($0, now: now) != .disabled }
            if live.count >= 2 {
                throw DynamoError(.limitExceeded,
                                  "Table \(input.tableName) already has the maximum of 2 Kinesis streaming destinations")
            }
            let entry = StoredKinesisDestination(streamARN: input.streamArn, settledStatus: "ACTIVE",
                                                 transitionalStatus: "ENABLING", changedAt: now,
                                                 precision: precision.rawValue)
            if let position { destinations[position] = entry } else { destinations.append(entry) }
        }
        return KinesisStreamingDestinationOutput(
            tableName: definition.name, streamArn: input.streamArn, destinationStatus: .enabling,
            enableKinesisStreamingConfiguration: EnableKinesisStreamingConfiguration(approximateCreationDateTimePrecision: precision))
    }

    /// DisableKinesisStreamingDestination: DISABLING, then DISABLED.
    package func disableKinesisStreamingDestination(_ input: KinesisStreamingDestinationInput) throws -> KinesisStreamingDestinationOutput {
        try Self.checkStreamARN(input.streamArn)
        let definition = try changeDestinations(table: input.tableName) { destinations, now in
            guard let position = destinations.firstIndex(where: { $0.streamARN == input.streamArn }),
                  Self.destinationStatus(destinations[position], now: now) == .active else {
                throw DynamoError.validation(
                    "Table \(input.tableName) is not streaming to an active Kinesis data stream \(input.streamArn)")
            }
            destinations[position].settledStatus = "DISABLED"
            destinations[position].transitionalStatus = "DISABLING"
            destinations[position].changedAt = now
        }
        return KinesisStreamingDestinationOutput(tableName: definition.name, streamArn: input.streamArn,
                                                 destinationStatus: .disabling)
    }

    /// UpdateKinesisStreamingDestination: changes an ACTIVE destination's timestamp precision
    /// (UPDATING, then ACTIVE).
    package func updateKinesisStreamingDestination(_ input: UpdateKinesisStreamingDestinationInput) throws -> UpdateKinesisStreamingDestinationOutput {
        try Self.checkStreamARN(input.streamArn)
        guard let precision = input.updateKinesisStreamingConfiguration?.approximateCreationDateTimePrecision else {
            throw DynamoError.validation("UpdateKinesisStreamingConfiguration must contain ApproximateCreationDateTimePrecision")
        }
        let definition = try changeDestinations(table: input.tableName) { destinations, now in
            guard let position = destinations.firstIndex(where: { $0.streamARN == input.streamArn }),
                  Self.destinationStatus(destinations[position], now: now) == .active else {
                throw DynamoError(.resourceNotFound,
                                  "Table \(input.tableName) has no active Kinesis streaming destination \(input.streamArn)")
            }
            if destinations[position].precision == precision.rawValue {
                throw DynamoError.validation(
                    "The ApproximateCreationDateTimePrecision is already \(precision.rawValue) for \(input.streamArn)")
            }
            destinations[position].precision = precision.rawValue
            destinations[position].transitionalStatus = "UPDATING"
            destinations[position].changedAt = now
        }
        return UpdateKinesisStreamingDestinationOutput(
            tableName: definition.name, streamArn: input.streamArn, destinationStatus: .updating,
            updateKinesisStreamingConfiguration: UpdateKinesisStreamingConfiguration(approximateCreationDateTimePrecision: precision))
    }

    /// DescribeKinesisStreamingDestination: every destination of the table with its status now.
    package func describeKinesisStreamingDestination(_ input: DescribeKinesisStreamingDestinationInput) throws -> DescribeKinesisStreamingDestinationOutput {
        let definition = try table(named: input.tableName)
        let now = clock.now()
        let destinations = (definition.controlSettings.kinesisDestinations ?? []).map { stored in
            KinesisDataStreamDestination(
                streamArn: stored.streamARN, destinationStatus: Self.destinationStatus(stored, now: now),
                approximateCreationDateTimePrecision: ApproximateCreationDateTimePrecision(rawValue: stored.precision))
        }
        return DescribeKinesisStreamingDestinationOutput(tableName: definition.name,
                                                         kinesisDataStreamDestinations: destinations)
    }
}
