import ArgumentParser
import Foundation
import TwfeedCore
import TwfeedReader

/// `twfeed open`: a one-time sign-in link to the web reader (INTERFACE.md, "The reader
/// as the app"). Whoever can read the reader's secret (the user that runs twfeed) can
/// make one; another account on the machine cannot.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Print a one-time link that signs this browser in to the web reader.",
        discussion: """
            The first line is the link: it works once, within ten minutes, and leaves a session \
            cookie for 30 days. --feeds adds each Atom feed's URL with its read-only key. \
            Exit 69 when http.listen is not set.
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Open the link in the desktop's browser (xdg-open, or $BROWSER).")
    var browser = false

    @Flag(help: "Also print each Atom feed's URL with its read-only key, for a feed reader.")
    var feeds = false

    @OptionGroup var listenOption: ListenOption

    func run() async throws {
        try await CommandLineEdge.run {
            let config = try options.loadConfig()
            let configName = config.sourcePath ?? "the config"
            guard let address = listenOption.address(or: config) else {
                throw TwfeedError(.unavailable, "\(configName): http.listen: not set, so no reader runs; set it (e.g. \"127.0.0.1:8765\")")
            }
            guard address.port != 0 else {
                throw TwfeedError(
                    .unavailable,
                    "\(configName): http.listen \(address): port 0 is picked when the reader starts; pass --listen with the port it listens on"
                )
            }
            let origin = "http://\(Self.reachable(address))"
            let secret: ReaderSecret? =
                config.http.auth == .none ? nil : try ReaderSecret.loadOrCreate(path: ReaderSecret.path(config: config))
            let link = secret.map { "\(origin)/login?token=\(ReaderKeys(secret: $0).loginToken(now: Date()))" } ?? "\(origin)/"
            emit(link)
            if secret == nil { CommandLineEdge.printNote("http.auth is \"none\": the reader needs no sign-in") }
            if feeds {
                for feed in Feed.allCases {
                    let key = secret.map { "?key=\(ReaderKeys(secret: $0).atomKey(feed))" } ?? ""
                    emit("\(feed.rawValue): \(origin)/feeds/\(feed.rawValue).atom\(key)")
                }
            }
            if browser { try Self.openInBrowser(link) }
        }
    }

    /// The host a browser on this machine reaches: an address that listens on every
    /// interface is reached on loopback.
    static func reachable(_ address: ListenAddress) -> String {
        switch address.host {
        case "0.0.0.0": "127.0.0.1:\(address.port)"
        case "::", "0:0:0:0:0:0:0:0": "[::1]:\(address.port)"
        default: address.description
        }
    }

    /// Hands the link to `$BROWSER` or `xdg-open`, which returns once the browser has it.
    /// The opener's own output is dropped: on a headless machine xdg-open tries half a
    /// dozen browsers and complains about each, when one line of ours says all of it.
    static func openInBrowser(_ link: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [ProcessInfo.processInfo.environment["BROWSER"] ?? "xdg-open", link]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            throw TwfeedError(.unavailable, "cannot start a browser: \(error); open the link above by hand")
        }
        guard process.terminationStatus == 0 else {
            throw TwfeedError(
                .unavailable,
                "\(process.arguments![0]) exited \(process.terminationStatus); open the link above by hand"
            )
        }
    }
}
