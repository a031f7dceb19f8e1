/// What tests read off the web reader's pages.
package enum ReaderPage {
    /// The form token (`<input name="csrf">`) a page carries, nil when it has none.
    package static func csrf(in page: String) -> String? {
        guard let range = page.range(of: #"name="csrf" value="[0-9a-f]+""#, options: .regularExpression) else { return nil }
        return String(page[range].dropFirst(#"name="csrf" value=""#.count).dropLast())
    }
}
