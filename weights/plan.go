package weights

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/discspan/discspan/network"
)

// scaleSuffix names the scale tensor of an int8 tensor.
const scaleSuffix = ".__scale"

// stored is one tensor as stored in the file.
type stored struct {
	name   string
	dtype  string // safetensors dtype
	shape  []int
	size   int64 // bytes
	encode func(dst []byte) []byte
}

// plan lists the stored tensors of the members in data-section order: member
// by member, the parameter tensors in network.Params order (named with
// memberPrefix); for Int8 and Int4, preceded by all their float32 scale tensors (in
// the same order), so that every tensor starts at an offset that is a
// multiple of its element size.
func plan(members []*network.Params, dt DType) ([]stored, error) {
	var scales, values []stored
	for k, p := range members {
		s, v, err := planMember(p, memberPrefix(k, len(members)), dt)
		if err != nil {
			return nil, err
		}
		scales, values = append(scales, s...), append(values, v...)
	}
	return append(scales, values...), nil
}

// memberPrefix is the prefix of the tensor names of member k of an ensemble
// of n: none for a single model, "member<k>." otherwise.
func memberPrefix(k, n int) string {
	if n == 1 {
		return ""
	}
	return "member" + strconv.Itoa(k) + "."
}

// planMember returns the scale and value tensors of one member.
func planMember(p *network.Params, prefix string, dt DType) (scales, values []stored, err error) {
	for _, t := range p.Tensors() {
		name := prefix + t.Name
		for i, v := range t.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, nil, fmt.Errorf("tensor %q element %d is %v", name, i, v)
			}
			if dt == Float16 && math.IsInf(float64(fromHalf(toHalf(v))), 0) {
				return nil, nil, fmt.Errorf("tensor %q element %d = %v overflows float16 (largest %d)", name, i, v, maxHalf)
			}
		}
		n := int64(len(t.Data))
		switch dt {
		case Float32:
			values = append(values, stored{name, "F32", t.Shape, 4 * n, func(dst []byte) []byte {
				for _, v := range t.Data {
					dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(v))
				}
				return dst
			}})
		case Float16:
			values = append(values, stored{name, "F16", t.Shape, 2 * n, func(dst []byte) []byte {
				for _, v := range t.Data {
					dst = binary.LittleEndian.AppendUint16(dst, toHalf(v))
				}
				return dst
			}})
		case Int8, Int4:
			plan := planInt8
			if dt == Int4 && int4Matrix(t.Shape) {
				plan = planInt4
			}
			s, v := plan(name, t)
			scales, values = append(scales, s), append(values, v)
		default:
			return nil, nil, fmt.Errorf("invalid dtype %v", dt)
		}
	}
	return scales, values, nil
}

// planInt8 returns the scale and value tensors of t stored as int8 (an
// Int4 file's vectors).
func planInt8(name string, t *network.Tensor) (scale, value stored) {
	r, c := rows(t.Shape)
	scale = scaleTensor(name, r, func() []float32 { return rowScales(t.Data, r, c) })
	value = stored{name, "I8", t.Shape, int64(len(t.Data)), func(dst []byte) []byte {
		s := rowScales(t.Data, r, c)
		for i, v := range t.Data {
			dst = append(dst, byte(quantize(v, s[i/max(c, 1)])))
		}
		return dst
	}}
	return scale, value
}

// planInt4 returns the scale and value tensors of a matrix t stored as
// int4 (see int4Shape, packInt4).
func planInt4(name string, t *network.Tensor) (scale, value stored) {
	r, c := rows(t.Shape)
	scale = scaleTensor(name, r, func() []float32 { return levelScales(t.Data, r, c, int4Levels) })
	shape := int4Shape(t.Shape)
	value = stored{name, "U8", shape, int64(shape[0] * shape[1]), func(dst []byte) []byte {
		return packInt4(dst, t.Data, levelScales(t.Data, r, c, int4Levels), r, c)
	}}
	return scale, value
}

// scaleTensor returns the float32 scale tensor (r rows) of the quantised
// tensor name, its values from scales.
func scaleTensor(name string, r int, scales func() []float32) stored {
	return stored{name + scaleSuffix, "F32", []int{r}, 4 * int64(r), func(dst []byte) []byte {
		for _, s := range scales() {
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(s))
		}
		return dst
	}}
}
