// swift-tools-version: 6.0
//
// Ripple's libFuzzer targets. A package of their own, so that `swift build` and `swift test` of
// Ripple never see them: they only build with the fuzzer sanitizer, which needs flags no user
// wants. `.ci/fuzz` builds and runs them; `Fuzz/README.md` says how to run them longer.
//
// It depends on Ripple by path, so the fuzzer's coverage instrumentation, passed with `-Xswiftc`,
// reaches RippleDiff and RippleTesting themselves, not only the targets.

import PackageDescription

let package = Package(
    name: "RippleFuzz",
    platforms: [.macOS(.v10_15)],
    dependencies: [.package(name: "Ripple", path: "..")],
    targets: [
        // The fuzz targets' entry points (`@_cdecl`), reading fuzz bytes as lists and batches, and
        // the checks they share.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "RippleDiff", package: "Ripple"),
                .product(name: "RippleTesting", package: "Ripple"),
            ]),
        // One executable per target, a C shim that defines LLVMFuzzerTestOneInput for libFuzzer's
        // own `main`. `-sanitize=fuzzer` links libFuzzer's runtime whole, `main` included, so
        // neither a Swift executable (whose `main` SwiftPM renames and then defines again at link
        // time) nor a shim with its own `main` calling LLVMFuzzerRunDriver can link.
        .executableTarget(name: "fuzz-flat", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-sectioned", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-batch", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-sequential", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "fuzz-storage", dependencies: ["FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
