import OrderedCollections
import ReelCore

/// Reads typed fields out of page data for a mapper, failing with a message naming the widget and
/// the field.
struct PageDataReader {
    let widgetID: String
    let fields: [String: JSONValue]
    let path: String

    init(_ data: WidgetData) {
        self.widgetID = data.id
        self.fields = data.fields
        self.path = ""
    }

    private init(widgetID: String, fields: [String: JSONValue], path: String) {
        self.widgetID = widgetID
        self.fields = fields
        self.path = path
    }

    func failure(_ field: String, _ expected: String) -> ReelError {
        ReelError(.invalidInput, "widget '\(widgetID)': field '\(path)\(field)' must be \(expected)")
    }

    func string(_ field: String) throws -> String {
        guard let value = fields[field]?.string else { throw failure(field, "a string") }
        return value
    }

    func int(_ field: String) throws -> Int {
        guard case .int(let value)? = fields[field] else { throw failure(field, "an integer") }
        return value
    }

    func object(_ field: String) throws -> PageDataReader {
        guard let value = fields[field]?.object else { throw failure(field, "an object") }
        return PageDataReader(widgetID: widgetID, fields: Dictionary(uniqueKeysWithValues: value.map { ($0.key, $0.value) }), path: "\(path)\(field).")
    }

    func objects(_ field: String) throws -> [PageDataReader] {
        guard let values = fields[field]?.array else { throw failure(field, "an array") }
        return try values.enumerated().map { offset, value in
            guard let object = value.object else { throw failure("\(field)[\(offset)]", "an object") }
            return PageDataReader(widgetID: widgetID, fields: Dictionary(uniqueKeysWithValues: object.map { ($0.key, $0.value) }), path: "\(path)\(field)[\(offset)].")
        }
    }

    /// A video written by `Video.pageData`.
    func video() throws -> Video {
        let url = try string("url")
        guard !url.isEmpty else { throw failure("url", "a non-empty URL") }
        let ratioText = try string("aspectRatio")
        guard let ratio = AspectRatio(ratioText) else { throw failure("aspectRatio", "a ratio \"height:width\"") }
        return Video(catalogIndex: try int("catalogIndex"), lap: try int("lap"), url: url, aspectRatio: ratio, thumbnailTemplate: try string("thumbnail"))
    }
}

extension Video {
    /// The video as page data.
    var pageData: JSONValue {
        .object([
            "catalogIndex": .int(catalogIndex),
            "lap": .int(lap),
            "url": .string(url),
            "aspectRatio": .string(aspectRatio.description),
            "thumbnail": .string(thumbnailTemplate),
        ])
    }
}
