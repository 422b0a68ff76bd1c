/// The origin's answer may not be stored (`UpstreamError.Code.notStorable`): the response is
/// relayed from the origin instead (``OriginRelay``), as when the store has no room.
struct AnswerNotStorable: Error {}
