/// A strict reader of the Prometheus text exposition format (version 0.0.4), for tests:
/// it fails on any line the format does not allow, on a sample whose family was
/// declared with another type, and on a histogram without its `+Inf` bucket, `_sum`
/// and `_count`. What it returns is each sample by name and labels.
package struct PrometheusText: Sendable {
    package struct Sample: Sendable, Equatable {
        package var name: String
        package var labels: [String: String]
        package var value: Double
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package var samples: [Sample] = []
    /// `# TYPE` lines: family name → counter, gauge, histogram, summary or untyped.
    package var types: [String: String] = [:]

    package init(parsing text: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            func fail(_ why: String) -> Failure { Failure(description: "line \(number + 1): \(why): \(line)") }
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3)
                if parts.count >= 2, parts[1] == "TYPE" {
                    guard parts.count == 4, Self.isName(parts[2]),
                        ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3])
                    else { throw fail("bad TYPE") }
                    guard types[String(parts[2])] == nil else { throw fail("second TYPE for a family") }
                    types[String(parts[2])] = String(parts[3])
                }
                continue
            }
            var rest = Substring(line)
            let name = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
            guard Self.isName(name) else { throw fail("bad metric name") }
            rest = rest.dropFirst(name.count)
            var labels: [String: String] = [:]
            if rest.first == "{" {
                rest = rest.dropFirst()
                while rest.first != "}" {
                    let label = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
                    guard !label.isEmpty, label.first!.isLetter || label.first == "_" else { throw fail("bad label name") }
                    rest = rest.dropFirst(label.count)
                    guard rest.hasPrefix("=\"") else { throw fail("label without =\"") }
                    rest = rest.dropFirst(2)
                    var value = ""
                    while let character = rest.first, character != "\"" {
                        rest = rest.dropFirst()
                        if character == "\\" {
                            guard let escaped = rest.first else { throw fail("dangling escape") }
                            rest = rest.dropFirst()
                            switch escaped {
                            case "n": value.append("\n")
                            case "\\": value.append("\\")
                            case "\"": value.append("\"")
                            default: throw fail("bad escape")
                            }
                        } else {
                            value.append(character)
                        }
                    }
                    guard rest.first == "\"" else { throw fail("unterminated label value") }
                    rest = rest.dropFirst()
                    guard labels.updateValue(value, forKey: String(label)) == nil else { throw fail("label repeated") }
                    if rest.first == "," { rest = rest.dropFirst() }
                }
                rest = rest.dropFirst()
            }
            guard rest.first == " " else { throw fail("no space before the value") }
            let fields = rest.dropFirst().split(separator: " ")
            guard (1...2).contains(fields.count), let value = Self.number(fields[0]) else { throw fail("bad value") }
            if fields.count == 2, Int64(fields[1]) == nil { throw fail("bad timestamp") }
            samples.append(Sample(name: String(name), labels: labels, value: value))
        }
        for (family, type) in types where type == "histogram" {
            let buckets = samples.filter { $0.name == family + "_bucket" }
            for series in Set(buckets.map { $0.labels.filter { $0.key != "le" } }) {
                let own = buckets.filter { $0.labels.filter { $0.key != "le" } == series }
                guard own.contains(where: { $0.labels["le"] == "+Inf" }),
                    samples.contains(where: { $0.name == family + "_sum" && $0.labels == series }),
                    let count = samples.first(where: { $0.name == family + "_count" && $0.labels == series }),
                    own.first(where: { $0.labels["le"] == "+Inf" })?.value == count.value
                else { throw Failure(description: "histogram \(family)\(series) lacks +Inf, _sum or a matching _count") }
            }
        }
    }

    /// The value of the one sample with this name and these labels (all of them).
    package func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" || first == ":" else { return false }
        return text.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" || $0 == ":" }
    }

    static func number(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }
}
