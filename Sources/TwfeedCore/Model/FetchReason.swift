/// Why twfeed is to fetch a post it lacks: someone looked (a page, `twfeed show`,
/// `twfeed fetch`) or the prefetch after a poll. A look goes first.
package enum FetchReason: String, Sendable, Equatable, CaseIterable {
    case asked
    case prefetch
}
