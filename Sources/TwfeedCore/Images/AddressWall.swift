import Foundation

/// The addresses an image fetch may not connect to: twfeed's SSRF wall.
///
/// Image URLs (profile pictures, photos) come from remote data. `ImagePolicy` lets only
/// https to the allowed hosts through, but an allowed host's name is resolved by DNS,
/// which an attacker may answer or rebind between two lookups; so the wall is checked on
/// the address libcurl is about to connect to, after resolution and on every redirect
/// hop, before any packet is sent (`CurlTransport`, `CURLOPT_OPENSOCKETFUNCTION`).
///
/// API requests carry no wall: their base URL is the admin's config, which is trusted.
/// The wall is here and not in the unit's `IPAddressDeny=` because most hosts' DNS
/// resolver lives in these very ranges (a LAN router, a cloud's VPC resolver,
/// systemd-resolved's stub at 127.0.0.53), and the unit cannot tell a DNS query from an
/// image fetch. The unit still denies the link-local, multicast and reserved ranges
/// (systemd/twfeed.service).
package struct AddressWall: Sendable, Equatable {
    /// One walled range of addresses.
    package struct Range: Sendable, Equatable, CustomStringConvertible {
        /// 4 bytes (IPv4) or 16 (IPv6), the bits past `prefixLength` zero.
        package let network: [UInt8]
        package let prefixLength: Int
        /// What lives there, for the log: "loopback", "private", …
        package let name: String
        /// Loopback is opened by `images.allowInsecureLoopback` (the emulator's pictures).
        package let isLoopback: Bool
        /// `10.0.0.0/8`, as the table (and `IPAddressDeny=`) spells it.
        package let description: String

        init(_ cidr: String, _ name: String, loopback: Bool = false) {
            let parts = cidr.split(separator: "/")
            // The table below is a constant: a typo in it is a programming error.
            network = AddressWall.bytes(of: String(parts[0]))!
            prefixLength = Int(parts[1])!
            self.name = name
            isLoopback = loopback
            description = cidr
        }

        package func contains(_ address: [UInt8]) -> Bool {
            guard address.count == network.count else { return false }
            var bits = prefixLength
            for (byte, netByte) in zip(address, network) where bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if byte & mask != netByte { return false }
                bits -= 8
            }
            return true
        }
    }

    /// Every walled range; the unit's `IPAddressDeny=` listed the same until the wall
    /// moved into the daemon.
    package static let ranges: [Range] = [
        /// "This network": connecting to 0.0.0.0 reaches the host itself on Linux.
        Range("0.0.0.0/8", "this network"),
        /// RFC 1918: the LAN or the VPC, its routers, printers and admin pages.
        Range("10.0.0.0/8", "private"),
        /// RFC 6598, carrier-grade NAT: the ISP's side of the NAT, and VPN overlays.
        Range("100.64.0.0/10", "carrier-grade NAT"),
        /// The host's own services: the reader, databases, resolvers, admin sockets.
        Range("127.0.0.0/8", "loopback", loopback: true),
        /// Link-local: the cloud metadata service (169.254.169.254), which hands out
        /// credentials to whoever asks.
        Range("169.254.0.0/16", "link-local"),
        Range("172.16.0.0/12", "private"),
        Range("192.168.0.0/16", "private"),
        /// Multicast: never an image host.
        Range("224.0.0.0/4", "multicast"),
        /// Reserved, and the broadcast address 255.255.255.255.
        Range("240.0.0.0/4", "reserved"),
        /// The unspecified address, the IPv6 0.0.0.0.
        Range("::/128", "unspecified"),
        Range("::1/128", "loopback", loopback: true),
        /// IPv4-mapped: an IPv4 address in IPv6 clothes, walled whole so that no mapped
        /// spelling (::ffff:127.0.0.1, ::ffff:10.0.0.1) reaches what the IPv4 ranges
        /// wall. No resolver hands libcurl one for a public host.
        Range("::ffff:0:0/96", "IPv4-mapped"),
        /// Unique local addresses: IPv6's private ranges.
        Range("fc00::/7", "private"),
        /// Link-local, where metadata services and neighbours answer.
        Range("fe80::/10", "link-local"),
        Range("ff00::/8", "multicast"),
    ]

    /// Whether loopback (127.0.0.0/8, ::1) may be reached: `images.allowInsecureLoopback`.
    package var allowsLoopback: Bool

    package init(allowsLoopback: Bool = false) {
        self.allowsLoopback = allowsLoopback
    }

    /// The range that walls `address` (4 or 16 bytes) off, or nil when a fetch may
    /// connect to it. An address of any other length is walled: it is not an IP address.
    package func range(walling address: [UInt8]) -> Range? {
        guard address.count == 4 || address.count == 16 else { return Range("0.0.0.0/0", "not an IP address") }
        if Self.nat64.contains(address) {
            // Another host's loopback (the gateway's) is never ours to open.
            let embedded = Array(address.suffix(4))
            return Self.ranges.first { $0.contains(embedded) }.map { Range("64:ff9b::/96", "NAT64 of \($0), \($0.name)") }
        }
        return Self.ranges.first { $0.contains(address) && !($0.isLoopback && allowsLoopback) }
    }

    /// NAT64's well-known prefix (RFC 6052): on an IPv6-only host, DNS64 answers a name
    /// whose only address is IPv4 with that address inside 64:ff9b::/96, and the gateway
    /// connects to it. So a name that resolves to 10.0.0.1 reaches 10.0.0.1 through
    /// 64:ff9b::a00:1: the embedded address (the last 32 bits) is judged as IPv4 is.
    static let nat64 = Range("64:ff9b::/96", "NAT64")

    /// The range that walls off the address spelled `text` (`10.1.2.3`, `::1`); an
    /// unreadable spelling is walled.
    package func range(walling text: String) -> Range? {
        range(walling: Self.bytes(of: text) ?? [])
    }

    /// The bytes of an address's text, IPv4 or IPv6; nil when it is neither.
    package static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// An address's text (`10.0.0.1`, `fe80::1`) from its 4 or 16 bytes.
    package static func text(of bytes: [UInt8]) -> String {
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard bytes.count == 4 || bytes.count == 16, inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else {
            return "?"
        }
        return String(cString: buffer)
    }
}
