import Foundation

/// The targets of issue 17 that one `--cost-week` run checks, each printed as a PASS or
/// FAIL line with the figures behind it; the bench exits 1 when one fails.
struct CostTargets {
    struct Check {
        let name: String
        let passed: Bool
        let detail: String
    }

    private(set) var checks: [Check] = []

    var allPassed: Bool { checks.allSatisfy(\.passed) }

    /// Records and prints one check.
    mutating func check(_ name: String, _ passed: Bool, _ detail: String) {
        checks.append(Check(name: name, passed: passed, detail: detail))
        print("  \(passed ? "PASS" : "FAIL") \(name): \(detail)")
    }

    /// One line for the table of `scripts/cost-targets`: each check's name and outcome.
    var summary: String {
        checks.map { "\($0.passed ? "PASS" : "**FAIL**") \($0.name)" }.joined(separator: "; ")
    }
}
