/// What one resource of each kind costs.
///
/// X publishes its rates but says they change and that the developer console has the
/// current ones, so every price can be overridden under `api.prices` (the same names as
/// the properties here); the defaults are the rates published in 2026.
package struct Prices: Hashable, Sendable {
    package var postRead: MicroUSD
    package var ownedRead: MicroUSD
    package var userRead: MicroUSD
    package var postCreate: MicroUSD
    package var postCreateWithURL: MicroUSD
    package var postCreateSummoned: MicroUSD
    package var postDelete: MicroUSD
    /// Unpublished by X: 0 by default, so the ledger counts uploads without inventing a price.
    package var mediaUpload: MicroUSD

    /// The published pay-per-use rates: $0.005 a post read, $0.001 an owned read, $0.010
    /// a user read, $0.015 a post, $0.200 a post with a URL, $0.010 a summoned reply,
    /// $0.010 a deletion; an upload's price is not published (0).
    package static let published = Prices()

    package init(
        postRead: MicroUSD = MicroUSD(micros: 5_000),
        ownedRead: MicroUSD = MicroUSD(micros: 1_000),
        userRead: MicroUSD = MicroUSD(micros: 10_000),
        postCreate: MicroUSD = MicroUSD(micros: 15_000),
        postCreateWithURL: MicroUSD = MicroUSD(micros: 200_000),
        postCreateSummoned: MicroUSD = MicroUSD(micros: 10_000),
        postDelete: MicroUSD = MicroUSD(micros: 10_000),
        mediaUpload: MicroUSD = .zero
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

    /// The price of one resource of `kind`.
    /// Kept apart from the emulator's `EmulatorPrices` on purpose: two readings of the price list, so one's mistake shows.
    package func price(of kind: BillableKind) -> MicroUSD {
        self[kind]
    }

    package subscript(kind: BillableKind) -> MicroUSD {
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

    /// A refused `api.prices` entry, named so the config loader can print one line:
    /// `api.prices.postRaed: unknown key`, `api.prices.postRead: must not be negative`.
    package struct InvalidPrice: Error, Equatable, Sendable, CustomStringConvertible {
        /// The key as written in the file.
        package let key: String
        /// nil for a key that names no price.
        package let problem: MicroUSD.ParseError?

        package init(key: String, problem: MicroUSD.ParseError?) {
            self.key = key
            self.problem = problem
        }

        package var description: String {
            "\(key): " + (problem.map { $0.description } ?? "unknown key")
        }
    }

    /// The published rates with the entries of an `api.prices` object applied (values as
    /// `JSONSerialization` or `MicroUSD(parsingJSON:)` accept them). An unknown key is
    /// refused rather than ignored: a misspelt `postCreateWithUrl` would otherwise leave the
    /// $0.200 rate the user meant to change in place without a word. Keys are checked in
    /// sorted order so the message does not depend on dictionary order.
    package static func overriding(_ entries: [String: Any], base: Prices = .published) throws(InvalidPrice) -> Prices {
        var prices = base
        for key in entries.keys.sorted() {
            guard let kind = BillableKind.allCases.first(where: { $0.configName == key }) else {
                throw InvalidPrice(key: key, problem: nil)
            }
            do {
                prices[kind] = try MicroUSD(parsingJSON: entries[key] as Any)
            } catch {
                throw InvalidPrice(key: key, problem: error)
            }
        }
        return prices
    }
}
