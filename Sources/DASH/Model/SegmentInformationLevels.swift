/// The multiple-level inheritance of segment information (ISO/IEC 23009-1 section 5.3.9.1): a
/// Representation's `SegmentBase`, `SegmentList` or `SegmentTemplate` takes each attribute and
/// child element from the lowest of Representation, AdaptationSet and Period that has it.
struct SegmentInformationLevels {
    let document: XMLDocument
    /// Period, AdaptationSet, Representation: top to bottom.
    let levels: [Int32]

    init(document: XMLDocument, representation: Int32) {
        self.document = document
        var levels = [representation]
        var parent = document.elements[Int(representation)].parent
        while parent > 0, levels.count < 3 {
            levels.insert(parent, at: 0)
            parent = document.elements[Int(parent)].parent
        }
        self.levels = levels
    }

    /// Which of the three kinds applies: that of the lowest level holding any of them.
    var kind: ElementKind? {
        for level in levels.reversed() {
            if let child = document.firstSegmentInformation(of: level) { return document.elements[Int(child)].kind }
        }
        return nil
    }

    /// The elements of `kind` on each level, lowest level first.
    func elements(_ kind: ElementKind) -> [Int32] {
        levels.reversed().compactMap { document.firstChild(of: $0, kind: kind) }
    }

    /// The attribute `name` of the lowest `kind` element that has it.
    func attribute(_ name: StaticString, of kind: ElementKind) -> Int32? {
        for element in elements(kind) {
            if let attribute = document.attribute(name, of: element) { return attribute }
        }
        return nil
    }

    func value(_ name: StaticString, of kind: ElementKind) -> String? {
        attribute(name, of: kind).map { document.value(ofAttribute: $0) }
    }

    func unsigned(_ name: StaticString, of kind: ElementKind) -> UInt64? {
        value(name, of: kind).flatMap(XMLNumber.unsigned)
    }

    /// The child `child` of the lowest `kind` element that has one.
    func child(_ child: ElementKind, of kind: ElementKind) -> Int32? {
        for element in elements(kind) {
            if let found = document.firstChild(of: element, kind: child) { return found }
        }
        return nil
    }
}
