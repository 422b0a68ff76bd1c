-- wrk: GETs 64 KiB ranges of one file, round robin over COUNT offsets spread across it.
-- Arguments after --: FILE_SIZE [COUNT]
local offsets = dofile("Benchmarks/proxy/offsets.lua")
local ranges = {}
local index = 0

function init(args)
    for i, offset in ipairs(offsets(tonumber(args[1]), tonumber(args[2] or "64"))) do
        -- With the fields given to wrk (-H): a table given to wrk.format replaces them.
        local headers = {}
        for name, value in pairs(wrk.headers) do headers[name] = value end
        headers["Range"] = string.format("bytes=%d-%d", offset, offset + 65535)
        ranges[i] = headers
    end
end

function request()
    index = index % #ranges + 1
    return wrk.format("GET", nil, ranges[index])
end
