package train

import "github.com/discspan/discspan/network"

// goldCell is one non-null target cell: kind 0, 1, 2 for cont, disc, gap,
// the cell x*n+y and its class.
type goldCell struct {
	kind  uint8
	cell  int32
	class int32
}

// example is a training sentence with its targets stored sparsely: the dense
// network.Targets of the Alpino training set take 70 MB (3 n² ints per
// sentence), its gold cells under 2 MB. Batches are expanded when used.
type example struct {
	input network.Input
	cells []goldCell
	tags  []int
	// soft holds the teacher's distributions (distillation), by kind then
	// cell; nil without a teacher.
	soft []softCell
}

// compact returns the sparse form of ex.
func compact(ex network.Example) example {
	e := example{input: ex.Input, tags: ex.Targets.Tags}
	for k, t := range [3][]int{ex.Targets.Cont, ex.Targets.Disc, ex.Targets.Gap} {
		for cell, class := range t {
			if class != 0 {
				e.cells = append(e.cells, goldCell{kind: uint8(k), cell: int32(cell), class: int32(class)})
			}
		}
	}
	return e
}

// dense returns the network.Example of e.
func (e *example) dense() network.Example {
	t := network.NewTargets(e.input.Len())
	t.Tags = e.tags
	for _, c := range e.cells {
		[3][]int{t.Cont, t.Disc, t.Gap}[c.kind][c.cell] = int(c.class)
	}
	return network.Example{Input: e.input, Targets: t}
}
