import Foundation
import FuzzSupport
import LottieGenerator

// `FuzzLottie --write-assets DIR COUNT` writes the hand cases and COUNT generated documents into
// DIR (what scripts/measure-lottie.sh checks); `FuzzLottie --document INPUT` prints the document
// an input (a finding, say) chooses, to read or to check with `reel splash check`; otherwise
// libFuzzer runs the entry point over the corpus and its mutations until it is told to stop. It
// always passes a buffer, even for an empty input.
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--write-assets", let count = Int(arguments[3]) {
    exit(writeAssets(to: arguments[2], count: count))
}
if arguments.count == 3, arguments[1] == "--document" {
    guard let bytes = FileManager.default.contents(atPath: arguments[2]) else {
        FileHandle.standardError.write(Data("FuzzLottie: cannot read \(arguments[2])\n".utf8))
        exit(1)
    }
    FileHandle.standardOutput.write(Data(LottieGenerator.document(Array(bytes))))
    exit(0)
}
FuzzDriver.run { data, size in
    guard let data else { return 0 }
    return fuzz(data, size)
}
