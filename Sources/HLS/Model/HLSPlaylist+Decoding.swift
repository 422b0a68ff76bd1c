/// Decoding of the offset records into strings and model values.
extension HLSPlaylist {
    /// The bytes of `span`, with variable references substituted when `substituting`.
    func substitutedBytes(_ span: ByteSpan) -> [UInt8] {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, span.count > 0 else { return [] }
            guard !storage.variables.isEmpty, VariableReferences.mayContainReference(base, span) else {
                return Array(UnsafeBufferPointer(start: base + span.lowerBound, count: span.count))
            }
            return storage.variables.substituting(span, in: base)
        }
    }

    func string(_ span: ByteSpan, substituting: Bool = true) -> String {
        guard span.count > 0 else { return "" }
        if substituting {
            return String(decoding: substitutedBytes(span), as: UTF8.self)
        }
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[span.lowerBound..<span.upperBound]), as: UTF8.self)
        }
    }

    func attribute(_ name: AttributeName, in record: TagRecord) -> AttributeRecord? {
        for index in record.attributes.indices where storage.attributes[index].knownName == name {
            return storage.attributes[index]
        }
        return nil
    }

    /// A quoted-string attribute's content, variables substituted.
    func quoted(_ record: TagRecord, _ name: AttributeName) -> String? {
        attribute(name, in: record).map { string($0.content) }
    }

    /// An enumerated-string (or any unsubstituted) attribute's value.
    func enumerated(_ record: TagRecord, _ name: AttributeName) -> String? {
        attribute(name, in: record).map { string($0.content, substituting: false) }
    }

    func integer(_ record: TagRecord, _ name: AttributeName) -> UInt64? {
        guard let item = attribute(name, in: record), !item.isQuoted else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { NumberSyntax.decimalInteger($0, item.value, readableEnd: buffer.count) }
        }
    }

    func decimal(_ record: TagRecord, _ name: AttributeName) -> HLSDecimal? {
        guard let item = attribute(name, in: record), !item.isQuoted else { return nil }
        return HLSDecimal(string(item.value, substituting: false))
    }

    func attributes(of record: TagRecord) -> [HLSAttribute] {
        record.attributes.indices.map { index in
            let item = storage.attributes[index]
            return HLSAttribute(name: string(item.name, substituting: false),
                                value: string(item.content, substituting: false), isQuoted: item.isQuoted)
        }
    }

    func key(_ record: TagRecord) -> HLSKey {
        HLSKey(method: enumerated(record, .method) ?? "", uri: quoted(record, .uri),
               iv: enumerated(record, .iv), keyFormat: quoted(record, .keyFormat),
               keyFormatVersions: quoted(record, .keyFormatVersions), attributes: attributes(of: record))
    }
}
