/// What a reader did with every record of one conversation's source: how many it read, how
/// many became messages, and each one left out with its reason and location (issue 41: loss is
/// structural, not tested for).
///
/// Every importer keeps one per conversation (through `ConversationAssembler`); the build prints
/// its line per source and `--verbose` lists what was left out. A record that is neither built
/// nor left out with a reason (`unexplained > 0`) is a bug the build reports as an error.
public struct ImportLedger: Hashable, Sendable {
    /// One record of the source left out of the site, and why.
    public struct LeftOut: Hashable, Sendable {
        /// Why it is not on the site ("a hidden system prompt", "no date").
        public var reason: String
        /// Where the record is in the source.
        public var location: SourceLocation?

        /// Creates a left-out record.
        public init(reason: String, location: SourceLocation?) {
            self.reason = reason
            self.location = location
        }
    }

    /// Records of the source read for this conversation (messages, lines, JSON objects).
    public var recordsRead: Int
    /// Messages the conversation holds (each one message element on the site).
    public var messagesBuilt: Int
    /// The records left out, each with its reason.
    public var leftOut: [LeftOut]

    /// Creates a ledger.
    public init(recordsRead: Int = 0, messagesBuilt: Int = 0, leftOut: [LeftOut] = []) {
        self.recordsRead = recordsRead
        self.messagesBuilt = messagesBuilt
        self.leftOut = leftOut
    }

    /// Records neither built nor left out with a reason: zero unless a reader lost something.
    public var unexplained: Int { recordsRead - messagesBuilt - leftOut.count }

    /// `212 records → 84 messages, 128 left out`: the summary's words for this ledger.
    public var summary: String {
        "\(recordsRead) in → \(messagesBuilt) out" + (leftOut.isEmpty ? "" : ", \(leftOut.count) left out")
    }

    /// The left-out records grouped by reason, most frequent first (ties by reason), each with
    /// its count and first location: what `--verbose` lists.
    public var leftOutByReason: [(reason: String, count: Int, first: SourceLocation?)] {
        var order: [String] = []
        var counts: [String: (Int, SourceLocation?)] = [:]
        for record in leftOut {
            if let existing = counts[record.reason] {
                counts[record.reason] = (existing.0 + 1, existing.1)
            } else {
                order.append(record.reason)
                counts[record.reason] = (1, record.location)
            }
        }
        return order.map { (reason: $0, count: counts[$0]!.0, first: counts[$0]!.1) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason }
    }
}
