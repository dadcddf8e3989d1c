import ReelCore
/// Which `playback.previewSeconds.*` key limits an autoplaying card: how long it plays before it
/// counts as watched and play moves on.
public enum PreviewCategory: String, Sendable, Hashable, CaseIterable, Codable {
    case short
    case carousel

    /// The category a widget type's cards fall in by default; merch cards show no video.
    public init?(_ type: WidgetType) {
        switch type {
        case .short: self = .short
        case .carousel: self = .carousel
        case .merch: return nil
        }
    }
}
