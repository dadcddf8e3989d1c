import Foundation
import FuzzSupport

// `FuzzLottie --write-assets DIR COUNT` writes the hand cases and COUNT generated documents into
// DIR (what scripts/measure-lottie.sh checks); otherwise libFuzzer runs the entry point over the
// corpus and its mutations until it is told to stop. It always passes a buffer, even for an
// empty input.
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--write-assets", let count = Int(arguments[3]) {
    exit(writeAssets(to: arguments[2], count: count))
}
FuzzDriver.run { data, size in
    guard let data else { return 0 }
    return fuzz(data, size)
}
