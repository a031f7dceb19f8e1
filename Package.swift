// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "twfeed",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "twfeed", targets: ["twfeed"]),
        .executable(name: "twfeed-emulator", targets: ["twfeed-emulator"]),
        .executable(name: "twfeed-bench", targets: ["twfeed-bench"]),
        // The emulator is a library too: a user can run it inside their own tests.
        .library(name: "TwfeedEmulator", targets: ["TwfeedEmulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // No traits: neither swift-configuration nor the full-Foundation extras are used.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // Only for NIOEmbedded's testing channel, which TwfeedTesting's in-process reader client needs.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        /// liboauth computes the HMAC-SHA1 signature (apt: liboauth-dev).
        .systemLibrary(
            name: "COAuth",
            pkgConfig: "oauth",
            providers: [.apt(["liboauth-dev"])]
        ),
        /// OpenSSL's libcrypto for SHA-256 (apt: libssl-dev); libcurl already links it.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        /// The system zlib (apt: zlib1g-dev): the archive's zip entries are inflated, and
        /// the archive writer's deflated, through it.
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        /// A thin C shim over libcurl: Swift cannot call the variadic curl_easy_setopt.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        /// Small helpers that twfeed and its emulator must agree on byte for byte (the API's
        /// date spellings) and liboauth's HMAC behind one process-wide lock. Nothing of
        /// twfeed's, so the emulator stays independent of TwfeedKit.
        .target(name: "TwfeedBase", dependencies: ["COAuth", "CCrypto"]),
        /// twitter-text's weighted length, URL detection and emoji sequences: a port of a
        /// published library with its own conformance corpus, so it depends on nothing of twfeed.
        .target(
            name: "TwitterText"
        ),
        /// What twfeed's use of the pay-per-use API costs, as pure values: prices, counts,
        /// the billing cycle, the budget's daily allowance and the API's billing refusals.
        /// No I/O and no clock, so every rule is tested by passing dates in.
        .target(
            name: "TwfeedBilling",
            dependencies: ["TwitterText"]
        ),
        /// The values every part of twfeed shares: the model (tweets, ids, feeds), the
        /// config and its loader, errors, clocks, the outbox's states, search queries, the
        /// image cache's layout and policy. No database and no network.
        .target(
            name: "TwfeedCore",
            dependencies: [
                "TwfeedBase",
                "TwfeedBilling",
                "TwitterText",
                "CCrypto",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The archive X sends its users (`twfeed import`): reading it, zip or folder, with
        /// bounded memory; no store, no network.
        .target(
            name: "TwfeedArchive",
            dependencies: ["TwfeedBase", "TwfeedCore", "CZlib"]
        ),
        /// The store: the one target that imports GRDB or writes SQL. A writer for the
        /// daemon and the commands that queue, a read-only reader for everything that shows.
        .target(
            name: "TwfeedStore",
            dependencies: [
                "TwfeedCore",
                "TwfeedBilling",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        /// What the daemon and the web reader share, below both so that the service that
        /// polls does not depend on the pages that show: the status snapshot and its
        /// counts, the ledger's summary, the metrics, and the narrow doors the reader
        /// writes through (`ReaderOutbox`, `ReaderFetches`, `DaemonReader`).
        .target(
            name: "TwfeedStatus",
            dependencies: [
                "TwfeedBase",
                "TwfeedBilling",
                "TwfeedCore",
                "TwfeedStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        /// What a person reads: the web reader's routes and pages and the status report.
        /// It sees only the store's reader, so a page cannot write.
        .target(
            name: "TwfeedReader",
            dependencies: [
                "TwfeedBilling",
                "TwfeedCore",
                "TwfeedStore",
                "TwfeedStatus",
                "TwfeedBase",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        /// The daemon's services: the API clients, the syncers, the outbox, the image
        /// fetcher, retention, systemd, and the `Daemon` that owns them.
        .target(
            name: "TwfeedKit",
            dependencies: [
                "TwfeedArchive",
                "TwfeedBilling",
                "TwfeedBase",
                "TwfeedCore",
                "TwfeedStore",
                "TwfeedStatus",
                "COAuth",
                "CCurl",
                "TwitterText",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        /// The local API emulator. It shares no code with TwfeedKit on purpose (only the
        /// low-level TwfeedBase, and TwitterText for what the bill calls a URL): it checks
        /// the client's signatures, payload handling and spending from the server's side.
        .target(
            name: "TwfeedEmulator",
            dependencies: ["TwfeedBase", "COAuth", "TwitterText"]
        ),
        /// An emulator plus the credentials and config files that point twfeed at it, in
        /// one folder: what `twfeed demo`, twfeed-bench and the integration tests run in.
        .target(
            name: "TwfeedSandbox",
            dependencies: ["TwfeedCore", "TwfeedStore", "TwfeedKit", "TwfeedEmulator", "TwfeedEmulatorArchive"]
        ),
        /// The emulator's world as the archive X would send its user (`twfeed-emulator
        /// --write-archive`, and the demo's import): the emulator library itself stays
        /// apart from twfeed's types.
        .target(
            name: "TwfeedEmulatorArchive",
            dependencies: ["TwfeedCore", "TwfeedArchive", "TwfeedEmulator"]
        ),
        /// Test doubles (manual clock, recording notifier, in-memory log sink, scripted
        /// transports, a fake API), kept out of the product as HummingbirdTesting is: the
        /// `twfeed` executable does not link them.
        .target(
            name: "TwfeedTesting",
            dependencies: [
                "TwfeedArchive",
                "TwfeedCore",
                "TwfeedStore",
                "TwfeedKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        /// The reader's in-process client, apart from TwfeedTesting as HummingbirdTesting is
        /// from Hummingbird: the daemon's and the store's tests do not wait for the web
        /// stack (SwiftNIO, Hummingbird, the reader) to compile before their own compile.
        .target(
            name: "TwfeedReaderTesting",
            dependencies: [
                "TwfeedReader",
                "TwfeedTesting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "twfeed",
            dependencies: [
                "TwfeedArchive",
                "TwfeedBilling",
                "TwfeedBase",
                "TwfeedCore",
                "TwfeedStore",
                "TwfeedStatus",
                "TwfeedReader",
                "TwfeedKit",
                "TwitterText",
                "TwfeedEmulator",
                "TwfeedSandbox",
                "TwfeedEmulatorArchive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "twfeed-emulator",
            dependencies: [
                "TwfeedEmulator",
                // `--write-archive` only: the emulator library itself stays apart from twfeed's.
                "TwfeedEmulatorArchive",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "twfeed-bench",
            dependencies: ["TwfeedArchive", "TwfeedBilling", "TwfeedCore", "TwfeedStore", "TwfeedReader", "TwfeedKit", "TwfeedEmulator",
                           "TwfeedSandbox", "TwfeedTesting", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "TwfeedBaseTests",
            dependencies: ["TwfeedBase"]
        ),
        /// A test target per library, each depending on what its tests need.
        .testTarget(
            name: "TwfeedCoreTests",
            dependencies: ["TwfeedBase", "TwfeedBilling", "TwfeedCore"]
        ),
        /// The archive reader and writer, with made-up archives of each generation.
        .testTarget(
            name: "TwfeedArchiveTests",
            dependencies: ["TwfeedCore", "TwfeedArchive"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TwfeedStoreTests",
            dependencies: ["TwfeedBase", "TwfeedCore", "TwfeedStore", "TwfeedTesting", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        /// The status snapshot, the ledger's summary and the metrics, without the daemon or the reader.
        .testTarget(
            name: "TwfeedStatusTests",
            dependencies: ["TwfeedBase", "TwfeedBilling", "TwfeedCore", "TwfeedStore", "TwfeedStatus", "TwfeedTesting"]
        ),
        /// The reader's pages are asked in process (TwfeedTesting's `ReaderClient`) through
        /// the doors the daemon gives it (TwfeedKit's durable outbox and fetch requester).
        .testTarget(
            name: "TwfeedReaderTests",
            dependencies: ["TwfeedArchive", "TwfeedBilling", "TwfeedCore", "TwfeedStore", "TwfeedStatus", "TwfeedReader", "TwfeedKit", "TwfeedTesting",
                           "TwfeedReaderTesting", .product(name: "Mustache", package: "swift-mustache")]
        ),
        .testTarget(
            name: "TwfeedKitTests",
            dependencies: ["TwfeedArchive", "TwfeedBase", "TwfeedBilling", "TwfeedCore", "TwfeedStore", "TwfeedStatus", "TwfeedKit",
                           "TwfeedTesting",
                           .product(name: "GRDB", package: "GRDB.swift")],
            // Answers shaped like real recorded X answers (made up), read by the parsing tests.
            resources: [.copy("API/Fixtures")]
        ),
        .testTarget(
            name: "TwitterTextTests",
            dependencies: ["TwitterText"]
        ),
        .testTarget(
            name: "TwfeedBillingTests",
            dependencies: ["TwfeedBilling"]
        ),
        .testTarget(
            name: "EmulatorTests",
            dependencies: ["TwfeedBase", "TwfeedEmulator"]
        ),
        .testTarget(
            name: "IntegrationTests",
            /// The executables too: the suite runs their binaries, and with them here one
            /// build compiles every module the test command needs, side by side on both
            /// cores (the binaries' own builds are then only links; scripts/release-build).
            dependencies: ["TwfeedBilling", "TwfeedCore", "TwfeedStore", "TwfeedStatus", "TwfeedReader", "TwfeedKit", "TwfeedEmulator",
                           "TwfeedSandbox", "TwfeedTesting", "TwfeedReaderTesting", "TwfeedArchive", "TwfeedBase", "twfeed", "twfeed-emulator",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
    ]
)

/// One release build serves the tests, the benchmarks and the package (scripts/release-build
/// says why). So in release twfeed's Swift libraries are compiled for `@testable import`,
/// and the test code itself is not optimized: it runs once, and optimizing it
/// would add about a minute to every clean build on two cores. Nor is it compiled as one
/// whole module: a release build otherwise compiles each test target in one frontend, on
/// one core, and the largest (IntegrationTests, which needs every other module) is the
/// build's last step; in batches (as a debug build compiles) its files share both cores.
/// (scripts/release-build compiles all of it without debug information.)
for target in package.targets {
    if target.type == .test {
        target.swiftSettings =
            (target.swiftSettings ?? []) + [
                .unsafeFlags(["-Onone", "-no-whole-module-optimization", "-enable-batch-mode"], .when(configuration: .release))
            ]
    } else if target.type == .regular, target.name.hasPrefix("Twfeed") || target.name == "TwitterText" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"], .when(configuration: .release))]
    }
}

/// libFuzzer targets (Fuzz/, run by scripts/fuzz). They link libFuzzer's driver, which
/// only `-sanitize=fuzzer` supplies, so they exist only when scripts/fuzz asks for them
/// (TWFEED_FUZZ=1) and a normal build or test never tries to link them.
if Context.environment["TWFEED_FUZZ"] == "1" {
    package.targets.append(.target(name: "CFuzzer", path: "Fuzz/CFuzzer"))
    package.targets.append(.target(name: "FuzzDriver", dependencies: ["CFuzzer"], path: "Fuzz/FuzzDriver"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["TwfeedKit"], path: "Fuzz/FuzzSupport"))
    for (name, dependencies) in [
        ("FuzzConfig", ["TwfeedKit", "FuzzSupport"]),
        ("FuzzV2Page", ["TwfeedKit", "FuzzSupport"]),
        ("FuzzV11Page", ["TwfeedKit", "FuzzSupport"]),
        ("FuzzRateLimit", ["TwfeedBase", "TwfeedKit", "FuzzSupport"]),
        ("FuzzTweetLength", ["TwitterText"]),
        ("FuzzArchiveData", ["TwfeedArchive"]),
        ("FuzzArchiveZip", ["TwfeedArchive"]),
    ] {
        package.targets.append(.executableTarget(
            name: name, dependencies: (dependencies + ["FuzzDriver"]).map { .target(name: $0) }, path: "Fuzz/\(name)"))
    }
}
