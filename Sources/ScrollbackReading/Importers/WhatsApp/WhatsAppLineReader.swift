import Foundation

/// The lines of a chat file, read a chunk at a time so a file of any size holds only its
/// current line in memory: UTF-8, or UTF-16 little- or big-endian when the file starts with
/// that byte order mark (some Windows tools save chats so). Lines end at LF, CRLF or a lone CR.
struct WhatsAppLineReader {
    /// How the file's bytes encode text.
    enum Encoding { case utf8, utf16LittleEndian, utf16BigEndian }

    /// Gives the file's next bytes, `nil` at its end.
    private let nextChunk: () -> [UInt8]?
    /// UTF-8 bytes read but not yet handed out, from `lineStart`.
    private var buffer: [UInt8] = []
    private var lineStart = 0
    /// Where the search for the next line end goes on.
    private var scanned = 0
    private var finished = false
    private var encoding: Encoding?
    /// UTF-16 bytes held back for the next chunk: an odd byte, or a high surrogate.
    private var heldBack: [UInt8] = []
    /// The last line ended in CR: an LF right after it belongs to that line end.
    private var afterCR = false
    /// The file's size when known: a line past 1 MiB gets room for the rest of the file at once,
    /// so a very long line is never copied from one growing buffer into the next.
    private var sizeHint: Int?

    /// Bytes moved inside the buffer when read bytes were dropped: the work that must stay linear
    /// in the file's size (the tests bound it, not the time).
    private(set) var bytesMoved = 0

    /// Whether a line that is not valid UTF-8 is read as Latin-1 (each byte one character)
    /// instead of with U+FFFD: IRC logs mix encodings, and a Latin-1 line loses nothing so.
    var invalidAsLatin1 = false
    /// The encoding, once the first bytes are read.
    var detectedEncoding: Encoding? { encoding }

    /// Reads chunks from `nextChunk`.
    init(nextChunk: @escaping () -> [UInt8]?) { self.nextChunk = nextChunk }

    /// Reads the lines of bytes already in memory.
    init(bytes: [UInt8]) {
        let box = OneChunk(bytes)
        self.init(nextChunk: { box.take() })
    }

    /// Reads `handle`, of `size` bytes, 64 KiB at a time.
    init(handle: FileHandle, size: Int) {
        self.init(nextChunk: {
            guard let data = try? handle.read(upToCount: 64 * 1024), !data.isEmpty else { return nil }
            return [UInt8](data)
        })
        sizeHint = size
    }

    /// The next line and whether its bytes were valid UTF-8 (if not, each bad byte is U+FFFD);
    /// `nil` after the last line.
    mutating func nextLine() -> (String, Bool)? {
        while true {
            if afterCR, scanned < buffer.count {
                afterCR = false
                if buffer[scanned] == 0x0A {
                    scanned += 1
                    lineStart = scanned
                }
            }
            while scanned < buffer.count {
                let byte = buffer[scanned]
                if byte == 0x0A || byte == 0x0D {
                    let line = decode(buffer[lineStart..<scanned])
                    scanned += 1
                    lineStart = scanned
                    afterCR = byte == 0x0D
                    // A long line's bytes go now, not with the next chunk; once half of the buffer
                    // is read, so that a buffer holding a whole file (`init(bytes:)`) is not moved
                    // line by line (issue 43: 8 MB took 92 s in a debug build; half the CPU of a
                    // Signal export's build went here).
                    if buffer.capacity > 1 << 20, scanned > buffer.count / 2 {
                        bytesMoved += buffer.count - scanned
                        buffer = Array(buffer[scanned...])
                        (lineStart, scanned) = (0, 0)
                    }
                    return line
                }
                scanned += 1
            }
            if finished {
                guard lineStart < buffer.count else { return nil }
                let line = decode(buffer[lineStart...])
                lineStart = buffer.count
                scanned = buffer.count
                return line
            }
            if lineStart > 0 {
                buffer.removeSubrange(0..<lineStart)
                scanned -= lineStart
                lineStart = 0
            }
            guard let chunk = nextChunk() else {
                finished = true
                if !heldBack.isEmpty {  // an odd byte or a lone high surrogate at the end
                    buffer.append(contentsOf: "\u{FFFD}".utf8)
                    heldBack = []
                }
                continue
            }
            append(chunk)
            if let hint = sizeHint, buffer.count > 1 << 20 {
                buffer.reserveCapacity(hint)
                sizeHint = nil
            }
        }
    }

    private mutating func append(_ chunk: [UInt8]) {
        var bytes = chunk[...]
        if encoding == nil {
            if bytes.starts(with: [0xFF, 0xFE]) {
                encoding = .utf16LittleEndian
                bytes = bytes.dropFirst(2)
            } else if bytes.starts(with: [0xFE, 0xFF]) {
                encoding = .utf16BigEndian
                bytes = bytes.dropFirst(2)
            } else {
                encoding = .utf8
            }
        }
        switch encoding {
        case .utf8?, nil: buffer.append(contentsOf: bytes)
        case .utf16LittleEndian?, .utf16BigEndian?:
            let littleEndian = encoding == .utf16LittleEndian
            let all = heldBack + bytes
            var units: [UInt16] = []
            units.reserveCapacity(all.count / 2)
            var index = all.startIndex
            while index + 1 < all.endIndex {
                let (low, high) = littleEndian ? (all[index], all[index + 1]) : (all[index + 1], all[index])
                units.append(UInt16(high) << 8 | UInt16(low))
                index += 2
            }
            var kept = Array(all[index...])
            if let last = units.last, (0xD800...0xDBFF).contains(last) {  // its pair is in the next chunk
                units.removeLast()
                kept = Array(all[(index - 2)...])
            }
            heldBack = kept
            buffer.append(contentsOf: String(decoding: units, as: UTF16.self).utf8)
        }
    }

    private func decode(_ bytes: ArraySlice<UInt8>) -> (String, Bool) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
        if invalidAsLatin1 { return (String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })), false) }
        return (String(decoding: bytes, as: UTF8.self), false)
    }

    /// Hands out one array once.
    private final class OneChunk: @unchecked Sendable {
        var bytes: [UInt8]?
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func take() -> [UInt8]? {
            defer { bytes = nil }
            return bytes
        }
    }
}
