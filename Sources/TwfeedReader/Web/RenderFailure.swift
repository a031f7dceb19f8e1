/// A page whose template did not render. swift-mustache answers nil, not an error, for
/// a template it does not hold: written `?? ""`, that was an empty page with status 200,
/// which a browser shows as blank and a monitor counts as up. Thrown instead, it reaches
/// `ReaderHeaders`, which answers 500 and logs one `http.render_failed` line.
struct RenderFailure: Error, Sendable, Equatable, CustomStringConvertible {
    enum Code: String, Sendable {
        /// The library holds no template of that name.
        case noSuchTemplate = "no-such-template"
    }

    var code: Code
    var message: String
    /// The template asked for.
    var template: String

    init(_ code: Code, template: String) {
        self.code = code
        self.template = template
        message = "the page's template \(template) did not render (\(code.rawValue))"
    }

    var description: String { message }
}

extension PageTemplates {
    /// `model` through the template `name`; a template that does not render throws
    /// rather than giving an empty page.
    static func render(_ model: Any, withTemplate name: String) throws(RenderFailure) -> String {
        guard let text = library.render(model, withTemplate: name) else { throw RenderFailure(.noSuchTemplate, template: name) }
        return text
    }
}
