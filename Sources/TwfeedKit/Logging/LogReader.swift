import Foundation
import Glibc
import Logging
import TwfeedCore

/// `twfeed logs`'s filter: a minimum level and an `event` glob, for logfmt and JSON
/// lines alike (with or without a syslog `<N>` prefix).
package struct LogFilter: Sendable, Equatable {
    package var minimumLevel: Logger.Level?
    package var eventPattern: String?

    package init(minimumLevel: Logger.Level? = nil, eventPattern: String? = nil) {
        self.minimumLevel = minimumLevel
        self.eventPattern = eventPattern
    }

    /// Reads a level as users write it: `warn` and `warning`, `err` and `error`, any case.
    package static func level(_ text: String) -> Logger.Level? {
        Logger.Level(userName: text)
    }

    package func matches(_ line: String) -> Bool {
        if minimumLevel == nil && eventPattern == nil { return true }
        let fields = Self.fields(of: line)
        if let minimumLevel {
            guard let name = fields.level, let level = Self.level(name), level >= minimumLevel else { return false }
        }
        if let eventPattern {
            guard let event = fields.event, fnmatch(eventPattern, event, 0) == 0 else { return false }
        }
        return true
    }

    /// The `level` and `event` of a line, nil for what is not there.
    package static func fields(of line: String) -> (level: String?, event: String?) {
        var text = Substring(line)
        if text.hasPrefix("<"), let close = text.firstIndex(of: ">"), text.distance(from: text.startIndex, to: close) <= 3 {
            text = text[text.index(after: close)...]
        }
        if text.first == "{" {
            guard case .object(let object)? = try? JSONValue.parse(Data(text.utf8)) else { return (nil, nil) }
            return (object["level"]?.string, object["event"]?.string)
        }
        let pairs = logfmtPairs(text)
        return (pairs["level"], pairs["event"])
    }

    /// Splits `key=value key="quoted \"value\""` into pairs.
    static func logfmtPairs(_ text: Substring) -> [String: String] {
        var pairs: [String: String] = [:]
        var index = text.startIndex
        while index < text.endIndex {
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            let keyStart = index
            while index < text.endIndex, text[index] != "=", text[index] != " " { index = text.index(after: index) }
            let key = String(text[keyStart..<index])
            guard index < text.endIndex, text[index] == "=" else { continue }
            index = text.index(after: index)
            var value = ""
            if index < text.endIndex, text[index] == "\"" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"" {
                    if text[index] == "\\", text.index(after: index) < text.endIndex {
                        index = text.index(after: index)
                    }
                    value.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
            } else {
                let valueStart = index
                while index < text.endIndex, text[index] != " " { index = text.index(after: index) }
                value = String(text[valueStart..<index])
            }
            if !key.isEmpty && pairs[key] == nil { pairs[key] = value }
        }
        return pairs
    }
}

/// Reads a log file line by line and keeps reading as it grows, across logrotate:
/// when the path names a new file (another inode) or the file shrank, the rest of the
/// old file is read and the new one opened from its start.
package final class LogFileReader {
    package let path: String
    private var fd: Int32 = -1
    private var inode: UInt64 = 0
    private var offset: Int64 = 0
    private var partial: [UInt8] = []

    package init(path: String) throws {
        self.path = path
        guard open() else {
            throw TwfeedError(.io, "\(path): cannot read the log file: \(String(cString: strerror(errno)))")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    private func open() -> Bool {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        var info = stat()
        fstat(descriptor, &info)
        if fd >= 0 { close(fd) }
        fd = descriptor
        inode = UInt64(info.st_ino)
        offset = 0
        partial = []
        return true
    }

    /// Every complete line written since the last call.
    package func readLines() -> [String] {
        var lines = drain()
        var info = stat()
        if stat(path, &info) == 0 {
            let replaced = UInt64(info.st_ino) != inode
            let truncated = !replaced && Int64(info.st_size) < offset
            if replaced || truncated {
                if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
                if open() { lines += drain() }
            }
        }
        return lines
    }

    private func drain() -> [String] {
        var lines: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = pread(fd, &buffer, buffer.count, off_t(offset))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            offset += Int64(count)
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                partial.append(contentsOf: buffer[start..<index])
                lines.append(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
                start = index + 1
            }
            partial.append(contentsOf: buffer[start..<count])
        }
        return lines
    }
}
