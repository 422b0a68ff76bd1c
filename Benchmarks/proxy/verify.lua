-- wrk: like ranges.lua, and checks every body against the file's own bytes (found by the
-- offset in Content-Range), counting corrupt or short bodies and unexpected statuses.
-- Arguments after --: FILE_PATH FILE_SIZE [COUNT]
local offsets = dofile("Benchmarks/proxy/offsets.lua")
local ranges = {}
local expected = {}
local index = 0
local threads = {}
mismatches = 0
badStatuses = 0
checked = 0

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    local file = assert(io.open(args[1], "rb"))
    for i, offset in ipairs(offsets(tonumber(args[2]), tonumber(args[3] or "64"))) do
        ranges[i] = string.format("bytes=%d-%d", offset, offset + 65535)
        file:seek("set", offset)
        expected[offset] = file:read(65536)
    end
    file:close()
end

function request()
    index = index % #ranges + 1
    return wrk.format("GET", nil, { ["Range"] = ranges[index] })
end

function response(status, headers, body)
    checked = checked + 1
    if status ~= 206 then
        badStatuses = badStatuses + 1
        return
    end
    local range = headers["Content-Range"] or headers["content-range"] or ""
    local offset = tonumber(string.match(range, "^bytes (%d+)-"))
    if offset == nil or expected[offset] ~= body then mismatches = mismatches + 1 end
end

function done(summary, latency, requests)
    local totalChecked, totalMismatches, totalBad = 0, 0, 0
    for _, thread in ipairs(threads) do
        totalChecked = totalChecked + thread:get("checked")
        totalMismatches = totalMismatches + thread:get("mismatches")
        totalBad = totalBad + thread:get("badStatuses")
    end
    io.write(string.format("verified %d bodies: %d corrupt, %d unexpected statuses\n", totalChecked, totalMismatches, totalBad))
end
