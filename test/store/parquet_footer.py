"""Reads the footer of Parquet files without any Parquet library, as an independent check of
pathlab's export: the PAR1 magic at both ends, then the Thrift compact-protocol FileMetaData
(parquet-format's parquet.thrift) for the row count, the top-level column names and the writer.

Usage: python3 parquet_footer.py FILE...   prints one JSON object per file, in order, as a list.
"""

import json
import struct
import sys

STOP, TRUE, FALSE, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT = range(13)


class Reader:
    def __init__(self, data):
        self.data = data
        self.position = 0

    def byte(self):
        value = self.data[self.position]
        self.position += 1
        return value

    def varint(self):
        shift = result = 0
        while True:
            byte = self.byte()
            result |= (byte & 0x7F) << shift
            if byte < 0x80:
                return result
            shift += 7

    def zigzag(self):
        value = self.varint()
        return (value >> 1) ^ -(value & 1)

    def value(self, kind):
        if kind in (TRUE, FALSE):
            return kind == TRUE
        if kind == BYTE:
            return struct.unpack("b", bytes([self.byte()]))[0]
        if kind in (I16, I32, I64):
            return self.zigzag()
        if kind == DOUBLE:
            self.position += 8
            return struct.unpack("<d", self.data[self.position - 8 : self.position])[0]
        if kind == BINARY:
            length = self.varint()
            self.position += length
            return self.data[self.position - length : self.position]
        if kind in (LIST, SET):
            header = self.byte()
            size, element = header >> 4, header & 0x0F
            if size == 15:
                size = self.varint()
            if element in (TRUE, FALSE):  # booleans in lists are one byte each
                return [self.byte() == 1 for _ in range(size)]
            return [self.value(element) for _ in range(size)]
        if kind == MAP:
            size = self.varint()
            if size == 0:
                return {}
            types = self.byte()
            return {self.value(types >> 4): self.value(types & 0x0F) for _ in range(size)}
        if kind == STRUCT:
            fields, last = {}, 0
            while True:
                header = self.byte()
                if header == STOP:
                    return fields
                delta, field_kind = header >> 4, header & 0x0F
                last = last + delta if delta else self.zigzag()
                fields[last] = self.value(field_kind)
        raise ValueError(f"unknown thrift compact type {kind} at byte {self.position}")


def top_level_names(schema):
    """Names of the root's children: schema elements are a depth-first list, 4 = name, 5 = children."""
    names, index = [], 1
    for _ in range(schema[0].get(5, 0)):
        names.append(schema[index][4].decode())
        pending = 1
        while pending:  # skip this child's subtree
            pending += schema[index].get(5, 0) - 1
            index += 1
    return names


def footer(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:4] != b"PAR1" or data[-4:] != b"PAR1":
        raise ValueError(f"{path}: no PAR1 magic at both ends")
    length = struct.unpack("<I", data[-8:-4])[0]
    metadata = Reader(data[-8 - length : -8]).value(STRUCT)
    return {
        "rows": metadata[3],
        "columns": top_level_names(metadata[2]),
        "createdBy": metadata.get(6, b"").decode(),
    }


if __name__ == "__main__":
    print(json.dumps([footer(path) for path in sys.argv[1:]]))
