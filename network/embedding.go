package network

// embedding is a lookup table w of shape (rows, dim).
type embedding[T float] struct {
	w         []T
	rows, dim int
}

// forward returns the (len(ids), dim) matrix of the rows of ids. Cost
// O(len(ids)*dim).
func (e embedding[T]) forward(ids []int) []T {
	out := make([]T, len(ids)*e.dim)
	for i, id := range ids {
		copy(out[i*e.dim:(i+1)*e.dim], e.w[id*e.dim:(id+1)*e.dim])
	}
	return out
}

// backward adds dout (len(ids), dim) to the gradient rows g.w[ids]: a sparse
// update that touches only the rows looked up.
func (e embedding[T]) backward(ids []int, dout []T, g embedding[T]) {
	for i, id := range ids {
		row := g.w[id*e.dim : (id+1)*e.dim]
		for j, v := range dout[i*e.dim : (i+1)*e.dim] {
			row[j] += v
		}
	}
}
