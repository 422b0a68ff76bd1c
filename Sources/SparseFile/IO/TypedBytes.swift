// The standard library's `withUnsafe…Bytes` rethrow untyped errors; these keep typed throws.

extension Array where Element == UInt8 {
    @discardableResult
    func withBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(SparseFileError) -> Result
    ) throws(SparseFileError) -> Result {
        let result: Swift.Result<Result, SparseFileError> = withUnsafeBytes { bytes in
            Swift.Result { () throws(SparseFileError) in try body(bytes) }
        }
        return try result.get()
    }

    @discardableResult
    mutating func withMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) throws(SparseFileError) -> Result
    ) throws(SparseFileError) -> Result {
        let result: Swift.Result<Result, SparseFileError> = withUnsafeMutableBytes { bytes in
            Swift.Result { () throws(SparseFileError) in try body(bytes) }
        }
        return try result.get()
    }
}
