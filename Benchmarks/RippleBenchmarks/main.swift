import Foundation
import RippleBenchKit

// ripple-bench: `swift run -c release ripple-bench --help`. The runner lives in RippleBenchKit,
// where its tests reach it.
exit(RippleBench.main(Array(CommandLine.arguments.dropFirst())))
