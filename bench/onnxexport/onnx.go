package onnxexport

import (
	"encoding/binary"
	"math"
	"strconv"
)

// Field numbers of onnx.proto (ONNX IR), only those written here.
const (
	modelIRVersion     = 1
	modelProducerName  = 2
	modelDocString     = 6
	modelGraph         = 7
	modelOpsetImport   = 8
	opsetVersion       = 2
	graphNode          = 1
	graphName          = 2
	graphInitializer   = 5
	graphInput         = 11
	graphOutput        = 12
	nodeInput          = 1
	nodeOutput         = 2
	nodeName           = 3
	nodeOpType         = 4
	nodeAttribute      = 5
	attrName           = 1
	attrF              = 2
	attrI              = 3
	attrS              = 4
	attrInts           = 8
	attrType           = 20
	tensorDims         = 1
	tensorDataType     = 2
	tensorName         = 8
	tensorRawData      = 9
	valueInfoName      = 1
	valueInfoType      = 2
	typeTensorType     = 1
	tensorTypeElemType = 1
	tensorTypeShape    = 2
	shapeDim           = 1
	dimValue           = 1
	dimParam           = 2

	// AttributeProto.AttributeType
	attrTypeFloat  = 1
	attrTypeInt    = 2
	attrTypeString = 3
	attrTypeInts   = 7

	// TensorProto.DataType
	typeFloat = 1
	typeInt32 = 6
	typeInt64 = 7
)

// attr is an encoded AttributeProto.
type attr msg

func intAttr(name string, v int64) attr {
	return attr(msg(nil).str(attrName, name).int(attrType, attrTypeInt).int(attrI, v))
}

func floatAttr(name string, v float32) attr {
	return attr(msg(nil).str(attrName, name).int(attrType, attrTypeFloat).float(attrF, v))
}

func stringAttr(name, v string) attr {
	return attr(msg(nil).str(attrName, name).int(attrType, attrTypeString).str(attrS, v))
}

func intsAttr(name string, vs ...int64) attr {
	return attr(msg(nil).str(attrName, name).int(attrType, attrTypeInts).packedInts(attrInts, vs))
}

// graph builds a GraphProto: nodes in topological order (the order of the
// calls), initializers, inputs and outputs.
type graph struct {
	nodes, inits, inputs, outputs []msg
	seq                           int // names of intermediate values
}

// fresh returns a new value name with the given prefix.
func (g *graph) fresh(prefix string) string {
	g.seq++
	return prefix + "_" + strconv.Itoa(g.seq)
}

// floats adds a float32 initializer and returns its name.
func (g *graph) floats(name string, dims []int64, data []float32) string {
	raw := make([]byte, 0, 4*len(data))
	for _, v := range data {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	g.inits = append(g.inits, msg(nil).packedInts(tensorDims, dims).int(tensorDataType, typeFloat).str(tensorName, name).bytes(tensorRawData, raw))
	return name
}

// ints adds an int64 initializer of the given shape (a 1-D one when dims
// is nil) and returns its name.
func (g *graph) ints(dims []int64, data ...int64) string {
	if dims == nil {
		dims = []int64{int64(len(data))}
	}
	raw := make([]byte, 0, 8*len(data))
	for _, v := range data {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
	}
	name := g.fresh("const")
	g.inits = append(g.inits, msg(nil).packedInts(tensorDims, dims).int(tensorDataType, typeInt64).str(tensorName, name).bytes(tensorRawData, raw))
	return name
}

// scalar adds a float32 scalar initializer and returns its name.
func (g *graph) scalar(v float32) string { return g.floats(g.fresh("const"), []int64{}, []float32{v}) }

// op adds a node with the given inputs ("" for an omitted optional input)
// and one output, whose name it returns.
func (g *graph) op(opType string, inputs []string, attrs ...attr) string {
	return g.opN(opType, inputs, 1, attrs...)[0]
}

// opN adds a node with n outputs and returns their names.
func (g *graph) opN(opType string, inputs []string, n int, attrs ...attr) []string {
	outs := make([]string, n)
	for i := range outs {
		outs[i] = g.fresh(opType)
	}
	g.opNamed(opType, inputs, outs, attrs...)
	return outs
}

// opNamed adds a node whose outputs are named by the caller ("" for an
// omitted optional output).
func (g *graph) opNamed(opType string, inputs, outputs []string, attrs ...attr) {
	var m msg
	for _, in := range inputs {
		m = m.str(nodeInput, in)
	}
	for _, out := range outputs {
		m = m.str(nodeOutput, out)
	}
	m = m.str(nodeName, g.fresh("node_"+opType)).str(nodeOpType, opType)
	for _, a := range attrs {
		m = m.sub(nodeAttribute, msg(a))
	}
	g.nodes = append(g.nodes, m)
}

// valueInfo encodes a ValueInfoProto of a tensor; a dimension is a
// number (int) or a symbolic name (string).
func valueInfo(name string, elemType int64, dims ...any) msg {
	var shape msg
	for _, d := range dims {
		var dm msg
		switch d := d.(type) {
		case int:
			dm = dm.int(dimValue, int64(d))
		case string:
			dm = dm.str(dimParam, d)
		}
		shape = shape.sub(shapeDim, dm)
	}
	tt := msg(nil).int(tensorTypeElemType, elemType).sub(tensorTypeShape, shape)
	return msg(nil).str(valueInfoName, name).sub(valueInfoType, msg(nil).sub(typeTensorType, tt))
}

func (g *graph) input(name string, elemType int64, dims ...any) {
	g.inputs = append(g.inputs, valueInfo(name, elemType, dims...))
}

func (g *graph) output(name string, elemType int64, dims ...any) {
	g.outputs = append(g.outputs, valueInfo(name, elemType, dims...))
}

// model encodes the ModelProto of g (IR version 8, default-domain opset
// 17: ONNX Runtime 1.30 reads both).
func (g *graph) model(name, doc string) []byte {
	var gm msg
	for _, n := range g.nodes {
		gm = gm.sub(graphNode, n)
	}
	gm = gm.str(graphName, name)
	for _, t := range g.inits {
		gm = gm.sub(graphInitializer, t)
	}
	for _, v := range g.inputs {
		gm = gm.sub(graphInput, v)
	}
	for _, v := range g.outputs {
		gm = gm.sub(graphOutput, v)
	}
	m := msg(nil).int(modelIRVersion, 8).str(modelProducerName, "discspan onnxexport").str(modelDocString, doc)
	m = m.sub(modelGraph, gm)
	return m.sub(modelOpsetImport, msg(nil).int(opsetVersion, 17))
}
