// Package oracle is the test oracle for the chart decoders of package
// decode: deliberately naive, independent searches that are meant to be
// obviously correct rather than fast. Use it for sentences of at most six or
// seven words.
//
// The code here is kept apart from the optimised decoders on purpose. An
// oracle that shares their chart layout, cell order, score accumulation or
// back-pointer code would share their bugs too, and a comparison between
// the two would then prove nothing. So this package imports from decode only
// the plain data types (Variant, Scores, Rule, Constituent) and rebuilds
// everything else from the specification (decoder.md) alone:
//
//   - BestDeduction evaluates the deduction system of a variant literally:
//     the rules are a declarative table copied from decoder.md (index patterns
//     and strict side conditions as written there), and every item is scored
//     by a memoised recursion that tries every index tuple in 0..n for the
//     free variables of every rule. No cell order, no split-point cleverness,
//     float64 throughout. Cost O(R n^7) time for R rules; n <= 7 is instant.
//   - BestTree does not look at derivations at all: it enumerates every tree
//     (laminar set of yields) of a variant's family and scores it. It exists
//     for the continuous and O(n^4)/O(n^3) variants, whose families have a
//     simple tree-level description (see BestTree); comparing it with
//     BestDeduction checks that description and the deduction engine against
//     each other.
//   - BestConstrainedDeduction and BestConstrainedTree are the two searches
//     restricted to the trees that satisfy decode.Constraints, read
//     literally (every requirement is a constituent with its label, no
//     forbidden yield is a labelled constituent). The deduction search
//     refines every item's best score by the set of requirements its
//     sub-derivation meets; the tree search filters whole trees. Neither
//     uses the decoder's argument that items crossing a requirement can be
//     dropped.
//   - InFamily checks that a decoded tree is one the variant can build, by a
//     derivation search in which the tree's constituents are the only
//     labelled items; TreeScore rescores a decoded tree from the tensors.
//
// The package is internal to decode so that nothing outside the decoder's
// own tests can come to depend on it.
package oracle
