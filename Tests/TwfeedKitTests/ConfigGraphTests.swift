import Foundation
import Testing
@testable import TwfeedCore

/// `graph.prefetchDepth` and `images.photos` (INTERFACE.md, "Conversations, photos, long posts").
struct ConfigGraphTests {
    func load(_ text: String) throws -> TwfeedConfig {
        try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed/config.json", environment: ["HOME": "/home/ada"])
    }

    @Test func theDefaultsPrefetchOneLevelAndCachePhotos() throws {
        let config = try load("{}")
        #expect(config.graph.prefetchDepth == 1 && config.images.photos)
        let set = try load(#"{"graph": {"prefetchDepth": 10}, "images": {"photos": false}}"#)
        #expect(set.graph.prefetchDepth == 10 && !set.images.photos)
    }

    @Test(arguments: [
        (#"{"graph": {"prefetchDepth": 11}}"#, "graph.prefetchDepth"),
        (#"{"graph": {"prefetchDepth": -1}}"#, "graph.prefetchDepth"),
        (#"{"graph": {"prefetchDepth": 1.5}}"#, "graph.prefetchDepth"),
        (#"{"graph": {"depth": 1}}"#, "graph.depth"),
        (#"{"images": {"photos": "yes"}}"#, "images.photos"),
    ])
    func aBadValueNamesItsKey(text: String, key: String) throws {
        #expect { try load(text) } throws: { error in
            guard let error = error as? TwfeedError else { return false }
            return error.code == .configuration && error.message.hasPrefix("/etc/twfeed/config.json: \(key):")
        }
    }
}
