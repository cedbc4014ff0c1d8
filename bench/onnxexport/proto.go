package onnxexport

import (
	"encoding/binary"
	"math"
)

// A minimal protocol-buffers writer: just the wire types that onnx.proto's
// messages use here (varint, 64-bit is not needed, length-delimited and
// 32-bit floats), appending to a byte slice. Messages are built inside
// out: a sub-message is encoded first, then written as a length-delimited
// field of its parent.

// msg is an encoded protobuf message under construction.
type msg []byte

const (
	wireVarint = 0
	wireBytes  = 2
	wireFixed  = 5 // 32-bit
)

func (m msg) tag(field, wire int) msg {
	return binary.AppendUvarint(m, uint64(field)<<3|uint64(wire))
}

// int appends an integer field (int32, int64 or enum: two's complement as
// a varint, as protobuf encodes negative int64 values).
func (m msg) int(field int, v int64) msg {
	return binary.AppendUvarint(m.tag(field, wireVarint), uint64(v))
}

// bytes appends a length-delimited field (bytes, string or sub-message).
func (m msg) bytes(field int, b []byte) msg {
	m = binary.AppendUvarint(m.tag(field, wireBytes), uint64(len(b)))
	return append(m, b...)
}

func (m msg) str(field int, s string) msg { return m.bytes(field, []byte(s)) }

func (m msg) sub(field int, s msg) msg { return m.bytes(field, s) }

func (m msg) float(field int, f float32) msg {
	return binary.LittleEndian.AppendUint32(m.tag(field, wireFixed), math.Float32bits(f))
}

// packedInts appends a packed repeated integer field.
func (m msg) packedInts(field int, vs []int64) msg {
	var b []byte
	for _, v := range vs {
		b = binary.AppendUvarint(b, uint64(v))
	}
	return m.bytes(field, b)
}
