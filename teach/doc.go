// Package teach holds what the browser app's teaching mode shows: the twelve
// deduction rules of the chart decoders and the cubic algorithm's two as
// small diagrams, a chart stepper that replays a decoder item by item on a
// short sentence (n3 with the cubic algorithm's own items), a side-by-side
// view of what each variant can build, a gallery of classic discontinuities,
// and exercises whose trees can be shared as a link.
//
// Nothing here is on the parsing path: the stepper is a plain, slow
// implementation of the deduction systems written for display, tested
// against the production decoders of package decode.
package teach
