extension AppDatabase {
    /// Billing states and gaps (v12).
    ///
    /// `billingState` is one row: the account's standing with the API's billing
    /// (`BillingStatus`), kept so a restart neither forgets a usage cap (and spends its
    /// first minutes being refused again) nor loses when the next probe is due.
    /// `endpointRefusal` holds the feeds (and the outbox) the API refuses to this account.
    /// `gap` holds the ranges a feed skipped for the budget, per account like the feed's
    /// positions, found by (account, feed) newest first. `fillRequest` is what
    /// `twfeed fill` asked the running daemon to read, one row per feed.
    static let billingSchema = """
        CREATE TABLE billingState (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            state TEXT NOT NULL,
            since DOUBLE NOT NULL,
            until DOUBLE,
            detail TEXT,
            lastProbe DOUBLE
        );
        CREATE TABLE endpointRefusal (
            source TEXT PRIMARY KEY,
            reason TEXT NOT NULL,
            detail TEXT NOT NULL,
            since DOUBLE NOT NULL,
            recheckAt DOUBLE NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE gap (
            id INTEGER PRIMARY KEY,
            account INTEGER NOT NULL,
            feed TEXT NOT NULL,
            newerThanId INTEGER NOT NULL,
            olderThanId INTEGER NOT NULL,
            reason TEXT NOT NULL,
            recordedAt DOUBLE NOT NULL
        );
        CREATE INDEX gap_feed ON gap(account, feed, olderThanId);
        CREATE TABLE fillRequest (
            feed TEXT PRIMARY KEY,
            maxMicros INTEGER NOT NULL,
            requestedAt DOUBLE NOT NULL
        ) WITHOUT ROWID;
        """
}
