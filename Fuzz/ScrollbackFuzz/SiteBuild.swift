// The whole-export fuzz target (issue 40, acceptance 2): each input describes a folder tree
// (`ExportTree`): files, folders, symbolic links, sparse files and zips, nested, with hostile
// names; it is made on disk and built into a site by `SiteBuilder`, as `scrollback build` does.
// Properties, on every input: no crash or sanitizer report; nothing outside the input and the
// output is opened, changed or created (inotify on a folder of secrets beside the input, whose
// marker must never reach the site; nothing new beside the run; nothing left in `TMPDIR`); the
// process's peak memory stays under `FuzzBound.maximumResidentBytes`; CPU time under `FuzzBound`.
import Foundation
import ScrollbackModel
import ScrollbackSite
import ZIPFoundation

#if canImport(Glibc)
import Glibc
#endif

/// The folders of this process's runs, under one private temporary folder:
/// `secret/` (files a build must never open: the marker), `run/input` (the fuzzed tree),
/// `run/site` (the output) and `run/tmp` (the build's `TMPDIR`).
enum SiteBuildWorld {
    /// In `/dev/shm` (a tmpfs) when there is one: each input creates and deletes a few hundred
    /// files and folders, and ext4's inode allocator, skipping recently deleted inodes, was a
    /// quarter of an input's time on disk. The build's system calls are the same real ones.
    /// `scripts/fuzz.sh` deletes the folder a run stopped by a finding leaves (its files may be
    /// large copies of sparse files, held in memory): replay the reproducer to look at it.
    static let root =
        (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/scrollback-fuzz-site-\(getpid())"
    static let secret = root + "/secret"
    static let run = root + "/run"
    static let input = run + "/input"
    static let output = run + "/site"
    static let temporary = run + "/tmp"
    /// What the secret files hold; a site that contains it read them.
    static let marker = Array("SCROLLBACK-FUZZ-SECRET-\(getpid())-MARKER".utf8)

    /// The secret files, in the shapes a build reads (a log, a Slack day, a WhatsApp chat, an
    /// image), so whatever reads one would publish the marker.
    static let secretFiles: [(path: String, contents: [UInt8])] = {
        let text = String(decoding: marker, as: UTF8.self)
        let log = #"""
            {"version": 1, "id": "secret", "participants": [{"id": "a", "name": "\#(text)"}],
             "messages": [{"id": "1", "sender": "a", "date": "2024-05-03T09:00:00Z", "text": "\#(text)"}]}
            """#
        let day = #"[{"type": "message", "user": "U1", "text": "\#(text)", "ts": "1714726800.000100"}]"#
        // A PNG signature and header (1×1), then the marker in a text chunk.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        png += Array("IHDR".utf8)
        png += [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(marker.count + 2)]
        png += Array("tEXtc".utf8)
        png += [0]
        png += marker
        return [
            ("secret.json", Array(log.utf8)), ("general/2024-05-03.json", Array(day.utf8)),
            ("users.json", Array(#"[{"id": "U1", "name": "\#(text)"}]"#.utf8)),
            ("channels.json", Array(#"[{"id": "C1", "name": "general"}]"#.utf8)),
            ("chat.txt", Array("5/3/24, 09:41 - Alex: \(text)\n".utf8)), ("photo.png", png),
            ("photo.jpg", png), ("result.json", Array(log.utf8)),
        ]
    }()

    /// Made once per process: the secret files, the watch on them, the templates' folder.
    static let watch: SecretWatch = {
        try? FileManager.default.removeItem(atPath: root)
        for file in secretFiles {
            let path = secret + "/" + file.path
            try? FileManager.default.createDirectory(
                atPath: PathText.parent(path), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path, contents: Data(file.contents)) else {
                fail("could not write the secret file \(path)")
            }
        }
        // The build reads the shipped templates from the repository (the fuzz build embeds none).
        let templates =
            PathText.parent(
                PathText.parent(PathText.parent(#filePath))) + "/Templates"
        setenv("SCROLLBACK_TEMPLATES", templates, 1)
        setenv("TMPDIR", temporary, 1)
        atexit { try? FileManager.default.removeItem(atPath: SiteBuildWorld.root) }
        return SecretWatch(root: root, secret: secret, folders: [secret, secret + "/general"])
    }()
}

/// inotify on the secret folders (any open or change) and on the world's root (anything but
/// `run` created there): what a build does outside its input and output.
final class SecretWatch: @unchecked Sendable {
    private let descriptor: CInt
    private var names: [CInt: String] = [:]
    private let rootWatch: CInt
    /// Where events are read into, made once (two reads per input).
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(root: String, secret: String, folders: [String]) {
        descriptor = inotify_init1(CInt(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { fail("inotify is unavailable") }
        let any = UInt32(
            IN_OPEN | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF)
        for folder in folders {
            let watch = inotify_add_watch(descriptor, folder, any)
            guard watch >= 0 else { fail("cannot watch \(folder)") }
            names[watch] = folder
        }
        rootWatch = inotify_add_watch(descriptor, root, UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM))
        guard rootWatch >= 0 else { fail("cannot watch \(root)") }
        names[rootWatch] = root
        _ = events()
    }

    /// The events since the last call, as "path: what" lines; the harness's own work on `run`
    /// at the root is not one.
    func events() -> [String] {
        var found: [String] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw -> (CInt, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + headerSize
                let name = String(
                    decoding: buffer[nameStart..<min(nameStart + length, count)].prefix { $0 != 0 }, as: UTF8.self)
                offset = nameStart + length
                if watch == rootWatch, name == "run" { continue }
                found.append("\(names[watch] ?? "?")/\(name): inotify mask 0x\(String(mask, radix: 16))")
            }
        }
        return found
    }
}

/// One fuzz input read as a tree. Records start at a line beginning `@@`: `@@<kind> <path>`,
/// then the record's bytes up to the next record. `$SECRET` and `$INPUT` in paths and bytes
/// become the secret folder's and the input folder's absolute paths. Kinds:
/// `f` a file (stored in a zip), `c` a file (deflated in a zip), `d` a folder, `l` a symbolic
/// link to the bytes, `s` a file of N zero bytes (sparse on disk, N from the bytes' digits), `z`
/// a zip holding the records up to its `e`. Paths on disk lose `..`, `.` and empty parts and
/// NUL bytes (the disk cannot hold them); in a zip an entry's name is the path as written.
struct ExportTree {
    indirect enum Node: Hashable {
        case file(path: [UInt8], bytes: [UInt8], deflated: Bool)
        case folder(path: [UInt8])
        case link(path: [UInt8], target: [UInt8])
        case zeros(path: [UInt8], count: Int)
        case zip(path: [UInt8], nodes: [Node])
    }

    /// The largest sparse file on disk (a build must refuse it by its size, not read it).
    static let largestSparseFile = 1 << 32
    /// The largest run of zeros in a zip (a build decompresses it; deflate makes it small).
    static let largestZeroEntry = 1 << 23
    static let deepestZip = 4
    static let mostRecords = 64

    var nodes: [Node] = []
    /// Bytes a build may have to read: every file's and zip entry's (not the sparse files).
    var readableBytes = 0

    init(_ input: [UInt8]) {
        let substituted = Self.replace(
            Self.replace(input, Array("$SECRET".utf8), Array(SiteBuildWorld.secret.utf8)),
            Array("$INPUT".utf8), Array(SiteBuildWorld.input.utf8))
        var records: [(kind: UInt8, path: [UInt8], bytes: [UInt8])] = []
        var start = 0
        var index = 0
        func close(at end: Int) {
            guard end > start + 2, records.count < Self.mostRecords else { return }
            let record = substituted[(start + 2)..<end]
            let header = record.prefix { $0 != 0x0A }
            var bytes = Array(record.dropFirst(header.count + 1))
            if bytes.last == 0x0A { bytes.removeLast() }
            guard let kind = header.first else { return }
            records.append((kind, Array(header.dropFirst().drop { $0 == 0x20 }), bytes))
        }
        while index + 1 < substituted.count {
            if substituted[index] == UInt8(ascii: "@"), substituted[index + 1] == UInt8(ascii: "@"),
                index == 0 || substituted[index - 1] == 0x0A
            {
                if index > 0 { close(at: index - 1) }
                start = index
            }
            index += 1
        }
        close(at: substituted.count)
        var position = 0
        nodes = Self.nodes(records, from: &position, depth: 0, readable: &readableBytes)
    }

    private static func nodes(
        _ records: [(kind: UInt8, path: [UInt8], bytes: [UInt8])], from position: inout Int, depth: Int,
        readable: inout Int
    ) -> [Node] {
        var nodes: [Node] = []
        while position < records.count {
            let record = records[position]
            position += 1
            switch record.kind {
            case UInt8(ascii: "f"), UInt8(ascii: "c"):
                readable += record.bytes.count
                nodes.append(.file(path: record.path, bytes: record.bytes, deflated: record.kind == UInt8(ascii: "c")))
            case UInt8(ascii: "d"): nodes.append(.folder(path: record.path))
            case UInt8(ascii: "l"): nodes.append(.link(path: record.path, target: record.bytes))
            case UInt8(ascii: "s"):
                let digits = record.bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }.prefix(12)
                let count = Int(String(decoding: digits, as: UTF8.self)) ?? 0
                let largest = depth == 0 ? largestSparseFile : largestZeroEntry
                if depth > 0 { readable += min(count, largest) }
                nodes.append(.zeros(path: record.path, count: min(count, largest)))
            case UInt8(ascii: "z"):
                let inner =
                    depth < deepestZip
                    ? Self.nodes(records, from: &position, depth: depth + 1, readable: &readable) : []
                nodes.append(.zip(path: record.path, nodes: inner))
            case UInt8(ascii: "e"):
                if depth > 0 { return nodes }
            default: break
            }
        }
        return nodes
    }

    /// `bytes` with every `pattern` replaced by `replacement`.
    static func replace(_ bytes: [UInt8], _ pattern: [UInt8], _ replacement: [UInt8]) -> [UInt8] {
        guard bytes.count >= pattern.count else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + pattern.count <= bytes.count, bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                result += replacement
                index += pattern.count
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }
}

func fuzzSiteBuild(_ input: UnsafeBufferPointer<UInt8>) {
    let watch = SiteBuildWorld.watch
    let bytes = Array(input)
    let tree = ExportTree(bytes)
    DiskTree.remove(SiteBuildWorld.run)
    for folder in [SiteBuildWorld.run, SiteBuildWorld.input, SiteBuildWorld.temporary] { mkdir(folder, 0o755) }
    DiskTree.make(tree.nodes, in: SiteBuildWorld.input)
    if let harness = watch.events().first { fail("the harness itself touched \(harness)") }

    var options = SiteBuilder.Options(
        input: URL(fileURLWithPath: SiteBuildWorld.input), output: URL(fileURLWithPath: SiteBuildWorld.output))
    options.jobs = 1
    FuzzBound.measure(bytes: bytes.count + tree.readableBytes, what: "site build") {
        _ = try? SiteBuilder(options: options).build()
    }

    if let event = watch.events().first { fail("the build reached outside its input and output: \(event)") }
    let leftovers = DiskTree.names(in: SiteBuildWorld.temporary)
    if !leftovers.isEmpty { fail("the build left \(leftovers) in TMPDIR") }
    // The input may name the marker itself (libFuzzer learns compared bytes): then it is its own.
    if !bytes.withUnsafeBufferPointer({ DiskTree.contains($0, SiteBuildWorld.marker) }),
        let published = DiskTree.firstFile(under: SiteBuildWorld.output, containing: SiteBuildWorld.marker)
    {
        fail("the site publishes a secret file's contents: \(published)")
    }
    FuzzBound.checkMemory(what: "site build")
}

/// Making an `ExportTree` on disk, without ever following a link it made, and searching the site.
enum DiskTree {
    static func make(_ nodes: [ExportTree.Node], in folder: String) {
        for node in nodes {
            switch node {
            case .file(let path, let bytes, _):
                guard let path = diskPath(path, in: folder) else { continue }
                write(path) { descriptor in
                    bytes.withUnsafeBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
                }
            case .folder(let path):
                guard let path = diskPath(path, in: folder) else { continue }
                _ = path.withUnsafeBufferPointer { mkdir($0.baseAddress!, 0o755) }
            case .link(let path, let target):
                guard let path = diskPath(path, in: folder), !target.contains(0) else { continue }
                let cTarget = target.map { CChar(bitPattern: $0) } + [0]
                _ = cTarget.withUnsafeBufferPointer { target in
                    path.withUnsafeBufferPointer { symlink(target.baseAddress!, $0.baseAddress!) }
                }
            case .zeros(let path, let count):
                guard let path = diskPath(path, in: folder) else { continue }
                write(path) { _ = ftruncate($0, off_t(count)) }
            case .zip(let path, let nodes):
                guard let path = diskPath(path, in: folder), let archive = ZipMaker.archive(of: nodes) else { continue }
                write(path) { descriptor in
                    archive.withUnsafeBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
                }
            }
        }
    }

    /// The NUL-terminated path of `relative` under `folder`: `..`, `.`, empty parts and NULs
    /// dropped, each part cut to 255 bytes, at most 32 parts; `nil` when nothing is left or a
    /// folder on the way is not a real folder (a link the input made is never followed).
    static func diskPath(_ relative: [UInt8], in folder: String) -> [CChar]? {
        let parts = relative.split(separator: UInt8(ascii: "/")).map { $0.filter { $0 != 0 }.prefix(255) }
            .filter { !$0.isEmpty && !$0.elementsEqual([0x2E]) && !$0.elementsEqual([0x2E, 0x2E]) }.prefix(32)
        guard !parts.isEmpty else { return nil }
        var path = Array(folder.utf8)
        for (index, part) in parts.enumerated() {
            path += [UInt8(ascii: "/")] + part
            guard index < parts.count - 1 else { break }
            var status = stat()
            let cPath = path.map { CChar(bitPattern: $0) } + [0]
            if lstat(cPath, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else { return nil }
            } else if mkdir(cPath, 0o755) != 0 {
                return nil
            }
        }
        return path.map { CChar(bitPattern: $0) } + [0]
    }

    /// Creates the file `path` (never through a link, never over an existing name) and lets
    /// `body` fill it.
    static func write(_ path: [CChar], _ body: (CInt) -> Void) {
        let descriptor = path.withUnsafeBufferPointer {
            open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644)
        }
        guard descriptor >= 0 else { return }
        body(descriptor)
        close(descriptor)
    }

    /// Whether `needle` (not empty) occurs in `haystack`: `memchr` to each candidate first byte,
    /// then `memcmp` (libc's vector loops; a byte loop was 5 % of an input's time over the site).
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, let base = haystack.baseAddress, haystack.count >= needle.count else {
            return false
        }
        let last = base + (haystack.count - needle.count)
        var next = base
        return needle.withUnsafeBytes { needleBytes in
            while next <= last {
                guard let found = memchr(next, CInt(first), last - next + 1) else { return false }
                let candidate = found.assumingMemoryBound(to: UInt8.self)
                if memcmp(candidate, needleBytes.baseAddress!, needle.count) == 0 { return true }
                next = UnsafePointer(candidate) + 1
            }
            return false
        }
    }

    /// The names in `folder` (not `.` and `..`), sorted; none when it cannot be listed.
    static func names(in folder: String) -> [String] {
        guard let stream = opendir(folder) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Deletes `path` and everything under it, never following a link (`unlinkat`, and
    /// `openat` with `O_NOFOLLOW` for folders): what a build made there may be anything.
    static func remove(_ path: String) {
        if unlink(path) == 0 || errno == ENOENT { return }
        removeContents(of: open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC))
        rmdir(path)
    }

    /// Deletes everything in the open folder `descriptor`, then closes it.
    private static func removeContents(of descriptor: CInt) {
        guard descriptor >= 0 else { return }
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = raw.bindMemory(to: CChar.self).baseAddress!
                guard strcmp(name, ".") != 0, strcmp(name, "..") != 0, unlinkat(descriptor, name, 0) != 0 else {
                    return
                }
                // A folder (EISDIR): its contents first.
                removeContents(of: openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC))
                unlinkat(descriptor, name, AT_REMOVEDIR)
            }
        }
    }

    /// The first regular file under `folder` (links not followed) whose bytes hold `needle`.
    static func firstFile(under folder: String, containing needle: [UInt8]) -> String? {
        for name in names(in: folder) {
            let path = folder + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFDIR {
                if let found = firstFile(under: path, containing: needle) { return found }
            } else if status.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: path) {
                if data.withUnsafeBytes({ contains($0.bindMemory(to: UInt8.self), needle) }) { return path }
            }
        }
        return nil
    }
}

/// Zips made with ZIPFoundation, in memory: entry names exactly as the input wrote them.
enum ZipMaker {
    /// Zips already made, by their nodes: a mutation mostly leaves an input's zips as they were,
    /// and making them (ZIPFoundation's CRC-32 in Swift over up to 8 MiB of zeros, then deflate)
    /// was 29 % of an input's time without ASan (session 29, `perf`). The same nodes always give
    /// the same bytes (one fixed date), so the build sees exactly what it would without the cache.
    /// Only in campaigns (`scripts/fuzz.sh --campaign` sets `SCROLLBACK_FUZZ_ZIP_CACHE`): under
    /// ASan, LeakSanitizer cannot follow Swift's dictionary storage and reports the kept zips as
    /// leaks, so `fuzz-ci` makes every zip afresh.
    nonisolated(unsafe) private static var made: [[ExportTree.Node]: Data?] = [:]
    private static let mostMade = 256
    private static let keepsZips = getenv("SCROLLBACK_FUZZ_ZIP_CACHE") != nil

    /// The bytes of a zip holding `nodes` (a nested zip is an entry holding its bytes); `nil`
    /// when ZIPFoundation refuses (the input then has no such file).
    static func archive(of nodes: [ExportTree.Node]) -> Data? {
        guard keepsZips else { return makeArchive(of: nodes) }
        if let known = made[nodes] { return known }
        let bytes = makeArchive(of: nodes)
        if made.count >= mostMade { made.removeAll() }
        made[nodes] = bytes
        return bytes
    }

    private static func makeArchive(of nodes: [ExportTree.Node]) -> Data? {
        guard let zip = try? Archive(data: Data(), accessMode: .create, pathEncoding: nil) else { return nil }
        let date = Date(timeIntervalSince1970: 1_714_726_800)
        for node in nodes {
            switch node {
            case .file(let path, let bytes, let deflated):
                add(zip, path, .file, Data(bytes), date, deflated ? .deflate : .none)
            case .folder(let path):
                add(zip, path, .directory, Data(), date, .none)
            case .link(let path, let target):
                add(zip, path, .symlink, Data(target), date, .none)
            case .zeros(let path, let count):
                add(zip, path, .file, nil, date, .deflate, zeros: count)
            case .zip(let path, let inner):
                guard let bytes = archive(of: inner) else { continue }
                add(zip, path, .file, bytes, date, .none)
            }
        }
        return zip.data
    }

    private static func add(
        _ archive: Archive, _ path: [UInt8], _ type: Entry.EntryType, _ data: Data?, _ date: Date,
        _ method: CompressionMethod, zeros: Int = 0
    ) {
        let name = String(decoding: path, as: UTF8.self)
        let size = data?.count ?? zeros
        try? archive.addEntry(
            with: name, type: type, uncompressedSize: Int64(size), modificationDate: date, compressionMethod: method
        ) { position, chunk in
            guard let data else { return Data(count: min(chunk, size - Int(position))) }
            return data.subdata(in: Int(position)..<min(Int(position) + chunk, data.count))
        }
    }
}
