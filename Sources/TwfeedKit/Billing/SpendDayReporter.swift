import Foundation
import Logging
import ServiceLifecycle
import TwfeedBilling
import TwfeedCore
import TwfeedStore

/// Logs each UTC day's spend once the day is over (`spend.day`), as the API bills it:
/// one line to read in the journal, or to alert on, without running `twfeed usage`.
package struct SpendDayReporter: Service {
    let database: AppDatabase
    let clock: any WallClock
    let logger: Logger

    package init(database: AppDatabase, clock: any WallClock, logger: Logger) {
        self.database = database
        self.clock = clock
        self.logger = logger
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let midnight = BillingCycle.endOfUTCDay(clock.now())
                do {
                    try await clock.sleep(until: midnight)
                } catch {
                    return
                }
                // A clock stepped back below midnight: wait for it again.
                guard clock.now() >= midnight else { continue }
                do {
                    try await report(day: CivilDate(midnight).adding(days: -1))
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("spend.day_failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// One line for `day`: the total, and each source that spent.
    func report(day: CivilDate) async throws {
        let rows = try await database.spend(since: day.description).filter { $0.day == day.description }
        var metadata: Logger.Metadata = ["day": "\(day)"]
        var total = MicroUSD.zero
        var bySource: [BillingSource: MicroUSD] = [:]
        var resources = 0
        for row in rows {
            total += row.cost
            bySource[row.source, default: .zero] += row.cost
            resources += row.resources
        }
        metadata["usd"] = "\(total.decimalString)"
        metadata["resources"] = "\(resources)"
        for (source, cost) in bySource { metadata[source.rawValue] = "\(cost.decimalString)" }
        logger.info("spend.day", metadata: metadata)
    }
}
