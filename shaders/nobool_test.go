package shaders

import (
	"regexp"
	"strings"
	"testing"
)

// The rule: no bool in workgroup, storage or uniform memory. An NVIDIA
// driver (580.159.04, H100 and H200, native Vulkan) computed the per-step
// LSTM kernel wrongly from step 1 on because of one
// `var<workgroup> running: array<bool, 16>`; lavapipe and SwiftShader ran
// it correctly, so no software-GPU test could catch it. WGSL forbids bool in
// host-shareable memory, but drivers differ in how they lay out bool in
// workgroup memory; u32 flags behave the same everywhere.

var (
	lineComment  = regexp.MustCompile(`//[^\n]*`)
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	// var<space[, access]> name : type ;
	sharedVar  = regexp.MustCompile(`var\s*<\s*(workgroup|storage|uniform)\s*(?:,[^>]*)?>\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^;=]+)`)
	structDecl = regexp.MustCompile(`(?s)struct\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{(.*?)\}`)
	identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
)

// boolInSharedMemory returns one message per variable of workgroup, storage
// or uniform memory whose type holds a bool, directly, in an array or in a
// struct (followed through nested structs).
func boolInSharedMemory(src string) []string {
	src = blockComment.ReplaceAllString(src, "")
	src = lineComment.ReplaceAllString(src, "")
	fields := map[string]string{} // struct name -> its body
	for _, m := range structDecl.FindAllStringSubmatch(src, -1) {
		fields[m[1]] = m[2]
	}
	var holdsBool func(typ string, seen map[string]bool) bool
	holdsBool = func(typ string, seen map[string]bool) bool {
		for _, id := range identifier.FindAllString(typ, -1) {
			if id == "bool" {
				return true
			}
			body, ok := fields[id]
			if !ok || seen[id] {
				continue
			}
			seen[id] = true
			for _, field := range strings.Split(body, ",") {
				if _, t, ok := strings.Cut(field, ":"); ok && holdsBool(t, seen) {
					return true
				}
			}
		}
		return false
	}
	var out []string
	for _, m := range sharedVar.FindAllStringSubmatch(src, -1) {
		if holdsBool(m[3], map[string]bool{}) {
			out = append(out, "var<"+m[1]+"> "+m[2]+": "+strings.TrimSpace(m[3]))
		}
	}
	return out
}

func TestNoBoolInSharedMemory(t *testing.T) {
	for _, name := range Names() {
		src, err := Source(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range boolInSharedMemory(src) {
			t.Errorf("%s: %s holds a bool: use u32 flags (0u/1u) in workgroup, storage and uniform memory; "+
				"an NVIDIA driver miscompiled a workgroup bool array in lstm.wgsl that software GPUs ran correctly", name, v)
		}
	}
}

// TestBoolDetector checks the detector itself on small sources, the
// kernel's old declaration among them.
func TestBoolDetector(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want int
	}{
		{"workgroup bool array (the NVIDIA bug)", "var<workgroup> running: array<bool, 16>;", 1},
		{"workgroup u32 flags", "var<workgroup> running: array<u32, 16>;", 0},
		{"storage struct with a bool field", "struct P { n: u32, done: bool }\n@group(0) @binding(3) var<uniform> p: P;", 1},
		{"nested struct", "struct In { b: bool }\nstruct Out { x: f32, i: In }\nvar<storage, read_write> o: array<Out>;", 1},
		{"private bool is allowed", "var<private> seen: bool;\nfn f() { var b: bool = true; }", 0},
		{"function bool parameter", "fn locate(r: u32, chars: bool) -> u32 { return r; }", 0},
		{"commented out", "// var<workgroup> running: array<bool, 16>;\n/* var<uniform> q: bool; */", 0},
		{"struct with bool used only in functions", "struct Seq { last: bool }\nvar<workgroup> n: array<u32, 4>;", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := boolInSharedMemory(tt.src)
			if len(got) != tt.want {
				t.Errorf("got %d findings %q, want %d", len(got), got, tt.want)
			}
		})
	}
}
