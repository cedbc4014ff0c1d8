//go:build js || (cgo && ((linux && (amd64 || arm64)) || darwin || (windows && (amd64 || arm64))))

package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/discspan/discspan/network"
)

// TestRobustness makes lavapipe behave in the ways a hardware GPU may differ
// from it, and checks that the scores stay those of the CPU reference:
//
//   - poisoned buffers: the arena (but the char table) is filled with NaN
//     and the ints with garbage before scoring, so that a kernel reading an
//     element no kernel wrote (zero on a fresh buffer, stale data on a
//     reused one) shows up;
//   - poisoned workgroup memory: every workgroup array is filled with NaN
//     (u32: 0xfffffff0, bool: true) at entry, so that a read before the
//     write of a tile shows up (wgpu zero-initialises workgroup memory);
//   - reversed order: the local invocation ids and the workgroup ids are
//     reversed, so that code relying on the order in which a software
//     adapter runs invocations or workgroups (no barrier where one is
//     needed) shows up;
//   - bounds: every index into arena, ints and wts is checked against the
//     binding's size (ints: the chunk's tables), and the first
//     out-of-bounds site is reported: robust buffer access makes lavapipe
//     read zeros there, other drivers may not.
//
// Each for the micro model and for longInnerConfig's with its Linear
// products split over their inner dimension (the hardware plan's).
func TestRobustness(t *testing.T) {
	micro, long := randomModel(t, microConfig(), 3), randomModel(t, longInnerConfig(), 3)
	batches := []struct {
		name    string
		lengths []int
		split   bool // longInnerConfig's model, products split over their inner dimension
	}{
		{"steps", []int{3, 1, 7, 12, 2, 40, 5, 33, 9}, false},
		{"loop", []int{17}, false},
		{"steps, products split", []int{3, 1, 7, 12, 2, 40, 5, 33, 9}, true},
		{"loop, products split", []int{17}, true},
	}
	modes := []string{"poisoned buffers", "poisoned workgroup memory", "reversed order", "bounds"}
	for _, w := range []Weights{WeightsF32, WeightsF16} {
		for _, b := range batches {
			m := micro
			if b.split {
				m = long
			}
			c := m.Params.Config()
			ref := m
			if w == WeightsF16 {
				ref = &network.Model{Params: RoundFloat16(m.Params)}
			}
			for _, mode := range modes {
				t.Run(fmt.Sprintf("%s/%s/%s", w, b.name, mode), func(t *testing.T) {
					s := openScorer(t, m.Params, Options{Weights: w, NoShaderF16: true, TestSplitInner: b.split})
					batch := randomBatch(c, 5, b.lengths...)
					chunks := planChunks(batch, s.lay)
					if len(chunks) != 1 {
						t.Fatalf("%d chunks, want 1", len(chunks))
					}
					if split := splitProducts(s.lay, chunks, s.limits(), 1); (split > 0) != b.split {
						t.Fatalf("%d products split over their inner dimension, want some: %v", split, b.split)
					}
					var sites []string
					flag := s.lay.arena - 1 // out region, never read back for this chunk
					switch mode {
					case "poisoned buffers":
						poisonBuffers(t, s)
					case "poisoned workgroup memory":
						recompile(t, s, poisonWorkgroup)
					case "reversed order":
						recompile(t, s, reverseOrder)
					case "bounds":
						wlen := s.wms[0].total
						if w == WeightsF16 {
							wlen = (s.wms[0].total + 1) / 2 // u32 pairs
						}
						recompile(t, s, func(code string) string {
							return checkBounds(code, &sites, flag, len(chunks[0].ints), wlen)
						})
						poisonBuffers(t, s) // zero the flag (and poison the rest)
					}
					got, err := s.Score(batch)
					if err != nil {
						t.Fatal(err)
					}
					want, err := ref.ForwardBatch(batch)
					if err != nil {
						t.Fatal(err)
					}
					d := compare(t, got, want)
					tol := tolF32
					if w == WeightsF16 {
						tol = tolF16
					}
					if d.scores > tol || d.tags > tol || d.trees > 0 {
						t.Errorf("max abs diff scores %.3g, tags %.3g (tolerance %g); %d trees differ", d.scores, d.tags, tol, d.trees)
					}
					if mode == "bounds" {
						if v := readArenaAt(t, s, flag); v != 0 {
							t.Errorf("out-of-bounds index at site %v: %s", v, sites[int(v)-1])
						}
					}
				})
			}
		}
	}
}

// poisonBuffers fills the arena after the char table with quiet NaNs (a
// 0 at its last element: the bounds flag) and the ints with 0xee bytes.
func poisonBuffers(t *testing.T, s *Scorer) {
	t.Helper()
	from := s.lay.u
	n := s.lay.arena - from
	raw := make([]byte, 4*n)
	for i := range n - 1 {
		binary.LittleEndian.PutUint32(raw[4*i:], 0x7fc00000|uint32(i&0xffff))
	}
	if err := s.d.queue.WriteBuffer(s.arena, uint64(4*from), raw); err != nil {
		t.Fatal(err)
	}
	ints := make([]byte, 4*s.lay.ints)
	for i := range ints {
		ints[i] = 0xee
	}
	if err := s.d.queue.WriteBuffer(s.ints, 0, ints); err != nil {
		t.Fatal(err)
	}
}

// recompile rebuilds the pipelines from the kernels' sources rewritten by f.
func recompile(t *testing.T, s *Scorer, f func(string) string) {
	t.Helper()
	err := s.createPipelinesFrom(s.snippet, func(k kernel) (string, error) {
		code, _, err := kernelSource(k, s.snippet)
		return f(code), err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readArenaAt returns arena element i.
func readArenaAt(t *testing.T, s *Scorer, i int) float32 {
	t.Helper()
	enc, err := s.d.dev.CreateCommandEncoder(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Release()
	if err := enc.CopyBufferToBuffer(s.arena, uint64(4*i), s.staging, 0, 4); err != nil {
		t.Fatal(err)
	}
	cmd, err := enc.Finish(nil)
	if err != nil {
		t.Fatal(err)
	}
	s.d.queue.Submit(cmd)
	raw, err := s.d.readBuffer(s.staging, 4)
	if err != nil {
		t.Fatal(err)
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(raw))
}

var (
	workgroupVarRE = regexp.MustCompile(`var<workgroup>\s+(\w+)\s*:\s*array<(\w+(?:<\w+>)?),\s*(\d+)>;`)
	entryRE        = regexp.MustCompile(`@compute\s+@workgroup_size\((\d+),\s*(\d+),\s*(\d+)\)\s*fn\s+\w+\(([^{]*)\)\s*\{`)
)

// poisonWorkgroup makes every entry point of a kernel fill its workgroup
// arrays with garbage, then wait at a barrier, before its own code.
func poisonWorkgroup(code string) string {
	vars := workgroupVarRE.FindAllStringSubmatch(code, -1)
	return entryRE.ReplaceAllStringFunc(code, func(entry string) string {
		m := entryRE.FindStringSubmatch(entry)
		size := atoi(m[1]) * atoi(m[2]) * atoi(m[3])
		idx := "lid.x" // lstm_loop.wgsl: one-dimensional workgroup
		if strings.Contains(m[4], "local_invocation_index) li") {
			idx = "li"
		}
		var fill strings.Builder
		for _, v := range vars {
			val := "bitcast<f32>(0x7fc00000u | q)"
			switch v[2] {
			case "bool":
				val = "q < 0xffffffffu"
			case "u32":
				val = "0xfffffff0u | q"
			case "f32":
			default: // vecN<f32>
				val = v[2] + "(" + val + ")"
			}
			fmt.Fprintf(&fill, "for (var q = %s; q < %su; q += %du) { %s[q] = %s; }\n", idx, v[3], size, v[1], val)
		}
		return entry + "\n" + fill.String() + "workgroupBarrier();\n"
	})
}

// reverseOrder renames each entry point's local_invocation_id (and index)
// and workgroup_id parameters and redefines them reversed.
func reverseOrder(code string) string {
	return entryRE.ReplaceAllStringFunc(code, func(entry string) string {
		m := entryRE.FindStringSubmatch(entry)
		extra := ""
		if strings.Contains(entry, "local_invocation_id) lid") {
			entry = strings.Replace(entry, "local_invocation_id) lid", "local_invocation_id) lidR", 1)
			extra += fmt.Sprintf("let lid = vec3<u32>(%su, %su, %su) - vec3<u32>(1u) - lidR;\n", m[1], m[2], m[3])
		}
		if strings.Contains(entry, "local_invocation_index) li") {
			entry = strings.Replace(entry, "local_invocation_index) li", "local_invocation_index) liR", 1)
			extra += fmt.Sprintf("let li = lid.x + %su * (lid.y + %su * lid.z);\n", m[1], m[2])
		}
		if strings.Contains(entry, "workgroup_id) wid") && !strings.Contains(entry, "num_workgroups") {
			entry = strings.Replace(entry, "workgroup_id) wid: vec3<u32>", "workgroup_id) widR: vec3<u32>, @builtin(num_workgroups) nwgR: vec3<u32>", 1)
			extra += "let wid = nwgR - vec3<u32>(1u) - widR;\n"
		}
		return entry + "\n" + extra
	})
}

// checkBounds wraps every index into arena, ints and wts in a check against
// the given limits that records the site (its number + 1) in arena[flag].
func checkBounds(code string, sites *[]string, flag, ints, wts int) string {
	return wrapIndices(code, sites) + fmt.Sprintf(`
fn ck_arena(i: u32, s: u32) -> u32 { if (i >= %[1]du) { arena[%[1]du] = f32(s); return 0u; } return i; }
fn ck_ints(i: u32, s: u32) -> u32 { if (i >= %[2]du) { arena[%[1]du] = f32(s); return 0u; } return i; }
fn ck_wts(i: u32, s: u32) -> u32 { if (i >= %[3]du) { arena[%[1]du] = f32(s); return 0u; } return i; }
`, flag, ints, wts)
}

// wrapIndices rewrites name[expr] as name[ck_name(expr, site)] for the
// three buffers, innermost first.
func wrapIndices(src string, sites *[]string) string {
	var out strings.Builder
	for i := 0; i < len(src); {
		name := ""
		for _, a := range []string{"arena", "ints", "wts"} {
			if strings.HasPrefix(src[i:], a+"[") && (i == 0 || !isIdentByte(src[i-1])) {
				name = a
			}
		}
		if name == "" {
			out.WriteByte(src[i])
			i++
			continue
		}
		j, depth := i+len(name)+1, 1
		for ; depth > 0; j++ {
			switch src[j] {
			case '[':
				depth++
			case ']':
				depth--
			}
		}
		inner := src[i+len(name)+1 : j-1]
		*sites = append(*sites, name+"["+inner+"]")
		site := len(*sites)
		fmt.Fprintf(&out, "%s[ck_%s(%s, %du)]", name, name, wrapIndices(inner, sites), site)
		i = j
	}
	return out.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}
