import Foundation

/// The branch of a Claude.ai conversation the site shows.
///
/// Editing a prompt or asking for another answer makes a branch: newer exports give each message
/// its `parent_message_uuid`, and `chat_messages` then holds every branch in one list. One branch
/// is shown, as the app shows one: the one ending at `current_leaf_message_uuid` when the
/// conversation names it (API-shaped dumps do), else the one that takes, at every fork, the child
/// that comes last in the file (the newest: the list is in the order the messages were written).
///
/// A message without `parent_message_uuid` follows the message before it in the file, so an
/// older, flat export is one branch holding every message. A parent that is `null`, the app's
/// all-zero root id or a message the export does not hold makes the message start a branch.
struct ClaudeBranch {
    /// Whether message `index` (its place in `chat_messages`) is on the shown branch.
    let shown: [Bool]
    /// Whether the conversation named its current leaf and the branch ends there.
    let followsCurrentLeaf: Bool

    /// The shown branch of `messages` (the elements of `chat_messages`, objects or not); `currentLeaf`
    /// is the conversation's `current_leaf_message_uuid`, if any.
    init(_ messages: [JSONNode], currentLeaf: String?) {
        var indexByID: [String: Int] = [:]
        for (index, message) in messages.enumerated() {
            if let id = message["uuid"]?.string, indexByID[id] == nil { indexByID[id] = index }
        }
        // Each message's parent (`nil`: it starts a branch), and each parent's children in file order.
        var parent: [Int?] = []
        var rootChildren: [Int] = []
        var children: [[Int]] = Array(repeating: [], count: messages.count)
        for (index, message) in messages.enumerated() {
            let found: Int?
            if let named = message["parent_message_uuid"], named.members == nil, named.elements == nil {
                found = named.string.flatMap { indexByID[$0] }.flatMap { $0 == index ? nil : $0 }
            } else {
                found = index > 0 ? index - 1 : nil
            }
            parent.append(found)
            if let found { children[found].append(index) } else { rootChildren.append(index) }
        }
        // The leaf: the current one when named, else the last child at every fork from the root.
        var leaf: Int?
        var followsCurrentLeaf = false
        if let currentLeaf, let index = indexByID[currentLeaf] {
            leaf = index
            followsCurrentLeaf = true
        } else {
            var visited = Set<Int>()
            var next = rootChildren.last
            while let index = next, visited.insert(index).inserted {
                leaf = index
                next = children[index].last
            }
        }
        // Up from the leaf to where the branch starts (a loop of parents ends the walk).
        var shown = Array(repeating: false, count: messages.count)
        var cursor = leaf
        while let index = cursor, !shown[index] {
            shown[index] = true
            cursor = parent[index]
        }
        self.shown = shown
        self.followsCurrentLeaf = followsCurrentLeaf
    }
}
