import Foundation

/// Where something was written in an input file: the anchor of every error and warning.
///
/// Lines and columns count from 1; columns count UTF-8 bytes from the start of the line,
/// as cmark-gfm and most compilers do.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Path of the input file as the user named it (relative to the input folder when possible).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column number.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and terminals turn into links.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// What went wrong, as a typed value; `Diagnostic` adds where and how bad.
///
/// Every case says what was expected, so a message can tell the user how to fix it.
public enum Problem: Hashable, Sendable {
    /// The bytes are not valid UTF-8.
    case invalidUTF8
    /// The file has no content at all.
    case emptyFile
    /// JSON syntax error; `expected` names what the parser wanted at that point.
    case malformedJSON(expected: String)
    /// A log declares a format version this build does not know.
    case unsupportedVersion(String)
    /// A required field is absent.
    case missingField(String)
    /// A field holds the wrong type of value.
    case wrongType(field: String, expected: String)
    /// A message kind that is not in spec §1.
    case unknownKind(String)
    /// Two messages share an id; `firstAt` is where the first one was written.
    case duplicateMessageID(String, firstAt: SourceLocation)
    /// Two participants share an id; `firstAt` is where the first one was written.
    case duplicateParticipantID(String, firstAt: SourceLocation)
    /// A sender (or reaction sender) that is not a participant.
    case unknownSender(String)
    /// A date or time that does not parse; `expected` names the accepted forms.
    case invalidDate(String, expected: String)
    /// A time zone identifier that is not in the IANA database.
    case unknownTimeZone(String)
    /// A message time in a Markdown log before any date heading set the day.
    case timeBeforeAnyDate(String)
    /// YAML front matter or config that does not parse or has the wrong shape.
    case invalidYAML(String)
    /// A `custom` fenced block whose JSON does not parse.
    case invalidCustomJSON(String)
    /// A config or layout option with a value it cannot take.
    case invalidOption(name: String, value: String, expected: String)
    /// A media path or URL that is refused (escapes the input folder, absolute, or an unsafe scheme).
    case refusedMediaReference(String, reason: String)
    /// A relative media path whose file does not exist.
    case missingMediaFile(String)
    /// A `replyTo` naming a message that is not in the conversation.
    case unknownReplyTarget(String)
    /// A custom message whose id has no renderer; it renders as a fallback card.
    case unknownCustomRenderer(String)
    /// A template that does not parse or render.
    case templateError(String)
    /// Two conversations claim the same URL slug.
    case duplicateConversationID(String, firstIn: String)
    /// A log with errors whose conversation keeps the pages of the last build that read it
    /// without errors (the index keeps its entry too); the build still fails.
    case keptPreviousPages(conversationID: String)
    /// A `.md` file that is not a conversation log (no front matter holding `participants`).
    case notALog(reason: String)
    /// A member a log, its front matter or the config does not know; `suggestion` is the known
    /// name it most likely meant (`NearestName`), `known` the names that object may hold.
    case unknownField(String, in: String, suggestion: String?, known: [String])
    /// Reading or writing a file failed.
    case fileSystem(String)
    /// Anything an importer or extension reports that has no case of its own.
    case other(String)

    /// One sentence saying what is wrong and what was expected instead.
    public var message: String {
        switch self {
        case .invalidUTF8: return "file is not valid UTF-8; expected UTF-8 text"
        case .emptyFile: return "file is empty; expected a conversation log"
        case .malformedJSON(let expected): return "malformed JSON; expected \(expected)"
        case .unsupportedVersion(let version):
            return "unsupported log version \(version); expected version 1"
        case .missingField(let field): return "missing required field '\(field)'"
        case .wrongType(let field, let expected): return "field '\(field)' has the wrong type; expected \(expected)"
        case .unknownKind(let kind):
            let names = MessageKind.Name.allCases.map(\.rawValue)
            let nearest = NearestName.suggestion(for: kind, in: names)
            return "unknown message kind '\(kind)'; "
                + (nearest.map { "did you mean '\($0)'? " } ?? "") + "expected one of \(names.joined(separator: ", "))"
        case .duplicateMessageID(let id, let first):
            return "duplicate message id '\(id)'; first used at \(first); expected ids to be unique"
        case .duplicateParticipantID(let id, let first):
            return "duplicate participant id '\(id)'; first used at \(first); expected ids to be unique"
        case .unknownSender(let sender):
            return "unknown sender '\(sender)'; expected a participant id or display name"
        case .invalidDate(let text, let expected): return "invalid date '\(text)'; expected \(expected)"
        case .unknownTimeZone(let zone):
            let nearest = NearestName.suggestion(for: zone, in: TimeZone.knownTimeZoneIdentifiers.sorted())
            return "unknown time zone '\(zone)'; expected an IANA name such as Europe/Berlin, America/New_York or UTC"
                + (nearest.map { " (did you mean '\($0)'?)" } ?? "")
        case .timeBeforeAnyDate(let time):
            return "time '\(time)' comes before any date; expected a '# YYYY-MM-DD' heading or a full date first"
        case .invalidYAML(let detail): return "invalid YAML: \(detail)"
        case .invalidCustomJSON(let detail): return "invalid JSON in custom block: \(detail)"
        case .invalidOption(let name, let value, let expected):
            return "invalid value '\(value)' for '\(name)'; expected \(expected)"
        case .refusedMediaReference(let reference, let reason): return "refused media '\(reference)': \(reason)"
        case .missingMediaFile(let path): return "media file '\(path)' does not exist; a placeholder is shown"
        case .unknownReplyTarget(let id): return "replyTo names unknown message '\(id)'"
        case .unknownCustomRenderer(let id):
            return
                "no renderer for custom id '\(id)'; expected a template templates/custom/\(id).mustache; a fallback card is shown"
        case .templateError(let detail): return "template error: \(detail)"
        case .duplicateConversationID(let id, let first):
            return "duplicate conversation id '\(id)', also used by \(first); expected unique ids"
        case .keptPreviousPages(let id):
            return
                "kept the previous pages of '\(id)' from the last good build; expected this log without errors to update them"
        case .notALog(let reason):
            return
                "not a conversation log, skipped: \(reason); a Markdown log opens with front matter holding 'participants'"
        case .unknownField(let name, let object, let suggestion, let known):
            if let suggestion {
                return "unknown field '\(name)' in \(object) is ignored; did you mean '\(suggestion)'?"
            }
            return "unknown field '\(name)' in \(object) is ignored; expected one of \(known.joined(separator: ", "))"
        case .fileSystem(let detail): return detail
        case .other(let detail): return detail
        }
    }
}

/// An error or warning about the input, with where it was found.
///
/// Errors stop the conversation they belong to from being built (the others still build,
/// and the exit status is non-zero); warnings are reported and the build goes on.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible, Comparable {
    /// How serious a diagnostic is.
    public enum Severity: String, Hashable, Sendable {
        /// The conversation (or the file) could not be built.
        case error
        /// Something was replaced by a placeholder or fallback; the build goes on.
        case warning
        /// Information, not a mistake (a file that is not a log was skipped): printed with `--verbose`.
        case note
    }

    /// Error or warning.
    public var severity: Severity
    /// What went wrong.
    public var problem: Problem
    /// Where it was written; `nil` only for problems that belong to no file.
    public var location: SourceLocation?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ problem: Problem, at location: SourceLocation?) {
        self.severity = severity
        self.problem = problem
        self.location = location
    }

    /// An error at `location`.
    public static func error(_ problem: Problem, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.error, problem, at: location)
    }

    /// A warning at `location`.
    public static func warning(_ problem: Problem, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.warning, problem, at: location)
    }

    /// `file:line:column: error: message`, the form compilers print, on one line: control
    /// characters (terminal escape sequences included) and bidirectional overrides from a log
    /// or a file name are shown as `\u{1B}`, never sent to the terminal as they are.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return Self.neutralisingControlCharacters("\(prefix)\(severity.rawValue): \(problem.message)")
    }

    /// `text` with C0 and C1 controls, DEL and bidirectional formatting characters written as
    /// `\u{…}` escapes.
    public static func neutralisingControlCharacters(_ text: String) -> String {
        func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        switch (lhs.location, rhs.location) {
        case let (l?, r?) where l != r: return l < r
        case (nil, _?): return true
        case (_?, nil): return false
        default: return lhs.description < rhs.description
        }
    }
}
