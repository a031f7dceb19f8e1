/// The code units and character classes twitter-text's URL regex is built from.
extension URLDetector {
    enum Unit {
        static let dot: UInt16 = 0x2E
        static let colon: UInt16 = 0x3A
        static let slash: UInt16 = 0x2F
        static let question: UInt16 = 0x3F
        static let hyphen: UInt16 = 0x2D
        static let underscore: UInt16 = 0x5F
        static let openParen: UInt16 = 0x28
        static let closeParen: UInt16 = 0x29
        static let http: [UInt16] = Array("http".utf16)
        static let schemeSeparator: [UInt16] = Array("://".utf16)
        static let tcoHost: [UInt16] = Array("://t.co/".utf16)
        static let xnPrefix: [UInt16] = Array("xn--".utf16)

        /// ASCII-only: JavaScript's non-Unicode case-insensitive matching never folds a
        /// non-ASCII character onto an ASCII one.
        static func lowercased(_ unit: UInt16) -> UInt16 {
            (0x41...0x5A).contains(unit) ? unit + 0x20 : unit
        }
    }

    /// twitter-text's character classes, code unit by code unit as JavaScript sees them.
    enum CharacterClass {
        static func isDigit(_ c: UInt16) -> Bool { (0x30...0x39).contains(c) }

        static func isASCIIAlphanumeric(_ c: UInt16) -> Bool {
            isDigit(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
        }

        /// All ASCII punctuation, as in the Java and Ruby ports (the JavaScript port's
        /// list happens to miss `"` and `` ` ``).
        static func isASCIIPunctuation(_ c: UInt16) -> Bool {
            (0x21...0x2F).contains(c) || (0x3A...0x40).contains(c) || (0x5B...0x60).contains(c) || (0x7B...0x7E).contains(c)
        }

        static func isSpace(_ c: UInt16) -> Bool {
            switch c {
            case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x180E, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
                return true
            default:
                return false
            }
        }

        static func isInvalid(_ c: UInt16) -> Bool { c == 0xFFFE || c == 0xFEFF || c == 0xFFFF }

        static func isDirectionalMarker(_ c: UInt16) -> Bool {
            switch c {
            case 0x202A...0x202E, 0x061C, 0x200E, 0x200F, 0x2066...0x2069: return true
            default: return false
            }
        }

        /// Anything but punctuation, spaces, invalid characters and directional markers,
        /// so internationalised domains (and surrogate halves) qualify.
        static func isDomainCharacter(_ c: UInt16) -> Bool {
            !isASCIIPunctuation(c) && !isSpace(c) && !isInvalid(c) && !isDirectionalMarker(c)
        }

        static func isDomainLabelCharacter(_ c: UInt16) -> Bool {
            c == Unit.hyphen || c == Unit.underscore || isDomainCharacter(c)
        }

        /// `[^A-Za-z0-9@＠$#＃\uFFFE\uFEFF\uFFFF]` (directional markers are allowed too,
        /// which this class already covers).
        static func isURLPrecedingCharacter(_ c: UInt16) -> Bool {
            !isASCIIAlphanumeric(c) && c != 0x40 && c != 0xFF20 && c != 0x24 && c != 0x23 && c != 0xFF03 && !isInvalid(c)
        }

        /// `[-_./]`: "foo.example.com" must not yield "example.com" on its own.
        static func isInvalidBeforeSchemelessURL(_ c: UInt16) -> Bool {
            c == Unit.hyphen || c == Unit.underscore || c == Unit.dot || c == Unit.slash
        }

        /// The TLD look-ahead `(?=[^0-9a-zA-Z@+-]|$)` fails on these.
        static func blocksTLDEnd(_ c: UInt16) -> Bool {
            isASCIIAlphanumeric(c) || c == 0x40 || c == 0x2B || c == Unit.hyphen
        }

        static func isPunycodeCharacter(_ c: UInt16) -> Bool { isASCIIAlphanumeric(c) || c == Unit.hyphen }

        static func isLatinAccent(_ c: UInt16) -> Bool {
            switch c {
            case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF, 0x100...0x24F, 0x253, 0x254, 0x256, 0x257, 0x259, 0x25B,
                0x263, 0x268, 0x26F, 0x272, 0x289, 0x28B, 0x2BB, 0x300...0x36F, 0x1E00...0x1EFF:
                return true
            default:
                return false
            }
        }

        static func isCyrillic(_ c: UInt16) -> Bool { (0x400...0x4FF).contains(c) }

        /// `[-a-z0-9À…]` of `validAsciiDomain`.
        static func isASCIIDomainCharacter(_ c: UInt16) -> Bool {
            isASCIIAlphanumeric(c) || c == Unit.hyphen || isLatinAccent(c)
        }

        /// `validGeneralUrlPathChars`.
        static func isPathCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x21, 0x2A, 0x27, 0x3B, 0x3A, 0x3D, 0x2B, 0x2C, 0x2E, 0x24, 0x2F, 0x25, 0x23, 0x5B, 0x5D, 0x2D,
                0x2013, 0x5F, 0x7E, 0x40, 0x7C, 0x26:
                return true
            default:
                return isASCIIAlphanumeric(c) || isCyrillic(c) || isLatinAccent(c)
            }
        }

        /// `validUrlPathEndingChars` without its parenthesised alternative: so that
        /// "see example.com/foo." does not take the full stop.
        static func isPathEndingCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x2B, 0x2D, 0x3D, 0x5F, 0x23, 0x2F: return true
            default: return isASCIIAlphanumeric(c) || isCyrillic(c) || isLatinAccent(c)
            }
        }

        /// `validUrlQueryChars`.
        static func isQueryCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x21, 0x3F, 0x2A, 0x27, 0x40, 0x28, 0x29, 0x3B, 0x3A, 0x26, 0x3D, 0x2B, 0x24, 0x2F, 0x25, 0x23,
                0x5B, 0x5D, 0x2D, 0x5F, 0x2E, 0x2C, 0x7E, 0x7C:
                return true
            default:
                return isASCIIAlphanumeric(c)
            }
        }

        /// `validUrlQueryEndingChars`.
        static func isQueryEndingCharacter(_ c: UInt16) -> Bool {
            switch c {
            case 0x2D, 0x5F, 0x26, 0x3D, 0x23, 0x2F: return true
            default: return isASCIIAlphanumeric(c)
            }
        }
    }
}
