import TwfeedEmulator
import TwfeedKit

extension Credentials {
    /// The emulator's key pairs, as twfeed's credentials file holds them.
    init(_ emulator: EmulatorCredentials) {
        self.init(consumerKey: emulator.consumerKey, consumerSecret: emulator.consumerSecret,
                  accessToken: emulator.accessToken, accessTokenSecret: emulator.accessTokenSecret)
    }
}
