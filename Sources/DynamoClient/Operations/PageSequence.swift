import DynamoAPI

/// The pages of a paginated operation as an `AsyncSequence`: each element is one response;
/// the next request continues from the previous response's position until there is none.
///
/// Nothing is sent until iteration starts; each iteration starts over from the first page.
///
/// ```swift
/// for try await page in client.queryPages(input) {
///     for item in page.items ?? [] { print(item) }
/// }
/// ```
public struct PageSequence<Input: DynamoOperationInput>: AsyncSequence, Sendable {
    /// One response.
    public typealias Element = Input.Output

    let client: DynamoClient
    let first: Input
    /// The request after `input` given its response, or `nil` on the last page.
    let next: @Sendable (Input, Input.Output) -> Input?

    /// Fetches pages one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: DynamoClient
        var input: Input?
        let next: @Sendable (Input, Input.Output) -> Input?

        /// The next page, or `nil` after the last.
        ///
        /// - Throws: What ``DynamoClient/send(_:)`` throws.
        public mutating func next() async throws -> Input.Output? {
            guard let current = input else { return nil }
            let output = try await client.send(current)
            input = next(current, output)
            return output
        }
    }

    /// Starts from the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, input: first, next: next)
    }
}

/// The items of every page of a Query or Scan, in order, as one `AsyncSequence`.
///
/// ```swift
/// for try await item in client.queryItems(input) { print(item["id"]) }
/// ```
public struct ItemSequence<Input: DynamoOperationInput>: AsyncSequence, Sendable {
    /// One item.
    public typealias Element = Item

    let pages: PageSequence<Input>
    let items: @Sendable (Input.Output) -> [Item]

    /// Walks the pages, yielding their items.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pages: PageSequence<Input>.AsyncIterator
        let items: @Sendable (Input.Output) -> [Item]
        var buffered: [Item] = []
        var position = 0

        /// The next item, or `nil` after the last page's last item.
        ///
        /// - Throws: What ``DynamoClient/send(_:)`` throws.
        public mutating func next() async throws -> Item? {
            while position == buffered.count {
                guard let page = try await pages.next() else { return nil }
                buffered = items(page)
                position = 0
            }
            defer { position += 1 }
            return buffered[position]
        }
    }

    /// Starts from the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: pages.makeAsyncIterator(), items: items)
    }
}

extension PageSequence {
    /// Pages that continue from a position the response names (`LastEvaluatedTableName`,
    /// `NextToken` …) copied into the next request, until a response names none.
    init<Position: Sendable>(
        client: DynamoClient, first: Input,
        following position: any KeyPath<Input.Output, Position?> & Sendable, into next: any WritableKeyPath<Input, Position?> & Sendable
    ) {
        self.init(client: client, first: first) { input, output in
            guard let value = output[keyPath: position] else { return nil }
            var request = input
            request[keyPath: next] = value
            return request
        }
    }
}

extension DynamoClient {
    /// The pages of a `Query`, following `LastEvaluatedKey` into `ExclusiveStartKey`.
    ///
    /// - Parameter input: The first request; its `Limit` is the page size.
    /// - Returns: A sequence of `QueryOutput`s.
    public func queryPages(_ input: QueryInput) -> PageSequence<QueryInput> {
        PageSequence(client: self, first: input) { input, output in
            guard let key = output.lastEvaluatedKey, !key.isEmpty else { return nil }
            var next = input
            next.exclusiveStartKey = key
            return next
        }
    }

    /// The items of every page of a `Query`.
    ///
    /// - Parameter input: The first request.
    /// - Returns: A sequence of items.
    public func queryItems(_ input: QueryInput) -> ItemSequence<QueryInput> {
        ItemSequence(pages: queryPages(input)) { $0.items ?? [] }
    }

    /// The pages of a `Scan`, following `LastEvaluatedKey` into `ExclusiveStartKey`.
    ///
    /// - Parameter input: The first request (with `Segment`/`TotalSegments` for one segment of a
    ///   parallel scan).
    /// - Returns: A sequence of `ScanOutput`s.
    public func scanPages(_ input: ScanInput) -> PageSequence<ScanInput> {
        PageSequence(client: self, first: input) { input, output in
            guard let key = output.lastEvaluatedKey, !key.isEmpty else { return nil }
            var next = input
            next.exclusiveStartKey = key
            return next
        }
    }

    /// The items of every page of a `Scan`.
    ///
    /// - Parameter input: The first request.
    /// - Returns: A sequence of items.
    public func scanItems(_ input: ScanInput) -> ItemSequence<ScanInput> {
        ItemSequence(pages: scanPages(input)) { $0.items ?? [] }
    }

    /// The pages of `ListTables`, following `LastEvaluatedTableName`.
    ///
    /// ```swift
    /// var names: [String] = []
    /// for try await page in client.listTablesPages(ListTablesInput(limit: 100)) {
    ///     names += page.tableNames ?? []
    /// }
    /// ```
    ///
    /// - Parameter input: The first request; its `Limit` is the page size.
    /// - Returns: A sequence of `ListTablesOutput`s.
    public func listTablesPages(_ input: ListTablesInput = ListTablesInput()) -> PageSequence<ListTablesInput> {
        PageSequence(client: self, first: input, following: \.lastEvaluatedTableName, into: \.exclusiveStartTableName)
    }

    /// The pages of DynamoDB Streams' `ListStreams`, following `LastEvaluatedStreamArn`.
    ///
    /// - Parameter input: The first request.
    /// - Returns: A sequence of `StreamsListStreamsOutput`s.
    public func listStreamsPages(_ input: StreamsListStreamsInput = StreamsListStreamsInput()) -> PageSequence<StreamsListStreamsInput> {
        PageSequence(client: self, first: input, following: \.lastEvaluatedStreamArn, into: \.exclusiveStartStreamArn)
    }

    /// The pages of `ListBulkOperations`, following `NextToken`.
    ///
    /// - Parameter input: The first request; its `MaxResults` is the page size.
    /// - Returns: A sequence of `ListBulkOperationsOutput`s.
    public func listBulkOperationsPages(_ input: ListBulkOperationsInput = ListBulkOperationsInput()) -> PageSequence<ListBulkOperationsInput> {
        PageSequence(client: self, first: input, following: \.nextToken, into: \.nextToken)
    }
}
