/// A group of settings under one dotted prefix (`prefetch`, `playback.carousel`). Sections nest;
/// their `Setting` properties and sub-sections are found by reflection, so declaring a property
/// is all it takes to add a key.
public protocol ConfigSection: Codable, Sendable, Equatable {
    init()
}
