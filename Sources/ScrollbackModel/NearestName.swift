/// The known name a misspelled one most likely meant, for "did you mean …?" in diagnostics.
public enum NearestName {
    /// The name in `known` that `written` most likely meant: one equal ignoring case first, else
    /// the one at the smallest edit distance (insertions, deletions, substitutions and swaps of
    /// neighbours, ignoring case) when that distance is small for the name's length (1 up to 5
    /// characters, 2 for longer ones); ties go to the earlier name in `known`. `nil` otherwise.
    public static func suggestion(for written: String, in known: [String]) -> String? {
        let lowered = written.lowercased()
        if let same = known.first(where: { $0.lowercased() == lowered }) { return same }
        let limit = lowered.count <= 5 ? 1 : 2
        var best: (name: String, distance: Int)?
        for name in known {
            let distance = editDistance(lowered, name.lowercased())
            if distance <= limit, distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        return best?.name
    }

    /// The optimal-string-alignment distance between `a` and `b`, by characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
