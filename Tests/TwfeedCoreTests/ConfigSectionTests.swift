import Foundation
import Testing
@testable import TwfeedCore

/// One list of the config's sections: what a reload compares and names as `changed=`.
struct ConfigSectionTests {
    let old = TwfeedConfig(environment: ["HOME": "/home/ada"])

    /// Every stored property of `TwfeedConfig` but where it came from (the file, and the
    /// `--account` with its runtime directory, which a reload keeps) is a section, so a
    /// new section cannot be left out of the comparison (as `http` was).
    @Test func theSectionsAreEveryPartOfTheConfig() {
        let origin: Set = ["sourcePath", "account", "runtimeDirectory"]
        let properties = Mirror(reflecting: old).children.compactMap(\.label).filter { !origin.contains($0) }
        #expect(Set(properties) == Set(ConfigSection.allCases.map(\.rawValue)))
        #expect(properties.count == ConfigSection.allCases.count)
    }

    /// The sections are the file's top-level keys, as the loader allows them.
    @Test func theSectionsAreTheKeysTheLoaderAllows() throws {
        do {
            _ = try ConfigLoader.parse(Data(#"{"bogus": 1}"#.utf8), path: "/etc/twfeed.json", environment: ["HOME": "/home/ada"])
            Issue.record("an unknown key was accepted")
        } catch let error as TwfeedError {
            let allowed = try #require(error.message.split(separator: "(allowed: ").last?.dropLast())
            #expect(Set(allowed.components(separatedBy: ", ")) == Set(ConfigSection.allCases.map(\.rawValue)))
        }
    }

    /// A change in one section is named alone, whatever the section.
    @Test(arguments: ConfigSection.allCases)
    func aChangeInOneSectionIsThatSectionAlone(section: ConfigSection) throws {
        var new = old
        switch section {
        case .api: new.api.timeoutSeconds += 1
        case .feeds: new.feeds[.home]?.intervalSeconds += 1
        case .storage: new.storage.keepDays += 1
        case .images: new.images.maxCacheMB += 1
        case .outbox: new.outbox.maxAgeHours += 1
        case .log: new.log.format = .json
        case .http: new.http.listen = try ListenAddress(parsing: "127.0.0.1:8765")
        case .graph: new.graph.prefetchDepth += 1
        case .credentials: new.credentials += ".new"
        }
        #expect(ConfigSection.changed(from: old, to: new) == [section])
        #expect(ConfigSection.changed(from: old, to: old).isEmpty)
    }

    @Test func theChangedSectionsComeInTheOrderOfTheCases() {
        var new = old
        new.credentials += ".new"
        new.http.allowRemote = true
        new.api.dialect = .v1_1
        #expect(ConfigSection.changed(from: old, to: new) == [.api, .http, .credentials])
    }
}
