#if canImport(FoundationXML)
import Foundation
import FoundationXML
import ReelCore
#endif

/// A small element tree built with Foundation's `XMLParser` (libxml2 underneath on Linux), so
/// the DASH parser can walk an MPD with inheritance. Names are local (namespace prefix dropped).
final class XMLTree {
    /// One element: local name, attributes, children in order, text content, source line.
    /// Attributes are a small array (at most `maxAttributes`, read by a scan): a dictionary per
    /// element cost twice the memory of a million-element MPD.
    final class Element {
        let name: String
        let attributes: [(name: String, value: String)]
        let line: Int
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [(name: String, value: String)], line: Int) {
            self.name = name
            self.attributes = attributes
            self.line = line
        }

        subscript(attribute: String) -> String? { attributes.first { $0.name == attribute }?.value }

        func children(named name: String) -> [Element] { children.filter { $0.name == name } }

        func first(_ name: String) -> Element? { children.first { $0.name == name } }

        /// Trimmed text content.
        var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Why a document could not be read: the line and the parser's reason.
    struct ParseFailure: Error {
        let line: Int
        let reason: String
    }

    /// Attributes of one element at most (namespace declarations included); MPD elements carry
    /// about twenty.
    static let maxAttributes = 100
    /// Nesting depth at most; MPDs nest about six deep, and a limit keeps the tree (and its
    /// release) shallow.
    static let maxDepth = 100

    let root: Element

    private init(root: Element) {
        self.root = root
    }

    /// Parses `data`; throws `ParseFailure` for XML that is not well-formed or has more than
    /// `maxElements` elements (counted before the tree is built). External entities are not
    /// resolved.
    static func parse(_ data: Data, maxElements: Int) throws -> XMLTree {
        try checkEncoding(data, maxElements: maxElements)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let builder = Builder(maxElements: maxElements)
        parser.delegate = builder
        let ok = parser.parse()
        if !ok || builder.failure != nil {
            if let failure = builder.failure { throw failure }
            let code = (parser.parserError as NSError?)?.code ?? -1
            if XMLParser.ErrorCode(rawValue: code) == .internalError, data.count > 10_000_000 {
                // libxml2 (without XML_PARSE_HUGE) gives up past XML_MAX_LOOKUP_LIMIT bytes read at once.
                throw ParseFailure(
                    line: parser.lineNumber,
                    reason: "the MPD is \(data.count) bytes; libxml2 reads at most 10,000,000 bytes of one document")
            }
            throw ParseFailure(
                line: parser.lineNumber, reason: "not well-formed XML: " + describe(code: code, error: parser.parserError))
        }
        if let open = builder.stack.last {
            throw ParseFailure(
                line: parser.lineNumber,
                reason: "not well-formed XML: the document ends inside <\(open.name)> opened on line \(open.line)")
        }
        guard let root = builder.root else { throw ParseFailure(line: 1, reason: "the document has no root element") }
        return XMLTree(root: root)
    }

    /// Accepts UTF-8 only (what MPDs use). Foundation's XMLParser on Linux runs libxml2 in
    /// recovery mode and force-unwraps names it cannot decode as UTF-8, so invalid bytes would
    /// crash the process instead of failing the parse.
    static func checkEncoding(_ data: Data, maxElements: Int) throws {
        let bytes = [UInt8](data)
        if let declaration = encodingDeclaration(bytes) {
            let name = declaration.uppercased()
            guard ["UTF-8", "UTF8", "US-ASCII", "ASCII", "ISO-8859-1", "LATIN1"].contains(name) else {
                throw ParseFailure(line: 1, reason: "the document declares encoding '\(declaration)'; Reel reads UTF-8 MPDs")
            }
        }
        try checkMarkup(bytes, maxElements: maxElements)
        if let offset = UTF8Text.firstInvalidOffset(bytes) {
            throw ParseFailure(line: UTF8Text.line(of: offset, in: bytes), reason: UTF8Text.describe(bytes, offset: offset))
        }
    }

    /// Refuses document type declarations and processing instructions (other than the leading
    /// XML declaration): MPDs have neither, and Foundation's callbacks for them pass C NULLs into
    /// non-optional pointers (a crash in `strlen`). Comments and CDATA are skipped. Also counts
    /// the start tags, refusing more than `maxElements` before libxml2 and the tree spend time
    /// and memory on them.
    static func checkMarkup(_ bytes: [UInt8], maxElements: Int) throws {
        func starts(_ literal: String, at index: Int) -> Bool {
            let pattern = Array(literal.utf8)
            return index + pattern.count <= bytes.count && bytes[index..<index + pattern.count].elementsEqual(pattern)
        }
        func skip(past terminator: String, from index: Int) -> Int {
            let pattern = Array(terminator.utf8)
            var cursor = index
            while cursor + pattern.count <= bytes.count {
                if bytes[cursor..<cursor + pattern.count].elementsEqual(pattern) { return cursor + pattern.count }
                cursor += 1
            }
            return bytes.count
        }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // The declaration is `<?xml` and a space; `<?xml-stylesheet ...?>` or `<?xmlfoo?>` is a
        // processing instruction like any other (found by the fuzz target: it crashed Foundation).
        if starts("<?xml", at: index), index + 5 < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index + 5]) {
            let end = skip(past: "?>", from: index)
            // A declaration holds no markup: a '<' before its '?>' means it never closed, and the
            // '?>' found is another instruction's, which libxml2 would still hand to Foundation
            // (found by the DASH fuzz target: `<?xml version="ion>...<?x?>`).
            if let open = bytes[(index + 2)..<end].firstIndex(of: UInt8(ascii: "<")) {
                throw ParseFailure(line: UTF8Text.line(of: open, in: bytes), reason: "not well-formed XML: the XML declaration is not closed before the next '<'")
            }
            index = end
        }
        var line = UTF8Text.line(of: index, in: bytes)
        var elements = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            guard byte == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if starts("<!--", at: index) || starts("<![CDATA[", at: index) {
                let end = skip(past: starts("<!--", at: index) ? "-->" : "]]>", from: index)
                line += bytes[index..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                index = end
                continue
            }
            if starts("<?", at: index) {
                throw ParseFailure(line: line, reason: "a processing instruction ('<?') is not allowed in an MPD")
            }
            if starts("<!", at: index) {
                throw ParseFailure(line: line, reason: "a document type declaration ('<!') is not allowed in an MPD")
            }
            if !starts("</", at: index) {
                elements += 1
                if elements > maxElements {
                    throw ParseFailure(line: line, reason: "more than \(maxElements) elements (manifest.maxXMLElements)")
                }
            }
            index = try skipTag(bytes, from: index, line: &line)
        }
    }

    /// Skips the tag opening at `start`, counting its lines and its attributes: libxml2 checks
    /// each attribute against all the earlier ones of its element, so its time grows with the
    /// square of their number; past `maxAttributes` the document is refused. A quote opens a value
    /// only after `=`, and a `<` inside a value is refused (XML forbids it), so a value can never
    /// hide markup from the checks above.
    private static func skipTag(_ bytes: [UInt8], from start: Int, line: inout Int) throws -> Int {
        let tagLine = line
        var index = start + 1
        var quote: UInt8?
        var afterEquals = false
        var attributes = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if quote != nil {
                    throw ParseFailure(line: line, reason: "not well-formed XML: '<' inside an attribute value")
                }
                return index  // The tag has no '>'; the markup that follows is checked as usual.
            }
            index += 1
            if byte == 0x0A { line += 1 }
            if let open = quote {
                if byte == open { quote = nil }
            } else if afterEquals, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                afterEquals = false
            } else if byte == UInt8(ascii: "=") {
                attributes += 1
                afterEquals = true
                if attributes > maxAttributes {
                    throw ParseFailure(line: tagLine, reason: "an element with more than \(maxAttributes) attributes")
                }
            } else if byte == UInt8(ascii: ">") {
                return index
            } else if !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) {
                afterEquals = false
            }
        }
        return index
    }

    /// The `encoding` of a leading `<?xml ... ?>` declaration.
    private static func encodingDeclaration(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(200), as: UTF8.self)
        guard head.hasPrefix("<?xml") || head.hasPrefix("\u{FEFF}<?xml"), let end = head.range(of: "?>"),
            let key = head.range(of: "encoding", range: head.startIndex..<end.lowerBound)
        else { return nil }
        let rest = head[key.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    private static func describe(code: Int, error: (any Error)?) -> String {
        switch XMLParser.ErrorCode(rawValue: code) {
        case .tagNameMismatchError?: return "a closing tag does not match the open element"
        case .prematureDocumentEndError?: return "the document ends inside an open element"
        case .notWellBalancedError?: return "elements are not closed in order"
        case .unfinishedTagError?: return "a tag is not finished"
        case .emptyDocumentError?: return "the document is empty"
        case .documentStartError?: return "no XML content at the start of the document"
        case .attributeNotStartedError?, .attributeNotFinishedError?, .attributeHasNoValueError?,
            .attributeRedefinedError?:
            return "an attribute is malformed"
        case .ltRequiredError?, .gtRequiredError?: return "a tag is malformed ('<' or '>' missing)"
        case .entityReferenceMissingSemiError?, .undeclaredEntityError?, .entityBoundaryError?:
            return "an entity reference is malformed"
        default:
            return "XML parse error \(code)" + (error.map { " (\($0.localizedDescription))" } ?? "")
        }
    }

    /// The `XMLParser` delegate that stacks elements as they open and close.
    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?
        var failure: ParseFailure?
        var elementCount = 0
        let maxElements: Int

        init(maxElements: Int) {
            self.maxElements = maxElements
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            elementCount += 1
            // Counted before parsing already; libxml2 agreeing is what keeps the tree bounded.
            if elementCount > maxElements {
                failure = ParseFailure(line: parser.lineNumber, reason: "more than \(maxElements) elements (manifest.maxXMLElements)")
                parser.abortParsing()
                return
            }
            if stack.count >= XMLTree.maxDepth {
                failure = ParseFailure(line: parser.lineNumber, reason: "elements nested more than \(XMLTree.maxDepth) deep")
                parser.abortParsing()
                return
            }
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let element = Element(
                name: local, attributes: attributeDict.map { (name: $0.key, value: $0.value) }, line: parser.lineNumber)
            if let parent = stack.last {
                parent.children.append(element)
            } else if root == nil {
                root = element
            }
            stack.append(element)
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
        ) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            let open = stack.popLast()
            guard let open, open.name == local else {
                // libxml2 as wrapped on Linux can report success for mismatched tags; check here.
                let expected = open.map { "<\($0.name)> opened on line \($0.line)" } ?? "no open element"
                failure = failure ?? ParseFailure(
                    line: parser.lineNumber,
                    reason: "not well-formed XML: closing tag </\(elementName)> does not match \(expected)")
                parser.abortParsing()
                return
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }
    }
}
