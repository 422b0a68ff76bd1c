-- The 64 KiB ranges both wrk scripts request: COUNT offsets spread across a file of SIZE bytes,
-- each nudged off block alignment. Loaded with dofile (wrk runs from the repository root).
return function(size, count)
    local offsets = {}
    for i = 1, count do
        local offset = math.floor((size - 65536) * (i - 1) / count) + (i * 4099) % 65536
        if offset + 65536 > size then offset = size - 65536 end
        offsets[i] = offset
    end
    return offsets
end
