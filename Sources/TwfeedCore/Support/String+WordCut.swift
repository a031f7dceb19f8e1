extension String {
    /// At most `limit` characters for a one-line listing (`twfeed outbox`): whole when it
    /// fits, else cut at the last space that leaves room for "…", so no word is shown in
    /// half; a first word longer than the room is cut inside, having nothing before it.
    package func cutAtWord(limit: Int) -> String {
        guard count > limit, limit > 1 else { return self }
        let room = prefix(limit - 1)
        guard let space = room.lastIndex(where: \.isWhitespace) else { return room + "…" }
        let kept = room[..<space].trimmingSuffix(while: \.isWhitespace)
        return kept.isEmpty ? room + "…" : kept + "…"
    }
}

extension Substring {
    fileprivate func trimmingSuffix(while condition: (Character) -> Bool) -> Substring {
        var end = endIndex
        while end > startIndex, condition(self[index(before: end)]) { end = index(before: end) }
        return self[..<end]
    }
}
