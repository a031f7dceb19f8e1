/// A profile image answer that a careful client must refuse, served on demand
/// (`Emulator.serveBadImage`, `POST /_emulator/images`) to test an image fetcher.
public enum BadImage: Sendable, Equatable {
    /// A 200 whose Content-Type is `text/html` and whose body is HTML.
    case wrongType
    /// `Content-Type: image/png` on GIF bytes: the label and the magic bytes disagree.
    case mismatchedType
    /// 6 MB of "PNG", with the size announced in Content-Length.
    case oversize
    /// 50 MB of "PNG" streamed without Content-Length (the connection closes at the end):
    /// only a client that counts as it reads can stop it. `Emulator.imageBodyBytesSent`
    /// shows how much it took.
    case oversizeUnannounced
    /// A 302 to the cloud metadata address, `http://169.254.169.254/latest/meta-data/`.
    case redirectDisallowed
    /// A 302 to the same URL, forever.
    case redirectLoop
    /// The real image, but only the headers and half the body come at once; the rest
    /// after this many seconds (cut short by `Emulator.stop()`).
    case slow(seconds: Double)

    /// The name used by `POST /_emulator/images` (`"bad": "..."`).
    public var controlName: String {
        switch self {
        case .wrongType: "wrong-type"
        case .mismatchedType: "mismatched-type"
        case .oversize: "oversize"
        case .oversizeUnannounced: "oversize-unannounced"
        case .redirectDisallowed: "redirect-disallowed"
        case .redirectLoop: "redirect-loop"
        case .slow: "slow"
        }
    }

    /// Parses a control name; "slow" takes `seconds` (default 30).
    public init?(controlName: String, seconds: Double? = nil) {
        switch controlName.lowercased() {
        case "wrong-type": self = .wrongType
        case "mismatched-type": self = .mismatchedType
        case "oversize": self = .oversize
        case "oversize-unannounced": self = .oversizeUnannounced
        case "redirect-disallowed": self = .redirectDisallowed
        case "redirect-loop": self = .redirectLoop
        case "slow": self = .slow(seconds: seconds ?? 30)
        default: return nil
        }
    }

    public static let controlNames = [
        "wrong-type", "mismatched-type", "oversize", "oversize-unannounced", "redirect-disallowed", "redirect-loop", "slow",
    ]
}
