import Testing
@testable import TwfeedCore

/// The addresses an image fetch may not connect to: each range's first and last address
/// walled, the ones just outside it reachable, in both families.
struct AddressWallTests {
    let wall = AddressWall()

    func walled(_ address: String, _ wall: AddressWall = AddressWall()) -> String? {
        wall.range(walling: address).map(\.description)
    }

    @Test(arguments: [
        // The first and the last address of each range, and the range (the addresses just
        // outside each are in justOutsideTheRangesIsReachable).
        ("0.0.0.0", "0.255.255.255", "0.0.0.0/8"),
        ("10.0.0.0", "10.255.255.255", "10.0.0.0/8"),
        ("100.64.0.0", "100.127.255.255", "100.64.0.0/10"),
        ("127.0.0.0", "127.255.255.255", "127.0.0.0/8"),
        ("169.254.0.0", "169.254.255.255", "169.254.0.0/16"),
        ("172.16.0.0", "172.31.255.255", "172.16.0.0/12"),
        ("192.168.0.0", "192.168.255.255", "192.168.0.0/16"),
        ("224.0.0.0", "239.255.255.255", "224.0.0.0/4"),
        ("240.0.0.0", "255.255.255.255", "240.0.0.0/4"),
        ("fc00::", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fc00::/7"),
        ("fe80::", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::/10"),
        ("ff00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ff00::/8"),
        ("::ffff:0.0.0.0", "::ffff:255.255.255.255", "::ffff:0:0/96"),
    ])
    func bothEndsOfARangeAreWalled(first: String, last: String, range: String) {
        #expect(walled(first) == range)
        #expect(walled(last) == range)
    }

    @Test(arguments: [
        "1.0.0.0", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255", "128.0.0.0",
        "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.167.255.255", "192.169.0.0",
        "223.255.255.255", "8.8.8.8", "151.101.0.84",
        "::2", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe00::", "fec0::", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        "2606:4700::6810:84e5", "::fffe:ffff:ffff", "::1:0:0:0",
    ])
    func justOutsideTheRangesIsReachable(address: String) {
        #expect(walled(address) == nil)
    }

    @Test func theSingleAddressesOfIPv6AreWalled() {
        #expect(walled("::") == "::/128")
        #expect(walled("::1") == "::1/128")
        #expect(wall.range(walling: "::1")?.name == "loopback")
        #expect(wall.range(walling: "169.254.169.254")?.name == "link-local")
    }

    /// `images.allowInsecureLoopback` opens loopback and nothing else: 0.0.0.0 (which
    /// reaches the host on Linux) and the IPv4-mapped spelling of 127.0.0.1 stay walled.
    @Test func loopbackOpensOnlyWithAllowInsecureLoopback() {
        let open = AddressWall(allowsLoopback: true)
        for address in ["127.0.0.1", "127.255.255.255", "::1"] {
            #expect(walled(address) != nil)
            #expect(walled(address, open) == nil, "\(address)")
        }
        for address in ["0.0.0.0", "::ffff:127.0.0.1", "::", "10.0.0.1", "169.254.169.254", "fe80::1", "fd00::1"] {
            #expect(walled(address, open) != nil, "\(address)")
        }
    }

    /// A v4-mapped address is its IPv4 address in disguise: walled whatever it maps, so a
    /// resolver cannot reach a walled IPv4 address through it.
    @Test func ipv4MappedAddressesAreWalledWhole() {
        for address in ["::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:8.8.8.8"] {
            #expect(walled(address) == "::ffff:0:0/96", "\(address)")
        }
    }

    @Test func whatIsNotAnIPAddressIsWalled() {
        #expect(wall.range(walling: [UInt8]()) != nil)
        #expect(wall.range(walling: [1, 2, 3]) != nil)
        #expect(wall.range(walling: "localhost") != nil)
    }

    @Test func addressesAreSpelledAsTheUnitSpellsThem() throws {
        #expect(AddressWall.text(of: try #require(AddressWall.bytes(of: "FE80::0001"))) == "fe80::1")
        #expect(AddressWall.text(of: [10, 0, 0, 2]) == "10.0.0.2")
        #expect(AddressWall.ranges.count == 15)
    }

    /// On an IPv6-only host DNS64 puts an IPv4-only name's address inside 64:ff9b::/96
    /// and the NAT64 gateway connects to it: the embedded address is judged as IPv4,
    /// and a gateway's loopback stays walled even where ours is open.
    @Test func anAddressBehindNAT64IsJudgedByTheIPv4AddressItCarries() {
        #expect(walled("64:ff9b::10.0.0.1") == "64:ff9b::/96")
        #expect(wall.range(walling: "64:ff9b::a9fe:a9fe")?.name == "NAT64 of 169.254.0.0/16, link-local")
        #expect(walled("64:ff9b::127.0.0.1", AddressWall(allowsLoopback: true)) == "64:ff9b::/96")
        #expect(walled("64:ff9b::8.8.8.8") == nil)
        #expect(walled("64:ff9b::151.101.0.84") == nil)
        #expect(walled("64:ff9b:0:0:1::a00:1") == nil, "outside the /96: not an embedding")
    }
}
