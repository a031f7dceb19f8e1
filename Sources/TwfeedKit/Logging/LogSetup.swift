import Foundation
import Logging
import TwfeedCore

/// Builds the daemon's logger from the `log` section of the config.
package struct LogSetup: Sendable {
    package let logger: Logger
    package let redactor: Redactor
    /// The log file, when one is configured, for reopening on SIGUSR1.
    package let file: FileSink?

    package init(
        config: TwfeedConfig.Log,
        extraSink: (any LogSink)? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let redactor = Redactor()
        var sinks: [any LogSink] = [StandardErrorSink(environment: environment)]
        var file: FileSink?
        if let path = config.file {
            let sink = try FileSink(path: path)
            sinks.append(sink)
            file = sink
        }
        if let extraSink { sinks.append(extraSink) }
        let sink: any LogSink = sinks.count == 1 ? sinks[0] : MultiSink(sinks)
        let level = config.level
        let format = config.format
        logger = Logger(label: "twfeed") { _ in EventLogHandler(level: level, format: format, sink: sink, redactor: redactor) }
        self.redactor = redactor
        self.file = file
    }

    /// A setup around a ready-made logger (tests log to memory).
    package init(logger: Logger, redactor: Redactor, file: FileSink? = nil) {
        self.logger = logger
        self.redactor = redactor
        self.file = file
    }
}

extension LogSetup {
    /// The log file alone, or nothing: for a command whose stderr is the user's (`twfeed
    /// import` says what went wrong in one line there, and a log line must not add another).
    package static func fileOnly(config: TwfeedConfig.Log) throws -> Logger {
        guard let path = config.file else { return Logger(label: "twfeed") { _ in SwiftLogNoOpLogHandler() } }
        let sink = try FileSink(path: path)
        let redactor = Redactor()
        let level = config.level
        let format = config.format
        return Logger(label: "twfeed") { _ in EventLogHandler(level: level, format: format, sink: sink, redactor: redactor) }
    }
}
