import Foundation
import ReelCore
import ReelEngine
import ReelServer

/// Where a feed run's streams and images come from.
package enum FeedOrigin: Sendable {
    /// This folder, served by the CDN simulator in-process on 127.0.0.1 with a network profile
    /// and the faults it injects.
    case serve(folder: URL, profile: NetworkProfile, faults: FaultInjection)
    /// An HTTP server already running at this base URL (the CDN's bill is not known: the
    /// summary counts what this process read from the network instead).
    case remote(URL)
    /// A CDN simulator already running (tests): its bill is read before and after the run.
    case simulator(CDNServer)

    /// Whether this is a simulator someone else started.
    var isRunningSimulator: Bool {
        if case .simulator = self { return true }
        return false
    }

    /// The origin for a base URL given as text: http or https with a host; refused by name
    /// otherwise. A base URL names a folder, so a missing final "/" is added.
    package static func remote(parsing text: String) throws -> FeedOrigin {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else {
            throw ReelError(.invalidInput, "bad base URL '\(text)': give an http(s) URL such as http://127.0.0.1:8080/")
        }
        if !components.path.hasSuffix("/") { components.path += "/" }
        guard let url = components.url else { throw ReelError(.invalidInput, "bad base URL '\(text)'") }
        return .remote(url)
    }

    /// The folder to serve, checked: it must exist and be a folder.
    package static func serve(path: String, profile: NetworkProfile, faults: FaultInjection = .none) throws -> FeedOrigin {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ReelError(.notFound, "cannot serve '\(path)': no such folder")
        }
        return .serve(folder: URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL, profile: profile, faults: faults)
    }

    /// A configuration layer under the user's when serving a folder: merch images from the folder
    /// (`images/merch/m{n}.jpg`, the bundled samples' images) instead of a package image service
    /// this machine cannot reach, the network profile's name as the network a remembered
    /// bandwidth estimate belongs to (`abr.network`), and CMCD on, so the simulator's bill splits
    /// bytes by what the client said they were for. Nothing for a remote origin.
    package var defaultLayers: [ConfigSource] {
        let profile: NetworkProfile
        switch self {
        case .remote: return []
        case .serve(_, let served, _): profile = served
        case .simulator(let server): profile = server.profile
        }
        let network = JSONWriter.compact(.string(profile.name))
        return [.json("{\"widgets.merch.imageURLTemplate\": \"images/merch/m{n}.jpg\", \"abr.network\": \(network), \"network.cmcd.enabled\": true}",
                      name: "the served folder's defaults")]
    }
}

extension FeedOrigin {
    /// The configuration of a run from this origin: its `defaultLayers` under `sources`, and on
    /// top a `--compare` override (`FeedComparison.assignment`) when given. An unknown key in
    /// any of them is refused, the override's as `--compare`'s.
    package func configuration(_ sources: [ConfigSource], override: String? = nil) throws -> ConfigResolution {
        let extra = try override.map { [ConfigSource.assignments([try FeedComparison.assignment($0)], from: "--compare")] } ?? []
        return try ConfigResolver().resolve(defaultLayers + sources + extra)
    }
}
