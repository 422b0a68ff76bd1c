#!/usr/bin/env python3
"""Writes seeds/ for FuzzStoreIndex: index snapshots as IndexSnapshot.encoded() lays them out
(magic, varint record count, per record the key and file name length-prefixed and ten varints,
five counters, the access sequence), with a zero checksum: the target frames the body with the
right one itself."""
import os

def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)

def prefixed(text):
    data = text.encode()
    return varint(len(data)) + data

def optional(value):
    return 0 if value is None else value + 1

def record(key, name, disk, cached, length, access, sequence, pinned, expires, head, size, modified):
    out = prefixed(key) + prefixed(name)
    for value in (disk, cached, optional(length), access, sequence, 1 if pinned else 0,
                  optional(expires), optional(head), size, modified):
        out += varint(value)
    return out

def snapshot(records, counters=(0, 0, 0, 0, 0), sequence=0):
    out = b"SCINDEX1" + varint(len(records)) + b"".join(records)
    out += b"".join(varint(c) for c in counters) + varint(sequence)
    return out + bytes(8)

seeds = {
    "empty": snapshot([]),
    "one-entry": snapshot([record("https://cdn.example/a/seg1.ts", "ab/ab12cd.scf", 4 << 20, 1 << 20, 1 << 20,
                                  1764000000000, 1, False, None, None, 4 << 20 | 4096, 1764000000000123456)],
                          (3, 1, 1 << 20, 1 << 20, 0), 1),
    "three-entries-optionals": snapshot([
        record("k1", "00/00aa.scf", 0, 0, None, 0, 1, True, 1764000000000, None, 0, 0),
        record("k2", "01/01bb.scf", 8192, 100, 0, 5, 2, False, None, 65536, 8192, 7),
        record("key with ünïcode", "02/02cc.scf", 2**63, 2**62, 2**64 - 2, 2**64 - 1, 3, True, 2**64 - 2, 2**64 - 2, 2**64 - 1, 2**64 - 1),
    ], (2**64 - 1, 0, 5, 6, 7), 2**64 - 1),
    "long-key": snapshot([record("k" * 5000, "ff/ff.scf", 1, 1, 1, 1, 1, False, None, None, 1, 1)]),
}
folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")
os.makedirs(folder, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
