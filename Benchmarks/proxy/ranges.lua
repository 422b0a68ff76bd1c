-- wrk: GETs 64 KiB ranges of one file, round robin over COUNT offsets spread across it.
-- Arguments after --: FILE_SIZE [COUNT]
local offsets = dofile("Benchmarks/proxy/offsets.lua")
local ranges = {}
local index = 0

function init(args)
    for i, offset in ipairs(offsets(tonumber(args[1]), tonumber(args[2] or "64"))) do
        ranges[i] = string.format("bytes=%d-%d", offset, offset + 65535)
    end
end

function request()
    index = index % #ranges + 1
    return wrk.format("GET", nil, { ["Range"] = ranges[index] })
end
