// swift-tools-version: 6.0
//
// Ripple: live lists and commands for MVP presenters.
//
// Layering (enforced by `.ci/run`): RippleTesting → Ripple → RippleDiff.
// `RippleDiff` imports neither Foundation nor Dispatch.
//
// The package takes no dependencies. Everything below builds with the toolchain alone.

import PackageDescription

/// Settings shared by every target.
///
/// Opt-in defines (uncomment to use, never commit enabled):
/// - `RIPPLE_INTERNAL_CHECKS`: checks every diff (the change-set is valid and replays the source
///   into the target, by identity and content; flat and sectioned) and every event a collection
///   publishes (the change-set is valid and its counts match the collection's before and after).
///   `.ci/run` runs the test suite once with it on (the AddressSanitizer step). `ripple-bench`
///   refuses to measure a build with it (or a debug build) unless given `--force`.
let sharedSettings: [SwiftSetting] = [
    // .define("RIPPLE_INTERNAL_CHECKS"),
]

/// Whether this is one of `.ci/run`'s sanitizer builds (`RIPPLE_SANITIZER_BUILD` set in the
/// environment). Those build in release so that the libraries' code runs as apps ship it,
/// optimized, under the sanitizers, and they run the tests that reach that code. So, in them:
/// - the test code is not optimized, nor built whole-module (`testCodeSettings`): optimizing it
///   took 590 of the 718 CPU-seconds of such a build, one core at a time (a module is one job in a
///   whole-module build), and it found nothing; the lifetimes an optimizer shortens in a user's
///   code are what Tests/ReleaseProbes checks, built as an app is. `RippleTestSupport`'s helpers
///   (the reference models and the oracles the tests call in their loops) stay optimized;
/// - the targets whose tests they do not run are left out (`sanitizerBuildLeavesOut`): the
///   benchmark runner and its kit, and RippleTesting's own tests (safe code on one thread; the
///   headless views run under the sanitizers inside Ripple's screen tests).
let isSanitizerBuild = Context.environment["RIPPLE_SANITIZER_BUILD"] != nil

/// The targets a sanitizer build leaves out (see `isSanitizerBuild`).
let sanitizerBuildLeavesOut: Set<String> = [
    "RippleBenchmarks", "RippleBenchKit", "RippleBenchKitTests", "RippleTestingTests",
]

/// Settings of the test targets and of the benchmark kit (which only the benchmark and its tests
/// link): `sharedSettings`, plus, in a sanitizer build, no optimization and no whole-module build.
let testCodeSettings: [SwiftSetting] =
    sharedSettings + (isSanitizerBuild ? [.unsafeFlags(["-Onone", "-no-whole-module-optimization"])] : [])

let package = Package(
    name: "Ripple",
    // The lowest versions where every module type-checks (Identifiable, AsyncStream, Task and
    // MainActor arrive with iOS 13 / macOS 10.15). Linux needs no entry.
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "RippleDiff", targets: ["RippleDiff"]),
        .library(name: "Ripple", targets: ["Ripple"]),
        .library(name: "RippleTesting", targets: ["RippleTesting"]),
        .executable(name: "ripple-bench", targets: ["RippleBenchmarks"]),
    ],
    targets: [
        // The diff engine and change-set types. Pure Swift, imports nothing.
        .target(name: "RippleDiff", swiftSettings: sharedSettings),

        // Publisher, observable collections. Dispatch only; no Foundation.
        .target(name: "Ripple", dependencies: ["RippleDiff"], swiftSettings: sharedSettings),

        // Headless table and collection views and UIKit's batch-update validator.
        .target(name: "RippleTesting", dependencies: ["Ripple", "RippleDiff"], swiftSettings: sharedSettings),

        // The benchmark runner, `swift run -c release ripple-bench`: a thin `main` over
        // RippleBenchKit, which holds the suites, the lists reader, the baseline comparison and the
        // report. Not a product; its tests are RippleBenchKitTests.
        .executableTarget(
            name: "RippleBenchmarks",
            dependencies: ["RippleBenchKit"],
            path: "Benchmarks/RippleBenchmarks",
            swiftSettings: sharedSettings
        ),
        .target(
            name: "RippleBenchKit",
            // RippleTesting (for the `screen` suite) links XCTest, which a command-line program
            // finds on Linux but not on Apple platforms, where the suite is left out.
            dependencies: [
                "RippleDiff", "Ripple", .target(name: "RippleTesting", condition: .when(platforms: [.linux])),
            ],
            path: "Benchmarks/RippleBenchKit",
            swiftSettings: testCodeSettings
        ),

        // Shared test helpers: seeded generators, reference models, assertions. Not a product.
        .target(
            name: "RippleTestSupport",
            dependencies: ["RippleDiff", "Ripple", "RippleTesting"],
            path: "Tests/RippleTestSupport",
            swiftSettings: sharedSettings
        ),

        .testTarget(
            name: "RippleDiffTests",
            dependencies: ["RippleDiff", "RippleTestSupport"],
            swiftSettings: testCodeSettings
        ),
        .testTarget(
            name: "RippleTests",
            dependencies: ["Ripple", "RippleDiff", "RippleTesting", "RippleTestSupport"],
            swiftSettings: testCodeSettings
        ),
        .testTarget(
            name: "RippleBenchKitTests",
            dependencies: ["RippleBenchKit"],
            swiftSettings: testCodeSettings
        ),
        .testTarget(
            name: "RippleTestingTests",
            dependencies: ["RippleTesting", "Ripple", "RippleDiff", "RippleTestSupport"],
            swiftSettings: testCodeSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

if isSanitizerBuild {
    package.targets.removeAll { sanitizerBuildLeavesOut.contains($0.name) }
    package.products.removeAll { $0.name == "ripple-bench" }
}
