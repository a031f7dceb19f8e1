import Hummingbird
import NIOCore

/// The reader's request context: Hummingbird's core storage, whether the peer is on
/// this machine (`/metrics` is open to loopback peers), and who the visitor is once
/// `ReaderAccessGate` has looked.
package struct ReaderContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    let peerIsLoopback: Bool
    var visitor = ReaderVisitor.anonymous

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerIsLoopback = Self.isLoopback(source.channel.remoteAddress)
    }

    static func isLoopback(_ address: SocketAddress?) -> Bool {
        guard let ip = address?.ipAddress else { return false }
        return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
