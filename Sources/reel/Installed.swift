import Foundation
import ReelCore

/// Where the bundled samples are, so the defaults work from any folder: `Samples/` in the
/// current folder (a checkout of Reel), else the copy `make install` puts beside the tool
/// (`PREFIX/share/reel/Samples` for `PREFIX/bin/reel`). Without either, a default that needs
/// them is refused with the option that gives the file instead.
enum Installed {
    /// The samples folder in use, or nil.
    static var samples: URL? {
        let local = URL(fileURLWithPath: "Samples", isDirectory: true)
        if isFolder(local) { return local }
        let installed = executable.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/reel/Samples", isDirectory: true)
        return isFolder(installed) ? installed : nil
    }

    /// `path` as given when it exists or does not name the samples (`Samples/...`); else the
    /// same file in the installed samples. Refused naming `option` when neither has it.
    static func sample(_ path: String, option: String) throws -> String {
        let prefix = "Samples/"
        guard path.hasPrefix(prefix), !FileManager.default.fileExists(atPath: path) else { return path }
        let relative = String(path.dropFirst(prefix.count))
        if let samples {
            let candidate = samples.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate.path }
        }
        throw ReelError(.invalidInput, "'\(path)' is not here: the default needs Reel's samples (run in Reel's folder, "
                        + "or install them with `make install`), or give \(option)")
    }

    /// The samples folder as a path (`option` names what gives another one).
    static func samplesFolder(option: String) throws -> String {
        guard let samples else {
            throw ReelError(.invalidInput, "no 'Samples' folder here and no installed samples (`make install` puts them in "
                            + "PREFIX/share/reel/Samples): give \(option)")
        }
        return samples.path
    }

    /// `path` under the samples when it is a relative `Samples/...` path missing here (the
    /// default trace, `samplePath`).
    static func samplePath(_ relative: String, option: String) throws -> String {
        try sample("Samples/" + relative, option: option)
    }

    /// The running tool's file, links resolved: `/proc/self/exe`, since `argv[0]` is a bare
    /// `reel` when a shell found it on the PATH.
    private static var executable: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }
}
