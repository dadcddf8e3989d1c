/// Writes one inline `<svg>` element by element: coordinates rounded to a tenth of a pixel,
/// every text escaped, hover text as `<title>` children.
struct SVGBuilder {
    private var output = ""

    mutating func open(width: Double, height: Double, label: String) {
        let w = ReportText.coordinate(width), h = ReportText.coordinate(height)
        output += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" role=\"img\" aria-label=\"\(ReportText.escape(label))\">\n"
    }

    mutating func close() -> String {
        output += "</svg>\n"
        return output
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, class name: String, title: String? = nil) {
        element("rect", "x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(width))\" height=\"\(c(height))\" class=\"\(name)\"", title: title)
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, class name: String, title: String? = nil) {
        element("line", "x1=\"\(c(x1))\" y1=\"\(c(y1))\" x2=\"\(c(x2))\" y2=\"\(c(y2))\" class=\"\(name)\"", title: title)
    }

    mutating func circle(x: Double, y: Double, radius: Double, class name: String, title: String? = nil) {
        element("circle", "cx=\"\(c(x))\" cy=\"\(c(y))\" r=\"\(c(radius))\" class=\"\(name)\"", title: title)
    }

    /// An "×" centred on (x, y).
    mutating func cross(x: Double, y: Double, size: Double, class name: String, title: String? = nil) {
        let d = "M\(c(x - size)) \(c(y - size))L\(c(x + size)) \(c(y + size))M\(c(x + size)) \(c(y - size))L\(c(x - size)) \(c(y + size))"
        element("path", "d=\"\(d)\" class=\"\(name)\"", title: title)
    }

    /// A closed shape through `points`.
    mutating func polygon(_ points: [(x: Double, y: Double)], class name: String, title: String? = nil) {
        let list = points.map { "\(c($0.x)),\(c($0.y))" }.joined(separator: " ")
        element("polygon", "points=\"\(list)\" class=\"\(name)\"", title: title)
    }

    mutating func text(_ text: String, x: Double, y: Double, anchor: String = "start", class name: String? = nil,
                       title: String? = nil) {
        var attributes = "x=\"\(c(x))\" y=\"\(c(y))\""
        if anchor != "start" { attributes += " text-anchor=\"\(anchor)\"" }
        if let name { attributes += " class=\"\(name)\"" }
        output += "<text \(attributes)>"
        if let title, title != text { output += "<title>\(ReportText.escape(title))</title>" }
        output += "\(ReportText.escape(text))</text>\n"
    }

    private mutating func element(_ name: String, _ attributes: String, title: String?) {
        if let title {
            output += "<\(name) \(attributes)><title>\(ReportText.escape(title))</title></\(name)>\n"
        } else {
            output += "<\(name) \(attributes)/>\n"
        }
    }

    private func c(_ value: Double) -> String { ReportText.coordinate(value) }
}
