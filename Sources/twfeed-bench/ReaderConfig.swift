import Foundation
import TwfeedTesting

/// The config the page benchmarks serve a folder with: its `twfeed.sqlite` and `images/`,
/// the reader on a free loopback port.
enum ReaderConfig {
    /// Writes `folder/config.json`; its path and the port it names.
    static func write(folder: String) throws -> (config: String, port: Int) {
        let port = try LoopbackSocket.freePort()
        let config = "\(folder)/config.json"
        try Data(
            """
            {"credentials": "\(folder)/credentials.json",
             "storage": {"database": "\(folder)/twfeed.sqlite", "imageCache": "\(folder)/images"},
             "http": {"listen": "127.0.0.1:\(port)"}}
            """.utf8
        ).write(to: URL(fileURLWithPath: config))
        return (config, port)
    }
}
