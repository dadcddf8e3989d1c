import Foundation

/// How long people watch a video: the share of viewers still watching at each point, from the
/// catalog's curve when it has one, else a default curve. The link scheduler reads it as "the
/// chance this second is played, given the user is watching at that one".
///
/// A catalog curve gives the share at each whole second from 0 (1 at 0); between two seconds the
/// share falls linearly (swipes spread evenly over the second, as the MMGC 2022 challenge's user
/// model draws them), and past the curve's last point it stays at its last value (those who
/// watch to the end). The default curve is exponential, `exp(-t / mean)`: the seven curves the
/// MMGC 2022 challenge published (videos of 6 to 125 s) fall roughly so, steepest in the first
/// seconds, with mean watch times (the area under each) of 4.5 to 16.6 s; `mean` starts at
/// `scheduler.defaultWatchMs` (8 s) and is then the user's own (`RetentionLearner`).
package struct RetentionModel: Sendable {
    private let curve: [Double]?
    private let mean: Double
    /// Where the play stops by itself (a preview's limit): no one watches past it.
    private let ends: Double?

    /// `curve`: shares at whole seconds (nil: the default curve with mean watch `meanWatch` s);
    /// `ends`: the second where the play stops by itself, if it does.
    package init(curve: [Double]?, meanWatch: Double, ends: Double? = nil) {
        self.ends = ends
        if let curve, curve.count >= 2, curve.allSatisfy({ $0.isFinite && $0 >= 0 }) {
            self.curve = curve
        } else {
            self.curve = nil
        }
        self.mean = max(0.1, meanWatch)
    }

    /// The share of viewers still watching at `t` seconds.
    package func share(at t: Double) -> Double {
        guard t > 0 else { return 1 }
        guard let curve else { return exp(-t / mean) }
        let second = Int(t)
        if second + 1 >= curve.count { return curve[curve.count - 1] }
        let fraction = t - Double(second)
        return curve[second] + (curve[second + 1] - curve[second]) * fraction
    }

    /// The chance the user watches on to `t`, given they watch at `from` (1 when `t <= from`).
    package func chance(of t: Double, from: Double) -> Double {
        guard t > from else { return 1 }
        if let ends, t >= ends - 1e-9 { return 0 }
        let base = share(at: from)
        guard base > 1e-9 else { return 1 }
        return min(1, share(at: t) / base)
    }
}

/// The user's own watch times, learned from their swipes: the mean of the default retention
/// curve, an exponential's (the censored maximum-likelihood mean: watched time over swipes),
/// starting from a prior worth two swipes at `prior` seconds.
package struct RetentionLearner: Sendable, Equatable {
    private var watched: Double
    private var swipes: Double

    package init(prior: Double) {
        watched = 2 * prior
        swipes = 2
    }

    /// The mean watch time, seconds.
    package var meanWatch: Double { watched / swipes }

    /// The user left a video after `seconds` of it; `finished` if they watched it to its end
    /// (which says only that they would have watched at least that long).
    package mutating func left(after seconds: Double, finished: Bool) {
        guard seconds.isFinite, seconds >= 0 else { return }
        watched += seconds
        if !finished { swipes += 1 }
    }
}
