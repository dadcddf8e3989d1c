import Foundation
import ReelCore

/// Fills the `{@width}`, `{@height}` and `{@quality}` placeholders of a thumbnail URL template
/// for one request.
public enum ThumbnailTemplate {
    public static func url(_ template: String, width: Int, height: Int, quality: Int) -> String {
        guard template.contains("{@") else { return template }
        return template
            .replacingOccurrences(of: "{@width}", with: String(width))
            .replacingOccurrences(of: "{@height}", with: String(height))
            .replacingOccurrences(of: "{@quality}", with: String(quality))
    }
}
