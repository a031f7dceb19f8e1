import Foundation
import Testing
@testable import TwfeedCore

/// `graph.prefetchDepth` and `images.photos` (INTERFACE.md, "Conversations, photos, long posts").
struct ConfigGraphTests {
    func load(_ text: String) throws -> TwfeedConfig {
        try ConfigLoader.parse(Data(text.utf8), path: "/etc/twfeed/config.json", environment: ["HOME": "/home/ada"])
    }

    @Test func theDefaultPrefetchesOneLevel() throws {
        #expect(try load("{}").graph.prefetchDepth == 1)
        #expect(try load(#"{"graph": {"prefetchDepth": 10}}"#).graph.prefetchDepth == 10)
        #expect(try load(#"{"graph": {"prefetchDepth": 0}}"#).graph.prefetchDepth == 0)
    }

    @Test func photosAreOnUnlessTurnedOff() throws {
        #expect(try load("{}").images.photos)
        #expect(try load(#"{"images": {"photos": false}}"#).images.photos == false)
    }

    @Test(arguments: [
        (#"{"images": {"photos": "yes"}}"#, "images.photos"),
        (#"{"graph": {"prefetchDepth": 11}}"#, "graph.prefetchDepth"),
        (#"{"graph": {"prefetchDepth": -1}}"#, "graph.prefetchDepth"),
        (#"{"graph": {"prefetchDepth": 1.5}}"#, "graph.prefetchDepth"),
        (#"{"graph": {"depth": 1}}"#, "graph.depth"),
    ])
    func aBadValueNamesItsKey(text: String, key: String) throws {
        #expect { try load(text) } throws: { error in
            guard let error = error as? TwfeedError else { return false }
            return error.code == .configuration && error.message.hasPrefix("/etc/twfeed/config.json: \(key):")
        }
    }
}
