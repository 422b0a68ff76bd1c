import DASH

/// The JSON contract of `sparsecache dash parse --json`: field names and shapes are fixed;
/// absent values are null; with a base URL every BaseURL is absolute.
struct ManifestJSON {
    let manifest: DASHManifest
    let base: DASHAbsoluteURL?

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("type"); json.string(manifest.type.rawValue)
        json.key("profiles"); json.string(manifest.profiles)
        json.key("mediaPresentationDuration"); json.number(seconds(manifest.mediaPresentationDuration?.seconds))
        json.key("minimumUpdatePeriod"); json.number(seconds(manifest.minimumUpdatePeriod?.seconds))
        json.key("minBufferTime"); json.number(seconds(manifest.minBufferTime?.seconds))
        json.key("availabilityStartTime"); json.string(manifest.availabilityStartTime)
        json.key("baseURLs"); strings(manifest.baseURLs.map { resolved($0.url) }, to: &json)
        json.key("locations"); strings(manifest.locations, to: &json)
        json.key("patchLocations"); strings(manifest.patchLocations, to: &json)
        json.key("utcTimings")
        json.beginArray()
        for timing in manifest.utcTimings {
            json.beginObject()
            json.key("schemeIdUri"); json.string(timing.schemeIdURI)
            json.key("value"); json.string(timing.value)
            json.endObject()
        }
        json.endArray()
        json.key("periods")
        json.beginArray()
        for period in manifest.periods { write(period, to: &json) }
        json.endArray()
        json.key("remoteElements"); strings(manifest.remoteElements.map(\.name), to: &json)
        json.key("warnings")
        json.beginArray()
        for warning in manifest.warnings {
            json.beginObject()
            json.key("line"); json.number(UInt64(warning.position.line))
            json.key("column"); json.number(UInt64(warning.position.column))
            json.key("code"); json.string(warning.code.rawValue)
            json.key("message"); json.string(warning.message)
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    private func resolved(_ url: String) -> String { base?.resolve(url) ?? url }

    private func seconds(_ value: Double?) -> String? {
        guard let value, value.isFinite else { return nil }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private func strings(_ values: [String], to json: inout JSONWriter) {
        json.beginArray()
        for value in values { json.string(value) }
        json.endArray()
    }

    private func write(_ period: DASHPeriod, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(period.id)
        json.key("start"); json.number(seconds(period.startSeconds))
        json.key("duration"); json.number(seconds(period.durationSeconds))
        json.key("baseURLs"); strings(period.baseURLs.map(\.url), to: &json)
        json.key("adaptationSets")
        json.beginArray()
        for adaptationSet in period.adaptationSets {
            json.beginObject()
            json.key("id"); json.string(adaptationSet.id)
            json.key("contentType"); json.string(adaptationSet.contentType)
            json.key("mimeType"); json.string(adaptationSet.mimeType)
            json.key("lang"); json.string(adaptationSet.language)
            json.key("contentProtections"); strings(adaptationSet.contentProtections.compactMap(\.schemeIdURI), to: &json)
            json.key("representations")
            json.beginArray()
            for representation in adaptationSet.representations { write(representation, to: &json) }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.endObject()
    }

    private func write(_ representation: DASHRepresentation, to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(representation.id)
        json.key("bandwidth"); json.number(representation.bandwidth)
        json.key("width"); json.number(representation.width)
        json.key("height"); json.number(representation.height)
        json.key("codecs"); json.string(representation.codecs)
        json.key("mimeType"); json.string(representation.mimeType)
        json.key("baseURL"); json.string(base.map { representation.baseURL(manifestURL: $0).string })
        json.key("segmentInformation")
        switch representation.segmentInformation {
        case .template(let template):
            json.beginObject()
            json.key("kind"); json.string("template")
            json.key("media"); json.string(template.media)
            json.key("initialization"); json.string(template.initialization)
            json.key("timescale"); json.number(template.timescale)
            json.key("duration"); json.number(template.duration)
            json.key("startNumber"); json.number(template.startNumber)
            json.key("timelineEntries"); json.number(template.timeline.map { UInt64($0.entries.count) })
            json.endObject()
        case .list(let list):
            json.beginObject()
            json.key("kind"); json.string("list")
            json.key("timescale"); json.number(list.timescale)
            json.key("duration"); json.number(list.duration)
            json.key("segmentURLs"); json.number(UInt64(list.segmentURLs.count))
            json.endObject()
        case .base(let base):
            json.beginObject()
            json.key("kind"); json.string("base")
            json.key("indexRange"); json.string(base.indexRange?.description)
            json.key("initializationRange"); json.string(base.initialization?.range?.description)
            json.endObject()
        case nil:
            json.string(nil)
        }
        json.endObject()
    }
}
