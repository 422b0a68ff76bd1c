import HLS

/// The JSON contract of `sparsecache hls parse --json`: field names and shapes are fixed;
/// absent values are null; with a base URL every URI is absolute.
struct PlaylistJSON {
    let playlist: HLSPlaylist
    let base: HLSBaseURL?

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("type"); json.string(playlist.kind.rawValue)
        json.key("version"); json.number(playlist.version)
        switch playlist.kind {
        case .media: writeMedia(to: &json)
        case .master: writeMaster(to: &json)
        }
        json.key("warnings")
        json.beginArray()
        for warning in playlist.warnings {
            json.beginObject()
            json.key("line"); json.number(UInt64(warning.line))
            json.key("code"); json.string(warning.code.rawValue)
            json.key("message"); json.string(warning.message)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    private func uri(_ uri: String?) -> String? {
        guard let uri else { return nil }
        return base?.resolve(uri) ?? uri
    }

    private func writeMedia(to json: inout JSONWriter) {
        json.key("targetDuration"); json.number(playlist.targetDuration)
        json.key("mediaSequence"); json.number(playlist.mediaSequence)
        json.key("discontinuitySequence"); json.number(playlist.discontinuitySequence)
        json.key("endList"); json.bool(playlist.endList)
        json.key("playlistType"); json.string(playlist.playlistType?.rawValue)
        json.key("iFramesOnly"); json.bool(playlist.iFramesOnly)
        json.key("segments")
        json.beginArray()
        for segment in playlist.segments {
            json.beginObject()
            json.key("uri"); json.string(uri(segment.uri))
            json.key("duration"); json.number(segment.duration.jsonText)
            json.key("title"); json.string(segment.title)
            json.key("byteRange"); writeByteRange(segment.byteRange, to: &json)
            json.key("discontinuity"); json.bool(segment.discontinuity)
            json.key("keys")
            json.beginArray()
            for key in segment.keys { writeKey(key, to: &json) }
            json.endArray()
            json.key("map")
            if let map = segment.map {
                json.beginObject()
                json.key("uri"); json.string(uri(map.uri))
                json.key("byteRange"); writeByteRange(map.byteRange, to: &json)
                json.endObject()
            } else {
                json.string(nil)
            }
            json.key("programDateTime"); json.string(segment.programDateTime)
            json.key("gap"); json.bool(segment.gap)
            json.endObject()
        }
        json.endArray()
        json.key("parts")
        json.beginArray()
        for part in playlist.parts {
            json.beginObject()
            json.key("uri"); json.string(uri(part.uri))
            json.key("duration"); json.number(part.duration.jsonText)
            json.key("byteRange"); writeByteRange(part.byteRange, to: &json)
            json.key("independent"); json.bool(part.independent)
            json.key("gap"); json.bool(part.gap)
            json.key("segment"); json.number(UInt64(part.segmentIndex))
            json.endObject()
        }
        json.endArray()
        json.key("preloadHints")
        json.beginArray()
        for hint in playlist.preloadHints {
            json.beginObject()
            json.key("type"); json.string(hint.type)
            json.key("uri"); json.string(uri(hint.uri))
            json.key("byteRangeStart"); json.number(hint.byteRangeStart)
            json.key("byteRangeLength"); json.number(hint.byteRangeLength)
            json.endObject()
        }
        json.endArray()
        json.key("renditionReports")
        json.beginArray()
        for report in playlist.renditionReports {
            json.beginObject()
            json.key("uri"); json.string(uri(report.uri))
            json.key("lastMSN"); json.number(report.lastMediaSequenceNumber)
            json.key("lastPart"); json.number(report.lastPart)
            json.endObject()
        }
        json.endArray()
    }

    private func writeMaster(to json: inout JSONWriter) {
        json.key("variants")
        json.beginArray()
        for variant in playlist.variants { writeVariant(variant, to: &json) }
        json.endArray()
        json.key("iFrameVariants")
        json.beginArray()
        for variant in playlist.iFrameVariants { writeVariant(variant, to: &json) }
        json.endArray()
        json.key("media")
        json.beginArray()
        for rendition in playlist.renditions {
            json.beginObject()
            json.key("type"); json.string(rendition.type)
            json.key("groupId"); json.string(rendition.groupID)
            json.key("name"); json.string(rendition.name)
            json.key("uri"); json.string(uri(rendition.uri))
            json.key("language"); json.string(rendition.language)
            json.key("default"); json.bool(rendition.isDefault)
            json.key("autoselect"); json.bool(rendition.autoselect)
            json.endObject()
        }
        json.endArray()
        json.key("sessionKeys")
        json.beginArray()
        for key in playlist.sessionKeys { writeKey(key, to: &json) }
        json.endArray()
        json.key("sessionData")
        json.beginArray()
        for data in playlist.sessionData {
            json.beginObject()
            json.key("dataId"); json.string(data.dataID)
            json.key("value"); json.string(data.value)
            json.key("uri"); json.string(uri(data.uri))
            json.key("language"); json.string(data.language)
            json.endObject()
        }
        json.endArray()
    }

    private func writeVariant(_ variant: HLSVariant, to json: inout JSONWriter) {
        json.beginObject()
        json.key("uri"); json.string(uri(variant.uri))
        json.key("bandwidth"); json.number(variant.bandwidth)
        json.key("averageBandwidth"); json.number(variant.averageBandwidth)
        json.key("codecs"); json.string(variant.codecs)
        json.key("resolution"); json.string(variant.resolution?.description)
        json.key("frameRate"); json.number(variant.frameRate?.jsonText)
        json.key("audio"); json.string(variant.audio)
        json.key("video"); json.string(variant.video)
        json.key("subtitles"); json.string(variant.subtitles)
        json.key("closedCaptions"); json.string(variant.closedCaptions)
        json.endObject()
    }

    private func writeKey(_ key: HLSKey, to json: inout JSONWriter) {
        json.beginObject()
        json.key("method"); json.string(key.method)
        json.key("uri"); json.string(uri(key.uri))
        json.key("iv"); json.string(key.iv)
        json.key("keyFormat"); json.string(key.keyFormat)
        json.endObject()
    }

    private func writeByteRange(_ range: HLSByteRange?, to json: inout JSONWriter) {
        guard let range else {
            json.string(nil)
            return
        }
        json.beginObject()
        json.key("length"); json.number(range.length)
        json.key("offset"); json.number(range.offset)
        json.endObject()
    }
}
