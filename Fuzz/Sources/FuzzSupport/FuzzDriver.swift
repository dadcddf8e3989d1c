import CLibFuzzer
import Foundation

/// Starts libFuzzer on one target's entry point with the process's arguments (corpus folders,
/// `-max_total_time`, ...). Called from each target's main.swift: SwiftPM links `main` to the
/// module's own entry point, so libFuzzer's `main` is never linked in.
public enum FuzzDriver {
    public static func run(_ entry: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, entry))
    }
}
