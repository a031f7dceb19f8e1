import Foundation
import Testing
import TwfeedTesting

/// scripts/shared-build, which scripts/test.sh sources: a fresh clone builds in a slot of a
/// folder that clones share, a slot only one run holds at a time, and a working tree's own
/// `.build` is never touched. Run as the test script runs it, in a scratch "clone" with a
/// cache of its own and a stand-in `swift` (whose version names the folder).
@Suite(.tags(.integration))
struct SharedBuildTests {
    /// A scratch clone, a scratch cache, and a `swift` that prints its version, or with
    /// `swiftpm` its arguments (for scripts/swiftpm).
    struct Machine {
        let clone: ScratchFolder
        let cache: ScratchFolder
        let tools: ScratchFolder

        init() throws {
            clone = try ScratchFolder(prefix: "twfeed-clone")
            cache = try ScratchFolder(prefix: "twfeed-cache")
            tools = try ScratchFolder(prefix: "twfeed-tools")
            let swift = "\(tools.path)/swift"
            let script = """
                #!/bin/sh
                [ "$1" = --version ] && { echo "Swift version 0.0-test"; exit 0; }
                printf '%s\\n' "$@"
                """
            try script.write(toFile: swift, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
        }

        /// The folder the slots of this toolchain go in.
        var slots: String { "\(cache.path)/twfeed/build" }

        /// What `.build` is now: the slot it links to, "folder", or "none".
        var build: String {
            let path = "\(clone.path)/.build"
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) { return target }
            return FileManager.default.fileExists(atPath: path) ? "folder" : "none"
        }

        /// Runs `script` in bash in the clone, after sourcing scripts/shared-build.
        func start(_ script: String, environment extra: [String: String] = [:]) throws -> (Process, ChildPipes) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            let library = Repository.root().appendingPathComponent("scripts/shared-build").path
            process.arguments = ["-c", "set -euo pipefail; source \"$0\"; \(script)", library]
            process.currentDirectoryURL = URL(fileURLWithPath: clone.path)
            var environment = ["HOME": clone.path, "XDG_CACHE_HOME": cache.path, "PATH": "\(tools.path):/usr/bin:/bin"]
            environment.merge(extra) { $1 }
            process.environment = environment
            return (process, try ChildPipes.run(process, input: true, error: .sameAsOutput))
        }

        /// Runs `script` to its end; returns its status and output.
        func run(_ script: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
            let (process, pipes) = try start(script, environment: environment)
            try pipes.input?.close()
            let data = pipes.output.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }

        /// A run that holds what `script` takes (by default a slot, as a test run holds it
        /// while it builds and tests) until `release` is called: `script` says "taken",
        /// then waits for its standard input to close.
        func hold(_ script: String = "shared_build_take; echo taken; read -r _ || true; shared_build_release") throws -> Holder {
            let (process, pipes) = try start(script)
            var seen = Data()
            while !String(decoding: seen, as: UTF8.self).contains("taken") {
                let chunk = pipes.output.availableData
                if chunk.isEmpty { break }
                seen.append(chunk)
            }
            #expect(String(decoding: seen, as: UTF8.self).contains("taken"))
            return Holder(process: process, pipes: pipes)
        }

        /// Slot `number` of this toolchain's folder (named by the stand-in's version).
        func slot(_ number: Int) throws -> String { "\(slots)/\(try #require(key))/\(number)" }
    }

    struct Holder {
        let process: Process
        let pipes: ChildPipes

        func release() throws {
            try pipes.input?.close()
            _ = pipes.output.readDataToEndOfFile()
            process.waitUntilExit()
        }
    }

    @Test func aFreshCloneTakesTheFirstFreeSlotAndGivesItBackAtTheEnd() throws {
        let machine = try Machine()
        let first = try machine.hold()
        let slot = machine.build
        #expect(URL(fileURLWithPath: slot).lastPathComponent == "1")
        #expect(URL(fileURLWithPath: slot).deletingLastPathComponent().deletingLastPathComponent().path == machine.slots)
        #expect(FileManager.default.fileExists(atPath: slot))

        // A second clone beside it gets the other slot, a third builds privately.
        let other = try Machine(sharing: machine)
        let second = try other.hold()
        #expect(URL(fileURLWithPath: other.build).lastPathComponent == "2")
        let third = try Machine(sharing: machine)
        let privately = try third.run("shared_build_take; [ -e .build ] && echo linked || echo private")
        #expect(privately.output.contains("both shared build folders are in use"))
        #expect(privately.output.hasSuffix("private\n"))

        // At the end of its run the first clone's link goes, and its slot is free again.
        try first.release()
        #expect(machine.build == "none")
        #expect(FileManager.default.fileExists(atPath: slot))
        let again = try third.run("shared_build_take; readlink .build")
        #expect(again.output.hasSuffix("\(slot)\n"))
        try second.release()
    }

    @Test func aWorkingTreesOwnBuildFolderIsNeverTouched() throws {
        let machine = try Machine()
        try FileManager.default.createDirectory(atPath: "\(machine.clone.path)/.build/release", withIntermediateDirectories: true)
        let result = try machine.run("shared_build_take")
        #expect(result.status == 0)
        #expect(machine.build == "folder")
        #expect(FileManager.default.fileExists(atPath: "\(machine.clone.path)/.build/release"))
        #expect(!FileManager.default.fileExists(atPath: machine.slots))
    }

    @Test func theSwitchKeepsTheBuildPrivate() throws {
        let machine = try Machine()
        let result = try machine.run("shared_build_take; [ -e .build ] && echo linked || echo private", environment: ["TWFEED_SHARED_BUILD": "0"])
        #expect(result.output == "private\n")
        #expect(!FileManager.default.fileExists(atPath: machine.slots))
    }

    @Test func aCacheThatCannotBeWrittenLeavesTheBuildInTheClone() throws {
        let machine = try Machine()
        let file = "\(machine.cache.path)/not-a-folder"
        try #require(FileManager.default.createFile(atPath: file, contents: Data()))
        let result = try machine.run("shared_build_take; echo went on", environment: ["XDG_CACHE_HOME": file])
        #expect(result.output.hasSuffix("building in a private .build\nwent on\n"))
        #expect(machine.build == "none")
    }

    @Test func aLinkLeftByAKilledRunIsTakenAgainAndTheUsersOwnIsKept() throws {
        let machine = try Machine()
        let link = "\(machine.clone.path)/.build"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "\(machine.slots)/left/2")
        let result = try machine.run("shared_build_take; readlink .build")
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("\(try machine.slot(1))\n"))

        // A link of the user's own, to a folder elsewhere, is their build folder.
        let elsewhere = try ScratchFolder(prefix: "twfeed-elsewhere")
        let clone = try Machine(sharing: machine)
        try FileManager.default.createSymbolicLink(atPath: "\(clone.clone.path)/.build", withDestinationPath: elsewhere.path)
        #expect(try clone.run("shared_build_take").status == 0)
        #expect(clone.build == elsewhere.path)
    }

    /// A module cache folder without a clang module in it is no error.
    @Test func aSlotWithNoClangModuleIsTaken() throws {
        let machine = try Machine()
        #expect(try machine.run("shared_build_take; shared_build_release").status == 0)
        let cache = "\(try machine.slot(1))/x86_64-unknown-linux-gnu/debug/ModuleCache/EMPTY"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let result = try machine.run("shared_build_take; echo taken")
        #expect(result.output.hasSuffix("taken\n"))
    }

    @Test func aFailedSharedBuildIsMadeAgainPrivatelyOnceAndTheSlotEmptied() throws {
        let machine = try Machine()
        let result = try machine.run(
            """
            shared_build_take
            slot=$(readlink .build)
            touch .build/stale.o
            shared_build_retry sh -c 'echo built again'
            [ -e "$slot" ] && echo kept || echo emptied
            [ -e .build ] && echo linked || echo unlinked
            shared_build_retry true || echo "no second retry"
            """
        )
        #expect(result.output.hasSuffix("built again\nemptied\nunlinked\nno second retry\n"))
        #expect(result.output.contains("the build failed in"))
    }

    @Test func anotherToolchainsFolderGoesUnlessARunHoldsIt() throws {
        let machine = try Machine()
        let stale = "\(machine.slots)/0123456789abcdef"
        try FileManager.default.createDirectory(atPath: "\(stale)/1", withIntermediateDirectories: true)
        #expect(try machine.run("shared_build_take").status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))

        // Held by a run of that other toolchain: kept.
        try FileManager.default.createDirectory(atPath: "\(stale)/1", withIntermediateDirectories: true)
        let holder = try machine.hold("exec 9>\"\(stale)/1.lock\"; flock 9; echo taken; read -r _ || true")
        let clone = try Machine(sharing: machine)
        #expect(try clone.run("shared_build_take").status == 0)
        #expect(FileManager.default.fileExists(atPath: stale))
        try holder.release()
    }

    /// A clone's own C modules land in the slot's clang module cache under the clone's
    /// path, once per clone: a slot keeps, of each module, only the newest.
    @Test func aSlotKeepsOnlyTheNewestOfEachClangModule() throws {
        let machine = try Machine()
        #expect(try machine.run("shared_build_take; shared_build_release").status == 0)
        let cache = "\(try machine.slot(1))/x86_64-unknown-linux-gnu/release/ModuleCache/3W0TM4NULR27S"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let files = [
            "COAuth-OLDER.pcm": 300.0, "COAuth-NEWEST.pcm": 100, "COAuth-OLD.pcm": 200, "CNIOLinux-ONLY.pcm": 400, "Glibc-ABC.swiftmodule": 500,
        ]
        for (name, age) in files {
            let path = "\(cache)/\(name)"
            try #require(FileManager.default.createFile(atPath: path, contents: Data(name.utf8)))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
        }
        #expect(try machine.run("shared_build_take; shared_build_release").status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        #expect(left == ["CNIOLinux-ONLY.pcm", "COAuth-NEWEST.pcm", "Glibc-ABC.swiftmodule"])
    }

    /// scripts/swiftpm gives SwiftPM the slot's real path, the same from every clone; a
    /// private `.build` gets no flag.
    @Test func swiftPMIsGivenTheSlotsRealPath() throws {
        let machine = try Machine()
        let swiftpm = Repository.root().appendingPathComponent("scripts/swiftpm").path
        let alone = try machine.run("bash \"\(swiftpm)\" build --product twfeed")
        #expect(alone.output == "build\n--product\ntwfeed\n")
        let shared = try machine.run("shared_build_take; bash \"\(swiftpm)\" build --product twfeed; shared_build_release")
        let slot = try machine.slot(1)
        #expect(shared.output.hasSuffix("build\n--product\ntwfeed\n--scratch-path\n\(slot)\n"))

        // A link of the user's own to a folder elsewhere: SwiftPM takes it as before.
        let elsewhere = try ScratchFolder(prefix: "twfeed-elsewhere")
        try FileManager.default.createSymbolicLink(atPath: "\(machine.clone.path)/.build", withDestinationPath: elsewhere.path)
        #expect(try machine.run("bash \"\(swiftpm)\" build --product twfeed").output == "build\n--product\ntwfeed\n")
    }
}

extension SharedBuildTests.Machine {
    /// Another clone on the same machine: the same cache and `swift`.
    init(sharing machine: Self) throws {
        clone = try ScratchFolder(prefix: "twfeed-clone")
        cache = machine.cache
        tools = machine.tools
    }

    /// The folder name this toolchain's slots are under (the hash of its version).
    var key: String? {
        (try? FileManager.default.contentsOfDirectory(atPath: slots))?.first { !$0.hasSuffix(".lock") && $0.count == 16 }
    }
}
