import DynamoAPI

/// Kinesis Data Streams destinations, with DynamoDB's state machine and messages. With a
/// Kinesis endpoint (a ``KinesisRecordSink``) an ACTIVE destination receives every change
/// (``Database/queueKinesisRecords(_:)``); without one a destination is state only. A table has at most one live destination; every
/// change needs the destination in the state the operation expects.
extension Database {

    /// Whether an ARN could name a Kinesis data stream in this region (Enable does not refuse
    /// other ARNs: like DynamoDB, the destination then ends ENABLE_FAILED).
    private func isStreamARN(_ arn: String) -> Bool {
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        return parts.count == 6 && parts[0] == "arn" && parts[2] == "kinesis" && String(parts[3]) == region
            && parts[5].hasPrefix("stream/") && parts[5].count > "stream/".count
    }

    /// The status a destination shows at `now` on the server clock.
    static func destinationStatus(_ destination: StoredKinesisDestination, now: Double) -> DestinationStatus {
        Transition.settled(since: destination.changedAt, now: now)
            ? destination.settledStatus : destination.transitionalStatus
    }

    /// Applies `change` to a table's destinations inside one catalog write.
    private func changeDestinations(
        table reference: String, _ change: (inout [StoredKinesisDestination], TableDefinition, Double) throws -> Void
    ) throws -> TableDefinition {
        _ = try table(named: reference)
        let now = clock.now()
        return try updateDefinition(named: reference) { definition in
            var settings = definition.controlSettings
            var destinations = settings.kinesisDestinations ?? []
            try change(&destinations, definition, now)
            settings.kinesisDestinations = destinations
            definition.controlSettings = settings
        }
    }

    /// The position of the ACTIVE destination for `arn`, or DynamoDB's error.
    private static func active(
        _ arn: String, in destinations: [StoredKinesisDestination], now: Double,
        otherwise message: String
    ) throws -> Int {
        guard let position = destinations.firstIndex(where: { $0.streamARN == arn }),
            destinationStatus(destinations[position], now: now) == .active
        else {
            throw EngineMessages.kinesisNotActive(message)
        }
        return position
    }

    /// EnableKinesisStreamingDestination: ENABLING, then ACTIVE (or ENABLE_FAILED for an ARN
    /// that is not a Kinesis stream of this region, or, with a Kinesis endpoint, a stream that
    /// is not there).
    package func enableKinesisStreamingDestination(_ input: KinesisStreamingDestinationInput) throws -> KinesisStreamingDestinationOutput {
        let precision = input.enableKinesisStreamingConfiguration?.approximateCreationDateTimePrecision
        let valid =
            isStreamARN(input.streamArn)
            && kinesis.sink.map { $0.streamIsWritable(streamARN: input.streamArn, region: region) } ?? true
        let definition = try changeDestinations(table: input.tableName) { destinations, _, now in
            let live = destinations.contains { destination in
                let status = Self.destinationStatus(destination, now: now)
                return status != .disabled && status != .enableFailed
            }
            if live {
                throw EngineMessages.kinesisDestinationAlreadyLive
            }
            let entry = StoredKinesisDestination(
                streamARN: input.streamArn, settledStatus: valid ? .active : .enableFailed,
                transitionalStatus: .enabling, changedAt: now, precision: precision,
                failure: valid ? nil : "User does not have a permission to use kinesis stream")
            if let position = destinations.firstIndex(where: { $0.streamARN == input.streamArn }) {
                destinations[position] = entry
            } else {
                destinations.append(entry)
            }
        }
        return KinesisStreamingDestinationOutput(
            tableName: definition.name, streamArn: input.streamArn, destinationStatus: .enabling,
            enableKinesisStreamingConfiguration: input.enableKinesisStreamingConfiguration)
    }

    /// DisableKinesisStreamingDestination: DISABLING, then DISABLED (the precision is forgotten).
    package func disableKinesisStreamingDestination(_ input: KinesisStreamingDestinationInput) throws -> KinesisStreamingDestinationOutput {
        let definition = try changeDestinations(table: input.tableName) { destinations, _, now in
            let position = try Self.active(
                input.streamArn, in: destinations, now: now,
                otherwise: EngineMessages.kinesisDisableNotActive)
            destinations[position].settledStatus = .disabled
            destinations[position].transitionalStatus = .disabling
            destinations[position].changedAt = now
            destinations[position].precision = nil
        }
        return KinesisStreamingDestinationOutput(
            tableName: definition.name, streamArn: input.streamArn,
            destinationStatus: .disabling)
    }

    /// UpdateKinesisStreamingDestination: changes an ACTIVE destination's timestamp precision
    /// (UPDATING, then ACTIVE; the new precision shows at once).
    package func updateKinesisStreamingDestination(_ input: UpdateKinesisStreamingDestinationInput) throws -> UpdateKinesisStreamingDestinationOutput
    {
        guard let precision = input.updateKinesisStreamingConfiguration?.approximateCreationDateTimePrecision else {
            throw EngineMessages.kinesisUpdateWithoutConfiguration
        }
        let definition = try changeDestinations(table: input.tableName) { destinations, table, now in
            let position = try Self.active(
                input.streamArn, in: destinations, now: now,
                otherwise: EngineMessages.kinesisUpdateNotActive(table: table.name, streamArn: input.streamArn))
            let current = destinations[position].precision ?? .millisecond
            if current == precision {
                throw EngineMessages.invalidRequestPrecisionAlreadySet(current: current, tableID: table.tableID, streamArn: input.streamArn)
            }
            destinations[position].precision = precision
            destinations[position].transitionalStatus = .updating
            destinations[position].changedAt = now
        }
        return UpdateKinesisStreamingDestinationOutput(
            tableName: definition.name, streamArn: input.streamArn, destinationStatus: .updating,
            updateKinesisStreamingConfiguration: input.updateKinesisStreamingConfiguration)
    }

    /// DescribeKinesisStreamingDestination: every destination of the table with its status now.
    package func describeKinesisStreamingDestination(_ input: DescribeKinesisStreamingDestinationInput) throws
        -> DescribeKinesisStreamingDestinationOutput
    {
        let definition = try table(named: input.tableName)
        let now = clock.now()
        let destinations = (definition.controlSettings.kinesisDestinations ?? []).map { stored in
            let status = Self.destinationStatus(stored, now: now)
            return KinesisDataStreamDestination(
                streamArn: stored.streamARN, destinationStatus: status,
                destinationStatusDescription: status == .enableFailed ? stored.failure : nil,
                approximateCreationDateTimePrecision: stored.precision)
        }
        return DescribeKinesisStreamingDestinationOutput(
            tableName: definition.name,
            kinesisDataStreamDestinations: destinations)
    }
}
