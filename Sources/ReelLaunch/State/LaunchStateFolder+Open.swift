import Foundation
import Logging
import ReelCore
import ReelNet
import ReelSplash

extension LaunchStateFolder {
    /// Opens the state: makes the folders, opens the database (a corrupt one is replaced by an
    /// empty one after a warning; rows that do not decode are removed after one warning; an asset
    /// whose check never finished is refused after a warning), parses the cached configuration
    /// again, checks every cached
    /// asset file against its row (length and XXH64; a missing or damaged one is forgotten and
    /// downloaded again) and removes asset files no row names. A folder or database that cannot
    /// be used gives one warning and a state in memory. Blocking: call it from a pool thread.
    func open(logger: Logger) -> OpenedLaunchState {
        do {
            try prepare()
        } catch let error as ReelError {
            logger.warning("launch state kept in memory: \(error.message)")
            return OpenedLaunchState()
        } catch {
            logger.warning("launch state kept in memory: \(error)")
            return OpenedLaunchState()
        }
        let store: LaunchStateStore
        var stored: StoredLaunchState
        do {
            (store, stored) = try openStore()
        } catch let error as ReelError where error.code == .cacheCorrupt {
            logger.warning("launch state '\(databasePath)' is corrupt (\(error.message)); starting with an empty state")
            for suffix in ["", "-wal", "-shm"] { unlink(databasePath + suffix) }
            do {
                (store, stored) = try openStore()
            } catch {
                logger.warning("launch state kept in memory: \(error)")
                return OpenedLaunchState()
            }
        } catch {
            logger.warning("launch state kept in memory: \(error)")
            return OpenedLaunchState()
        }
        if !stored.damaged.isEmpty {
            let count = stored.damaged.count
            let shown = stored.damaged.prefix(3).map { "\($0.table): \($0.problem)" }.joined(separator: "; ")
            logger.warning("launch state '\(databasePath)' is damaged: \(count) row\(count == 1 ? "" : "s") did not decode (\(shown)\(count > 3 ? "; ..." : "")); \(count == 1 ? "it was" : "they were") removed")
            do {
                try store.remove(stored.damaged)
            } catch {
                logger.warning("launch state: \(error)")
            }
        }
        var opened = OpenedLaunchState(store: store, state: stored.state)
        if let saved = stored.configuration, let url = URL(string: saved.url) {
            opened.configuration = try? SplashConfigurationParser.parse(saved.body, url: url, fetchedAt: saved.fetchedAt).configuration
            opened.configurationDigest = XXHash64.hash(saved.body)
        }
        var changes = LaunchStateChanges()
        for url in stored.interruptedChecks {
            logger.warning("splash asset '\(LaunchText.escaped(url))' was being checked when the app ended (a crash or a kill): refused, and not checked again while it is configured")
        }
        for asset in stored.assets {
            if stored.interruptedChecks.contains(asset.url) { changes.upserts.append(asset) }
            if asset.status == .valid {
                guard let name = asset.file, Self.isAssetName(name), let bytes = readAsset(name), bytes.count == asset.bytes,
                      XXHash64.hash(bytes) == asset.checksum else {
                    logger.warning("launch state: cached asset '\(asset.url)' is missing or damaged; it will be downloaded again")
                    changes.deletes.append(asset.url)
                    continue
                }
            }
            opened.assets[asset.url] = asset
        }
        let named = Set(opened.assets.values.compactMap(\.file))
        for name in assetNames() where !named.contains(name) { removeAsset(name) }
        do {
            try store.apply(changes)
        } catch {
            logger.warning("launch state: \(error)")
        }
        return opened
    }

    private func openStore() throws -> (LaunchStateStore, StoredLaunchState) {
        let store = try LaunchStateStore(path: databasePath)
        do {
            return (store, try store.load())
        } catch {
            store.close()
            throw error
        }
    }
}
