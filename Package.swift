// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "twfeed",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "twfeed", targets: ["twfeed"]),
        .executable(name: "twfeed-emulator", targets: ["twfeed-emulator"]),
        .executable(name: "twfeed-bench", targets: ["twfeed-bench"]),
        .library(name: "TwfeedKit", targets: ["TwfeedKit"]),
        .library(name: "TwfeedEmulator", targets: ["TwfeedEmulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        /// liboauth computes the HMAC-SHA1 signature (apt: liboauth-dev).
        .systemLibrary(
            name: "COAuth",
            pkgConfig: "oauth",
            providers: [.apt(["liboauth-dev"])]
        ),
        /// A thin C shim over libcurl: Swift cannot call the variadic curl_easy_setopt.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .target(
            name: "TwfeedKit",
            dependencies: [
                "COAuth",
                "CCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        /// The local API emulator. It shares no code with TwfeedKit on purpose: it checks
        /// the client's signatures and payload handling from the server's side.
        .target(
            name: "TwfeedEmulator",
            dependencies: ["COAuth"]
        ),
        .executableTarget(
            name: "twfeed",
            dependencies: [
                "TwfeedKit",
                "TwfeedEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "twfeed-emulator",
            dependencies: [
                "TwfeedEmulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "twfeed-bench",
            dependencies: ["TwfeedKit", "TwfeedEmulator"]
        ),
        .testTarget(
            name: "TwfeedKitTests",
            dependencies: ["TwfeedKit"]
        ),
        .testTarget(
            name: "EmulatorTests",
            dependencies: ["TwfeedEmulator"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["TwfeedKit", "TwfeedEmulator"]
        ),
    ]
)
