#!/usr/bin/env python3
"""Prints the architectures a CUDA fat binary holds, one line each: "sm_90" for machine code,
"compute_121" for PTX. Reads the container's headers (the layout nvcc's fatbinary writes: a 16-byte
header, then entries each with its kind, header size, padded payload size and architecture), so
that the check needs neither a device nor cuobjdump.
  fatbin_architectures.py match_kernel.fatbin"""
import struct
import sys

MAGIC = 0xBA55ED50
KINDS = {1: "compute_", 2: "sm_"}  # PTX, ELF


def architectures(data):
    magic, _version, header_size, body_size = struct.unpack_from("<IHHQ", data, 0)
    if magic != MAGIC:
        raise ValueError(f"not a fat binary (magic {magic:#x})")
    offset, end = header_size, header_size + body_size
    while offset < end:
        kind, _version, entry_header, padded = struct.unpack_from("<HHII", data, offset)
        arch = struct.unpack_from("<I", data, offset + 28)[0]
        if kind not in KINDS or entry_header == 0:
            raise ValueError(f"unknown entry kind {kind} at byte {offset}")
        yield KINDS[kind] + str(arch)
        offset += entry_header + padded


def main():
    with open(sys.argv[1], "rb") as handle:
        for name in architectures(handle.read()):
            print(name)


if __name__ == "__main__":
    main()
