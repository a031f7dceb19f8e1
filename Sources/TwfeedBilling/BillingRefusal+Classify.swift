import Foundation

/// Recognising billing refusals in answers the API sends, which are outside input: the
/// classifier must answer nil for anything it does not recognise, whatever the bytes
/// (except a 402, which is no credits whatever it holds), and must never let a body's
/// text break the one-line log it will be written to.
extension BillingRefusal {
    /// Bodies larger than this are not parsed (the API's refusals are under a kilobyte):
    /// a hostile answer must not cost a large parse on every poll. Only a 402 is a
    /// refusal without a readable body.
    package static let maxBodyBytes = 65_536

    /// The refusal a 4xx answer's body describes, or nil for every other answer (a normal
    /// rate limit, a bad token, a duplicate post, an outage, a body that is not JSON).
    ///
    /// HTTP 402 ("Payment Required") has one meaning here, whatever its body or its
    /// absence: no credits (x-api.md; the v2 problem is the only 402 body documented, and
    /// v1.1 answers it with its own errors list). Every other status is recognised by
    /// the body: v2 problem objects by `title` (compared ignoring case, spaces and
    /// dashes), by the last part of `type` after `/problems/`, and by `reason`; v1.1
    /// error lists by `errors[].code` 453, and by the words of their `message` for the
    /// two caps (that dialect predates pay-per-use and documents no code for them). The
    /// status also settles the one ambiguity the API leaves: `type …/problems/credits` is
    /// used both for depleted credits (402) and for the spend cap (403).
    package static func classify(status: Int, body: [UInt8]) -> BillingRefusal? {
        guard (400..<500).contains(status) else { return nil }
        let object = parsedObject(body)
        if status == 402 {
            let detail = object.flatMap { ($0["detail"] as? String) ?? v11Message($0) ?? ($0["title"] as? String) }
            let line = detail.map { oneLine($0, limit: detailLimit) } ?? ""
            return .creditsDepleted(detail: line.isEmpty ? paymentRequired : line)
        }
        guard let object else { return nil }

        let title = (object["title"] as? String).map(squeezed)
        let problem = (object["type"] as? String).map(problemName)
        let reason = (object["reason"] as? String)?.lowercased()
        let rawDetail = (object["detail"] as? String) ?? v11Message(object) ?? (object["title"] as? String) ?? ""
        let detail = oneLine(rawDetail, limit: detailLimit)
        let v11Words = v11Message(object).map(squeezed) ?? ""

        if title == "spendcapreached" || problem == "spend-cap-reached"
            || (problem == "credits" && title != "creditsdepleted") || v11Words.contains("spendcap")
        {
            return .spendCapReached(resetDate: resetDate(object["reset_date"], detail: rawDetail), detail: detail)
        }
        if title == "creditsdepleted" || v11Words.contains("doesnothaveanycredits") {
            return .creditsDepleted(detail: detail)
        }
        if title == "usagecapexceeded" || problem == "usage-capped" || v11Words.contains("usagecapexceeded") {
            let period = (object["period"] as? String).map { oneLine($0, limit: 40) }
            return .usageCapExceeded(period: period?.isEmpty == false ? period : nil, detail: detail)
        }
        if reason == NotPermittedReason.userNotEnrolled.rawValue {
            return .notPermitted(.userNotEnrolled, detail: detail)
        }
        // Any other reason under client-forbidden still means the app may not use the
        // endpoint; the API's own words stay in `detail`.
        if reason == NotPermittedReason.clientNotEnrolled.rawValue || problem == "client-forbidden" {
            return .notPermitted(.clientNotEnrolled, detail: detail)
        }
        if title == "unsupportedauthentication" || problem == "unsupported-authentication" {
            return .notPermitted(.unsupportedAuthentication, detail: detail)
        }
        if v11Codes(object).contains(453) {
            return .notPermitted(.accessLevel, detail: detail)
        }
        return nil
    }

    /// The detail of a 402 whose body says nothing readable (empty, HTML, a proxy's page).
    package static let paymentRequired = "Payment Required (HTTP 402)"

    /// The body as a JSON object, or nil when it is not one (or too large to parse).
    private static func parsedObject(_ body: [UInt8]) -> [String: Any]? {
        guard !body.isEmpty, body.count <= maxBodyBytes,
            let parsed = try? JSONSerialization.jsonObject(with: Data(body))
        else { return nil }
        return parsed as? [String: Any]
    }

    /// `Spend Cap-Reached` and `SpendCapReached` alike: lowercased, without spaces,
    /// dashes or underscores.
    private static func squeezed(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { !" -_".unicodeScalars.contains($0) })
    }

    /// `https://api.twitter.com/2/problems/usage-capped` → `usage-capped`.
    private static func problemName(_ type: String) -> String {
        let lowered = type.lowercased()
        guard let range = lowered.range(of: "/problems/", options: .backwards) else { return lowered }
        var name = lowered[range.upperBound...]
        while name.last == "/" { name.removeLast() }
        return String(name)
    }

    /// The `code`s of a v1.1 `errors` list (numbers, or numeric strings).
    private static func v11Codes(_ object: [String: Any]) -> [Int] {
        guard let errors = object["errors"] as? [Any] else { return [] }
        return errors.compactMap { entry -> Int? in
            guard let error = entry as? [String: Any] else { return nil }
            if let text = error["code"] as? String { return Int(text) }
            if let number = error["code"] as? NSNumber, let code = Int(exactly: number) { return code }
            return nil
        }
    }

    /// The first v1.1 error's `message`, the only explanation that dialect gives.
    private static func v11Message(_ object: [String: Any]) -> String? {
        guard let errors = object["errors"] as? [Any] else { return nil }
        return errors.lazy.compactMap { ($0 as? [String: Any])?["message"] as? String }.first
    }

    /// 00:00 UTC on `reset_date` (`2026-04-14`, or a timestamp starting with one); when it
    /// is missing or unreadable, the first date written in the detail ("...until the next
    /// cycle begins on 2026-04-14.").
    private static func resetDate(_ value: Any?, detail: String) -> Date? {
        if let text = value as? String {
            let head = text.prefix(10)
            let rest = text.dropFirst(10)
            if rest.isEmpty || rest.first == "T" || rest.first == " ", let day = CivilDate(iso: head) {
                return day.start
            }
        }
        return firstDate(in: detail)?.start
    }

    /// The first `YYYY-MM-DD` in `text` that is a real date and not part of a longer run
    /// of digits.
    private static func firstDate(in text: String) -> CivilDate? {
        let bytes = Array(text.utf8.prefix(maxBodyBytes))
        guard bytes.count >= 10 else { return nil }
        func isDigit(_ index: Int) -> Bool {
            index >= 0 && index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        for start in 0...(bytes.count - 10) where !isDigit(start - 1) && !isDigit(start + 10) {
            guard isDigit(start), bytes[start + 4] == UInt8(ascii: "-") else { continue }
            let candidate = String(decoding: bytes[start..<(start + 10)], as: UTF8.self)
            if let day = CivilDate(iso: candidate[...]) { return day }
        }
        return nil
    }

    /// `text` made safe for one log line: control characters, line and paragraph
    /// separators and bidirectional overrides (which could make a line read differently
    /// from what it holds) become spaces, runs of spaces become one, the ends are trimmed,
    /// and it is cut to `limit` characters, the last being "…" when something was cut.
    package static func oneLine(_ text: String, limit: Int) -> String {
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true  // trims the start
        for scalar in text.unicodeScalars {
            let unsafe: Bool
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: unsafe = true
            default: unsafe = (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
            let isSpace = unsafe || scalar == " "
            if isSpace {
                if !lastWasSpace { scalars.append(" ") }
            } else {
                scalars.append(scalar)
            }
            lastWasSpace = isSpace
        }
        var line = String(scalars)
        if line.last == " " { line.removeLast() }
        guard limit > 0 else { return "" }
        guard line.count > limit else { return line }
        return String(line.prefix(limit - 1)) + "…"
    }
}
