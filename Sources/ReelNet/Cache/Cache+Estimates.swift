import Logging
import ReelCore

extension Cache {
    /// The bandwidth estimate remembered for `network`, in kbps (nil when none is, the cache is
    /// off, or the stored value is not a whole number in the range `device.bandwidthEstimateKbps`
    /// accepts, 1...10,000,000). Blocking (SQLite): a dedicated or pool thread.
    public func rememberedEstimate(network: String) -> Int? {
        let text = store.withLock { store in (try? store?.meta(Self.estimateKey(network))) ?? nil }
        guard let kbps = text.flatMap({ Int($0) }), (1...10_000_000).contains(kbps) else { return nil }
        return kbps
    }

    /// Remembers `kbps` for `network`, in the index's `meta` table: one SQLite transaction, so a
    /// crash leaves the old value or the new one. Blocking (SQLite).
    public func rememberEstimate(_ kbps: Int, network: String) {
        guard kbps > 0 else { return }
        store.withLock { store in
            do {
                try store?.setMeta(Self.estimateKey(network), String(kbps))
            } catch {
                logger.info("could not remember the bandwidth estimate for '\(network)': \(error)")
            }
        }
    }

    private static func estimateKey(_ network: String) -> String { "bandwidth.\(network)" }
}

extension BandwidthMeter {
    /// A meter for a job that uses `cache`: it starts from the estimate the cache remembers for
    /// `abr.network` (with `abr.persistEstimate`), else from `device.bandwidthEstimateKbps`.
    /// Blocking (SQLite): a dedicated or pool thread.
    public static func remembered(config: ReelConfig, cache: Cache?) -> BandwidthMeter {
        let remembered = config.abr.persistEstimate ? cache?.rememberedEstimate(network: config.abr.network) : nil
        return BandwidthMeter(config: config, initialKbps: remembered)
    }
}

extension Cache {
    /// Remembers `meter`'s estimate for `abr.network` when it measured enough (and
    /// `abr.persistEstimate` is on), for the next job's start. Blocking (SQLite).
    public func remember(_ meter: BandwidthMeter, config: ReelConfig) {
        let estimate = meter.snapshot
        guard config.abr.persistEstimate, estimate.measured else { return }
        rememberEstimate(estimate.estimateKbps, network: config.abr.network)
    }
}
