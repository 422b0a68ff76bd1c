/// The store can take none of a response's bytes (a full disk, or everything pinned): the
/// response is relayed from the origin instead (``OriginRelay``), or, once started, passed
/// through (``EntryStreamer``).
struct StoreHasNoRoom: Error {}
