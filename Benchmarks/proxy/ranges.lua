-- wrk: GETs 64 KiB ranges of one file, round robin over COUNT offsets spread across it.
-- Arguments after --: FILE_SIZE [COUNT]
local ranges = {}
local index = 0

function init(args)
    local size = tonumber(args[1])
    local count = tonumber(args[2] or "64")
    for i = 1, count do
        local offset = math.floor((size - 65536) * (i - 1) / count) + (i * 4099) % 65536
        if offset + 65536 > size then offset = size - 65536 end
        ranges[i] = string.format("bytes=%d-%d", offset, offset + 65535)
    end
end

function request()
    index = index % #ranges + 1
    return wrk.format("GET", nil, { ["Range"] = ranges[index] })
end
