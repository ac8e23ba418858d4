import Dispatch
import Foundation

/// How far a build has come, for a progress line on a terminal (issue 42.10): the sources (logs
/// and exports) found and done, the conversations and messages built. Workers report into it from
/// any thread; a reader takes a `Snapshot` whenever it likes. Nothing of it reaches the site.
public final class BuildProgress: @unchecked Sendable {
    /// What has been done so far.
    public struct Snapshot: Sendable, Equatable {
        /// Logs and exports found (0 until discovery is over).
        public var sourcesTotal = 0
        /// Logs and exports whose conversations are all built.
        public var sourcesDone = 0
        /// Conversations built (an export's count as they come).
        public var conversations = 0
        /// Messages in the conversations built.
        public var messages = 0
        /// Seconds since the build started.
        public var elapsedSeconds = 0.0

        /// Creates a snapshot (tests make their own).
        public init(
            sourcesTotal: Int = 0, sourcesDone: Int = 0, conversations: Int = 0, messages: Int = 0,
            elapsedSeconds: Double = 0
        ) {
            self.sourcesTotal = sourcesTotal
            self.sourcesDone = sourcesDone
            self.conversations = conversations
            self.messages = messages
            self.elapsedSeconds = elapsedSeconds
        }

        /// Seconds left, judged by the share of sources done; `nil` before one is done, or when
        /// there is only one (a single export says nothing of its own share until it ends).
        public var estimatedSecondsLeft: Double? {
            guard sourcesTotal > 1, sourcesDone > 0, sourcesDone < sourcesTotal else { return nil }
            return elapsedSeconds / Double(sourcesDone) * Double(sourcesTotal - sourcesDone)
        }

        /// One line: `building: 12 of 40 sources, 31 conversations, 120,345 messages, about 8 s left`.
        public var line: String {
            var parts = ["building:"]
            if sourcesTotal > 0 { parts.append("\(sourcesDone) of \(sourcesTotal) sources,") }
            let conversationWord = conversations == 1 ? "conversation" : "conversations"
            let messageWord = messages == 1 ? "message" : "messages"
            parts.append("\(Self.grouped(conversations)) \(conversationWord), \(Self.grouped(messages)) \(messageWord)")
            if let left = estimatedSecondsLeft {
                parts[parts.count - 1] += ","
                parts.append("about \(Self.duration(left)) left")
            } else {
                parts.append("(\(Self.duration(elapsedSeconds)))")
            }
            return parts.joined(separator: " ")
        }

        /// `1,234,567`: digits grouped by three (the same in every locale: a terminal line, not the site).
        static func grouped(_ number: Int) -> String {
            let digits = String(number.magnitude)
            var result = ""
            for (offset, digit) in digits.enumerated() {
                if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
                result.append(digit)
            }
            return (number < 0 ? "-" : "") + result
        }

        /// `8 s`, `2 min 5 s`.
        static func duration(_ seconds: Double) -> String {
            let whole = Int(seconds.rounded(.up))
            return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
        }
    }

    private let lock = NSLock()
    private var current = Snapshot()
    private let start = DispatchTime.now()

    /// A progress counter; the clock starts now.
    public init() {}

    /// The counts now.
    public var snapshot: Snapshot {
        lock.lock()
        var copy = current
        lock.unlock()
        copy.elapsedSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return copy
    }

    /// Discovery found `count` sources (logs and exports).
    func found(sources count: Int) {
        lock.lock()
        current.sourcesTotal = count
        lock.unlock()
    }

    /// A conversation of `messages` messages was built (or kept).
    func builtConversation(messages: Int) {
        lock.lock()
        current.conversations += 1
        current.messages += messages
        lock.unlock()
    }

    /// A source is done (all its conversations built).
    func finishedSource() {
        lock.lock()
        current.sourcesDone += 1
        lock.unlock()
    }
}
