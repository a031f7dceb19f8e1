/// What each kind of resource costs, in US dollars. The defaults are the published
/// pay-per-use rates (x-api.md, "Paying for it"); the developer console has the current
/// ones, and they change, so a test or demo may set others.
///
/// Prices are given in dollars for readability but charged in whole micro-dollars
/// (`MicroDollars`), so a long tally adds integers and never drifts.
public struct EmulatorPrices: Sendable, Equatable {
    public var postRead: Double
    public var ownedRead: Double
    public var userRead: Double
    public var postCreate: Double
    public var postCreateWithURL: Double
    public var postCreateSummoned: Double
    public var postDelete: Double
    /// Unpublished by X: 0 unless a test sets one.
    public var mediaUpload: Double

    public init(
        postRead: Double = 0.005,
        ownedRead: Double = 0.001,
        userRead: Double = 0.010,
        postCreate: Double = 0.015,
        postCreateWithURL: Double = 0.200,
        postCreateSummoned: Double = 0.010,
        postDelete: Double = 0.010,
        mediaUpload: Double = 0
    ) {
        self.postRead = postRead
        self.ownedRead = ownedRead
        self.userRead = userRead
        self.postCreate = postCreate
        self.postCreateWithURL = postCreateWithURL
        self.postCreateSummoned = postCreateSummoned
        self.postDelete = postDelete
        self.mediaUpload = mediaUpload
    }

    /// The price of one resource of `kind`, in dollars.
    /// Kept apart from TwfeedBilling's `Prices` on purpose: two readings of the price list, so one's mistake shows.
    public subscript(kind: EmulatorResourceKind) -> Double {
        get {
            switch kind {
            case .postRead: postRead
            case .ownedRead: ownedRead
            case .userRead: userRead
            case .postCreate: postCreate
            case .postCreateWithURL: postCreateWithURL
            case .postCreateSummoned: postCreateSummoned
            case .postDelete: postDelete
            case .mediaUpload: mediaUpload
            }
        }
        set {
            switch kind {
            case .postRead: postRead = newValue
            case .ownedRead: ownedRead = newValue
            case .userRead: userRead = newValue
            case .postCreate: postCreate = newValue
            case .postCreateWithURL: postCreateWithURL = newValue
            case .postCreateSummoned: postCreateSummoned = newValue
            case .postDelete: postDelete = newValue
            case .mediaUpload: mediaUpload = newValue
            }
        }
    }

    /// The price in micro-dollars: negative or not finite counts as 0 (a price must
    /// never make the bill go down or trap).
    func micros(_ kind: EmulatorResourceKind) -> Int {
        max(0, MicroDollars.from(usd: self[kind]) ?? 0)
    }
}
