import Testing
@testable import TwfeedCore

struct ImagePolicyTests {
    let twimg = ImagePolicy(allowedHosts: ["pbs.twimg.com", "abs.twimg.com"])
    let loopback = ImagePolicy(allowedHosts: ["127.0.0.1", "localhost", "::1"], allowInsecureLoopback: true)

    func violation(_ policy: ImagePolicy, _ url: String) -> ImagePolicy.Violation? {
        if case .failure(let violation) = policy.check(url) { return violation }
        return nil
    }

    @Test func httpsFromAnAllowedHostPassesRebuiltFromItsParts() throws {
        let checked = try twimg.check("HTTPS://PBS.twimg.com./profile_images/1/abc_normal.jpg?x=1#frag").get()
        #expect(checked.url == "https://pbs.twimg.com/profile_images/1/abc_normal.jpg?x=1")
        #expect(try twimg.check("https://pbs.twimg.com:443/a.png").get().url == "https://pbs.twimg.com:443/a.png")
        #expect(try twimg.check("https://abs.twimg.com").get().url == "https://abs.twimg.com/")
    }

    @Test(arguments: [
        ("http://pbs.twimg.com/a.jpg", ImagePolicy.Violation.insecure),
        ("https://evil.example/a.jpg", .hostNotAllowed),
        ("https://pbs.twimg.com.evil.example/a.jpg", .hostNotAllowed),
        ("https://169.254.169.254/latest/meta-data/", .hostNotAllowed),
        ("https://evil.example#@pbs.twimg.com/a.jpg", .hostNotAllowed),
        ("https://evil.example\\@pbs.twimg.com/a.jpg", .malformed),
        ("https://user:pass@pbs.twimg.com/a.jpg", .malformed),
        ("https://pbs.twimg.com@evil.example/a.jpg", .malformed),
        ("https://pbs.twimg.com/a b.jpg", .malformed),
        ("https://pbs.twimg.com:0/a.jpg", .malformed),
        ("https://pbs.twimg.com:99999/a.jpg", .malformed),
        ("https://pbs.twimg.com:/a.jpg", .malformed),
        ("ftp://pbs.twimg.com/a.jpg", .malformed),
        ("file:///etc/passwd", .malformed),
        ("//pbs.twimg.com/a.jpg", .malformed),
        ("https://%70bs.twimg.com/a.jpg", .malformed),
        ("https://pbs.twimg.com/a.jpg\u{0}", .malformed),
        ("", .malformed),
    ])
    func refusals(url: String, expected: ImagePolicy.Violation) {
        #expect(violation(twimg, url) == expected, "\(url)")
    }

    @Test func plainHTTPOnlyFromLoopbackAndOnlyWhenAllowed() throws {
        #expect(try loopback.check("http://127.0.0.1:8080/profile_images/1/2_normal.png").get().url
            == "http://127.0.0.1:8080/profile_images/1/2_normal.png")
        #expect(try loopback.check("http://[::1]:8080/a.png").get().url == "http://[::1]:8080/a.png")
        #expect(try loopback.check("http://localhost/a.png").get().host == "localhost")
        // The loopback rule needs the config switch, and the host must still be allowed.
        let strict = ImagePolicy(allowedHosts: ["127.0.0.1"], allowInsecureLoopback: false)
        #expect(violation(strict, "http://127.0.0.1:8080/a.png") == .insecure)
        let noHost = ImagePolicy(allowedHosts: ["pbs.twimg.com"], allowInsecureLoopback: true)
        #expect(violation(noHost, "http://127.0.0.1:8080/a.png") == .hostNotAllowed)
        // 127.0.0.2 is not on the loopback list even when allowed as a host.
        let other = ImagePolicy(allowedHosts: ["127.0.0.2", "10.0.0.1"], allowInsecureLoopback: true)
        #expect(violation(other, "http://127.0.0.2/a.png") == .insecure)
        #expect(violation(other, "http://10.0.0.1/a.png") == .insecure)
    }

    @Test(arguments: [
        (ImagePolicy.Size.normal, "https://pbs.twimg.com/profile_images/1/abc_normal.jpg"),
        (.bigger, "https://pbs.twimg.com/profile_images/1/abc_bigger.jpg"),
        (.large, "https://pbs.twimg.com/profile_images/1/abc_400x400.jpg"),
        (.original, "https://pbs.twimg.com/profile_images/1/abc.jpg"),
    ])
    func variantsComeFromTheSizeSuffix(size: ImagePolicy.Size, expected: String) {
        let policy = ImagePolicy(allowedHosts: [], size: size)
        #expect(policy.variant(of: "https://pbs.twimg.com/profile_images/1/abc_normal.jpg") == expected)
        #expect(policy.variant(of: "https://pbs.twimg.com/profile_images/1/abc_bigger.jpg") == expected)
        #expect(policy.variant(of: "https://pbs.twimg.com/profile_images/1/abc_mini.jpg") == expected)
    }

    @Test func variantKeepsWhatItDoesNotUnderstand() {
        let policy = ImagePolicy(allowedHosts: [], size: .large)
        #expect(policy.variant(of: "https://pbs.twimg.com/profile_images/1/abc.jpg") == "https://pbs.twimg.com/profile_images/1/abc.jpg")
        #expect(policy.variant(of: "https://pbs.twimg.com/profile_images/1/abc_normal") == "https://pbs.twimg.com/profile_images/1/abc_400x400")
        #expect(policy.variant(of: "https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png?v=2")
            == "https://abs.twimg.com/sticky/default_profile_images/default_profile_400x400.png?v=2")
        #expect(policy.variant(of: "https://pbs.twimg.com/_normal.jpg") == "https://pbs.twimg.com/_normal.jpg")
        #expect(policy.variant(of: "not a url") == "not a url")
    }

    @Test func redirectTargetsAreResolvedOnlyWhenAbsolute() throws {
        let base = try loopback.check("http://127.0.0.1:9000/profile_images/1/2_normal.png").get()
        #expect(ImagePolicy.resolve(location: "/other.png", against: base) == "http://127.0.0.1:9000/other.png")
        #expect(ImagePolicy.resolve(location: "//evil.example/x", against: base) == "http://evil.example/x")
        #expect(ImagePolicy.resolve(location: "https://pbs.twimg.com/x", against: base) == "https://pbs.twimg.com/x")
        #expect(ImagePolicy.resolve(location: "other.png", against: base) == nil)
        #expect(ImagePolicy.resolve(location: "file:///etc/passwd", against: base) == nil)
    }
}
