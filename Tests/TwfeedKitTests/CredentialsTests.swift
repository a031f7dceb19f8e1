import Foundation
import Testing
@testable import TwfeedCore
@testable import TwfeedKit
import TwfeedTesting

/// The credentials file: `login` adds the account's id and name beside the token pair
/// (what `import` checks an archive against), a file written before them stays valid,
/// and `logout`'s file (the consumer pair alone) holds neither.
final class CredentialsTests {
    let folder: ScratchFolder

    init() throws {
        folder = try ScratchFolder(prefix: "twfeed-credentials")
    }

    var path: String { "\(folder.path)/credentials.json" }

    func mode() -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func theAccountsIdAndNameRoundTripWithTheTokenPair() throws {
        let signedIn = Credentials(
            consumerKey: "ck", consumerSecret: "cs", accessToken: "1700000000000000001-abc", accessTokenSecret: "as",
            userID: UserID(1_700_000_000_000_000_001), username: "twfeed_demo"
        )
        try signedIn.write(to: path)
        #expect(mode() == 0o600)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: String]
        #expect(object?["userId"] == "1700000000000000001" && object?["username"] == "twfeed_demo", "the file's keys, the id as text")
        #expect(try Credentials.load(from: path) == signedIn)
        #expect(signedIn.signedInUserID == UserID(1_700_000_000_000_000_001))
        // What logout writes: the consumer pair alone.
        try Credentials(consumerKey: "ck", consumerSecret: "cs").write(to: path)
        let signedOut = try Credentials.load(from: path)
        #expect(signedOut.userID == nil && signedOut.username == nil && signedOut.signedInUserID == nil)
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("userId"))
    }

    @Test func aFileWithoutTheAccountKeysStaysValid() throws {
        try #"{"consumerKey": "ck", "consumerSecret": "cs", "accessToken": "6253282-eWud", "accessTokenSecret": "as"}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let loaded = try Credentials.load(from: path)
        #expect(loaded.userID == nil && loaded.username == nil && loaded.hasAccessToken)
        #expect(loaded.signedInUserID == UserID(6_253_282), "X's tokens start with their account's id")
    }

    @Test func aUserIdThatIsNotAnIdIsAConfigurationError() throws {
        try #"{"consumerKey": "ck", "consumerSecret": "cs", "userId": "bob"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let error = #expect(throws: TwfeedError.self) { try Credentials.load(from: self.path) }
        #expect(error?.code.exitCode == 78)
        #expect(error?.message == #"\#(path): userId must be a user id (digits), not "bob""#)
    }

    @Test(arguments: [
        ("6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY", 6_253_282),
        ("1700000000000000001-twfeeddemoaccesstoken", 1_700_000_000_000_000_001),
        ("at", nil), ("-abc", nil), ("123-", nil), ("12a-xyz", nil), ("0-xyz", nil), ("99999999999999999999-x", nil),
    ] as [(String, Int64?)])
    func theTokensOwnIdIsItsDigitsBeforeTheDash(_ token: String, _ id: Int64?) {
        #expect(Credentials.userID(ofToken: token) == id.map(UserID.init))
    }

    @Test func theRecordedIdWinsAndNoTokenPairIsNotSignedIn() {
        let recorded = Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "5-x", accessTokenSecret: "s", userID: UserID(9))
        #expect(recorded.signedInUserID == UserID(9))
        let noSecret = Credentials(consumerKey: "ck", consumerSecret: "cs", accessToken: "5-x", userID: UserID(9))
        #expect(noSecret.signedInUserID == nil)
    }
}
