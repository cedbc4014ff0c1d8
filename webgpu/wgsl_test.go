package webgpu

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/discspan/discspan/shaders"
)

// wgslField is a member of a WGSL struct with its layout.
type wgslField struct {
	name, typ    string
	offset, size int
}

var (
	structRE  = regexp.MustCompile(`(?s)struct\s+(\w+)\s*\{(.*?)\}`)
	memberRE  = regexp.MustCompile(`^\s*(\w+)\s*:\s*([\w<>, ]+?)\s*,?\s*$`)
	bindingRE = regexp.MustCompile(`@group\((\d+)\)\s*@binding\((\d+)\)\s*var<(\w+)(?:,\s*(\w+))?>\s*(\w+)\s*:\s*([^;]+);`)
	wgSizeRE  = regexp.MustCompile(`@workgroup_size\(([^)]*)\)`)
)

// wgslSizeAlign returns the size and alignment of a WGSL type in the
// uniform address space (scalars and vectors: the kernels use no others).
func wgslSizeAlign(typ string) (size, align int, err error) {
	switch typ {
	case "u32", "i32", "f32":
		return 4, 4, nil
	case "f16":
		return 2, 2, nil
	}
	if m := regexp.MustCompile(`^vec([234])<(\w+)>$`).FindStringSubmatch(typ); m != nil {
		n, _ := strconv.Atoi(m[1])
		es, _, err := wgslSizeAlign(m[2])
		if err != nil {
			return 0, 0, err
		}
		align = es * n
		if n == 3 {
			align = es * 4
		}
		return es * n, align, nil
	}
	return 0, 0, fmt.Errorf("unsupported WGSL type %q", typ)
}

// parseUniforms returns the structs of a WGSL source's uniform variables,
// with the offsets of their members (WGSL's layout rules) and their sizes.
func parseUniforms(src string) (map[string][]wgslField, map[string]int, error) {
	uniform := map[string]bool{}
	for _, b := range bindingRE.FindAllStringSubmatch(src, -1) {
		if b[3] == "uniform" {
			uniform[strings.TrimSpace(b[6])] = true
		}
	}
	fields, sizes := map[string][]wgslField{}, map[string]int{}
	for _, m := range structRE.FindAllStringSubmatch(stripComments(src), -1) {
		if !uniform[m[1]] {
			continue
		}
		off, maxAlign := 0, 1
		var fs []wgslField
		for _, line := range strings.Split(m[2], "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			mm := memberRE.FindStringSubmatch(line)
			if mm == nil {
				return nil, nil, fmt.Errorf("struct %s: cannot parse member %q", m[1], line)
			}
			size, align, err := wgslSizeAlign(mm[2])
			if err != nil {
				return nil, nil, fmt.Errorf("struct %s: %w", m[1], err)
			}
			off = (off + align - 1) / align * align
			fs = append(fs, wgslField{name: mm[1], typ: mm[2], offset: off, size: size})
			off += size
			maxAlign = max(maxAlign, align)
		}
		fields[m[1]] = fs
		sizes[m[1]] = (off + maxAlign - 1) / maxAlign * maxAlign
	}
	return fields, sizes, nil
}

func stripComments(src string) string {
	return regexp.MustCompile(`//[^\n]*`).ReplaceAllString(src, "")
}

// TestUniformLayouts checks every Go parameter struct against the WGSL
// struct of the same name: member names (case-insensitively), types,
// offsets and total size.
func TestUniformLayouts(t *testing.T) {
	goTypes := map[string]reflect.Type{
		"GatherParams":   reflect.TypeFor[gatherParams](),
		"MatmulParams":   reflect.TypeFor[matmulParams](),
		"LSTMParams":     reflect.TypeFor[lstmParams](),
		"PairParams":     reflect.TypeFor[pairParams](),
		"AssembleParams": reflect.TypeFor[assembleParams](),
	}
	kindOf := map[reflect.Kind]string{reflect.Uint32: "u32", reflect.Int32: "i32", reflect.Float32: "f32"}
	seen := map[string]bool{}
	for k := range numKernels {
		src, err := shaders.Source(kernelFiles[k])
		if err != nil {
			t.Fatal(err)
		}
		fields, sizes, err := parseUniforms(src)
		if err != nil {
			t.Fatalf("%s: %v", kernelFiles[k], err)
		}
		for name, wf := range fields {
			gt, ok := goTypes[name]
			if !ok {
				t.Errorf("%s: struct %s has no Go counterpart", kernelFiles[k], name)
				continue
			}
			seen[name] = true
			if gt.NumField() != len(wf) {
				t.Errorf("%s: %s has %d members, Go %s has %d fields", kernelFiles[k], name, len(wf), gt.Name(), gt.NumField())
				continue
			}
			for i, f := range wf {
				g := gt.Field(i)
				if !strings.EqualFold(g.Name, f.name) || kindOf[g.Type.Kind()] != f.typ || int(g.Offset) != f.offset || int(g.Type.Size()) != f.size {
					t.Errorf("%s: %s member %d is %s %s at offset %d (size %d); Go %s.%s is %s at offset %d (size %d)",
						kernelFiles[k], name, i, f.name, f.typ, f.offset, f.size, gt.Name(), g.Name, g.Type, g.Offset, g.Type.Size())
				}
			}
			if int(gt.Size()) != sizes[name] {
				t.Errorf("%s: %s is %d bytes, Go %s is %d", kernelFiles[k], name, sizes[name], gt.Name(), gt.Size())
			}
			if sizes[name] > uniformSlot {
				t.Errorf("%s: %s is %d bytes, more than a uniform slot (%d)", kernelFiles[k], name, sizes[name], uniformSlot)
			}
		}
	}
	for name := range goTypes {
		if !seen[name] {
			t.Errorf("Go struct for %s matches no WGSL struct", name)
		}
	}
}

// TestShaderHeaders checks that every WGSL file opens with a comment listing
// each binding it declares (group, binding, name, type, access), its
// workgroup size and a Go function of this package that dispatches it.
func TestShaderHeaders(t *testing.T) {
	var goSrc strings.Builder
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		goSrc.Write(b)
	}
	for _, name := range shaders.Names() {
		t.Run(name, func(t *testing.T) {
			src, err := shaders.Source(name)
			if err != nil {
				t.Fatal(err)
			}
			var header []string
			for _, line := range strings.Split(src, "\n") {
				if !strings.HasPrefix(line, "//") {
					break
				}
				header = append(header, strings.TrimSpace(strings.TrimPrefix(line, "//")))
			}
			if len(header) == 0 {
				t.Fatal("no opening comment")
			}
			text := strings.Join(header, "\n")
			for _, b := range bindingRE.FindAllStringSubmatch(src, -1) {
				access := b[3]
				if b[4] != "" {
					access += ", " + b[4]
				}
				want := fmt.Sprintf("group %s, binding %s, %s, %s, %s:", b[1], b[2], b[5], strings.TrimSpace(b[6]), access)
				if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
					t.Errorf("header does not list the binding %q", want)
				}
			}
			ws := regexp.MustCompile(`Workgroup size: ([^;\n]+)`).FindStringSubmatch(text)
			if ws == nil {
				t.Error("header gives no workgroup size")
			}
			// Every entry point's size (a file with several sizes names
			// each: "main 8 x 8 x 1, reduce 64 x 1 x 1").
			sizes := wgSizeRE.FindAllStringSubmatch(src, -1)
			for _, m := range sizes {
				dims := strings.Split(m[1], ",")
				for len(dims) < 3 {
					dims = append(dims, "1")
				}
				for i := range dims {
					dims[i] = strings.TrimSpace(dims[i])
				}
				want := strings.Join(dims, " x ")
				if ws != nil && (len(sizes) == 1 && strings.TrimSpace(ws[1]) != want || !strings.Contains(ws[1], want)) {
					t.Errorf("header workgroup size %q, @workgroup_size is %s", ws[1], want)
				}
			}
			db := regexp.MustCompile(`Dispatched by: (.*)`).FindStringSubmatch(text)
			if db == nil {
				t.Fatal("header names no dispatching function")
			}
			for _, fn := range regexp.MustCompile(`\(\*(\w+)\)\.(\w+)|webgpu\.(\w+)`).FindAllStringSubmatch(db[1], -1) {
				decl := "func " + fn[3] + "("
				if fn[1] != "" {
					decl = fmt.Sprintf("func (p *%s) %s(", fn[1], fn[2])
				}
				if !strings.Contains(goSrc.String(), decl) {
					t.Errorf("header names %s, not declared in package webgpu (%q)", fn[0], decl)
				}
			}
		})
	}
}
