/// How the API deduplicates what it charges for reads within a UTC day.
extension BillableKind {
    /// The one switch for the reading of X's pricing page, whose dedup is "per resource,
    /// across queries" but which does not say whether a post read at one price (in home,
    /// $0.005) and then at another (an owned read in the account's mentions, $0.001) is
    /// one resource. True, the words taken literally: one charge per post or user a day,
    /// at the price of the day's first read. False: once a day per price line, so the
    /// second read at another price is charged again. The budget is admitted at the worst
    /// case either way. The emulator has the same switch
    /// (`BillingLedger.dedupAcrossPrices`): change both together.
    package static let dedupAcrossPrices = true

    /// What a read of this kind is deduplicated by within a day (`billedResource.resource`):
    /// `post` or `user` when `dedupAcrossPrices`, else the kind itself; nil for a post
    /// created, deleted or uploaded, which is never deduplicated.
    package var dedupKey: String? {
        switch self {
        case .postRead, .ownedRead: Self.dedupAcrossPrices ? "post" : rawValue
        case .userRead: Self.dedupAcrossPrices ? "user" : rawValue
        case .postCreate, .postCreateWithURL, .postCreateSummoned, .postDelete, .mediaUpload: nil
        }
    }
}
