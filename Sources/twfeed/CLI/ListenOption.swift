import ArgumentParser
import TwfeedCore

/// `--listen HOST:PORT`, which `serve` (where to listen) and `open` (where the reader
/// listens) share: checked while the arguments are parsed, so a bad address is a usage
/// error (64) before any config is read.
struct ListenOption: ParsableArguments {
    @Option(help: ArgumentHelp("The reader's address, e.g. 127.0.0.1:8765 (default: http.listen).", valueName: "HOST:PORT"))
    var listen: String?

    func validate() throws {
        if let listen {
            do { _ = try ListenAddress(parsing: listen) } catch let error as ListenAddress.ParseError {
                throw ValidationError("--listen: \"\(listen)\" \(error.reason)")
            }
        }
    }

    /// The address given (valid: `validate` checked it), else the config's `http.listen`.
    func address(or config: TwfeedConfig) -> ListenAddress? {
        listen.flatMap { try? ListenAddress(parsing: $0) } ?? config.http.listen
    }
}
