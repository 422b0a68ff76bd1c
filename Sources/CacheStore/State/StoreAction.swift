import SparseFile

/// What a decision made under the store's lock leaves to do once the lock is released: file
/// I/O, and waking the tasks and threads it concerns.
enum StoreAction {
    /// Resume a reader waiting for bytes, with an error or without.
    case resume(Waiter, (any Error)?)
    /// Unlink an entry file the store no longer has, then end the activity on its name.
    case remove(fileName: String)
    /// Drop the store's reference to a file (closing it can be I/O).
    case release(SparseFile)
    /// Let threads waiting for a file name's I/O go on.
    case open(Gate)
}
