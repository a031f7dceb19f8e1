import TwfeedStatus

extension TwfeedMetrics.StoredCounts {
    /// A scrape's gauges from the report `/healthz` and the header read too, so the
    /// metrics and the status never disagree.
    package init(report: StatusReport, up: Bool) {
        self.init()
        for feed in report.feeds {
            tweets[feed.feed] = feed.stats.tweets
            sync[feed.feed] = feed.sync
        }
        outbox = report.outbox
        imageFiles = report.imageFiles
        imageBytes = report.imageBytes
        databaseBytes = report.databaseBytes
        spend = report.spend
        self.up = up
    }
}
