/// EXT-X-DEFINE and `{$name}` variable references (the successor draft of RFC 8216, section 4.3).
///
/// A variable's value is expanded once, when it is defined, using only variables defined before
/// it, so definitions cannot loop. References are checked at parse time and substituted when a
/// string is decoded; each use counts toward ``HLSParserLimits/maximumSubstitutionBytes``, which
/// bounds the output of chains such as `b={$a}{$a}`, `c={$b}{$b}`, ...
extension PlaylistParser {
    mutating func parseDefine(_ value: ByteSpan) throws(HLSParseError) {
        let record = try parseAttributeList(value, tag: .define)
        try reportVersion(8, "EXT-X-DEFINE")
        let name = attribute(.name, in: record)
        let imported = attribute(.importName, in: record)
        let query = attribute(.queryParameter, in: record)
        let given = [name, imported, query].compactMap { $0 }
        guard given.count == 1, let source = given.first else {
            try report(.attribute, "EXT-X-DEFINE needs exactly one of NAME, IMPORT and QUERYPARAM")
            return
        }
        let variableName = try quotedString(source, tag: .define)
        guard !variableName.isEmpty, isVariableName(variableName) else {
            try report(.variable, "EXT-X-DEFINE: variable names are made of a-z, A-Z, 0-9, - and _")
            return
        }
        let nameBytes = Array(UnsafeBufferPointer(start: base + variableName.lowerBound, count: variableName.count))
        if variableIndex(named: variableName, before: Int32.max) != nil {
            try report(.variable, "EXT-X-DEFINE: variable \(text(variableName)) is defined twice")
            return
        }
        var valueBytes: [UInt8]
        switch source.knownName {
        case .importName:
            guard let importedValue = options.importedVariables[text(variableName)] else {
                try report(.variable, "EXT-X-DEFINE: IMPORT of \(text(variableName)), which the multivariant playlist did not define")
                return
            }
            valueBytes = Array(importedValue.utf8)
        case .queryParameter:
            guard let parameter = QueryParameter.value(named: nameBytes, in: options.playlistURL) else {
                try report(.variable, "EXT-X-DEFINE: QUERYPARAM \(text(variableName)) is not in the playlist URL's query")
                return
            }
            valueBytes = parameter
        default:
            guard let valueAttribute = attribute(.value, in: record) else {
                try report(.attribute, "EXT-X-DEFINE with NAME needs a VALUE attribute")
                return
            }
            let valueSpan = try quotedString(valueAttribute, tag: .define)
            valueBytes = storage.variables.substituting(valueSpan, in: base)
        }
        try checkCount(storage.variables.count, against: limits.maximumVariables, "variables")
        if valueBytes.count > limits.maximumSubstitutionBytes {
            throw limitExceeded("variable value longer than \(limits.maximumSubstitutionBytes) bytes")
        }
        storage.variables.append(VariableRecord(name: nameBytes, value: valueBytes, definedAt: value.start, tag: record))
    }

    @inline(__always)
    private func isVariableName(_ span: ByteSpan) -> Bool {
        for index in span.lowerBound..<span.upperBound where !ASCII.isVariableNameByte(base[index]) { return false }
        return true
    }

    /// The variable called `name` and defined before byte offset `position`.
    @inline(__always)
    func variableIndex(named name: ByteSpan, before position: Int32) -> Int? {
        storage.variables.index(named: name, before: position, in: base)
    }

    /// Checks the references in a URI line.
    mutating func checkVariableReferences(in span: ByteSpan) throws(HLSParseError) {
        var undefined: ByteSpan?
        var added = 0
        VariableReferences.forEach(in: base, span) { piece in
            guard case .reference(let name, _) = piece else { return }
            if let index = variableIndex(named: name, before: span.start) {
                added += storage.variables[index].value.count
            } else if undefined == nil {
                undefined = name
            }
        }
        substitutionBytes += added
        if substitutionBytes > limits.maximumSubstitutionBytes {
            throw limitExceeded("variable substitution would produce more than \(limits.maximumSubstitutionBytes) bytes")
        }
        if let undefined {
            try report(.variable, "reference to undefined variable \(text(undefined))")
        }
    }

    /// Checks the references in the quoted-string values of a tag.
    mutating func checkVariableReferences(in record: TagRecord) throws(HLSParseError) {
        for index in record.attributes.indices where attributes[index].isQuoted {
            try checkVariableReferences(in: attributes[index].content)
        }
    }
}
