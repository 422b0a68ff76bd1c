-- wrk: checks every response against the file's own bytes, counting corrupt or short bodies
-- and unexpected statuses, so that a benchmark counts only right answers (a fast error or an
-- empty body would otherwise pass as throughput).
-- Arguments after --: FILE_PATH FILE_SIZE [COUNT [LENGTH]]
--                                                  ranges of LENGTH bytes (64 KiB), round robin
--                                                  over COUNT (64) offsets spread over the file,
--                                                  like ranges.lua; each must be a 206 with the
--                                                  bytes its Content-Range names
--                     FILE_PATH whole              GETs of the whole file; each must be a 200
--                                                  with all of its bytes
local offsets = dofile("Benchmarks/proxy/offsets.lua")
local ranges = {}
local expected = {}
local whole = nil
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
    if args[2] == "whole" then
        whole = file:read("*a")
    else
        local length = tonumber(args[4] or "65536")
        for i, offset in ipairs(offsets(tonumber(args[2]), tonumber(args[3] or "64"))) do
            ranges[i] = string.format("bytes=%d-%d", offset, offset + length - 1)
            file:seek("set", offset)
            expected[offset] = file:read(length)
        end
    end
    file:close()
end

function request()
    if whole then return wrk.format("GET", nil) end
    index = index % #ranges + 1
    return wrk.format("GET", nil, { ["Range"] = ranges[index] })
end

function response(status, headers, body)
    checked = checked + 1
    if whole then
        if status ~= 200 then
            badStatuses = badStatuses + 1
        elseif body ~= whole then
            mismatches = mismatches + 1
        end
        return
    end
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
